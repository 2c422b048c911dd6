"""What each leaf evaluation costs a search iteration, from the opening, in one run:

    python bench/leaf_costs.py [--iterations 5000] [--reps 5]

For each leaf (rollouts of either policy at several horizons, the static evaluation, the
learned value model, none) it prints the median search iterations per CPU second over fresh
trees and the leaf's share of an iteration: the cost of an iteration less that of the null
leaf's (the tree code alone, measured in the same run). The tree a leaf grows has its own
shape (with every leaf at 0.5 the null leaf's spreads wide), so the share of a leaf that
costs less than the tree's spread can come out near zero or below it.
"""

from __future__ import annotations

import sys
from typing import Any

from arle_ai.engine import _core
from arle_ai.play.benchmark import _search_rate

LEAVES: list[tuple[str, dict[str, Any]]] = [
    ("rollout random, horizon 1", dict(leaf="rollout", rollout="random", horizon=1)),
    ("rollout random, horizon 2 (default)", dict(leaf="rollout", rollout="random", horizon=2)),
    ("rollout random, horizon 3", dict(leaf="rollout", rollout="random", horizon=3)),
    ("rollout random, to the end", dict(leaf="rollout", rollout="random", horizon=-1)),
    ("rollout heuristic, horizon 1", dict(leaf="rollout", rollout="heuristic", horizon=1)),
    ("rollout heuristic, horizon 2", dict(leaf="rollout", rollout="heuristic", horizon=2)),
    ("rollout heuristic, to the end", dict(leaf="rollout", rollout="heuristic", horizon=-1)),
    ("static evaluation", dict(leaf="static")),
    ("value net", dict(leaf="net", net_horizon=None)),
]


def main(argv: list[str]) -> int:
    iterations = int(argv[argv.index("--iterations") + 1]) if "--iterations" in argv else 5000
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 5
    opening = _core.new_game(0)
    null = _search_rate(opening, iterations * 10, reps, leaf="null")
    print(f"{'leaf':<38}{'iterations/s':>14}{'leaf us':>10}")
    print(f"{'null (tree code alone)':<38}{null:>14,.0f}{0.0:>10.2f}")
    for name, options in LEAVES:
        # rollouts to the end cost a whole game: fewer iterations keep the run short
        n = iterations // 5 if options.get("horizon") == -1 else iterations
        rate = _search_rate(opening, n, reps, **options)
        print(f"{name:<38}{rate:>14,.0f}{1e6 / rate - 1e6 / null:>10.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
