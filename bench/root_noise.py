"""Which root exploration should self-play use? The policy targets and the moves of small
searches against a deep search (issue 25 item 2; docs/learning.md, "Root exploration").

Positions are drawn from seeded self-play games of the default search. Each is searched once
deeply (the reference: the default search's UCT with ``--reference`` iterations, its root
values Q_ref) and then, for each method and budget, with ``--seeds`` seeds from a fresh tree:

- ``puct``: PUCT with the priors, no noise; target = visit shares, move = most visited;
- ``dirichlet``: the same with Dirichlet noise at the root (SearchConfig defaults);
- ``gumbel``: Gumbel-Top-k with sequential halving; target = completed-Q policy, move = the
  halving's survivor.

Figures per method and budget (means over positions and seeds):

- ``target on best``: the target's probability of the reference's best move;
- ``target regret``: sum over moves of target(a) * (Q_ref(best) - Q_ref(a)), in value points
  (0..1; a move the reference never visited counts as its worst visited one) - what a policy
  trained on the target loses against the deep search;
- ``move = best``: the share of searches whose move is the reference's best;
- ``move regret``: Q_ref(best) - Q_ref(move).

Run (about 10 CPU minutes with the defaults)::

    python bench/root_noise.py --positions 60 --budgets 16 32 64 200 --seeds 2 --json out.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

import arle_ai
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.mcts import MCTS
from arle_ai.search.root import completed_q_policy, visit_policy

METHODS = ("puct", "dirichlet", "gumbel")


def positions(count: int, seed: int, iterations: int) -> list[arle_ai.GameState]:
    """`count` positions with at least 4 legal moves from self-play games of the default
    search (`iterations` a decision), spread over the games' decisions."""
    rng = random.Random(seed)
    out: list[arle_ai.GameState] = []
    game = 0
    while len(out) < count:
        s = arle_ai.new_game(seed=seed + game)
        search = MCTS(SearchConfig(seed=seed + game), Budget(iterations=iterations))
        while not s.is_terminal() and len(out) < count:
            legal = s.legal_actions()
            if len(legal) >= 4 and rng.random() < 0.08:
                out.append(s.copy())
            s.apply(legal[0] if len(legal) == 1 else search.search(s).best_action)
        game += 1
    return out


def search(state: arle_ai.GameState, method: str, budget: int, seed: int
           ) -> tuple[dict[int, float], int]:
    """(the target by action, the move) of one search of `method`."""
    config = SearchConfig(puct=True, seed=seed,
                          root_noise="none" if method == "puct" else method)
    mcts = MCTS(config, Budget(iterations=budget))
    result = mcts.search(state)
    moves = sorted(result.moves, key=lambda m: m.action)
    if method == "gumbel":
        priors = dict(mcts.evaluator.action_priors(state))
        target = completed_q_policy([m.visits for m in moves], [m.win_rate for m in moves],
                                    [priors[m.action] for m in moves])
    else:
        target = visit_policy([m.visits for m in moves])
    return {m.action: p for m, p in zip(moves, target, strict=True)}, result.best_action


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=60)
    ap.add_argument("--budgets", type=int, nargs="+", default=[16, 32, 64, 200])
    ap.add_argument("--seeds", type=int, default=2)
    ap.add_argument("--reference", type=int, default=20_000,
                    help="iterations of the reference search")
    ap.add_argument("--seed", type=int, default=4100)
    ap.add_argument("--json", default=None, help="write the figures here too")
    args = ap.parse_args()
    start = time.process_time()
    states = positions(args.positions, args.seed, 200)
    figures: dict[str, dict[int, dict[str, list[float]]]] = {
        m: {b: {"on_best": [], "target_regret": [], "hit": [], "move_regret": []}
            for b in args.budgets} for m in METHODS}
    for k, state in enumerate(states):
        ref = MCTS(SearchConfig(seed=k), Budget(iterations=args.reference)).search(state)
        q = {m.action: m.win_rate for m in ref.moves if m.visits > 0}
        worst = min(q.values())
        best = ref.best_action
        for method in METHODS:
            for budget in args.budgets:
                for r in range(args.seeds):
                    target, move = search(state, method, budget, 1000 * k + r)
                    f = figures[method][budget]
                    f["on_best"].append(target.get(best, 0.0))
                    f["target_regret"].append(sum(p * (q[best] - q.get(a, worst))
                                                  for a, p in target.items()))
                    f["hit"].append(float(move == best))
                    f["move_regret"].append(q[best] - q.get(move, worst))
    took = time.process_time() - start
    rows = []
    print(f"{len(states)} positions, {args.seeds} seeds each, reference {args.reference} "
          f"iterations; {took:.0f} CPU s")
    print(f"{'method':<10} {'budget':>6} {'target on best':>15} {'target regret':>14} "
          f"{'move = best':>12} {'move regret':>12}")
    for method in METHODS:
        for budget in args.budgets:
            f = figures[method][budget]
            row: dict[str, Any] = {"method": method, "budget": budget}
            for key in f:
                values = f[key]
                mean = statistics.fmean(values)
                se = statistics.stdev(values) / math.sqrt(len(values))
                row[key] = mean
                row[key + "_se"] = se
            rows.append(row)
            print(f"{method:<10} {budget:>6} {row['on_best']:>9.3f}+-{row['on_best_se']:.3f} "
                  f"{row['target_regret']:>8.4f}+-{row['target_regret_se']:.4f} "
                  f"{row['hit']:>6.3f}+-{row['hit_se']:.3f} "
                  f"{row['move_regret']:>6.4f}+-{row['move_regret_se']:.4f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"args": vars(args), "cpu_seconds": took, "rows": rows}, fh, indent=1)


if __name__ == "__main__":
    main()
