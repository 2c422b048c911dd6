"""The solo game (core.md 1.4, 7.2-7.4, 8.7; docs/rules-decisions.md S1-S8): the two-player
game without the opponent. Each reading the reference leaves open is a switch in rules.py;
the last tests flip each one and see the engine follow."""

from __future__ import annotations

import copy
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import arle_ai
from arle_ai.base.errors import PositionError
from arle_ai.engine import _core, rules
from helpers import PASS, SPACES, animal, make, place

SUMMER = SPACES[:15]
WINTER = SPACES[15:]


def _solo(seed: int = 0) -> arle_ai.GameState:
    return arle_ai.new_game(seed, players=1)


def _placeable(state: arle_ai.GameState) -> set[str]:
    lo = arle_ai.ACTION_LAYOUT["place"]
    return {SPACES[a - lo] for a in state.legal_actions() if lo <= a < lo + 30}


def _feature(state: arle_ai.GameState, name: str) -> float:
    return float(state.features()[_core.FEATURE_NAMES.index(name)])


def _solo_position(half_year: int = 1, workers_placed: int = 0, **player: Any) -> dict[str, Any]:
    """The solo start position of seed 0 at `half_year`, its player's sections updated."""
    d = _solo(0).to_dict()
    d.update(half_year=half_year, workers_placed=workers_placed, occupied={},
             special_action_by=None)
    d.pop("season")
    d.pop("pending")
    for section, values in player.items():
        d["players"][0][section].update(values)
    return d


@contextmanager
def patched_rules(**changes: Any) -> Iterator[None]:
    """The engine reading a copy of arle_ai.engine.rules with `changes`, restored afterwards."""
    patched = types.ModuleType("patched_rules")
    patched.__dict__.update(vars(rules))
    patched.__dict__.update(changes)
    _core._reload_tables(patched)
    try:
        yield
    finally:
        _core._reload_tables()


# ---- set-up (S1) --------------------------------------------------------------------------

def test_solo_setup_is_one_two_player_home_board_and_the_same_buildings():
    for seed in (0, 1, 7):
        solo, two = _solo(seed), arle_ai.new_game(seed)
        d, d2 = solo.to_dict(), two.to_dict()
        assert solo.players == 1 and two.players == 2
        assert d["setup"] == dict(d2["setup"], players=1)
        assert d["buildings_on_board"] == d2["buildings_on_board"]
        assert d["players"] == [d2["players"][0]]
        assert (d["half_year"], d["start_player"], d["workers_placed"]) == (1, 0, 0)
        assert d["special_action_by"] is None and d["occupied"] == {}
    p = _solo(0).to_dict()["players"][0]
    assert {g: n for g, n in p["goods"].items() if n} == {
        "food": 5, "grain": 1, "flax": 3, "wool": 4, "hide": 2, "wood": 4, "clay": 4, "peat": 3}
    assert p["animals"] == {"sheep": 0, "cattle": 0, "horse": 1}
    home = p["home"]
    assert (home["hydrated_moors"], home["boardwalk_peat"], home["grain_fields"],
            home["flax_fields"], home["stalls"], home["dikes"]) == (3, 4, 1, 1, 1, 0)


def test_solo_start_scores_minus_19_like_each_two_player_seat():
    s = _solo(0)
    assert s.scores() == [-19.0]
    assert s.score_breakdown(0) == {
        "clothing_and_materials": 0.0, "barn": -3.0, "travel": 0.0, "tools": 0.0,
        "goods_track": 0.0, "home_board": -16.0, "animals": 0.0, "bottlenecks": 0.0}


def test_the_solo_supply_lacks_only_the_players_own_starting_tiles():
    # S6: no second board is set up: 14 - 2 fields, 7 - 1 stalls (two players: 10 and 5)
    s, two = _solo(0), arle_ai.new_game(0)
    assert (_feature(s, "supply.fields"), _feature(s, "supply.stall_depot")) == (12, 6)
    assert (_feature(two, "supply.fields"), _feature(two, "supply.stall_depot")) == (10, 5)


