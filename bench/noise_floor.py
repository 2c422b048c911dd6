"""How far two seeds' searches disagree on the value of the same move, against the binomial
standard error the noise tests use (:func:`arle_ai.text.reading.standard_error`): the share of
same-move pairs further apart than 1.96 standard errors of their difference, for a range of
floors added in quadrature to each standard error, and the smallest floor that brings the
share to 5% (what two standard errors are meant to cover): for the values the verdicts of
``arle analyze`` compare, and for every well-visited move of the first searches.

    python bench/noise_floor.py stability.jsonl [more.jsonl ...] [--min-share 0.01]

Reads the files ``bench/stability.py`` writes (with the root's moves, ``"moves"``;
docs/benchmarks-history.md, "Stability of verdicts").
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from arle_ai.text.reading import EXACT_VISITS, binomial_error  # noqa: E402

FLOORS = [0.0, 0.001, 0.0015, 0.002, 0.0025, 0.003, 0.0035, 0.004, 0.005, 0.006, 0.008]


def verdict_pairs(rows: list[dict]) -> list[tuple[float, int, float, int]]:
    """The values the verdicts compare, where both seeds have one for the same move: the
    most visited move's (when both seeds' searches visited the same move most) and the move
    played searched on from the position after it."""
    pairs = []
    for row in rows:
        a, b = row["seed0"], row["seed1"]
        if a["top"] == b["top"]:
            pairs.append((a["best_value"], a["best_visits"], b["best_value"], b["best_visits"]))
        searched_on = [s["played"] != s["top"] for s in (a, b)]
        if all(searched_on) and a["played_visits"] < EXACT_VISITS:
            pairs.append((a["played_value"], a["played_visits"], b["played_value"],
                          b["played_visits"]))
    return pairs


def same_move_pairs(rows: list[dict], min_share: float) -> list[tuple[float, int, float, int]]:
    """(value, visits) of one move in each seed's first search, for every move both visited
    at least ``min_share`` of their simulations."""
    pairs = []
    for row in rows:
        a, b = row["seed0"], row["seed1"]
        moves = [{text: (value, visits) for text, value, visits in s["moves"]} for s in (a, b)]
        for text, (value, visits) in moves[0].items():
            if text not in moves[1]:
                continue
            value1, visits1 = moves[1][text]
            if min(visits / a["sims"], visits1 / b["sims"]) >= min_share:
                pairs.append((value, visits, value1, visits1))
    return pairs


def share_beyond(pairs: list[tuple[float, int, float, int]], floor: float) -> float:
    """The share of pairs further apart than 1.96 standard errors (with ``floor``)."""
    def error(value: float, visits: int) -> float:
        return math.hypot(binomial_error(value, visits), floor)
    beyond = sum(abs(v0 - v1) > 1.96 * math.hypot(error(v0, n0), error(v1, n1))
                 for v0, n0, v1, n1 in pairs)
    return beyond / len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--min-share", type=float, default=0.01,
                        help="moves with at least this share of the root's simulations")
    args = parser.parse_args()
    rows = [json.loads(line) for f in args.files for line in Path(f).read_text().splitlines()]
    rows = [r for r in rows if "moves" in r["seed0"]]
    groups = [("the values the verdicts compare (the most visited move, the move played "
               "searched on)", verdict_pairs(rows)),
              (f"every move with at least {args.min_share:g} of both searches' simulations",
               same_move_pairs(rows, args.min_share))]
    for title, pairs in groups:
        if not pairs:
            sys.exit("no same-move pairs (files written by bench/stability.py with 'moves'?)")
        print(f"{title}: {len(pairs)} same-move pairs from {len(rows)} positions")
        fitted = None
        for floor in FLOORS:
            share = share_beyond(pairs, floor)
            print(f"  floor {floor:.4f}: {100 * share:5.1f}% beyond 1.96 standard errors")
            if fitted is None and share <= 0.05:
                fitted = floor
        print(f"  smallest floor with at most 5% beyond: {fitted}")

if __name__ == "__main__":
    main()
