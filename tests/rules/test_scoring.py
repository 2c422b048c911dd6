"""Final scoring (core.md 8; 2.5, 2.6, 5.2, 5.3, 6.3; building VP from tiles.md 2.5)."""

from __future__ import annotations

import random

import pytest

import arle_ai
from helpers import base, make

ZERO_GOODS = {g: 0 for g in base(0)["players"][0]["goods"]}
CATEGORIES = ["clothing_and_materials", "barn", "travel", "tools", "goods_track", "home_board",
              "animals", "bottlenecks"]

# A home board that scores 0: no moors, no boardwalk, all 7 dike steps, fields only (0 VP).
CLEAN_HOME = {"dikes": 7, "hydrated_moors": 0, "dehydrated_moors": [], "boardwalk_peat": 0,
              "grain_fields": 1, "flax_fields": 1, "stalls": 0}


def _score(goods=None, animals=None, home=None, barn=None, tools=None, clean=True, **player):
    """score_breakdown of player 0 in a position built from the start position."""
    d = base(0)
    p = d["players"][0]
    if clean:
        p["goods"] = dict(ZERO_GOODS)
        p["home"].update(CLEAN_HOME)
        p["animals"] = {"sheep": 0, "cattle": 0, "horse": 0}
    p["goods"].update(goods or {})
    if animals is not None:
        p["animals"].update(animals)
    p["home"].update(home or {})
    p["barn"].update(barn or {})
    p["tools"].update(tools or {})
    p.update(player)
    if p["home"]["buildings"]:
        d["buildings_on_board"] = [b for b in d["buildings_on_board"]
                                   if b not in p["home"]["buildings"]]
    s = make(d)
    sb = s.score_breakdown(0)
    assert sum(sb.values()) == s.scores()[0]
    return sb


def test_start_position_breakdown():
    # clothing 0 (wood, clay, peat); barn -3; goods 0 (nothing at 7+); home: stall 2,
    # 3 hydrated moors -12, boardwalk -3, top-row tidal flats -3; 1 horse: 2*0 + 0
    s = arle_ai.new_game(0)
    expected = {"clothing_and_materials": 0.0, "barn": -3.0, "travel": 0.0, "tools": 0.0,
                "goods_track": 0.0, "home_board": -16.0, "animals": 0.0, "bottlenecks": 0.0}
    assert s.score_breakdown(0) == expected
    assert s.score_breakdown(1) == expected
    assert s.scores() == [-19.0, -19.0]


def test_clean_baseline_is_minus_3():
    sb = _score()
    assert sb == dict.fromkeys(CATEGORIES, 0.0) | {"barn": -3.0}


# ---- 1. clothing and building materials (core.md 8.1, 8.2) ---------------------------------

@pytest.mark.parametrize("good, n, vp", [
    ("timber", 1, 0.5), ("timber", 3, 1.5), ("timber", 7, 3.5),
    ("winter_wear", 1, 2.5), ("leather_wear", 1, 2.5), ("winter_wear", 3, 7.5),
    ("summer_wear", 1, 2.0), ("summer_wear", 3, 6.0),
    ("brick", 5, 5.0), ("linen", 2, 2.0), ("woolen", 3, 3.0), ("leather", 4, 4.0),
    ("wood", 20, 0.0), ("clay", 20, 0.0), ("peat", 20, 0.0),
])
def test_clothing_and_materials(good, n, vp):
    assert _score(goods={good: n})["clothing_and_materials"] == vp


def test_clothing_worked_example():
    # 3 timber 1.5 + 1 winter wear 2.5 + 1 leather wear 2.5 + 2 summer wear 4 + 1 linen 1 +
    # 5 brick 5 + wood/clay/peat 0 = 16.5 (not rounded)
    sb = _score(goods={"timber": 3, "winter_wear": 1, "leather_wear": 1, "summer_wear": 2,
                       "linen": 1, "brick": 5, "wood": 6, "clay": 2, "peat": 9})
    assert sb["clothing_and_materials"] == 16.5


def test_fractional_total_not_rounded():
    d = base(0)
    d["players"][0]["goods"]["timber"] = 1
    assert make(d).scores()[0] == -18.5


# ---- 2. equipment in the barn (core.md 5.2, 5.3) -------------------------------------------

def _veh(*kinds):
    return [{"kind": k, "used": []} for k in kinds]


@pytest.mark.parametrize("barn, vp", [
    ({}, -3),
    ({"peat_boats": 1}, -2),
    ({"peat_boats": 2}, -1),
    ({"plows": 1}, 0),
    ({"plows": 2}, 3),
    ({"vehicles": _veh("handcart")}, -3),
    ({"vehicles": _veh("wagon")}, -2),
    ({"vehicles": _veh("cart")}, 1),
    ({"vehicles": _veh("horse_cart")}, 2),
    ({"vehicles": _veh("carriage")}, 4),
    ({"vehicles": _veh("droshky")}, 5),
    ({"plows": 2, "peat_boats": 1, "vehicles": _veh("wagon", "droshky")}, 13),
    ({"plows": 1, "vehicles": _veh("handcart", "wagon")}, 1),      # small vehicles: -3 stays
    ({"vehicles": _veh("cart", "carriage")}, 5),                   # -3 avoided once, not twice
])
def test_barn(barn, vp):
    assert _score(barn=barn)["barn"] == vp