def test_new_game_refuses_other_player_counts_by_name():
    for bad in (0, 3, True, "1", None):
        with pytest.raises(ValueError, match="players must be 1 .the solo game. or 2"):
            arle_ai.new_game(0, players=bad)


# ---- the work phase (S2-S5) ---------------------------------------------------------------

def test_four_workers_a_half_year_all_the_solo_players():
    s = _solo(3)
    assert s.workers_per_half_year == 4
    for half_year in range(1, 4):
        for placed in range(4):
            assert (s.half_year, s.workers_placed, s.current_player) == (half_year, placed, 0)
            assert s.pending == "turn"
            s.apply(PASS)
    assert (s.half_year, s.workers_placed) == (4, 0)


def test_the_solo_player_starts_every_half_year_even_after_the_special_action():
    with patched_rules(SOLO_SPECIAL_ACTION=True):
        _play_a_special_action_every_half_year()


def _play_a_special_action_every_half_year() -> None:
    s = _solo(0)
    while not s.is_terminal():
        assert (s.start_player, s.current_player) == (0, 0)
        if s.pending == "turn" and s.workers_placed == 0:
            # a space of the other half-year (no cost) with the first worker
            s.apply(place("peat_boatman" if s.season == "summer" else "fisherman"))
            assert s.special_action_by == 0
        else:
            s.apply(PASS if s.pending == "turn" else s.legal_actions()[0])
    assert s.start_player == 0


def test_your_own_worker_blocks_its_space_for_the_rest_of_the_half_year():
    s = _solo(0)
    s.apply(place("fisherman"))
    assert s.to_dict()["occupied"] == {"fisherman": 0}
    for _ in range(3):
        assert s.current_player == 0 and "fisherman" not in _placeable(s)
        assert not s.is_legal(place("fisherman"))
        s.apply(PASS)
    assert s.half_year == 2
    assert "fisherman" not in _placeable(s)  # a summer space: closed in winter (S4)
    for _ in range(4):
        s.apply(PASS)
    while s.pending != "turn":
        s.apply(s.legal_actions()[0])
    assert s.half_year == 3
    assert "fisherman" in _placeable(s)      # the next summer: free again


def test_a_blocked_space_is_refused_and_the_state_kept():
    s = _solo(0)
    s.apply(place("fisherman"))
    before = s.copy()
    with pytest.raises(arle_ai.IllegalActionError):
        s.apply(place("fisherman"))
    assert s == before


def test_with_the_switch_the_special_action_at_most_once_a_half_year():
    with patched_rules(SOLO_SPECIAL_ACTION=True):
        _special_action_once_a_half_year()


def _special_action_once_a_half_year() -> None:
    s = _solo(0)
    assert {"peat_boatman", "potter", "wood_trader"} <= _placeable(s)
    s.apply(place("peat_boatman"))           # a winter space in summer: 3 peat
    assert s.special_action_by == 0
    assert s.to_dict()["players"][0]["goods"]["peat"] == 3 + 3
    for _ in range(3):
        assert not _placeable(s) & set(WINTER)
        assert {"peat_cutter", "summer_grocer"} <= _placeable(s)
        s.apply(PASS)
    assert (s.half_year, s.start_player, s.special_action_by) == (2, 0, None)
    assert {"fisherman", "peat_cutter"} <= _placeable(s)     # summer spaces, once again


# ---- inventorying and feeding -------------------------------------------------------------

def test_solo_november_milks_harvests_heats_and_asks_which_animals_feed():
    # 1 sheep, 1 cattle, 1 horse; no food, grain or peat, 1 wood; 1 flax field only
    d = _solo_position(workers_placed=4,
                       goods={"food": 0, "grain": 0, "peat": 0, "wood": 1, "flax": 3},
                       animals={"sheep": 1, "cattle": 1, "horse": 1},
                       home={"grain_fields": 0})
    s = make(d)
    # milking: 1 cattle -> 1 food (sheep need 2); harvest: flax +1; heating: 1 wood, 1 short;
    # food: 1 of 3 paid, 2 animals owed, the player's choice of types
    assert (s.pending, s.current_player) == ("feed", 0)
    p = s.to_dict()["players"][0]
    assert (p["goods"]["food"], p["goods"]["wood"], p["goods"]["flax"], p["bottlenecks"]) == (
        0, 0, 4, 1)
    assert s.legal_actions() == [animal("sheep"), animal("cattle")]
    s.apply(animal("sheep"))
    assert s.legal_actions() == [animal("cattle"), animal("horse")]
    s.apply(animal("horse"))
    p = s.to_dict()["players"][0]
    assert p["animals"] == {"sheep": 0, "cattle": 1, "horse": 0}
    assert p["bottlenecks"] == 1
    assert (s.half_year, s.pending, s.current_player, s.workers_placed) == (2, "turn", 0, 0)


