"""Property tests: random legal play never reaches an impossible position (arle_ai.engine.testing's
invariants after every decision), bad actions are rejected without side effects, every game
ends after the ninth half-year, and random play reaches every action space, building, vehicle
kind and travel destination of the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import arle_ai
from arle_ai.base.errors import IllegalActionError
from arle_ai.engine import rules
from arle_ai.engine.testing import (
    InvariantError,
    action_family,
    biased_policy,
    check_illegal_rejected,
    check_invariants,
    game_states,
    legal_action,
    play_random_game,
    uniform_policy,
)

VARIANTS = ("standard", "first-game")
SLOW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------------------------
# invariants along random games
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(24))
@pytest.mark.parametrize("policy", [uniform_policy, biased_policy], ids=["uniform", "biased"])
def test_invariants_hold_after_every_decision(seed, policy):
    game = play_random_game(seed, VARIANTS[seed % 2], policy=policy, check=True)
    assert game.final.is_terminal()
    assert game.replay() == game.final


def test_game_states_spread_over_the_whole_game():
    """The strategy draws its number of decisions first: its positions come from every part
    of the game and its end, not mostly from the first half-year (a list of decisions of
    drawn length put 143 of 150 there and none at the end)."""
    seen: dict[str, int] = {"early": 0, "middle": 0, "late": 0, "ended": 0}

    @settings(max_examples=150, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(game_states(max_depth=260))
    def draw(state):
        if state.is_terminal():
            seen["ended"] += 1
        else:
            seen[("early", "middle", "late")[(state.half_year - 1) // 3]] += 1

    draw()
    assert sum(seen.values()) == 150
    assert min(seen.values()) >= 10, seen


@given(game_states(max_depth=260))
@SLOW
def test_reachable_positions_satisfy_the_invariants(state):
    check_invariants(state)


@given(st.data())
@SLOW
def test_applying_a_legal_action_keeps_the_invariants_and_is_deterministic(data):
    state = data.draw(game_states(max_depth=200))
    if state.is_terminal():
        return
    action = data.draw(legal_action(state))
    twin = state.copy()
    state.apply(action)
    twin.apply(action)
    assert state == twin
    check_invariants(state)


@given(game_states(max_depth=200), st.integers(-5, arle_ai.NUM_ACTIONS + 5))
@SLOW
def test_an_illegal_action_is_rejected_and_changes_nothing(state, action):
    if 0 <= action < arle_ai.NUM_ACTIONS and state.is_legal(action):
        return
    check_illegal_rejected(state, action)


@given(game_states(max_depth=150),
       st.sampled_from([1.5, "place", None, True, 2**40, -(2**40), 2**64, -(2**70)]))
@SLOW
def test_a_malformed_action_raises_and_changes_nothing(state, action):
    before = state.raw_bytes()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert not state.is_legal(action)
    assert state.raw_bytes() == before


@pytest.mark.parametrize("seed", range(40))
def test_a_game_runs_through_nine_half_years_in_order(seed):
    state = arle_ai.new_game(seed, VARIANTS[seed % 2])
    rng = random.Random(seed)
    seen = [state.half_year]
    while not state.is_terminal():
        state.apply(uniform_policy(state, rng))
        h = state.half_year
        assert h - seen[-1] in (0, 1)
        if h != seen[-1]:
            seen.append(h)
    assert seen == list(range(1, 10))
    assert state.season == "summer"          # half-year 9 is a summer
    scores = state.scores()
    w = state.winner()
    if scores[0] != scores[1]:
        assert w == (0 if scores[0] > scores[1] else 1)
    else:
        assert w in (0, 1, None)


@pytest.mark.parametrize("seed", range(10))
def test_random_playout_is_deterministic_and_leaves_the_state_alone(seed):
    state = arle_ai.new_game(seed)
    for a in play_random_game(seed).actions[:50]:
        state.apply(a)
    before = state.raw_bytes()
    first = arle_ai.random_playout(state, seed=seed)
    assert arle_ai.random_playout(state, seed=seed) == first
    assert state.raw_bytes() == before
    assert len(first) == 2


class _Doctored:
    """A state whose to_dict() is edited: how an engine bug would look to check_invariants."""

    def __init__(self, state: arle_ai.GameState, edit) -> None:
        self._state = state
        self._edit = edit

    def to_dict(self):
        d = self._state.to_dict()
        self._edit(d)
        return d

    def __getattr__(self, name):
        return getattr(self._state, name)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["players"][0]["goods"].update(food=-1), r"players\[0\].goods.food: negative"),
    (lambda d: d["players"][1]["goods"].update(grain=16), r"grain: 16 is over the cap of 15"),
    (lambda d: d["players"][1]["goods"].update(food=31), r"food: 31 is over the cap of 30"),
    (lambda d: d["players"][0]["tools"].update(ovens=9), r"tools.ovens: 9 is not a value"),
    (lambda d: d["players"][0]["animals"].update(sheep=-2), r"animals.sheep: negative"),
    (lambda d: d["occupied"].update({k: 0 for k in
                                      ("fisherman", "grocer", "wool_weaver", "colonist",
                                       "peat_cutter")}), r"player 0 has 5 workers out"),
    (lambda d: d["players"][0]["goods"].update(wood=7), r"round trip changes the state"),
])
def test_check_invariants_names_the_broken_invariant(edit, message):
    state = arle_ai.new_game(3)
    check_invariants(state)
    with pytest.raises(InvariantError, match=message):
        check_invariants(_Doctored(state, edit))


def test_play_random_game_reports_the_seed_of_a_violation(monkeypatch):
    import arle_ai.engine.testing as testing

    calls = {"n": 0}
    real = testing.check_invariants

    def flaky(state):
        calls["n"] += 1
        if calls["n"] == 5:
            raise InvariantError("goods.food: negative (-1)")
        real(state)

    monkeypatch.setattr(testing, "check_invariants", flaky)
    with pytest.raises(InvariantError, match=r"seed 7, variant standard, after decision 4"):
        testing.play_random_game(7, check=True)


# ---------------------------------------------------------------------------------------------
# coverage: random play reaches every part of the game
# ---------------------------------------------------------------------------------------------


def _observe(seen: dict[str, set[str]], state: arle_ai.GameState) -> None:
    d = state.to_dict()
    seen["space"].update(d["occupied"])
    for p in d["players"]:
        seen["building"].update(p["home"]["buildings"])
        if p["barn"]["plows"]:
            seen["vehicle"].add("plow")
        if p["barn"]["peat_boats"]:
            seen["vehicle"].add("peat_boat")
        seen["vehicle"].update(v["kind"] for v in p["barn"]["vehicles"])
        seen["destination"].update(p["travel"])
        seen["destination"].update(p["loaded"]["destinations"])


def _coverage(games: int, policy, start=None) -> dict[str, set[str]]:
    seen: dict[str, set[str]] = {k: set() for k in ("space", "building", "vehicle",
                                                    "destination")}
    for seed in range(games):
        s = (arle_ai.new_game(seed, VARIANTS[seed % 2]) if start is None
             else start(seed))
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply(policy(s, rng))
            _observe(seen, s)
    return seen


def _rich_start(seed: int) -> arle_ai.GameState:
    """A start with 6 timber, 6 brick and 20 food each: the red buildings (3 timber + 3 brick +
    15 food) are rarely affordable in random play, which spends what it gets."""
    d = arle_ai.new_game(seed, VARIANTS[seed % 2]).to_dict()
    for p in d["players"]:
        p["goods"].update(timber=6, brick=6, food=20)
    return arle_ai.GameState.from_dict(d)


def test_uniform_random_play_takes_all_30_action_spaces():
    seen = _coverage(300, uniform_policy)
    assert set(seen["space"]) == {a.key for a in rules.ACTION_SPACES}


def test_random_play_builds_every_building_and_uses_every_vehicle_and_destination():
    seen = _coverage(300, biased_policy)
    rich = _coverage(60, biased_policy, start=_rich_start)
    built = seen["building"] | rich["building"]
    assert sorted({b.key for b in rules.BUILDINGS} - built) == []
    assert sorted({v.key for v in rules.VEHICLES} - seen["vehicle"]) == []
    assert sorted({d.key for d in rules.DESTINATIONS} - seen["destination"]) == []


@pytest.mark.parametrize("seed", range(6))
def test_invariants_hold_in_games_from_a_rich_start(seed):
    play_random_game(seed, policy=biased_policy, check=True, start=_rich_start(seed))


def test_action_family_follows_the_layout():
    layout = arle_ai.ACTION_LAYOUT
    assert action_family(layout["build"]) == "build"
    assert action_family(layout["build"] - 1) == "tool"
    assert action_family(arle_ai.NUM_ACTIONS - 1) == "deliver"
    with pytest.raises(ValueError):
        action_family(arle_ai.NUM_ACTIONS)
