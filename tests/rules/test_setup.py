"""Setup of a 2-player game (core.md 1.1-1.2, 2.3; tiles.md 2.1)."""

from __future__ import annotations

import pytest

import arle_ai
from helpers import PASS, base

LIGHT_GREEN = {"farmers_house", "plow_makers_workshop", "novices_hut", "workshop"}
DARK_GREEN = {"weaving_parlor", "colonists_house", "carpenters_workshop", "schnapps_distillery",
              "loading_station", "litter_storage", "wood_trader"}
YELLOW = {"turnery", "smokehouse", "smithy", "cooperage", "bakehouse"}
ORANGE = {"mill", "weaving_mill", "textile_house", "saddlery", "joinery", "waterfront_house"}
BLUE = {"potters_inn", "farmers_inn", "junk_dealers_inn", "gulf_house_inn", "milk_house_inn",
        "sluice_yard_inn"}
RED = {"village_church", "lutetsburg_castle", "berum_castle"}

SEEDS = range(40)

START_GOODS = {"food": 5, "grain": 1, "flax": 3, "wool": 4, "hide": 2, "wood": 4, "timber": 0,
               "clay": 4, "brick": 0, "peat": 3, "linen": 0, "woolen": 0, "leather": 0,
               "summer_wear": 0, "winter_wear": 0, "leather_wear": 0}
LEFTMOST_TOOLS = {"fish_traps": 2, "fleshing_beams": 3, "weaving_looms": 2,
                  "slaughtering_tables": 2, "spades": 3, "shovels": 3, "pottery_wheels": 2,
                  "ovens": 1, "axes": 3, "workbenches": 2}


def _selection(seed, variant="standard"):
    return set(arle_ai.new_game(seed, variant).to_dict()["setup"]["buildings"])


@pytest.mark.parametrize("p", [0, 1])
def test_starting_goods(p):
    # core.md 1.2: 5 food, 4 wool, 3 flax, 2 hide, 1 grain; 1.1.8: 4 wood, 4 clay, 3 peat
    assert base(0)["players"][p]["goods"] == START_GOODS


@pytest.mark.parametrize("p", [0, 1])
def test_starting_home_board(p):
    # core.md 2.3: grain field, flax field, stall with 1 horse, boardwalk with 4 peat,
    # 3 hydrated moors, 5 dikes in the starting place (no dike step taken)
    pl = base(0)["players"][p]
    assert pl["animals"] == {"sheep": 0, "cattle": 0, "horse": 1}
    assert pl["home"] == {"dikes": 0, "hydrated_moors": 3, "dehydrated_moors": [],
                          "boardwalk_peat": 4, "grain_fields": 1, "flax_fields": 1, "forests": 0,
                          "parks": 0, "stalls": 1, "depots": 0, "stables": 0, "double_stalls": 0,
                          "buildings": []}


@pytest.mark.parametrize("p", [0, 1])
def test_starting_barn_travel_and_bottlenecks_empty(p):
    pl = base(0)["players"][p]
    assert pl["barn"] == {"peat_boats": 0, "plows": 0, "vehicles": []}
    assert pl["travel"] == []
    assert pl["loaded"] == {"wood": 0, "clay": 0, "linen": 0, "woolen": 0, "leather": 0,
                            "peat": 0, "destinations": []}
    assert pl["bottlenecks"] == 0


@pytest.mark.parametrize("p", [0, 1])
def test_tool_indicators_start_leftmost(p):
    # core.md 1.1.2 and the track values of 8.4
    assert base(0)["players"][p]["tools"] == LEFTMOST_TOOLS


def test_start_position_header():
    d = base(0)
    assert d["half_year"] == 1
    assert d["season"] == "summer"
    assert d["workers_placed"] == 0
    assert d["special_action_by"] is None
    assert d["occupied"] == {}
    assert set(d["buildings_on_board"]) == set(d["setup"]["buildings"])


def test_start_player_moves_first():
    s = arle_ai.new_game(5)
    assert s.pending == "turn"
    assert s.current_player == s.start_player


def test_four_workers_each_make_eight_turns():
    # core.md 1.1.4: 4 + 4 workers; the half-year ends after the 8th turn
    s = arle_ai.new_game(1)
    players = []
    for _ in range(8):
        assert s.half_year == 1
        players.append(s.current_player)
        s.apply(PASS)
    assert s.half_year == 2
    assert players.count(0) == 4 and players.count(1) == 4


def test_start_player_drawn_from_seed_both_values_occur():
    values = {arle_ai.new_game(seed).start_player for seed in SEEDS}
    assert values == {0, 1}


@pytest.mark.parametrize("seed", [0, 1, 2, 7, 123456789])
def test_start_player_deterministic_per_seed(seed):
    assert arle_ai.new_game(seed).start_player == arle_ai.new_game(seed).start_player
    assert arle_ai.new_game(seed) == arle_ai.new_game(seed)


@pytest.mark.parametrize("seed", SEEDS)
def test_standard_selection_counts(seed):
    # core.md 1.1.5: 4 of 7 dark green (no light green), 2 of 5 yellow, 6 orange, 3 of 6 blue,
    # 3 red = 18
    sel = _selection(seed)
    assert len(sel) == 18
    assert not sel & LIGHT_GREEN
    assert len(sel & DARK_GREEN) == 4
    assert len(sel & YELLOW) == 2
    assert sel >= ORANGE
    assert len(sel & BLUE) == 3
    assert sel >= RED


@pytest.mark.parametrize("seed", SEEDS)
def test_first_game_selection_counts(seed):
    # first game: the 4 light green, no dark green; the other colours as in the standard game
    sel = _selection(seed, "first-game")
    assert len(sel) == 18
    assert sel & (LIGHT_GREEN | DARK_GREEN) == LIGHT_GREEN
    assert len(sel & YELLOW) == 2
    assert sel >= ORANGE
    assert len(sel & BLUE) == 3
    assert sel >= RED


def test_setup_recorded_in_to_dict():
    s = arle_ai.new_game(11, "first-game")
    setup = s.to_dict()["setup"]
    assert setup["seed"] == 11
    assert setup["variant"] == "first-game"
    assert set(setup["buildings"]) == set(s.to_dict()["buildings_on_board"])


def test_different_seeds_give_different_selections():
    selections = {frozenset(_selection(seed)) for seed in SEEDS}
    assert len(selections) >= 30


def test_first_game_random_colours_still_vary():
    selections = {frozenset(_selection(seed, "first-game")) for seed in SEEDS}
    assert len(selections) >= 10


@pytest.mark.parametrize("colour", [DARK_GREEN, YELLOW, BLUE], ids=["dark", "yellow", "blue"])
def test_every_random_building_both_drawn_and_removed(colour):
    sels = [_selection(seed) for seed in SEEDS]
    for b in colour:
        assert any(b in s for s in sels), b
        assert any(b not in s for s in sels), b


@pytest.mark.parametrize("variant", ["standard", "first-game"])
@pytest.mark.parametrize("seed", [0, 3, 99])
def test_same_seed_same_selection(seed, variant):
    assert _selection(seed, variant) == _selection(seed, variant)
