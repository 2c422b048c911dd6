"""Turn structure and the course of the game (core.md 7.1-7.5, 8.8; actions.md 7)."""

from __future__ import annotations

import pytest

import arle_ai
from arle_ai.engine import rules
from helpers import PASS, SPACES, base, make, place

SUMMER = SPACES[:15]
WINTER = SPACES[15:]


def _placeable(state):
    lo = arle_ai.ACTION_LAYOUT["place"]
    return {SPACES[a - lo] for a in state.legal_actions() if lo <= a < lo + 30}


def _pass_rest_of_half_year(state):
    h = state.half_year
    while not state.is_terminal() and state.half_year == h:
        state.apply(PASS)
    return state


def _game(seed=0):
    return arle_ai.new_game(seed)


# ---- the work phase ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_eight_turns_alternate_start_player_first(seed):
    s = _game(seed)
    sp = s.start_player
    order = []
    for _ in range(8):
        order.append(s.current_player)
        s.apply(PASS)
    assert order == [sp, 1 - sp] * 4


def test_pass_takes_a_turn_and_changes_nothing_else():
    s = _game(0)
    before = s.to_dict()
    s.apply(PASS)
    after = s.to_dict()
    assert after["workers_placed"] == 1
    assert after["players"] == before["players"]
    assert after["occupied"] == {}
    assert s.current_player == 1 - before["start_player"]


def test_all_current_season_spaces_free_at_start():
    s = _game(0)
    assert set(SUMMER) <= _placeable(s)


def test_a_taken_space_is_blocked_for_the_opponent():
    s = _game(0)
    sp = s.start_player
    s.apply(place("fisherman"))
    assert s.to_dict()["occupied"] == {"fisherman": sp}
    assert "fisherman" not in _placeable(s)
    assert not s.is_legal(place("fisherman"))


def test_placing_on_a_taken_space_raises_and_changes_nothing():
    s = _game(0)
    s.apply(place("fisherman"))
    before = s.copy()
    with pytest.raises(arle_ai.IllegalActionError):
        s.apply(place("fisherman"))
    assert s == before


def test_a_taken_space_stays_blocked_all_half_year():
    s = _game(0)
    s.apply(place("fisherman"))
    for _ in range(6):
        assert "fisherman" not in _placeable(s)
        s.apply(PASS)
    assert "fisherman" not in _placeable(s)


def test_spaces_free_again_next_half_year():
    s = _game(0)
    s.apply(place("fisherman"))
    _pass_rest_of_half_year(s)
    assert s.to_dict()["occupied"] == {}
    s = _pass_rest_of_half_year(s)         # half-year 3: summer again
    assert s.half_year == 3
    assert "fisherman" in _placeable(s)


def test_winter_spaces_are_the_special_action_in_summer():
    s = _game(0)
    sp = s.start_player
    s.apply(place("peat_boatman"))
    assert s.special_action_by == sp
    assert s.to_dict()["occupied"] == {"peat_boatman": sp}


@pytest.mark.parametrize("user_is_sp", [True, False])
def test_special_action_once_per_half_year_for_both_players(user_is_sp):
    s = _game(0)
    if not user_is_sp:
        s.apply(PASS)
    user = s.current_player
    s.apply(place("peat_boatman"))
    assert s.special_action_by == user
    while s.half_year == 1:
        free = _placeable(s)
        assert not free & set(WINTER)
        assert {"fisherman", "peat_cutter", "summer_grocer"} <= free
        s.apply(PASS)


def test_in_winter_summer_spaces_are_the_special_action():
    s = _pass_rest_of_half_year(_game(0))
    assert s.season == "winter"
    assert {"peat_boatman", "potter", "wood_trader"} <= _placeable(s)
    u = s.current_player
    s.apply(place("fisherman"))
    assert s.special_action_by == u
    assert not _placeable(s) & set(SUMMER)


def test_workers_reset_each_half_year():
    s = _game(0)
    s.apply(place("fisherman"))
    s.apply(place("peat_boatman"))
    _pass_rest_of_half_year(s)
    d = s.to_dict()
    assert (d["half_year"], d["season"]) == (2, "winter")
    assert d["workers_placed"] == 0
    assert d["occupied"] == {}
    assert d["special_action_by"] is None
    assert s.pending == "turn"
    assert s.current_player == s.start_player


