"""Layer 4, the AI's search: the MCTS face of the core's tree (mcts), its root-parallel worker
pool (pool), the heuristic weights (heuristics) and the learned model's weights files (net)."""
