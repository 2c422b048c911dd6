"""Impossible positions are refused (issue 14, item 3, and forged pickles of item 7): every frame
of the decision stack is checked, the engine's bounds are the validator's, and every state
reached by play from an accepted position round-trips and passes check_invariants."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import arle_ai
from arle_ai.base.errors import PositionError
from arle_ai.engine import _core
from arle_ai.engine.testing import check_invariants
from tests.helpers import L

CUT_BOARDWALK = L["cut"]


def play_to_the_end(state: arle_ai.GameState, seed: int, limit: int = 3000) -> int:
    """Random play to the end with check_invariants (which includes the JSON round trip)
    after every decision; returns the decisions taken."""
    rng = random.Random(seed)
    check_invariants(state)
    steps = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        check_invariants(state)
        steps += 1
        assert steps < limit, "no end"
    return steps


def reachable_dicts(seed: int, rate: float = 0.06) -> list[dict]:
    """Positions of a random game: every one with a deep stack, and some others."""
    state = arle_ai.new_game(seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        d = state.to_dict()
        if len(d["pending"]) > 1 or rng.random() < rate:
            out.append(d)
        state.apply(rng.choice(state.legal_actions()))
    return out


def test_a_doubled_stack_is_refused():
    d = arle_ai.new_game(0).to_dict()
    d["pending"] = d["pending"] * 2
    with pytest.raises(PositionError, match=r"pending\[1\]: a turn frame can only be the bottom"):
        arle_ai.GameState.from_dict(d)


def test_every_frame_is_checked_not_only_the_bottom_one():
    deep = next(d for d in reachable_dicts(5) if len(d["pending"]) >= 2)
    for i in range(1, len(deep["pending"])):
        d = copy.deepcopy(deep)
        d["pending"][i]["player"] = 1 - d["pending"][i]["player"]
        with pytest.raises(PositionError, match=rf"pending\[{i}\]"):
            arle_ai.GameState.from_dict(d)


def test_a_compartment_listed_twice_is_refused():
    d = arle_ai.new_game(0).to_dict()
    p = d["players"][0]
    p["barn"]["vehicles"] = [{"kind": "handcart", "used": [0, 0]}]
    p["loaded"]["wood"] = 2
    with pytest.raises(PositionError, match="compartment 0 listed twice"):
        arle_ai.GameState.from_dict(d)


def test_goods_at_the_bound_stay_at_the_bound():
    # 999 peat was accepted and cutting made 1,000, which from_json refused
    d = arle_ai.new_game(0).to_dict()
    d["players"][d["start_player"]]["goods"]["peat"] = 999
    state = arle_ai.GameState.from_dict(d)
    state.apply(L["place"] + _core.SPACE_KEYS.index("peat_cutter"))
    while CUT_BOARDWALK in state.legal_actions():
        state.apply(CUT_BOARDWALK)
        check_invariants(state)
    assert state.to_dict()["players"][d["start_player"]]["goods"]["peat"] == 999
    play_to_the_end(state, 1)


def test_bottlenecks_at_the_bound_stay_at_the_bound():
    d = arle_ai.new_game(0).to_dict()
    for p in d["players"]:
        p["bottlenecks"] = 60
        p["goods"] = {"food": 0, "grain": 0, "wood": 0, "peat": 0}
        p["animals"] = {"horse": 0}
    state = arle_ai.GameState.from_dict(d)
    play_to_the_end(state, 2)
    assert [p["bottlenecks"] for p in state.to_dict()["players"]] == [60, 60]


def _mutate_stack(d: dict, pool: list[dict], rng: random.Random) -> dict:
    d = copy.deepcopy(d)
    pending = d["pending"]
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(6)
        if op == 0:
            i = rng.randrange(len(pending))
            pending.insert(i, copy.deepcopy(pending[i]))
        elif op == 1 and len(pending) > 1:
            del pending[rng.randrange(len(pending))]
        elif op == 2:
            frame = copy.deepcopy(rng.choice(rng.choice(pool)["pending"]))
            pending.insert(rng.randrange(len(pending) + 1), frame)
        elif op == 3 and len(pending) > 1:
            i, j = rng.sample(range(len(pending)), 2)
            pending[i], pending[j] = pending[j], pending[i]
        elif op == 4:
            frame = rng.choice(pending)
            key = rng.choice(["a", "b", "c", "d", "m", "player"])
            if key == "player":
                frame[key] = rng.choice([0, 1])
            elif key == "a" and "step" in frame:
                frame["step"] = rng.choice(_core.SPACE_KEYS + _core.SUB_FRAMES)
            elif key == "m":
                frame[key] = rng.choice([0, 1, 3, 31, 0x7FFF])
            else:
                frame[key] = rng.choice([0, 1, 2, 3, 4, 8, 12, 14, 16, 22, 24, 30, 40, 51, 52])
        else:
            player = rng.choice(d["players"])
            good = rng.choice(list(player["goods"]))
            player["goods"][good] = rng.choice([0, 15, 30, 998, 999])
            d["workers_placed"] = rng.randint(0, 8)
    return d


@pytest.mark.parametrize("seed", range(3))
def test_every_state_reached_from_an_accepted_position_round_trips(seed):
    """The property of issue 14: hand-made stacks (frames doubled, dropped, swapped, taken
    from other positions, fields changed) are refused, or every state played from them
    round-trips through JSON and passes check_invariants, to the end of the game."""
    rng = random.Random(seed)
    pool = [d for b in range(6) for d in reachable_dicts(100 * seed + b)]
    accepted = 0
    for trial in range(250):
        d = _mutate_stack(rng.choice(pool), pool, rng)
        try:
            state = arle_ai.GameState.from_dict(d)
        except PositionError:
            continue
        accepted += 1
        play_to_the_end(state, trial)
    assert accepted > 20  # the sound branch is exercised


# ---- forged pickles (a recomputed digest) ----


def _forge(body: bytes) -> bytes:
    return body + _core._digest(body)


def test_a_sound_state_survives_pickling():
    state = arle_ai.new_game(3)
    rng = random.Random(3)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.raw_bytes() == state.raw_bytes()


@pytest.mark.parametrize("seed", range(3))
def test_forged_pickles_are_refused_or_sound(seed):
    rng = random.Random(seed)
    bases = [arle_ai.new_game(seed)]
    state = bases[0].copy()
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        if rng.random() < 0.1:
            bases.append(state.copy())
    size = len(bases[0].raw_bytes())
    accepted = 0
    for _ in range(1500):
        body = bytearray(rng.choice(bases).raw_bytes())
        for _ in range(rng.randint(1, 3)):
            body[rng.randrange(size)] = rng.choice([0, 1, 2, 0x7F, 0x80, 0xFB, 0xFF,
                                                    rng.randrange(256)])
        try:
            forged = _core.GameState._from_bytes(_forge(bytes(body)))
        except ValueError:
            continue
        accepted += 1
        check_invariants(forged)
        for _ in range(10):
            if forged.is_terminal():
                break
            forged.apply(rng.choice(forged.legal_actions()))
            check_invariants(forged)
    assert accepted > 0  # changes past the compared bytes (the RNG tail) are harmless


def test_every_single_forged_byte_is_refused_or_sound():
    """Each byte of a mid-game struct set to values that index out of range (-5, 38, 127):
    refused, or (the RNG tail, a count still in range) a sound position."""
    state = arle_ai.new_game(0)
    rng = random.Random(0)
    for _ in range(40):
        state.apply(rng.choice(state.legal_actions()))
    body = state.raw_bytes()
    refused = 0
    for i in range(len(body)):
        for value in (0xFB, 38, 0x7F):
            forged = bytearray(body)
            forged[i] = value
            try:
                got = _core.GameState._from_bytes(_forge(bytes(forged)))
            except ValueError:
                refused += 1
                continue
            check_invariants(got)
    assert refused > len(body)