# ---- the starting player of the next half-year (core.md 7.2, actions.md 7 table) ----------

def test_next_start_player_nobody_used_special_action():
    s = _game(0)
    sp = s.start_player
    assert s.tie_break_player() == 1 - sp
    _pass_rest_of_half_year(s)
    assert s.start_player == 1 - sp


def test_next_start_player_when_sp_used_special_action():
    s = _game(0)
    sp = s.start_player
    s.apply(place("peat_boatman"))          # SP's worker on a winter space
    assert s.tie_break_player() == 1 - sp
    _pass_rest_of_half_year(s)
    assert s.start_player == 1 - sp


def test_next_start_player_when_other_used_special_action():
    s = _game(0)
    sp = s.start_player
    s.apply(PASS)
    s.apply(place("peat_boatman"))          # the non-SP's worker on a winter space
    assert s.special_action_by == 1 - sp
    assert s.tie_break_player() == sp
    _pass_rest_of_half_year(s)
    assert s.start_player == sp             # SP keeps the marker


@pytest.mark.parametrize("special_by, expected", [(None, "other"), ("sp", "other"),
                                                  ("other", "sp")])
def test_next_start_player_from_a_constructed_position(special_by, expected):
    d = base(0)
    d["start_player"] = 1
    d["workers_placed"] = 8
    who = {None: None, "sp": 1, "other": 0}[special_by]
    d["special_action_by"] = who
    if who is not None:
        d["occupied"] = {"tanner": who}
    s = make(d)
    assert s.half_year == 2
    assert s.start_player == (1 if expected == "sp" else 0)


# ---- the whole game of passes (core.md 7.1, 7.5, 7.6, 8) -----------------------------------

# Goods after each half-year's inventorying, by hand from the start position (core.md 1.2):
# Nov: harvest +1 grain +1 flax, heat 2 peat (then wood), eat 3 food (then grain, then animals);
# May: no harvest, no heating, eat 3. The horse breeds never (alone), it is eaten in half-year 3.
#               food grain flax wood peat horse bottlenecks
PASS_GAME = {1: (2, 2, 4, 4, 1, 1, 0),
             2: (0, 1, 4, 4, 1, 1, 0),
             3: (0, 0, 5, 3, 0, 0, 0),       # peat 1 + wood 1; grain 2 + the horse
             4: (0, 0, 5, 3, 0, 0, 3),
             5: (0, 0, 6, 1, 0, 0, 5),       # grain 1 eaten, 2 short
             6: (0, 0, 6, 1, 0, 0, 8),
             7: (0, 0, 7, 0, 0, 0, 11),      # 1 wood heats, 1 fuel short; 2 food short
             8: (0, 0, 7, 0, 0, 0, 14),
             9: (0, 0, 8, 0, 0, 0, 18)}


def _after_each_half_year(seed):
    s = _game(seed)
    seen = {}
    while not s.is_terminal():
        h = s.half_year
        s.apply(PASS)
        if s.is_terminal() or s.half_year != h:
            seen[h] = s.to_dict()
    return s, seen


@pytest.mark.parametrize("seed", [0, 1])
def test_pass_game_goods_after_each_half_year(seed):
    _, seen = _after_each_half_year(seed)
    assert sorted(seen) == list(range(1, 10))
    for h, (food, grain, flax, wood, peat, horse, bn) in PASS_GAME.items():
        for p in (0, 1):
            pl = seen[h]["players"][p]
            g = pl["goods"]
            assert (g["food"], g["grain"], g["flax"], g["wood"], g["peat"],
                    pl["animals"]["horse"], pl["bottlenecks"]) == (food, grain, flax, wood, peat,
                                                                   horse, bn), (h, p)
            assert (g["wool"], g["hide"], g["clay"], g["timber"]) == (4, 2, 4, 0)


