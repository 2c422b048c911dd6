"""Mutated position files: each is refused with a PositionError naming the field, or loads
into a position that passes the invariant checker and plays on without a crash."""

from __future__ import annotations

import copy
import random

import pytest

import arle_ai
from arle_ai.engine.testing import check_invariants


def reachable_dicts(seed: int) -> list[dict]:
    s = arle_ai.new_game(seed=seed)
    rng = random.Random(seed)
    out = []
    while not s.is_terminal():
        if rng.random() < 0.05:
            out.append(s.to_dict())
        s.apply(rng.choice(s.legal_actions()))
    return out


def leaves(d, path=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from leaves(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from leaves(v, path + (i,))
    else:
        yield path, d


def mutate(d: dict, rng: random.Random) -> dict:
    d = copy.deepcopy(d)
    spots = list(leaves(d))
    for _ in range(rng.randint(1, 3)):
        path, value = rng.choice(spots)
        target = d
        for k in path[:-1]:
            target = target[k]
        if isinstance(value, bool) or value is None:
            new = rng.choice([True, False, None, 0, 1, -1, 99])
        elif isinstance(value, int):
            new = value + rng.choice([-100, -3, -1, 1, 2, 5, 40, 127, 128, 10**6])
        elif isinstance(value, str):
            new = rng.choice(["", "x", value + "x", "summer", "winter"])
        else:
            new = value
        if rng.random() < 0.2:  # a value of the wrong JSON type
            new = rng.choice([[new], {"x": new}, str(new), 1.5, None, [[]], 10**40])
        target[path[-1]] = new
    return d


@pytest.mark.parametrize("seed", range(4))
def test_a_mutated_position_is_refused_or_sound(seed):
    rng = random.Random(seed)
    bases = reachable_dicts(seed + 1)
    accepted = 0
    for _ in range(1000):
        d = mutate(rng.choice(bases), rng)
        try:
            state = arle_ai.GameState.from_dict(d)
        except arle_ai.PositionError:
            continue
        accepted += 1
        check_invariants(state)
        for _ in range(20):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            check_invariants(state)
        arle_ai.random_playout(state, seed=1)
    assert accepted > 50  # the mutations are not all refused: the sound branch is exercised
