"""Search speed of this build against another build of arle-ai, in the same run.

    python bench/compare_builds.py /work/wt/old/.venv/bin/python [--rounds 5] [--json]

Each round runs, in a fresh subprocess of each interpreter and alternating which goes first,
5,000 iterations from the opening (fresh tree) of: the default search (since 2026-12-04 the
default leaf is the learned model after a short random rollout); the random rollout leaf (the
default of 9b40705..f20de45); heuristic rollouts (``rollout="heuristic"``, the default of
older builds; each build's own policy: this one compares 2 candidates per decision where
26a9462 compared 4); and the leaf replaced by a constant 0.5 ("null leaf": the tree code
alone; in a build without leaf evaluators the rollout function is replaced). Rates are per
CPU second; the report gives each build's median and the ratios of the medians.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

_PROBE = r"""
import json, time
import arle_ai
try:
    from arle_ai.search import mcts as m
except ImportError:  # a build from before the layer packages (9884162 and older)
    from arle_ai import mcts as m
state = arle_ai.new_game(0)
def rate(n, **kw):
    search = m.MCTS(iterations=n, seed=1, reuse=False, **kw)
    t = time.process_time()
    search.search(state)
    return n / (time.process_time() - t)
out = {"default": rate(5000)}
try:
    out["heuristic_rollout"] = rate(5000, leaf="rollout", rollout="heuristic")
    out["random_rollout"] = rate(5000, leaf="rollout", rollout="random")
except TypeError:  # a build without leaf= (its rollouts are picked by rollout= alone)
    out["heuristic_rollout"] = rate(5000, rollout="heuristic")
    out["random_rollout"] = rate(5000, rollout="random")
try:
    out["null_leaf"] = rate(50000, leaf="null")
except TypeError:  # a build without leaf evaluators: its rollout function is replaced
    m._core.rollout_value = lambda *args, **kw: (0.5, 0.0)
    out["null_leaf"] = rate(5000)
print(json.dumps(out))
"""


def _probe(python: str) -> dict[str, float]:
    # the other build isolated (-I): a PYTHONPATH meant for this build (a source tree) would
    # make it import this build's arle_ai and compare this build with itself
    isolated = [] if python == sys.executable else ["-I"]
    done = subprocess.run([python, *isolated, "-c", _PROBE], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print(__doc__)
        return 2
    other = argv[0]
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 5
    runs: dict[str, list[dict[str, float]]] = {"this": [], "other": []}
    for r in range(rounds):
        order = [("this", sys.executable), ("other", other)]
        for name, python in order if r % 2 == 0 else order[::-1]:
            runs[name].append(_probe(python))
        print(f"... round {r + 1}/{rounds}", file=sys.stderr)
    report = {}
    for key in ("default", "random_rollout", "heuristic_rollout", "null_leaf"):
        this = statistics.median(x[key] for x in runs["this"])
        that = statistics.median(x[key] for x in runs["other"])
        report[key] = {"this": this, "other": that, "ratio": this / that}
    if "--json" in argv:
        print(json.dumps({"report": report, "runs": runs}, indent=1))
    else:
        for key, v in report.items():
            print(f"{key:<17} this {v['this']:>12,.0f} it/s   other {v['other']:>10,.0f} it/s   "
                  f"ratio {v['ratio']:6.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