def test_pass_game_has_nine_half_years_of_eight_turns():
    s = _game(2)
    turns = {}
    while not s.is_terminal():
        assert s.pending == "turn"
        turns[s.half_year] = turns.get(s.half_year, 0) + 1
        s.apply(PASS)
    assert turns == {h: 8 for h in range(1, 10)}
    assert s.half_year == 9
    assert s.legal_actions() == []
    assert s.current_player is None


def test_pass_game_final_scores():
    # clothing 0 (4 clay); barn -3; travel 0; tools 0; goods: flax 8 -> 1; home: stall 2,
    # 3 hydrated moors -12, boardwalk -3, top-row tidal -3 -> -16; animals 0; 18 bottlenecks -36
    s, _ = _after_each_half_year(0)
    assert s.is_terminal()
    assert s.scores() == [-54.0, -54.0]
    expected = {"clothing_and_materials": 0.0, "barn": -3.0, "travel": 0.0, "tools": 0.0,
                "goods_track": 1.0, "home_board": -16.0, "animals": 0.0, "bottlenecks": -36.0}
    assert s.score_breakdown(0) == expected
    assert s.score_breakdown(1) == expected


@pytest.mark.parametrize("seed", [0, 1, 4, 5])
def test_pass_game_tie_goes_to_non_start_player_of_half_year_9(seed):
    s, _ = _after_each_half_year(seed)
    sp1 = arle_ai.new_game(seed).start_player
    assert s.start_player == sp1              # 8 hand-overs bring the marker back
    assert s.winner() == 1 - sp1
    assert s.tie_break_player() == 1 - sp1


# ---- tie-break (core.md 8.8) ---------------------------------------------------------------

def _final_tie(start_player, special_by):
    d = base(0)
    d["half_year"] = 9
    d["start_player"] = start_player
    d["workers_placed"] = 8
    d["special_action_by"] = special_by
    if special_by is not None:
        d["occupied"] = {"peat_boatman": special_by}
    return make(d)


@pytest.mark.parametrize("sp", [0, 1])
@pytest.mark.parametrize("special", [None, "sp", "other"])
def test_tie_break_winner(sp, special):
    by = {None: None, "sp": sp, "other": 1 - sp}[special]
    s = _final_tie(sp, by)
    assert s.is_terminal()
    assert s.scores()[0] == s.scores()[1]
    expected = sp if special == "other" else 1 - sp
    assert s.winner() == expected
    assert s.tie_break_player() == expected


def test_higher_score_wins_over_tie_break():
    d = base(0)
    d["half_year"] = 9
    d["start_player"] = 0
    d["workers_placed"] = 8
    d["players"][0]["goods"]["brick"] = 1     # player 0 one VP ahead; tie-break favours 1
    s = make(d)
    assert s.scores()[0] == s.scores()[1] + 1
    assert s.winner() == 0


def test_no_winner_before_the_end():
    assert _game(0).winner() is None


def _rich_position(half_year: int) -> dict:
    d = base(0)
    d["half_year"] = half_year
    for p in d["players"]:
        p["goods"].update(food=12, grain=5, wood=8, timber=3, clay=6, brick=3, peat=6, hide=4,
                          linen=2, woolen=1, leather=1)
        p["animals"].update(sheep=2, cattle=1)
        p["home"]["stables"] = 1
    return d


def _run_to_turn(state):
    """Resolve the action with a fixed policy (always the highest legal id)."""
    while state.pending != "turn" and not state.is_terminal():
        state.apply(state.legal_actions()[-1])
    return state


@pytest.mark.parametrize("space", [a.key for a in rules.ACTION_SPACES])
def test_every_space_works_as_the_special_action(space):
    """Taken as the special action (from the other season), a space does exactly what it does
    in its own season, and the marker is used (actions.md §1, core.md 7.2)."""
    own = 1 if rules.action_space(space).season == "summer" else 2
    normal_state = make(_rich_position(own))
    normal_state.apply(place(space))
    normal = _run_to_turn(normal_state)
    special_state = make(_rich_position(3 - own))
    assert special_state.special_action_by is None
    special_state.apply(place(space))
    special = _run_to_turn(special_state)
    assert special.special_action_by == 0
    assert special.to_dict()["occupied"] == {space: 0}
    assert special.to_dict()["players"][0] == normal.to_dict()["players"][0]
