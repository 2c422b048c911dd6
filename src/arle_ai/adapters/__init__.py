"""Layer 6, other engines: the OpenSpiel game, the PettingZoo environment and the Ray backend for
tournaments and data runs (each an optional extra)."""
