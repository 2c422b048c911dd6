"""Run a resumable seat-swapped match and print its summary plus each side's mean final VP:
python bench/match.py OUT.jsonl GAMES WORKERS SPEC_A SPEC_B (what `arle selfplay --out` plays,
usable from a source tree on PYTHONPATH without the console script)."""

from __future__ import annotations

import json
import statistics
import sys

from arle_ai.play.tournament import Tournament, format_summary, summarize


def mean_final_vp(out: str, specs: list[str]) -> dict[str, float]:
    """Each agent's mean final VP over the games in the results file."""
    vp: dict[str, list[float]] = {s: [] for s in specs}
    with open(out) as f:
        for line in f:
            game = json.loads(line)
            if game.get("format") != "arle-game-record" or "meta" not in game:
                continue
            for seat, name in enumerate(game["players"]):
                vp[name].append(game["meta"]["scores"][seat])
    return {s: statistics.mean(v) for s, v in vp.items() if v}


def main(argv: list[str]) -> int:
    out, games, workers, *specs = argv
    tournament = Tournament(specs, int(games), seed=0)
    results = tournament.run(workers=int(workers), out=out)
    print(format_summary(summarize(results, agents=specs)))
    for name, v in mean_final_vp(out, specs).items():
        print(f"mean final VP  {v:6.2f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
