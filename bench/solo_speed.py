"""The solo game's engine speed against the two-player game's, in one run:

    python bench/solo_speed.py [--games 40] [--reps 9] [--json]

Issue 26 asks that a solo game copy, list legal actions and apply as fast as a two-player
game. Each figure is the median over --reps repetitions of CPU time (process_time), the
solo and two-player measurements taken alternately within each repetition, so load on the
machine slows both alike; the ratio is solo / two-player speed (1.00: the same, below 1:
solo slower).

- core copies: ``_core.copies`` (the struct copy the search makes per iteration), from the
  positions of the recorded games;
- core playouts: ``_core.random_playouts`` from the opening, decisions per CPU second (legal
  actions and apply in C, as the search's rollouts);
- Python ``copy()``, ``legal_actions()`` and ``apply(action)``: each call over every position
  of --games seeded random games of each kind (the same seeds), per call.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from arle_ai.engine import _core

KINDS = {"two-player": 2, "solo": 1}


def recorded_games(players: int, games: int) -> list[tuple[_core.GameState, list[int]]]:
    """`games` seeded random games: each start position and its actions."""
    out = []
    for g in range(games):
        start = _core.new_game(g, players=players)
        s, rng, actions = start.copy(), random.Random(g), []
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            s.apply(a)
            actions.append(a)
        out.append((start, actions))
    return out


def positions(games: list[tuple[_core.GameState, list[int]]]) -> list[_core.GameState]:
    """Every position the games passed through (before each action)."""
    out = []
    for start, actions in games:
        s = start.copy()
        for a in actions:
            out.append(s.copy())
            s.apply(a)
    return out


def _cpu(fn: Callable[[], Any]) -> float:
    t = time.process_time()
    fn()
    return time.process_time() - t


def _replay(games: list[tuple[_core.GameState, list[int]]]) -> None:
    for start, actions in games:
        s = start.copy()
        for a in actions:
            s.apply(a)


def _copy_all(states: list[_core.GameState]) -> None:
    for s in states:
        s.copy()


def _legal_all(states: list[_core.GameState]) -> None:
    for s in states:
        s.legal_actions()


def _core_copies(states: list[_core.GameState], per_state: int) -> None:
    for s in states:
        _core.copies(s, per_state)


def measure(games: int, reps: int) -> dict[str, Any]:
    """Median operations per CPU second of each kind, and the solo / two-player ratios."""
    recorded = {k: recorded_games(p, games) for k, p in KINDS.items()}
    states = {k: positions(v) for k, v in recorded.items()}
    applies = {k: sum(len(a) for _, a in v) for k, v in recorded.items()}
    openings = {k: _core.new_game(0, players=p) for k, p in KINDS.items()}
    playouts = 60
    decisions = {k: _core.random_playouts(openings[k], playouts, 1) * playouts for k in KINDS}
    per_state = 2000
    tests: dict[str, Callable[[str], tuple[Callable[[], Any], float]]] = {
        "core copies": lambda k: (lambda: _core_copies(states[k], per_state),
                                  len(states[k]) * per_state),
        "core playout decisions": lambda k: (lambda: _core.random_playouts(openings[k],
                                                                          playouts, 1),
                                             decisions[k]),
        "copy()": lambda k: (lambda: _copy_all(states[k]), len(states[k])),
        "legal_actions()": lambda k: (lambda: _legal_all(states[k]), len(states[k])),
        "apply()": lambda k: (lambda: _replay(recorded[k]), applies[k]),
    }
    rates: dict[str, dict[str, list[float]]] = {t: {k: [] for k in KINDS} for t in tests}
    for r in range(reps):
        for name, make in tests.items():
            order = list(KINDS) if r % 2 == 0 else list(reversed(KINDS))
            for k in order:
                fn, ops = make(k)
                rates[name][k].append(ops / max(_cpu(fn), 1e-9))
    figures: dict[str, Any] = {"games": games, "reps": reps,
                               "positions": {k: len(v) for k, v in states.items()}}
    for name in tests:
        two = statistics.median(rates[name]["two-player"])
        solo = statistics.median(rates[name]["solo"])
        figures[name] = {"two-player per s": two, "solo per s": solo, "ratio": solo / two}
    return figures


def main(argv: list[str]) -> int:
    games = int(argv[argv.index("--games") + 1]) if "--games" in argv else 40
    reps = int(argv[argv.index("--reps") + 1]) if "--reps" in argv else 9
    figures = measure(games, reps)
    if "--json" in argv:
        print(json.dumps(figures, indent=1))
        return 0
    print(f"{games} random games of each kind ({figures['positions']['two-player']:,} "
          f"two-player and {figures['positions']['solo']:,} solo positions), median of "
          f"{reps} repetitions, CPU time")
    print(f"{'operation':<26}{'two-player/s':>16}{'solo/s':>16}{'solo/two':>10}")
    for name, f in figures.items():
        if isinstance(f, dict) and "ratio" in f:
            print(f"{name:<26}{f['two-player per s']:>16,.0f}{f['solo per s']:>16,.0f}"
                  f"{f['ratio']:>10.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