# ---- 3. travel experience (core.md 6.3, placeholder table) ---------------------------------

@pytest.mark.parametrize("travel, vp", [
    ([], 0), (["hage"], 0), (["norden"], 1), (["hage", "norden"], 3), (["bremen"], 3),
    (["bremen", "beemoor"], 3), (["bremen", "aurich"], 4), (["emden", "leer"], 4),
    (["bremen", "emden", "hage", "dornum"], 5),                    # 9
    (["bremen", "emden", "leer", "norden"], 6),                    # 12
    (["bremen", "emden", "leer", "norden", "aurich", "esens"], 8),  # 16
    (["hage", "beemoor", "dornum", "norden", "aurich", "esens", "emden", "leer", "bremen"], 10),
])
def test_travel(travel, vp):
    assert _score(travel=travel)["travel"] == vp


# ---- 4. tools: the VP of the space the indicator stands on (core.md 8.4) -------------------

@pytest.mark.parametrize("tools, vp", [
    ({"fish_traps": 5}, 0), ({"fish_traps": 6}, 3),
    ({"fleshing_beams": 5}, 1), ({"fleshing_beams": 6}, 3),
    ({"weaving_looms": 3}, 1), ({"weaving_looms": 4}, 3), ({"weaving_looms": 5}, 4),
    ({"slaughtering_tables": 3}, 1), ({"slaughtering_tables": 4}, 2),
    ({"spades": 5}, 0), ({"spades": 7}, 2),
    ({"shovels": 6}, 0),
    ({"pottery_wheels": 3}, 0), ({"pottery_wheels": 4}, 2),
    ({"ovens": 2}, 1), ({"ovens": 3}, 5), ({"ovens": 4}, 7),
    ({"axes": 6}, 0),
    ({"workbenches": 3}, 1), ({"workbenches": 4}, 4),
])
def test_tools_single(tools, vp):
    assert _score(tools=tools)["tools"] == vp


def test_tools_all_at_the_end_27():
    ends = {"fish_traps": 6, "fleshing_beams": 6, "weaving_looms": 5, "slaughtering_tables": 4,
            "spades": 7, "shovels": 6, "pottery_wheels": 4, "ovens": 4, "axes": 6,
            "workbenches": 4}
    assert _score(tools=ends)["tools"] == 27


def test_tools_worked_example():
    # ovens 3 -> 5 (not 0 + 1 + 5), looms 4 -> 3, fish traps 5 -> 0, workbenches 3 -> 1
    sb = _score(tools={"ovens": 3, "weaving_looms": 4, "fish_traps": 5, "workbenches": 3})
    assert sb["tools"] == 9


# ---- 5. goods track (core.md 8.5) ----------------------------------------------------------

@pytest.mark.parametrize("good", ["grain", "flax", "wool", "hide"])
@pytest.mark.parametrize("n, vp", [(0, 0), (6, 0), (7, 1), (10, 1), (11, 2), (14, 2), (15, 3)])
def test_goods_track_thresholds(good, n, vp):
    assert _score(goods={good: n})["goods_track"] == vp


@pytest.mark.parametrize("food, vp", [(0, 0), (6, 0), (7, 1), (10, 1), (11, 2), (13, 2),
                                      (14, 2), (15, 3), (21, 3), (22, 4), (25, 4), (26, 5),
                                      (29, 5), (30, 6)])
def test_food_split_over_two_indicators(food, vp):
    assert _score(goods={"food": food})["goods_track"] == vp


def test_goods_track_indicators_add():
    # grain 15 -> 3, flax 11 -> 2, wool 7 -> 1, hide 6 -> 0, food 22 -> 4
    sb = _score(goods={"grain": 15, "flax": 11, "wool": 7, "hide": 6, "food": 22})
    assert sb["goods_track"] == 10


@pytest.mark.parametrize("depots", [1, 2])
def test_depot_doubles_goods_track_once(depots):
    sb = _score(goods={"grain": 15, "food": 22}, home={"depots": depots})
    assert sb["goods_track"] == 14
    assert sb["home_board"] == 2 * depots


# ---- 6. home board (core.md 8.5, 2.5, 2.6) -------------------------------------------------

@pytest.mark.parametrize("home, vp", [
    ({"stalls": 1}, 2), ({"stalls": 3}, 6),
    ({"depots": 1}, 2),
    ({"stables": 1}, 6), ({"stables": 2}, 12),
    ({"double_stalls": 1}, 9),
    ({"forests": 1}, 2), ({"forests": 3}, 6),
    ({"parks": 1}, 6), ({"parks": 2}, 12),
    ({"grain_fields": 4, "flax_fields": 3}, 0),
    ({"hydrated_moors": 1}, -4), ({"hydrated_moors": 3}, -12),
    ({"dehydrated_moors": [4]}, -1), ({"dehydrated_moors": [1, 3]}, -2),
    ({"hydrated_moors": 1, "dehydrated_moors": [2, 2]}, -6),
    ({"boardwalk_peat": 4}, -3), ({"boardwalk_peat": 1}, -3),
])
def test_home_board_tiles(home, vp):
    assert _score(home=home)["home_board"] == vp


