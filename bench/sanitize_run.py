"""The workload of bench/sanitize.sh: run it with arle_ai built under AddressSanitizer and UBSan
(the script does that); any out-of-bounds access or undefined behaviour in the core aborts.

python bench/sanitize_run.py [--games N] [--searches N] [--forgeries N]

Random games (uniform and biased policies, invariants checked after every decision, plus the
C playout loops), short searches from positions along them, and damaged inputs: mutated
position dicts, forged pickles (recomputed digest) and bad action ids.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
import time

import arle_ai
from arle_ai.engine import _core
from arle_ai.engine.testing import biased_policy, check_invariants, play_random_game


def games(n: int) -> list[arle_ai.GameState]:
    """Play n random games with every check; return some positions along them."""
    positions = []
    for seed in range(n):
        policy = biased_policy if seed % 2 else None
        kept: list[arle_ai.GameState] = []
        rng = random.Random(seed)

        def keep(state: arle_ai.GameState, _action: int, kept: list = kept,
                 rng: random.Random = rng) -> None:
            if len(kept) < 4 and rng.random() < 0.05:
                kept.append(state.copy())

        if policy is None:
            play_random_game(seed, "first-game" if seed % 3 == 0 else "standard", check=True,
                             on_step=keep)
        else:
            play_random_game(seed, policy=policy, check=True, on_step=keep)
        positions.extend(kept)
        state = arle_ai.new_game(seed)
        _core.random_playouts(state, 3, seed)
        arle_ai.random_playout(state, seed=seed)
    return positions


def searches(positions: list[arle_ai.GameState], n: int) -> None:
    rng = random.Random(1)
    for k in range(n):
        state = rng.choice(positions)
        if state.is_terminal():
            continue
        search = arle_ai.MCTS(iterations=150, seed=k, leaf="rollout",
                              rollout=rng.choice(["heuristic", "random"]),
                              puct=bool(k % 2), horizon=rng.choice([-1, 1, 2]))
        result = search.search(state)
        assert state.is_legal(result.best_action)


def damaged_inputs(positions: list[arle_ai.GameState], n: int) -> None:
    rng = random.Random(2)
    for _ in range(n):
        state = rng.choice(positions)
        body = bytearray(state.raw_bytes())
        for _ in range(rng.randint(1, 3)):
            body[rng.randrange(len(body))] = rng.randrange(256)
        try:
            forged = _core.GameState._from_bytes(bytes(body) + _core._digest(bytes(body)))
        except ValueError:
            pass
        else:
            check_invariants(forged)
            if not forged.is_terminal():
                forged.apply(rng.choice(forged.legal_actions()))
        d = state.to_dict()
        spots = [("players", rng.randrange(2), "goods", rng.choice(list(d["players"][0]["goods"]))),
                 ("workers_placed",), ("half_year",), ("pending", 0, "player")]
        path = rng.choice(spots)
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = rng.choice([-1, 0, 1, 8, 9, 99, 999, 1000, 2**40, "x", None, [1]])
        try:
            loaded = arle_ai.GameState.from_dict(copy.deepcopy(d))
        except arle_ai.PositionError:
            pass
        else:
            check_invariants(loaded)
        for action in (rng.randrange(-5, 2000), rng.randrange(arle_ai.NUM_ACTIONS)):
            if not state.is_legal(action):
                try:
                    state.copy().apply(action)
                except arle_ai.IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"illegal action {action} applied")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--searches", type=int, default=60)
    parser.add_argument("--forgeries", type=int, default=3000)
    args = parser.parse_args(argv)
    print(f"arle_ai.engine._core from {_core.__file__}", flush=True)
    t0 = time.perf_counter()
    positions = games(args.games)
    print(f"{args.games} random games checked ({time.perf_counter() - t0:.0f} s)", flush=True)
    searches(positions, args.searches)
    print(f"{args.searches} searches ({time.perf_counter() - t0:.0f} s)", flush=True)
    damaged_inputs(positions, args.forgeries)
    print(f"{args.forgeries} forged pickles, damaged positions and bad ids "
          f"({time.perf_counter() - t0:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
