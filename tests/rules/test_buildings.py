"""The 31 buildings (tiles.md §2: 2.1 setup, 2.2 costs, 2.3 placement, 2.4 timing, 2.5 table,
2.6 abilities; core.md 4.3 substitution, 7.3 the November window, 8.5 building VP).

Positions are built from base(): the buildings a test needs are put into play (setup) and, when
owned, onto the owner's home board. Player 0 acts in summer half-year 1 unless a test says
otherwise. Every effect is checked on the acting player's whole part of to_dict(); the opponent
must be unchanged.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import arle_ai
from arle_ai.engine import rules
from helpers import (
    BUILDINGS,
    GOODS,
    MORE,
    STOP,
    L,
    animal,
    build,
    check_action,
    cut,
    edit,
    expected,
    flip,
    legal,
    load,
    make,
    place,
    play,
    position,
    tile,
    tool,
    use,
    vehicle,
    vp,
)

# ---------------------------------------------------------------------------------------------
# reference data (tiles.md 2.1 and 2.5, read off the printed tiles)
# ---------------------------------------------------------------------------------------------

REF = {  # key: (colour, VP)
    "farmers_house": ("light_green", 1),
    "plow_makers_workshop": ("light_green", 1),
    "novices_hut": ("light_green", 1),
    "workshop": ("light_green", 1),
    "weaving_parlor": ("dark_green", 1),
    "colonists_house": ("dark_green", 1),
    "carpenters_workshop": ("dark_green", 1),
    "schnapps_distillery": ("dark_green", 1),
    "loading_station": ("dark_green", 1),
    "litter_storage": ("dark_green", 1),
    "wood_trader": ("dark_green", 1),
    "turnery": ("yellow", 5),
    "smokehouse": ("yellow", 5),
    "smithy": ("yellow", 3),
    "cooperage": ("yellow", 4),
    "bakehouse": ("yellow", 4),
    "mill": ("orange", 6),
    "weaving_mill": ("orange", 7),
    "textile_house": ("orange", 9),
    "saddlery": ("orange", 8),
    "joinery": ("orange", 6),
    "waterfront_house": ("orange", 10),
    "potters_inn": ("blue", 5),
    "farmers_inn": ("blue", 3),
    "junk_dealers_inn": ("blue", 4),
    "gulf_house_inn": ("blue", 5),
    "milk_house_inn": ("blue", 5),
    "sluice_yard_inn": ("blue", 4),
    "village_church": ("red", 15),
    "lutetsburg_castle": ("red", 15),
    "berum_castle": ("red", 15),
}
LIGHT = [k for k, (c, _) in REF.items() if c == "light_green"]
DARK = [k for k, (c, _) in REF.items() if c == "dark_green"]
SPACES = {"green": 4, "yellow": 2, "orange": 6, "blue": 3, "red": 3}    # tiles.md 2.1


def group(key: str) -> str:
    colour = REF[key][0]
    return "green" if colour.endswith("green") else colour


# ---------------------------------------------------------------------------------------------
# position builders and checks
# ---------------------------------------------------------------------------------------------

check = check_action

ZERO = {g: 0 for g in GOODS}


def bare(**goods: int) -> dict[str, int]:
    """A goods dict with every good 0 except those given."""
    return ZERO | goods


def setup_for(keys) -> list[str]:
    """18 buildings in play (4 green, 2 yellow, 6 orange, 3 blue, 3 red) containing `keys`."""
    chosen: list[str] = []
    for g, n in SPACES.items():
        members = [k for k in BUILDINGS if group(k) == g]
        want = [k for k in members if k in keys]
        rest = [k for k in members if k not in keys]
        assert len(want) <= n
        chosen += want + rest[: n - len(want)]
    return chosen


def pos(p0: dict | None = None, p1: dict | None = None, *, play_=(), own0=(), own1=(),
        **board: Any) -> dict[str, Any]:
    """The start position with the given edits (``board``: as for helpers.position); buildings
    `play_` in play on the board, `own0` / `own1` on player 0's / 1's home board."""
    d = position(**board)
    in_play = setup_for(list(play_) + list(own0) + list(own1))
    d["setup"]["buildings"] = in_play
    d["buildings_on_board"] = [k for k in in_play if k not in own0 and k not in own1]
    d["players"][0]["home"]["buildings"] = [k for k in BUILDINGS if k in own0]
    d["players"][1]["home"]["buildings"] = [k for k in BUILDINGS if k in own1]
    edit(d["players"][0], p0)
    edit(d["players"][1], p1)
    return d


def build_it(d: dict[str, Any], key: str, *after: int) -> arle_ai.GameState:
    """The Builder builds `key` (the choice is made unless it was the only one), then `after`."""
    s = make(d)
    s.apply(place("builder"))
    if s.pending == "action:builder":
        s.apply(build(key))
    return play(s, *after)


def offered(d: dict[str, Any]) -> set[str]:
    """The buildings the Builder offers to the player whose turn it is in d."""
    s = make(d)
    pi = s.current_player
    before = set(s.to_dict()["players"][pi]["home"]["buildings"])
    s.apply(place("builder"))
    if s.pending == "action:builder":
        return {BUILDINGS[a - L["build"]] for a in s.legal_actions()
                if L["build"] <= a < L["build"] + len(BUILDINGS)}
    # nothing, or exactly one building (then the choice was made automatically)
    after = s.to_dict()
    got = set(after["players"][pi]["home"]["buildings"]) - before
    for f in after["pending"]:
        if f["kind"] == "action" and f.get("step") == "pay_building":
            got.add(BUILDINGS[f["c"]])
    return got


# ---------------------------------------------------------------------------------------------
# costs (tiles.md 2.2; core.md 4.3: timber for wood and brick for clay, never the reverse;
# food is replaced by grain only where printed, which no building cost is)
#
# Each case is built by a player holding only the listed goods (everything else 0) and no peat
# on the boardwalk, so the one-off effects below are the only other changes.
# ---------------------------------------------------------------------------------------------

GREEN_COST = {"wood": 1, "grain": 1}
YELLOW_COST = {"timber": 1, "brick": 1}
INN_COST = {"food": 9, "wood": 1, "clay": 1}
RED_COST = {"timber": 3, "brick": 3, "food": 15}

EXACT = {k: GREEN_COST for k in LIGHT + DARK}
EXACT |= {k: YELLOW_COST for k in ("turnery", "smokehouse", "smithy", "cooperage", "bakehouse")}
EXACT |= {
    "mill": {"timber": 1, "flax": 8},
    "weaving_mill": {"brick": 2, "flax": 10},
    "textile_house": {"brick": 1, "summer_wear": 1, "winter_wear": 1},
    "saddlery": {"timber": 2, "leather": 3},
    "joinery": {"timber": 2, "grain": 5},
    "waterfront_house": {"brick": 2, "food": 25},
}
EXACT |= {k: INN_COST for k in ("potters_inn", "farmers_inn", "junk_dealers_inn",
                                "gulf_house_inn", "milk_house_inn", "sluice_yard_inn")}
EXACT |= {k: RED_COST for k in ("village_church", "lutetsburg_castle", "berum_castle")}

# allowed alternatives: (goods held, goods left after paying)
GREEN_OK = [({"clay": 1, "grain": 1}, {}), ({"timber": 1, "grain": 1}, {}),
            ({"brick": 1, "grain": 1}, {})]
YELLOW_OK = [({"timber": 1, "brick": 1, "wood": 3, "clay": 3}, {"wood": 3, "clay": 3})]
# rules-decisions B2 (tiles.md 9.2 open): the four material kinds are "different"
INN_OK = [({"food": 9, "wood": 1, "timber": 1}, {}), ({"food": 9, "clay": 1, "brick": 1}, {}),
          ({"food": 9, "timber": 1, "brick": 1, "grain": 4}, {"grain": 4})]
RED_OK = [({**RED_COST, "wood": 3, "clay": 3, "hide": 2}, {"wood": 3, "clay": 3, "hide": 2})]
ALLOWED = {k: GREEN_OK for k in LIGHT + DARK}
ALLOWED |= {k: YELLOW_OK for k in ("turnery", "smokehouse", "smithy", "cooperage", "bakehouse")}
ALLOWED |= {
    "mill": [({"timber": 1, "grain": 8}, {})],
    "weaving_mill": [({"brick": 2, "wool": 10}, {})],
    "textile_house": [({"brick": 1, "winter_wear": 1, "leather_wear": 1}, {}),
                      ({"brick": 1, "summer_wear": 1, "leather_wear": 1}, {})],
    "saddlery": [({"timber": 2, "leather": 3, "wood": 2, "hide": 3}, {"wood": 2, "hide": 3})],
    "joinery": [({"timber": 2, "grain": 5, "wood": 2, "food": 5}, {"wood": 2, "food": 5})],
    "waterfront_house": [({"brick": 2, "food": 25, "clay": 2, "grain": 5},
                          {"clay": 2, "grain": 5})],
}
ALLOWED |= {k: INN_OK for k in ("potters_inn", "farmers_inn", "junk_dealers_inn",
                                "gulf_house_inn", "milk_house_inn", "sluice_yard_inn")}
ALLOWED |= {k: RED_OK for k in ("village_church", "lutetsburg_castle", "berum_castle")}

# refused: holdings that must not make the building buildable
GREEN_NO = [{"wood": 1, "food": 5},                 # food does not replace grain
            {"grain": 1, "peat": 3, "hide": 2}]      # no building material (peat is not one)
YELLOW_NO = [{"wood": 1, "brick": 1}, {"timber": 1, "clay": 1}, {"wood": 5, "clay": 5}]
INN_NO = [{"food": 9, "wood": 2}, {"food": 9, "brick": 2},     # the same material twice
          {"food": 8, "grain": 5, "wood": 1, "clay": 1},         # grain does not replace food
          {"food": 9, "timber": 1, "peat": 3}]
RED_NO = [{"wood": 1, "timber": 2, "brick": 3, "food": 15},
          {"timber": 3, "brick": 2, "clay": 1, "food": 15},
          {"timber": 3, "brick": 3, "food": 14, "grain": 5}]
REFUSED = {k: GREEN_NO for k in LIGHT + DARK}
REFUSED |= {k: YELLOW_NO for k in ("turnery", "smokehouse", "smithy", "cooperage", "bakehouse")}
REFUSED |= {
    "mill": [{"wood": 1, "flax": 8}, {"timber": 1, "flax": 4, "grain": 4},
             {"timber": 1, "flax": 7, "grain": 7}],
    "weaving_mill": [{"clay": 2, "flax": 10}, {"brick": 1, "clay": 1, "flax": 10},
                     {"brick": 2, "flax": 5, "wool": 5}, {"brick": 2, "woolen": 10}],
    "textile_house": [{"brick": 1, "summer_wear": 2}, {"clay": 1, "summer_wear": 1,
                                                       "winter_wear": 1},
                      {"brick": 1, "linen": 1, "woolen": 1, "leather": 1}],
    "saddlery": [{"wood": 2, "leather": 3}, {"timber": 2, "hide": 3},
                 {"timber": 2, "leather_wear": 3}, {"timber": 1, "wood": 1, "leather": 3}],
    "joinery": [{"wood": 2, "grain": 5}, {"timber": 2, "grain": 4, "food": 5}],
    "waterfront_house": [{"clay": 2, "food": 25}, {"brick": 2, "food": 24, "grain": 5}],
}
REFUSED |= {k: INN_NO for k in ("potters_inn", "farmers_inn", "junk_dealers_inn",
                                "gulf_house_inn", "milk_house_inn", "sluice_yard_inn")}
REFUSED |= {k: RED_NO for k in ("village_church", "lutetsburg_castle", "berum_castle")}

# the decisions after paying (bare player: 1 stall with 1 horse, 1 grain + 1 flax field,
# 3 hydrated moors, no peat to cut, tools on their first spaces) and what they give
AFTER: dict[str, tuple[int, ...]] = {
    "potters_inn": (animal("sheep"), animal("sheep")),
    "farmers_inn": (STOP,),
    "junk_dealers_inn": (vehicle("handcart"),),
    "lutetsburg_castle": (STOP,),
    "berum_castle": (flip("moor"),),
}
GAINS: dict[str, dict[str, Any]] = {
    "weaving_mill": {"goods": {"winter_wear": 1}, "tools": {"weaving_looms": 4}},
    "textile_house": {"goods": {"linen": 1, "woolen": 1, "leather": 1}},
    "saddlery": {"tools": {"fleshing_beams": 5}},
    "waterfront_house": {"goods": {"food": 10}, "home": {"dikes": 2},
                         "tools": {"fish_traps": 5}},
    "potters_inn": {"animals": {"sheep": 2}},
    "junk_dealers_inn": {"goods": {"leather_wear": 1, "woolen": 1},
                         "barn": {"vehicles": [{"kind": "handcart", "used": []}]}},
    "gulf_house_inn": {"goods": {"timber": 1}},
    "milk_house_inn": {"animals": {"cattle": 1}},
    "sluice_yard_inn": {"goods": {"wood": 4}, "tools": {"fish_traps": 4}},
    "village_church": {"barn": {"vehicles": [{"kind": "carriage", "used": []}]}},
    "lutetsburg_castle": {"tools": {"spades": 5, "pottery_wheels": 3, "workbenches": 3}},
    "berum_castle": {"tools": {"ovens": 2, "weaving_looms": 3},
                     "home": {"hydrated_moors": 2, "dehydrated_moors": [4]}},
}


def bare_pos(key: str, goods: dict[str, int], **kw: Any) -> dict[str, Any]:
    return pos({"goods": bare(**goods), "home": {"boardwalk_peat": 0}}, play_=[key], **kw)


def expect_built(d: dict[str, Any], key: str, left: dict[str, int]) -> dict[str, Any]:
    """The changes after building `key` on a bare player holding `left` after paying."""
    gains = copy.deepcopy(GAINS.get(key, {}))
    goods = bare(**left)
    for g, n in gains.pop("goods", {}).items():
        goods[g] += n
    home = {"buildings": [key]} | gains.pop("home", {})
    return {"goods": goods, "home": home, **gains}


@pytest.mark.parametrize("key", BUILDINGS)
def test_cost_paid_exactly_substitutes_and_refusals(key):
    # exactly the printed cost: it is built and everything is paid
    d = bare_pos(key, EXACT[key])
    s = build_it(d, key, *AFTER.get(key, ()))
    check(s, d, **expect_built(d, key, {}))
    # allowed alternatives (any material, either part, different kinds, spare goods untouched)
    for held, left in ALLOWED[key]:
        d = bare_pos(key, held)
        assert key in offered(d), held
        s = build_it(d, key, *AFTER.get(key, ()))
        check(s, d, **expect_built(d, key, left))
    # wrong substitutes or a good missing: the build is not offered
    for held in REFUSED[key]:
        assert key not in offered(bare_pos(key, held)), held


def test_green_house_material_is_the_players_choice():
    d = bare_pos("weaving_parlor", {"wood": 1, "timber": 1, "clay": 1, "brick": 1, "grain": 1})
    s = build_it(d, "weaving_parlor")
    assert s.pending == "action:pay_building"
    assert legal(s) == {L["good"] + GOODS.index(g) for g in ("wood", "timber", "clay", "brick")}


def test_mill_either_part_is_the_players_choice():
    d = bare_pos("mill", {"timber": 1, "flax": 8, "grain": 8})
    s = build_it(d, "mill")
    assert legal(s) == {L["good"] + GOODS.index("flax"), L["good"] + GOODS.index("grain")}
    s.apply(L["good"] + GOODS.index("grain"))
    check(s, d, **expect_built(d, "mill", {"flax": 8}))


# ---------------------------------------------------------------------------------------------
# VP at final scoring (tiles.md 2.5 star; core.md 8.5 "each building: as printed")
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", BUILDINGS)
def test_building_vp_in_home_board_category(key):
    colour, points = REF[key]
    data = next(b for b in rules.BUILDINGS if b.key == key)
    assert (data.colour, data.vp) == (colour, points)
    without = make(pos(play_=[key]))
    with_it = make(pos(own0=[key]))
    assert vp(with_it, "home_board") - vp(without, "home_board") == points
    others = {c for c in without.score_breakdown(0) if c != "home_board"}
    assert all(vp(with_it, c) == vp(without, c) for c in others)


def test_all_31_buildings_in_the_data():
    assert set(BUILDINGS) == set(REF)
    assert len(BUILDINGS) == 31


# ---------------------------------------------------------------------------------------------
# light-green houses: before every November inventorying, owner's order, each optional
# (tiles.md 2.4, 2.6; core.md 7.3, 7.7)
# ---------------------------------------------------------------------------------------------


def november(own: list[str], p0: dict | None = None, half_year: int = 1, **kw) -> dict:
    """End of a half-year: all 8 workers placed, player 0 owns `own` (one dike step: 3 more
    land spaces, so the houses leave room)."""
    p0 = copy.deepcopy(p0 or {})
    p0.setdefault("home", {}).setdefault("dikes", 1)
    return pos(p0, own0=own, half_year=half_year, workers_placed=8, **kw)


def test_november_window_offers_each_owned_house():
    s = make(november(["farmers_house", "novices_hut"]))
    assert (s.pending, s.current_player) == ("november", 0)
    assert legal(s) == {STOP, use("farmers_house"), use("novices_hut")}


def test_farmers_house_clay_and_one_cut():
    d = november(["farmers_house", "novices_hut"])
    s = play(make(d), use("farmers_house"))
    check(s, d, done=False, goods={"clay": 5, "peat": 4}, home={"boardwalk_peat": 3},
          november_used=["farmers_house"])
    assert s.pending == "november"
    assert legal(s) == {STOP, use("novices_hut")}


def test_plow_makers_workshop_places_a_field_either_side():
    d = november(["plow_makers_workshop", "workshop"])
    s = play(make(d), use("plow_makers_workshop"))
    assert legal(s) == {STOP, tile("grain_field"), tile("flax_field")}
    s.apply(tile("flax_field"))
    check(s, d, done=False, home={"flax_fields": 2}, november_used=["plow_makers_workshop"])
    assert legal(s) == {STOP, use("workshop")}


def test_plow_makers_workshop_field_is_optional():
    d = november(["plow_makers_workshop", "workshop"])
    s = play(make(d), use("plow_makers_workshop"), STOP)
    check(s, d, done=False, november_used=["plow_makers_workshop"])
    assert legal(s) == {STOP, use("workshop")}


def test_plow_makers_workshop_needs_a_free_land_space():
    # the two houses fill the 2 free land spaces of the start
    d = november(["plow_makers_workshop", "workshop"], {"home": {"dikes": 0}})
    s = play(make(d), use("plow_makers_workshop"))
    check(s, d, done=False, november_used=["plow_makers_workshop"])
    assert legal(s) == {STOP, use("workshop")}


def test_novices_hut_grain_and_one_dike():
    d = november(["novices_hut", "farmers_house"])
    s = play(make(d), use("novices_hut"))
    check(s, d, done=False, goods={"grain": 2}, home={"dikes": 2}, november_used=["novices_hut"])


def test_workshop_wood_and_one_paid_master_step():
    d = november(["workshop", "farmers_house"], {"goods": {"brick": 1}})
    s = play(make(d), use("workshop"))
    assert s.pending == "action:master"
    assert tool("ovens") in legal(s) and STOP in legal(s)
    s.apply(tool("ovens"))        # an oven step costs 1 brick
    check(s, d, done=False, goods={"wood": 5, "brick": 0}, tools={"ovens": 2},
          november_used=["workshop"])
    assert s.pending == "november"            # exactly one step
    assert legal(s) == {STOP, use("farmers_house")}


def test_workshop_step_paid_with_the_workshops_own_wood():
    d = november(["workshop", "farmers_house"], {"goods": {"wood": 0}})
    s = play(make(d), use("workshop"))
    assert tool("fish_traps") in legal(s)          # a fish-trap step costs 1 wood
    s.apply(tool("fish_traps"))
    check(s, d, done=False, tools={"fish_traps": 3}, november_used=["workshop"])


def test_workshop_step_is_optional():
    d = november(["workshop", "farmers_house"])
    s = play(make(d), use("workshop"), STOP)
    check(s, d, done=False, goods={"wood": 5}, november_used=["workshop"])


def test_november_houses_in_the_owners_order():
    d = november(["farmers_house", "novices_hut", "workshop"])
    s = play(make(d), use("workshop"), STOP, use("farmers_house"))
    check(s, d, done=False, goods={"wood": 5, "clay": 5, "peat": 4}, home={"boardwalk_peat": 3},
          november_used=["farmers_house", "workshop"])
    assert legal(s) == {STOP, use("novices_hut")}


def test_november_order_matters_dike_first_opens_land_for_the_field():
    # no free land: the Novice's Hut's dike opens 3 land spaces, then the Plow Maker's field fits
    d = november(["plow_makers_workshop", "novices_hut"], {"home": {"dikes": 0}})
    s = play(make(d), use("novices_hut"), use("plow_makers_workshop"))
    assert legal(s) == {STOP, tile("grain_field"), tile("flax_field")}
    s.apply(tile("grain_field"))     # both used: the window closes, November inventorying
    assert s.half_year == 2
    assert s.to_dict()["players"][0] == expected(
        d, goods={"grain": 1 + 1 + 2, "flax": 4, "food": 2, "peat": 1},
        home={"dikes": 1, "grain_fields": 2})


def test_november_houses_act_before_the_inventorying_harvest():
    # the new grain field is harvested in the same November: 2 grain fields + 1 flax field;
    # sustenance 3 food and 2 peat; next half-year (winter), player 1 starts
    d = november(["plow_makers_workshop"])
    s = play(make(d), use("plow_makers_workshop"), tile("grain_field"))
    assert (s.half_year, s.pending, s.current_player) == (2, "turn", 1)
    # the window's marks are forgotten once it is over, so equal positions compare equal
    assert s.to_dict()["players"][0] == expected(
        d, goods={"grain": 3, "flax": 4, "food": 2, "peat": 1}, home={"grain_fields": 2})


def test_november_marks_are_cleared_for_the_next_half_year():
    d = november(["farmers_house", "novices_hut"])
    used = play(make(d), use("farmers_house"), STOP)
    unused = play(make(d), STOP)
    assert used.to_dict()["players"][0]["november_used"] == []
    assert unused.to_dict()["players"][0]["november_used"] == []


def test_november_house_skipped_is_lost():
    d = november(["farmers_house"])
    s = make(d)
    assert legal(s) == {STOP, use("farmers_house")}
    s.apply(STOP)
    assert s.half_year == 2
    assert s.to_dict()["players"][0] == expected(d, goods={"grain": 2, "flax": 4, "food": 2,
                                                            "peat": 1})
    # not a clock building: nothing to use in the work phase
    s2 = make(pos(own0=["farmers_house"]))
    assert use("farmers_house") not in legal(s2)


def test_november_houses_also_before_the_last_november():
    d = november(["farmers_house", "novices_hut"], half_year=9)
    s = make(d)
    assert (s.pending, s.current_player) == ("november", 0)
    s.apply(use("farmers_house"))
    check(s, d, done=False, goods={"clay": 5, "peat": 4}, home={"boardwalk_peat": 3},
          november_used=["farmers_house"])
    s.apply(STOP)
    assert s.is_terminal()


def test_no_november_window_in_winter():
    s = make(november(["farmers_house"], half_year=2))
    assert (s.half_year, s.pending) == (3, "turn")


def test_november_window_start_player_first():
    s = make(pos(own0=["farmers_house"], own1=["novices_hut"], workers_placed=8,
                 start_player=1))
    assert (s.pending, s.current_player) == ("november", 1)
    assert legal(s) == {STOP, use("novices_hut")}
    s.apply(use("novices_hut"))
    assert (s.pending, s.current_player) == ("november", 0)
    assert legal(s) == {STOP, use("farmers_house")}


# ---------------------------------------------------------------------------------------------
# dark-green (clock) houses: any time, as often as affordable (tiles.md 2.4, 2.6;
# rules-decisions B1); using one does not end the turn
# ---------------------------------------------------------------------------------------------


def clock(key: str, p0: dict | None = None, **kw) -> dict:
    return pos(p0, own0=[key], **kw)


def used_at_turn(s: arle_ai.GameState, pi: int = 0) -> None:
    assert (s.pending, s.current_player) == ("turn", pi)


def test_weaving_parlor_flax_for_linen_and_a_cut():
    d = clock("weaving_parlor")
    s = play(make(d), use("weaving_parlor"))
    used_at_turn(s)
    check(s, d, done=False, goods={"flax": 0, "linen": 1, "peat": 4}, home={"boardwalk_peat": 3})


def test_weaving_parlor_repeatable_and_needs_three_flax():
    d = clock("weaving_parlor", {"goods": {"flax": 8}})
    s = play(make(d), use("weaving_parlor"), use("weaving_parlor"))
    check(s, d, done=False, goods={"flax": 2, "linen": 2, "peat": 5}, home={"boardwalk_peat": 2})
    assert use("weaving_parlor") not in legal(s)


def test_colonists_house_wool_for_clay_and_a_cut():
    d = clock("colonists_house")
    s = play(make(d), use("colonists_house"))
    used_at_turn(s)
    check(s, d, done=False, goods={"wool": 2, "clay": 5, "peat": 4}, home={"boardwalk_peat": 3})


def test_colonists_house_needs_wool_not_woolen():
    s = make(clock("colonists_house", {"goods": {"wool": 1, "woolen": 4}}))
    assert use("colonists_house") not in legal(s)


def test_carpenters_workshop_stall_to_stable():
    d = clock("carpenters_workshop", {"goods": {"brick": 1}})
    s = play(make(d), use("carpenters_workshop"))
    used_at_turn(s)
    check(s, d, done=False, goods={"brick": 0, "food": 1}, home={"stalls": 0, "stables": 1})
    assert vp(s, "home_board") == vp(make(d), "home_board") + 4       # stall 2 -> stable 6


@pytest.mark.parametrize("p0,p1", [
    ({"goods": {"brick": 0, "clay": 5}}, None),                       # clay does not replace brick
    ({"goods": {"brick": 1, "food": 3, "grain": 5}}, None),           # 4 food, no grain for it
    ({"goods": {"brick": 1}, "home": {"stalls": 0}}, None),           # no stall to upgrade
    ({"goods": {"brick": 1}}, {"home": {"dikes": 1, "stalls": 0, "stables": 3}}),   # no stable left
])
def test_carpenters_workshop_not_usable(p0, p1):
    s = make(clock("carpenters_workshop", p0, p1=p1))
    assert use("carpenters_workshop") not in legal(s)


def test_schnapps_distillery_grain_and_peat_for_three_food():
    d = clock("schnapps_distillery", {"goods": {"grain": 2}})
    s = play(make(d), use("schnapps_distillery"), use("schnapps_distillery"))
    used_at_turn(s)
    check(s, d, done=False, goods={"grain": 0, "peat": 1, "food": 11})
    assert use("schnapps_distillery") not in legal(s)


def test_schnapps_distillery_food_capped_at_30():
    d = clock("schnapps_distillery", {"goods": {"food": 29}})
    s = play(make(d), use("schnapps_distillery"))
    check(s, d, done=False, goods={"grain": 0, "peat": 2, "food": 30})


def test_schnapps_distillery_needs_peat():
    s = make(clock("schnapps_distillery", {"goods": {"peat": 0, "wood": 4}}))
    assert use("schnapps_distillery") not in legal(s)


def test_loading_station_peat_from_the_supply_onto_a_single_space():
    # rules-decisions B5 (tiles.md 2.6 reading 1): peat from the general supply
    d = clock("loading_station", {"barn": {"vehicles": [{"kind": "handcart", "used": []}]},
                                  "goods": {"wood": 0, "clay": 0}})
    s = make(d)
    assert legal(s) & {load("peat", 0, k) for k in range(4)} == {load("peat", 0, 0)}
    s.apply(load("peat", 0, 0))
    used_at_turn(s)
    check(s, d, done=False, barn={"vehicles": [{"kind": "handcart", "used": [0]}]},
          loaded={"peat": 1})


def test_loading_station_peat_arrives_at_inventorying():
    d = clock("loading_station", {"barn": {"vehicles": [{"kind": "handcart", "used": [0]}]},
                                  "loaded": {"peat": 1}}, workers_placed=8)
    s = make(d)
    assert s.half_year == 2
    # 3 peat + 1 unloaded - 2 heating; 5 food - 3
    assert s.to_dict()["players"][0] == expected(
        d, goods={"peat": 2, "food": 2, "grain": 2, "flax": 4},
        barn={"vehicles": [{"kind": "handcart", "used": []}]}, loaded={"peat": 0})


def test_loading_station_never_on_the_carriage_bench():
    d = clock("loading_station", {"barn": {"vehicles": [{"kind": "carriage", "used": []}]},
                                  "goods": {"wood": 0, "clay": 0}})
    s = make(d)
    assert legal(s) & {load("peat", 0, k) for k in range(4)} == {load("peat", 0, 0)}


def test_peat_not_loadable_without_loading_station():
    d = pos({"barn": {"vehicles": [{"kind": "handcart", "used": []}]}})
    assert not legal(make(d)) & {load("peat", 0, k) for k in range(4)}


def test_litter_storage_flax_for_a_horse_with_two_horses():
    d = clock("litter_storage", {"animals": {"horse": 2}, "goods": {"flax": 6}})
    s = play(make(d), use("litter_storage"), use("litter_storage"))
    used_at_turn(s)
    check(s, d, done=False, goods={"flax": 0}, animals={"horse": 4})


def test_litter_storage_needs_two_horses():
    s = make(clock("litter_storage", {"goods": {"flax": 9}}))
    assert use("litter_storage") not in legal(s)


def test_wood_trader_food_and_timber_for_two_wood():
    d = clock("wood_trader", {"goods": {"timber": 1}})
    s = play(make(d), use("wood_trader"))
    used_at_turn(s)
    check(s, d, done=False, goods={"food": 4, "timber": 0, "wood": 6})


def test_wood_trader_wood_does_not_replace_timber():
    s = make(clock("wood_trader", {"goods": {"timber": 0, "wood": 9}}))
    assert use("wood_trader") not in legal(s)


def test_clock_building_only_for_its_owner():
    d = clock("schnapps_distillery", workers_placed=1)
    s = make(d)
    assert s.current_player == 1
    assert use("schnapps_distillery") not in legal(s)


def test_clock_building_in_the_closing_window():
    s = make(clock("schnapps_distillery", workers_placed=8))
    assert (s.pending, s.current_player) == ("end_window", 0)
    assert legal(s) == {STOP, use("schnapps_distillery")}


def test_clock_building_before_final_scoring():
    d = clock("schnapps_distillery", {"goods": {"grain": 5, "food": 9}}, half_year=9,
              workers_placed=8)
    s = play(make(d), STOP)          # closing window: end it
    assert (s.pending, s.current_player) == ("final_window", 0)
    assert legal(s) == {STOP, use("schnapps_distillery")}


# ---------------------------------------------------------------------------------------------
# yellow: one-off effects when built (tiles.md 2.6)
# ---------------------------------------------------------------------------------------------


def built(key: str, goods: dict | None = None, *after: int, p1: dict | None = None,
          **sections: Any):
    """Player 0 holds exactly the cost of `key` plus `goods` (nothing else) and builds it."""
    have = bare(**goods or {})
    for g, n in EXACT[key].items():
        have[g] += n
    d = pos({"goods": have, **sections}, p1, play_=[key])
    return d, build_it(d, key, *after)


def test_turnery_per_forest_two_cuts_and_one_wood():
    # a park is not a forest
    d, s = built("turnery", None, home={"dikes": 1, "forests": 2, "parks": 1})
    check(s, d, goods=bare(wood=2, peat=4),
          home={"buildings": ["turnery"], "boardwalk_peat": 0})


def test_turnery_cuts_limited_by_peat_on_the_moors():
    d, s = built("turnery", None, home={"dikes": 1, "forests": 3, "boardwalk_peat": 3})
    check(s, d, goods=bare(wood=3, peat=3), home={"buildings": ["turnery"], "boardwalk_peat": 0})


def test_smokehouse_one_cut_per_fish_trap():
    d, s = built("smokehouse", None, tools={"fish_traps": 3})
    check(s, d, goods=bare(peat=3), home={"buildings": ["smokehouse"], "boardwalk_peat": 1})


def test_smokehouse_player_chooses_the_moor():
    d, s = built("smokehouse", None, home={"hydrated_moors": 2, "dehydrated_moors": [4]})
    assert legal(s) == {cut(0), cut(4)}
    s.apply(cut(4))
    assert legal(s) == {cut(0), cut(3)}
    s.apply(cut(3))
    check(s, d, goods=bare(peat=2),
          home={"buildings": ["smokehouse"], "dehydrated_moors": [2]})


def test_smithy_swaps_peat_boats_and_handcarts_not_carts():
    barn = {"peat_boats": 1, "vehicles": [{"kind": "handcart", "used": []},
                                          {"kind": "cart", "used": []}]}
    d, s = built("smithy", None, barn=barn)
    assert legal(s) == {STOP, vehicle("peat_boat"), vehicle("handcart")}
    s.apply(vehicle("peat_boat"))
    s.apply(vehicle("handcart"))
    check(s, d, goods=bare(), home={"buildings": ["smithy"]},
          barn={"peat_boats": 0, "plows": 2, "vehicles": [{"kind": "cart", "used": []}]})


def test_smithy_as_many_as_you_like():
    barn = {"peat_boats": 2, "vehicles": [{"kind": "wagon", "used": []}]}
    d, s = built("smithy", None, barn=barn)
    assert legal(s) == {STOP, vehicle("peat_boat"), vehicle("wagon")}
    s.apply(vehicle("wagon"))
    s.apply(STOP)
    check(s, d, goods=bare(), home={"buildings": ["smithy"]},
          barn={"peat_boats": 2, "plows": 1, "vehicles": []})


@pytest.mark.parametrize("animals,k", [
    ({"sheep": 4}, 0),
    ({"sheep": 3, "cattle": 2}, 1),
    ({"sheep": 5, "cattle": 4, "horse": 9}, 1),      # horses do not count
    ({"sheep": 6, "cattle": 4}, 2),
    ({"sheep": 10, "cattle": 5}, 3),
    ({"sheep": 12, "cattle": 8}, 3),
])
def test_cooperage_by_sheep_and_cattle(animals, k):
    home = {"dikes": 4, "stables": 3}
    d, s = built("cooperage", None, animals=animals, home=home)
    check(s, d, goods=bare(food=2 * k, grain=k, flax=k, wool=k, hide=k),
          home={"buildings": ["cooperage"]})


def test_cooperage_goods_capped():
    d, s = built("cooperage", {"grain": 14, "food": 29}, animals={"sheep": 10},
                 home={"dikes": 1})
    check(s, d, goods=bare(food=30, grain=15, flax=2, wool=2, hide=2),
          home={"buildings": ["cooperage"]})


def test_bakehouse_up_to_oven_count_exchanges():
    d, s = built("bakehouse", {"grain": 7, "flax": 3}, tools={"ovens": 2})
    assert legal(s) == {STOP, MORE}
    s.apply(MORE)
    s.apply(MORE)       # the second and last (2 ovens): the window closes by itself
    check(s, d, goods=bare(grain=3, flax=1, food=16), home={"buildings": ["bakehouse"]})


def test_bakehouse_stop_early():
    d, s = built("bakehouse", {"grain": 7, "flax": 3}, tools={"ovens": 3})
    s.apply(MORE)
    s.apply(STOP)
    check(s, d, goods=bare(grain=5, flax=2, food=8), home={"buildings": ["bakehouse"]})


def test_bakehouse_one_oven_one_exchange():
    d, s = built("bakehouse", {"grain": 7, "flax": 3}, MORE)
    check(s, d, goods=bare(grain=5, flax=2, food=8), home={"buildings": ["bakehouse"]})


# ---------------------------------------------------------------------------------------------
# orange
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("grain,flax,food", [
    (1, 1, 0), (2, 1, 8), (2, 2, 8), (3, 2, 10), (3, 3, 12), (4, 3, 12),
])
def test_mill_food_by_field_tiles(grain, flax, food):
    d, s = built("mill", {"grain": 6}, home={"dikes": 4, "grain_fields": grain,
                                              "flax_fields": flax})
    check(s, d, goods=bare(grain=6, food=food), home={"buildings": ["mill"]})


def test_weaving_mill_winter_wear_and_two_loom_steps():
    d, s = built("weaving_mill", None, tools={"weaving_looms": 3})
    check(s, d, goods=bare(winter_wear=1), tools={"weaving_looms": 5},
          home={"buildings": ["weaving_mill"]})
    assert vp(s, "tools") == 4.0


def test_textile_house_one_of_each_fabric():
    d, s = built("textile_house", {"linen": 2})
    check(s, d, goods=bare(linen=3, woolen=1, leather=1), home={"buildings": ["textile_house"]})


def test_saddlery_cut_per_horse_and_fleshing_beam():
    d, s = built("saddlery", None, animals={"horse": 3})
    check(s, d, goods=bare(peat=3), tools={"fleshing_beams": 5},
          home={"buildings": ["saddlery"], "boardwalk_peat": 1})


def test_saddlery_fleshing_beams_at_the_end_stay():
    d, s = built("saddlery", None, animals={"horse": 5}, tools={"fleshing_beams": 6})
    check(s, d, goods=bare(peat=4), home={"buildings": ["saddlery"], "boardwalk_peat": 0})


def test_joinery_horse_per_plow_two_peat_per_boat_not_cut():
    d, s = built("joinery", None, barn={"plows": 2, "peat_boats": 1})
    check(s, d, goods=bare(peat=2), animals={"horse": 3}, home={"buildings": ["joinery"]})


def test_waterfront_house_food_dikes_fish_traps():
    d, s = built("waterfront_house", {"food": 3}, tools={"fish_traps": 3})
    check(s, d, goods=bare(food=13), tools={"fish_traps": 6},
          home={"buildings": ["waterfront_house"], "dikes": 2})


def test_waterfront_house_dikes_beyond_seven_lost():
    d, s = built("waterfront_house", {"food": 5}, home={"dikes": 6})
    check(s, d, goods=bare(food=15), tools={"fish_traps": 5},
          home={"buildings": ["waterfront_house"], "dikes": 7})


# ---------------------------------------------------------------------------------------------
# blue (inns)
# ---------------------------------------------------------------------------------------------


def test_potters_inn_one_animal_per_pottery_wheel_any_kind():
    d, s = built("potters_inn", None, tools={"pottery_wheels": 3})
    assert legal(s) == {animal("sheep"), animal("cattle"), animal("horse")}
    s.apply(animal("cattle"))
    assert legal(s) == {animal("cattle"), animal("horse")}     # equivalent orders (D4)
    s.apply(animal("horse"))     # the last one is forced: a horse (D4 order)
    check(s, d, goods=bare(), animals={"cattle": 1, "horse": 3},
          home={"buildings": ["potters_inn"]})


def test_farmers_inn_three_fields_to_forests():
    d, s = built("farmers_inn", None, home={"dikes": 1, "grain_fields": 2, "flax_fields": 2})
    assert legal(s) == {STOP, tile("grain_field"), tile("flax_field")}
    play(s, tile("grain_field"), tile("grain_field"), tile("flax_field"))
    check(s, d, goods=bare(), home={"buildings": ["farmers_inn"], "grain_fields": 0,
                                    "flax_fields": 1, "forests": 3})


def test_farmers_inn_up_to_three():
    d, s = built("farmers_inn", None, tile("flax_field"), STOP)
    check(s, d, goods=bare(), home={"buildings": ["farmers_inn"], "flax_fields": 0,
                                    "forests": 1})


def test_farmers_inn_limited_by_forest_supply():
    # 5 forest/park tiles: player 1 holds 4
    d, s = built("farmers_inn", None, tile("grain_field"), p1={"home": {"dikes": 1,
                                                                        "forests": 4}})
    check(s, d, goods=bare(), home={"buildings": ["farmers_inn"], "grain_fields": 0,
                                    "forests": 1})


def test_junk_dealers_inn_peat_boat_or_handcart_and_clothing():
    d, s = built("junk_dealers_inn")
    assert legal(s) == {vehicle("peat_boat"), vehicle("handcart")}
    s.apply(vehicle("peat_boat"))
    check(s, d, goods=bare(leather_wear=1, woolen=1), barn={"peat_boats": 1},
          home={"buildings": ["junk_dealers_inn"]})


def test_junk_dealers_inn_full_barn_only_clothing():
    barn = {"peat_boats": 5, "vehicles": [{"kind": "cart", "used": []},
                                          {"kind": "cart", "used": []}]}
    d, s = built("junk_dealers_inn", barn=barn)
    check(s, d, goods=bare(leather_wear=1, woolen=1), home={"buildings": ["junk_dealers_inn"]})


def test_gulf_house_inn_timber_per_stall_brick_per_stable():
    # rules-decisions B3 (tiles.md 9.3 open): a double stall counts as two stalls; depots nothing
    home = {"dikes": 1, "stalls": 2, "stables": 1, "double_stalls": 1, "depots": 1}
    d, s = built("gulf_house_inn", None, home=home)
    check(s, d, goods=bare(timber=4, brick=1), home={"buildings": ["gulf_house_inn"]})


def test_milk_house_inn_cattle_then_cut_per_cattle():
    d, s = built("milk_house_inn", None, animals={"cattle": 2})
    check(s, d, goods=bare(peat=3), animals={"cattle": 3},
          home={"buildings": ["milk_house_inn"], "boardwalk_peat": 1})


def test_sluice_yard_inn_two_fish_steps_then_wood_per_trap():
    d, s = built("sluice_yard_inn", None, tools={"fish_traps": 3})
    check(s, d, goods=bare(wood=5), tools={"fish_traps": 5},
          home={"buildings": ["sluice_yard_inn"]})


def test_sluice_yard_inn_fish_traps_stop_at_six():
    d, s = built("sluice_yard_inn", None, tools={"fish_traps": 5})
    check(s, d, goods=bare(wood=6), tools={"fish_traps": 6},
          home={"buildings": ["sluice_yard_inn"]})


# ---------------------------------------------------------------------------------------------
# red
# ---------------------------------------------------------------------------------------------


def test_village_church_gives_a_carriage():
    d, s = built("village_church", None, barn={"vehicles": [{"kind": "cart", "used": []}]})
    check(s, d, goods=bare(), home={"buildings": ["village_church"]},
          barn={"vehicles": [{"kind": "cart", "used": []}, {"kind": "carriage", "used": []}]})
    assert vp(s, "barn") == 1 + 4


def test_village_church_no_large_space_nothing():
    # rules-decisions B6 (tiles.md 9.11 open): 3 large vehicles fill the 2 large + 1 either
    vehicles = [{"kind": "cart", "used": []}] * 3
    d, s = built("village_church", None, barn={"vehicles": vehicles})
    check(s, d, goods=bare(), home={"buildings": ["village_church"]})


def test_lutetsburg_castle_forest_and_three_tool_steps():
    d, s = built("lutetsburg_castle")
    assert legal(s) == {STOP, tile("forest")}
    s.apply(tile("forest"))
    check(s, d, goods=bare(), tools={"spades": 5, "pottery_wheels": 3, "workbenches": 3},
          home={"buildings": ["lutetsburg_castle"], "forests": 1})


def test_lutetsburg_castle_tools_at_the_end_stay():
    tools = {"spades": 7, "pottery_wheels": 4, "workbenches": 3}
    d, s = built("lutetsburg_castle", None, STOP, tools=tools)
    check(s, d, goods=bare(), tools={"workbenches": 4},
          home={"buildings": ["lutetsburg_castle"]})


def test_berum_castle_oven_loom_and_one_flip():
    d, s = built("berum_castle", None, home={"forests": 1})
    assert legal(s) == {flip("moor"), flip("forest"), flip("stall")}
    s.apply(flip("forest"))
    check(s, d, goods=bare(), tools={"ovens": 2, "weaving_looms": 3},
          home={"buildings": ["berum_castle"], "forests": 0, "parks": 1})


# ---------------------------------------------------------------------------------------------
# each building once; placement on the home board (tiles.md 2.3)
# ---------------------------------------------------------------------------------------------

RICH = {"goods": {"timber": 9, "brick": 9, "food": 30, "grain": 9, "wood": 9, "clay": 9}}


def test_built_building_leaves_the_board_and_is_not_offered_again():
    d = pos(RICH, play_=["joinery"])
    s = build_it(d, "joinery")
    assert "joinery" not in s.to_dict()["buildings_on_board"]
    again = s.to_dict()
    again.pop("pending")
    again["workers_placed"] = 0
    again["occupied"] = {}
    assert "joinery" not in offered(again)                 # the builder, again
    again["workers_placed"] = 1
    again["players"][1]["goods"].update(RICH["goods"])
    assert "joinery" not in offered(again)                 # the other player
    assert "mill" in offered(again)


def test_taken_building_not_offered_to_the_other_player():
    d = pos(p1=RICH, own0=["village_church"], workers_placed=1)
    got = offered(d)
    assert "village_church" not in got
    assert {"lutetsburg_castle", "berum_castle"} <= got


def test_position_with_a_building_twice_rejected():
    d = pos(own0=["mill"])
    d["players"][1]["home"]["buildings"] = ["mill"]
    with pytest.raises(arle_ai.PositionError):
        make(d)
    d = pos(own0=["mill"])
    d["buildings_on_board"].append("mill")
    with pytest.raises(arle_ai.PositionError):
        make(d)


def test_building_not_in_play_cannot_be_built():
    d = pos(RICH)
    out = [k for k in BUILDINGS if k not in d["setup"]["buildings"]]
    assert out and not offered(d) & set(out)


def test_building_needs_a_free_land_space():
    # 2 free land spaces at the start: 2 forests fill them
    d = pos({**RICH, "home": {"forests": 2}}, play_=["village_church"])
    assert offered(d) == set()


@pytest.mark.parametrize("key,after", [
    ("village_church", ()), ("weaving_parlor", (L["good"] + GOODS.index("wood"),)), ("mill", ()),
])
def test_every_building_takes_one_land_space(key, after):
    # one free land space (a forest on the other): the building takes it, nothing more fits
    d = pos({**RICH, "home": {"forests": 1}}, play_=[key])
    s = build_it(d, key, *after)
    assert key in s.to_dict()["players"][0]["home"]["buildings"]
    s2 = s.to_dict()
    s2.pop("pending")
    s2["workers_placed"] = 0
    s2["occupied"] = {}
    s2["players"][0]["goods"].update(RICH["goods"])
    assert offered(s2) == set()
    s2["players"][0]["home"]["forests"] = 0          # the forest's space frees one again
    assert offered(s2)


def test_building_on_land_holding_animals_displaces_them():
    # 12 horses: stall 3 + 2 empty land spaces x 2 + 5 dikes; the building takes a land space
    d = pos({"animals": {"horse": 12}, "goods": bare(wood=1, grain=1)}, play_=["wood_trader"])
    s = build_it(d, "wood_trader")       # only horses to return: returned automatically
    check(s, d, goods=bare(), animals={"horse": 10}, home={"buildings": ["wood_trader"]})


@pytest.mark.parametrize("space,season", [
    ("summer_carpenter", 1), ("forester", 1), ("winter_laborer", 2), ("wood_trader", 2),
])
def test_other_spaces_that_build(space, season):
    # tiles.md 2.2: Forester, Wood Trader, summer Carpenter and winter Laborer also build
    d = pos({"goods": bare(timber=2, grain=5, food=3)}, play_=["joinery"], half_year=season)
    s = play(make(d), place(space))
    if s.pending != "turn":
        assert build("joinery") in legal(s)
        s.apply(build("joinery"))
    space_cost = {"forester": 1, "winter_laborer": 2, "wood_trader": 1}.get(space, 0)
    check(s, d, goods=bare(food=3 - space_cost), home={"buildings": ["joinery"]})


# ---------------------------------------------------------------------------------------------
# setup selection (tiles.md 2.1; core.md 1.1)
# ---------------------------------------------------------------------------------------------


def selection(seed: int, variant: str = "standard") -> list[str]:
    return arle_ai.new_game(seed, variant).to_dict()["setup"]["buildings"]


@pytest.mark.parametrize("seed", [0, 1, 7, 123])
def test_standard_setup_four_of_seven_dark_green(seed):
    sel = selection(seed)
    assert len([k for k in sel if k in DARK]) == 4
    assert not set(sel) & set(LIGHT)
    for g, n in SPACES.items():
        assert len([k for k in sel if group(k) == g]) == n
    assert {k for k in REF if REF[k][0] in ("orange", "red")} <= set(sel)
    assert set(arle_ai.new_game(seed).to_dict()["buildings_on_board"]) == set(sel)


def test_standard_setup_drawn_by_seed():
    assert selection(5) == selection(5)
    sels = {frozenset(selection(seed)) for seed in range(40)}
    assert len(sels) > 10
    for k in DARK + ["turnery", "smokehouse", "smithy", "cooperage", "bakehouse", "potters_inn",
                     "farmers_inn", "junk_dealers_inn", "gulf_house_inn", "milk_house_inn",
                     "sluice_yard_inn"]:
        assert any(k in s for s in sels) and any(k not in s for s in sels), k


@pytest.mark.parametrize("seed", [0, 3])
def test_first_game_setup_the_four_light_green(seed):
    sel = set(selection(seed, "first-game"))
    assert {k for k in sel if group(k) == "green"} == {
        "farmers_house", "plow_makers_workshop", "novices_hut", "workshop"}
    assert set(rules.FIRST_GAME_GREEN) == set(LIGHT)
    for g, n in SPACES.items():
        assert len([k for k in sel if group(k) == g]) == n