def test_solo_may_breeds_shears_and_feeds():
    d = _solo_position(half_year=2, workers_placed=4, goods={"food": 1, "grain": 1, "wool": 0},
                       animals={"sheep": 2, "cattle": 0, "horse": 1})
    s = make(d)
    # breeding: 2 sheep in the stall -> 3; shearing 3 sheep -> 1 wool; food: 1 food, 1 grain,
    # 1 animal of the two types: the player's choice
    assert s.pending == "feed" and s.legal_actions() == [animal("sheep"), animal("horse")]
    s.apply(animal("sheep"))
    p = s.to_dict()["players"][0]
    assert (p["animals"]["sheep"], p["animals"]["horse"], p["goods"]["wool"]) == (2, 1, 1)
    assert (p["goods"]["food"], p["goods"]["grain"], p["bottlenecks"]) == (0, 0, 0)
    assert (s.half_year, s.pending) == (3, "turn")


def test_a_solo_game_of_passes_ends_after_nine_half_years_with_18_bottlenecks():
    s = _solo(0)
    turns = 0
    while not s.is_terminal():
        assert s.pending == "turn"     # nothing else is ever asked: every other step is forced
        s.apply(PASS)
        turns += 1
    assert turns == 9 * 4
    p = s.to_dict()["players"][0]
    # heating and food: 3 peat, then 4 wood; 5 food, then 4 grain, then the horse (half-year
    # 3), then nothing: 2 + 3 + 2 + 3 + 3 + 2 + 3 short over half-years 4-9 (see docstring)
    assert p["bottlenecks"] == 18
    assert (p["animals"]["horse"], p["goods"]["grain"], p["goods"]["flax"]) == (0, 0, 8)
    assert s.scores() == [-54.0]
    assert s.score_breakdown(0) == {
        "clothing_and_materials": 0.0, "barn": -3.0, "travel": 0.0, "tools": 0.0,
        "goods_track": 1.0, "home_board": -16.0, "animals": 0.0, "bottlenecks": -36.0}


# ---- the result (S7) ----------------------------------------------------------------------

def test_a_finished_solo_game_has_a_score_and_no_winner():
    s = _solo(0)
    while not s.is_terminal():
        s.apply(PASS)
    assert s.current_player is None
    with pytest.raises(ValueError, match="a solo game has no winner"):
        s.winner()
    with pytest.raises(ValueError, match="no tie-break"):
        s.tie_break_player()
    with pytest.raises(ValueError, match="player must be 0 in the solo game"):
        s.score_breakdown(1)


# ---- positions ----------------------------------------------------------------------------

def test_a_solo_position_round_trips_and_names_its_player_count():
    s = _solo(4)
    s.apply(place("fisherman"))
    d = s.to_dict()
    assert d["setup"]["players"] == 1 and len(d["players"]) == 1
    assert arle_ai.GameState.from_json(s.to_json()) == s
    assert arle_ai.GameState.from_dict(d).players == 1


@pytest.mark.parametrize("change, message", [
    (lambda d: d["players"].append(copy.deepcopy(d["players"][0])),
     "players: expected a list of 1 player for the solo game"),
    (lambda d: d["setup"].update(players=3), "setup.players: expected 1 .the solo game. or 2"),
    (lambda d: d.update(start_player=1), "start_player: the solo player .0. always starts"),
    (lambda d: d.update(special_action_by=1), "special_action_by: a solo game allows null "),
    (lambda d: d.update(occupied={"fisherman": 1}, workers_placed=1),
     "occupied.fisherman: a solo game has player 0 only"),
    (lambda d: d.update(workers_placed=5), "workers_placed"),
    (lambda d: d["pending"][0].update(player=1), r"pending\[0\].player: a solo game has player 0"),
])
def test_impossible_solo_positions_are_refused_by_name(change, message):
    d = _solo(0).to_dict()
    change(d)
    with pytest.raises(PositionError, match=message):
        arle_ai.GameState.from_dict(d)


