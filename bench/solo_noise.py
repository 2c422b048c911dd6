"""How far two seeds' searches of one solo position disagree on a move's mean score (VP),
against the standard error the solo verdicts use (:data:`arle_ai.text.reading.SCORE`): one
simulation's spread ``sd`` and a floor (the spread between two searches) added in quadrature.

    python bench/solo_noise.py GAMES.jsonl [--every K] [--positions N] [--seconds S]
                               [--out FILE]

GAMES.jsonl: solo games (``arle selfplay --players 1 --out``). Of every K-th decision with a
choice of every game, N positions drawn at random (seeded): the spread of one leaf's score
(200 heuristic rollouts of 2 half-years from the position, as the search values its leaves),
and two searches (seeds 0 and 1) of ``--seconds`` each, whose moves are paired. It prints the
rollouts' spread, then for each ``sd`` and floor the share of same-move pairs (both visited at
least 50 times) further apart than 1.96 standard errors of their difference, by visits, and
the smallest floor that brings the share to 5% (what two standard errors are meant to cover).
Writes one JSON line per position to FILE (resumable).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import arle_ai  # noqa: E402
from arle_ai.engine import _core  # noqa: E402
from arle_ai.formats.records import record_from_dict  # noqa: E402
from arle_ai.search.config import Budget, SearchConfig  # noqa: E402
from arle_ai.search.heuristics import DEFAULT_WEIGHTS  # noqa: E402
from arle_ai.search.mcts import MCTS  # noqa: E402

SDS = [4.0, 6.0, 8.0, 10.0, 12.0, 15.0]
FLOORS = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0]
BANDS = [(50, 1000), (1000, 10000), (10000, 10**9)]
MIN_VISITS = 50


def positions(path: Path, every: int, count: int) -> list[tuple[str, int, arle_ai.GameState]]:
    """(game, ply, position): ``count`` of every game's ``every``-th decisions with a choice,
    drawn at random (seed 0)."""
    per_game = []
    for line in path.read_text().splitlines():
        data = json.loads(line)
        if data.get("format") != "arle-game-record":
            continue
        rec = record_from_dict(data)
        states = list(rec.states())[:-1]
        chosen = [(f"{rec.players[0]}#{data['meta']['game']}", ply, s)
                  for ply, s in enumerate(states) if len(s.legal_actions()) > 1][::every]
        per_game.append(chosen)
    everyone = [p for g in per_game for p in g]
    return random.Random(0).sample(everyone, min(count, len(everyone)))


def measure(state: arle_ai.GameState, seconds: float) -> dict:
    weights = DEFAULT_WEIGHTS.as_array()
    leaves = [_core.rollout_value(state, weights, seed=i, heuristic=True, horizon=2)[1]
              for i in range(200)]
    searches = []
    for seed in (0, 1):
        r = MCTS(SearchConfig(seed=seed, reuse=False), Budget(seconds=seconds)).search(state)
        searches.append({m.move: (m.mean_margin, m.visits) for m in r.moves if m.visits})
    return {"half_year": state.half_year, "leaf_sd": statistics.stdev(leaves),
            "moves": searches}


def pairs(rows: list[dict]) -> list[tuple[float, int, float, int]]:
    out = []
    for row in rows:
        a, b = row["moves"]
        for move, (score, visits) in a.items():
            if move in b and min(visits, b[move][1]) >= MIN_VISITS:
                out.append((score, visits, *b[move]))
    return out


def beyond(pairs_: list, sd: float, floor: float) -> float:
    """The share of pairs further apart than 1.96 standard errors of their difference."""
    far = 0
    for x, n, y, m in pairs_:
        se = math.sqrt(sd * sd / n + sd * sd / m + 2 * floor * floor)
        far += abs(x - y) > 1.96 * se
    return far / max(1, len(pairs_))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=Path("solo-noise.jsonl"))
    args = parser.parse_args()
    done = {}
    if args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            done[(row["game"], row["ply"])] = row
    with args.out.open("a") as f:
        for game, ply, state in positions(args.games, args.every, args.positions):
            if (game, ply + 1) in done:
                continue
            row = {"game": game, "ply": ply + 1, **measure(state, args.seconds),
                   "load": os.getloadavg()[0]}
            done[(game, ply + 1)] = row
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"{game} ply {ply + 1} (half-year {row['half_year']}): leaf sd "
                  f"{row['leaf_sd']:.2f} VP, {len(row['moves'][0])} moves", flush=True)
    rows = list(done.values())
    sds = sorted(r["leaf_sd"] for r in rows)
    print(f"{len(rows)} positions; one leaf's score: sd median {statistics.median(sds):.2f}, "
          f"90th percentile {sds[int(0.9 * (len(sds) - 1))]:.2f}, max {sds[-1]:.2f} VP")
    ps = pairs(rows)
    print(f"{len(ps)} same-move pairs (both at least {MIN_VISITS} visits); share beyond 1.96 "
          f"standard errors, all pairs / by the fewer visits {BANDS}:")
    for sd in SDS:
        cells = []
        for floor in FLOORS:
            bands = [beyond([p for p in ps if lo <= min(p[1], p[3]) < hi], sd, floor)
                     for lo, hi in BANDS]
            cells.append(f"{floor:g}: {100 * beyond(ps, sd, floor):.1f}% "
                         f"({'/'.join(f'{100 * b:.0f}' for b in bands)})")
        first = next((fl for fl in FLOORS if beyond(ps, sd, fl) <= 0.05), None)
        print(f"  sd {sd:g} VP: " + ", ".join(cells) + f"; 5% from floor {first}")
    one, five, _ = os.getloadavg()
    print(f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