@pytest.mark.parametrize("dikes, vp", [(0, -3), (1, -3), (2, -3), (3, -3), (4, -3), (5, -2),
                                       (6, -1), (7, 0)])
def test_top_row_tidal_penalty_reading_a(dikes, vp):
    assert _score(home={"dikes": dikes})["home_board"] == vp


# seed 0 has these buildings in play (tiles.md 2.5 VP)
@pytest.mark.parametrize("buildings, vp", [
    (["colonists_house"], 1), (["smokehouse"], 5), (["smithy"], 3), (["mill"], 6),
    (["weaving_mill"], 7), (["textile_house"], 9), (["saddlery"], 8), (["joinery"], 6),
    (["waterfront_house"], 10), (["potters_inn"], 5), (["gulf_house_inn"], 5),
    (["sluice_yard_inn"], 4), (["village_church"], 15), (["berum_castle"], 15),
    (["mill", "village_church", "colonists_house"], 22),
])
def test_home_board_buildings(buildings, vp):
    assert _score(home={"buildings": buildings})["home_board"] == vp


def test_home_board_worked_example():
    # mill 6 + stable 6 + stall 2 + 2 forests 4 + park 6 + 1 hydrated -4 + 1 dehydrated -1 +
    # boardwalk -3 + dikes 5 -> -2 = 14
    sb = _score(home={"buildings": ["mill"], "stables": 1, "stalls": 1, "forests": 2,
                      "parks": 1, "hydrated_moors": 1, "dehydrated_moors": [3],
                      "boardwalk_peat": 2, "dikes": 5})
    assert sb["home_board"] == 14


# ---- 7. animals: 2a + b by least and second least (core.md 8.6) ----------------------------

ROOM = {"stables": 3, "stalls": 3}


@pytest.mark.parametrize("animals, vp", [
    ((0, 0, 1), 0), ((5, 0, 0), 0), ((1, 2, 3), 4), ((3, 3, 5), 9), ((2, 2, 2), 6),
    ((4, 1, 7), 6), ((7, 4, 1), 6), ((0, 6, 6), 6), ((6, 0, 2), 2), ((10, 9, 8), 25),
])
def test_animals(animals, vp):
    sheep, cattle, horse = animals
    sb = _score(animals={"sheep": sheep, "cattle": cattle, "horse": horse}, home=ROOM)
    assert sb["animals"] == vp


# ---- 8. bottlenecks ------------------------------------------------------------------------

@pytest.mark.parametrize("n, vp", [(0, 0), (1, -2), (7, -14)])
def test_bottlenecks(n, vp):
    assert _score(bottlenecks=n)["bottlenecks"] == vp


# ---- totals --------------------------------------------------------------------------------

def test_worked_example_total():
    sb = _score(goods={"timber": 3, "winter_wear": 1, "grain": 11, "food": 15},
                barn={"plows": 1, "vehicles": _veh("cart")},
                tools={"ovens": 3, "fish_traps": 6},
                travel=["norden", "hage"],
                home={"stalls": 1, "forests": 1, "hydrated_moors": 2, "dikes": 6},
                animals={"sheep": 2, "cattle": 3, "horse": 1},
                bottlenecks=2)
    assert sb == {"clothing_and_materials": 4.0,      # 1.5 + 2.5
                  "barn": 4.0,                        # plow 3 + cart 1
                  "travel": 3.0,                      # 3 spaces
                  "tools": 8.0,                       # 5 + 3
                  "goods_track": 5.0,                 # grain 2 + food 3
                  "home_board": -5.0,                 # 2 + 2 - 8 - 1
                  "animals": 4.0,                     # 2*1 + 2
                  "bottlenecks": -4.0}
    assert sum(sb.values()) == 19.0


def _random_position(seed, steps):
    rng = random.Random(seed)
    s = arle_ai.new_game(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(rng.choice(s.legal_actions()))
    return s


@pytest.mark.parametrize("seed", range(12))
def test_breakdown_sums_to_scores(seed):
    s = _random_position(seed, 40 * (seed + 1))
    sc = s.scores()
    for p in (0, 1):
        sb = s.score_breakdown(p)
        assert list(sb) == CATEGORIES
        assert sum(sb.values()) == sc[p]


def test_winner_is_higher_total_at_the_end():
    d = base(0)
    d["half_year"] = 9
    d["start_player"] = 1                       # a tie would go to player 0
    d["workers_placed"] = 8
    d["players"][1]["goods"]["timber"] = 1      # half a point ahead
    s = make(d)
    assert s.is_terminal()
    assert s.scores()[1] - s.scores()[0] == 0.5
    assert s.winner() == 1


def test_random_games_winner_matches_scores():
    for seed in range(6):
        s = _random_position(seed, 100000)
        assert s.is_terminal()
        a, b = s.scores()
        if a != b:
            assert s.winner() == (0 if a > b else 1)
        else:
            assert s.winner() == s.tie_break_player()