def test_a_two_player_position_without_setup_players_is_two_players():
    d = arle_ai.new_game(0).to_dict()
    del d["setup"]["players"]
    assert arle_ai.GameState.from_dict(d) == arle_ai.new_game(0)
    d = arle_ai.new_game(0).to_dict()
    d["players"].pop()
    with pytest.raises(PositionError, match="players: expected a list of 2 players"):
        arle_ai.GameState.from_dict(d)


# ---- the switches ---------------------------------------------------------------------------

def test_switch_solo_workers():
    with patched_rules(SOLO_WORKERS=3):
        s = _solo(0)
        assert s.workers_per_half_year == 3
        for _ in range(3):
            s.apply(PASS)
        assert (s.half_year, s.workers_placed) == (2, 0)
        assert arle_ai.new_game(0).workers_per_half_year == 8
    with pytest.raises(ValueError, match="SOLO_WORKERS must be an integer in 1..8"):
        with patched_rules(SOLO_WORKERS=9):
            pass


def test_no_special_action_in_solo_by_default():
    # core.md 8.7: no source allows the special action in the solo game
    assert rules.SOLO_SPECIAL_ACTION is False
    s = _solo(0)
    for half_year in range(1, 10):
        other = set(WINTER if half_year & 1 else SUMMER)
        for _ in range(4):
            assert s.half_year == half_year
            assert not _placeable(s) & other
            assert not any(s.is_legal(place(space)) for space in other)
            s.apply(PASS)
        while s.pending != "turn" and not s.is_terminal():
            s.apply(s.legal_actions()[0])
    assert s.is_terminal()
    before = _solo(0)
    s = before.copy()
    with pytest.raises(arle_ai.IllegalActionError):
        s.apply(place("peat_boatman"))
    assert s == before
    two = arle_ai.new_game(0)
    assert "peat_boatman" in _placeable(two)          # two players: unchanged
    d = _solo(0).to_dict()
    d.update(occupied={"peat_boatman": 0}, special_action_by=0, workers_placed=1)
    del d["pending"]
    with pytest.raises(PositionError, match="SOLO_SPECIAL_ACTION is off"):
        arle_ai.GameState.from_dict(d)
    with patched_rules(SOLO_SPECIAL_ACTION=True):       # the old reading, as a switch
        assert {"peat_boatman", "potter", "wood_trader"} <= _placeable(_solo(0))
        assert arle_ai.GameState.from_dict(d).special_action_by == 0


def test_switch_own_workers_do_not_block_in_solo():
    with patched_rules(SOLO_OWN_WORKERS_BLOCK=False):
        s = _solo(0)
        s.apply(place("fisherman"))
        assert "fisherman" in _placeable(s)
        s.apply(place("fisherman"))            # the fisherman again: its food again
        assert s.to_dict()["occupied"] == {"fisherman": 0}
        two = arle_ai.new_game(0)
        two.apply(place("fisherman"))
        assert "fisherman" not in _placeable(two)


def test_switch_solo_supply_as_after_a_two_player_setup():
    with patched_rules(SOLO_SUPPLY_AS_TWO_PLAYERS=True):
        s = _solo(0)
        assert (_feature(s, "supply.fields"), _feature(s, "supply.stall_depot")) == (10, 5)
        assert arle_ai.GameState.from_dict(s.to_dict()) == s


def test_the_switches_are_read_as_booleans():
    for name in ("SOLO_SPECIAL_ACTION", "SOLO_OWN_WORKERS_BLOCK", "SOLO_SUPPLY_AS_TWO_PLAYERS"):
        with pytest.raises(ValueError, match=f"{name} must be True or False"):
            with patched_rules(**{name: 1}):
                pass
