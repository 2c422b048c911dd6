"""The 15 winter action spaces (actions.md §1, §4-8, §10; core.md 4.2-4.3 for caps and
substitutions, 2.4-2.5 for dikes and moors).

Every test builds a concrete position from base() with an even half-year, takes the action
(place(...) then the sub-decision ids) and compares the acting player's whole part of to_dict()
with the expected one; the opponent must be unchanged. Player 0 acts (start player, no worker
placed yet) unless a test says otherwise. The special action (a winter space in summer) is the
ordinary place(winter space) id in an odd half-year.
"""

from __future__ import annotations

import functools

import pytest

import arle_ai
from helpers import (
    MORE,
    PASS,
    STOP,
    animal,
    build,
    check_action,
    cut,
    flip,
    good,
    imitate,
    legal,
    make,
    place,
    play,
    position,
    run,
    tile,
    tool,
    vehicle,
    vp,
)

WINTER = ["peat_boatman", "tanner", "linen_weaver", "butcher", "cattle_trader", "winter_grocer",
          "builders_merchant", "potter", "baker", "wood_trader", "winter_master", "wainwright",
          "dike_warden", "winter_carpenter", "winter_laborer"]

# ---------------------------------------------------------------------------------------------
# position builders and checks
# ---------------------------------------------------------------------------------------------

pos = functools.partial(position, half_year=2)  # winter by default
check = check_action


def imitations(s: arle_ai.GameState) -> set[int]:
    return {a for a in legal(s) if imitate("fisherman") <= a <= imitate("winter_laborer")}


def builds(s: arle_ai.GameState) -> set[int]:
    return {a for a in legal(s) if build("farmers_house") <= a <= build("berum_castle")}


# the start position's scores (player 0): 3 hydrated moors -12, boardwalk -3, stall +2,
# top tidal row -3 (core.md 8.5); barn: no large vehicle -3
START_HOME_VP = -16.0
START_BARN_VP = -3.0


# ---------------------------------------------------------------------------------------------
# W1 Peat Boatman
# ---------------------------------------------------------------------------------------------


def test_peat_boatman_three_peat_from_the_supply():
    d = pos()
    s = run(d, place("peat_boatman"))
    check(s, d, goods={"peat": 6})      # the boardwalk keeps its 4: not cut


def test_peat_boatman_one_more_per_peat_boat():
    d = pos({"barn": {"peat_boats": 2}, "goods": {"peat": 0}})
    s = run(d, place("peat_boatman"))
    check(s, d, goods={"peat": 5})


def test_peat_boatman_plow_from_a_flipped_boat_does_not_count():
    d = pos({"barn": {"peat_boats": 1, "plows": 2}, "goods": {"peat": 1}})
    s = run(d, place("peat_boatman"))
    check(s, d, goods={"peat": 5})


def test_peat_boatman_peat_has_no_cap():
    d = pos({"barn": {"peat_boats": 4}, "goods": {"peat": 40}})
    s = run(d, place("peat_boatman"))
    check(s, d, goods={"peat": 47})


def test_peat_boatman_works_without_moors():
    d = pos({"home": {"hydrated_moors": 0, "boardwalk_peat": 0}, "goods": {"peat": 0}})
    s = run(d, place("peat_boatman"))
    check(s, d, goods={"peat": 3})


# ---------------------------------------------------------------------------------------------
# W2 Tanner
# ---------------------------------------------------------------------------------------------


def test_tanner_three_beams_limited_by_two_hides():
    d = pos()
    s = run(d, place("tanner"))
    assert s.pending == "action:tanner"
    assert legal(s) == {STOP, MORE}
    play(s, MORE, MORE)                  # no hide left: the action ends
    check(s, d, goods={"hide": 0, "leather": 2})


def test_tanner_three_beams_three_exchanges_then_ends():
    d = pos({"goods": {"hide": 10, "leather": 1}})
    s = run(d, place("tanner"), MORE, MORE, MORE)
    check(s, d, goods={"hide": 7, "leather": 4})


def test_tanner_five_and_six_beams():
    d = pos({"tools": {"fleshing_beams": 5}, "goods": {"hide": 15}})
    s = run(d, place("tanner"), *[MORE] * 5)
    check(s, d, goods={"hide": 10, "leather": 5})
    d = pos({"tools": {"fleshing_beams": 6}, "goods": {"hide": 15}})
    s = run(d, place("tanner"), *[MORE] * 6)
    check(s, d, goods={"hide": 9, "leather": 6})


def test_tanner_fewer_exchanges_than_beams():
    d = pos({"goods": {"hide": 10}})
    s = run(d, place("tanner"), MORE)
    assert legal(s) == {STOP, MORE}
    s.apply(STOP)
    check(s, d, goods={"hide": 9, "leather": 1})


def test_tanner_zero_exchanges():
    d = pos()
    s = run(d, place("tanner"), STOP)
    check(s, d)


def test_tanner_limited_by_hide_not_wool():
    # PH caps the tanner by wool (actions.md W2 note): 10 wool and 1 hide give 1 leather
    d = pos({"goods": {"wool": 10, "hide": 1}})
    s = run(d, place("tanner"), MORE)
    check(s, d, goods={"hide": 0, "leather": 1})


def test_tanner_without_hide_does_nothing():
    d = pos({"goods": {"hide": 0, "wool": 10}})
    s = run(d, place("tanner"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# W3 Linen Weaver
# ---------------------------------------------------------------------------------------------


def test_linen_weaver_two_looms_two_exchanges():
    d = pos()
    s = run(d, place("linen_weaver"), MORE, MORE)
    check(s, d, goods={"flax": 1, "linen": 2})


def test_linen_weaver_fewer_exchanges_than_looms():
    d = pos({"tools": {"weaving_looms": 4}, "goods": {"flax": 10}})
    s = run(d, place("linen_weaver"), MORE, MORE)
    assert legal(s) == {STOP, MORE}
    s.apply(STOP)
    check(s, d, goods={"flax": 8, "linen": 2})


def test_linen_weaver_zero_exchanges():
    d = pos()
    s = run(d, place("linen_weaver"), STOP)
    check(s, d)


def test_linen_weaver_limited_by_flax():
    d = pos({"tools": {"weaving_looms": 5}, "goods": {"flax": 2, "linen": 3}})
    s = run(d, place("linen_weaver"), MORE, MORE)
    check(s, d, goods={"flax": 0, "linen": 5})


def test_linen_weaver_five_looms_wool_untouched():
    d = pos({"tools": {"weaving_looms": 5}, "goods": {"flax": 15, "wool": 15}})
    s = run(d, place("linen_weaver"), *[MORE] * 5)
    check(s, d, goods={"flax": 10, "linen": 5})


def test_linen_weaver_without_flax_does_nothing():
    d = pos({"goods": {"flax": 0}})
    s = run(d, place("linen_weaver"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# W4 Butcher
# ---------------------------------------------------------------------------------------------


def test_butcher_sheep_three_food_cattle_four_food_two_hides_each():
    d = pos({"animals": {"sheep": 1, "cattle": 1, "horse": 1}})
    s = run(d, place("butcher"))
    assert legal(s) == {STOP, animal("sheep"), animal("cattle"), animal("horse")}
    play(s, animal("sheep"), animal("cattle"))      # 2 tables: the action ends
    check(s, d, goods={"food": 5 + 3 + 4, "hide": 2 + 4}, animals={"sheep": 0, "cattle": 0})


def test_butcher_horse_three_food():
    d = pos()
    s = run(d, place("butcher"), animal("horse"))   # the only animal: then only STOP is left
    check(s, d, goods={"food": 8, "hide": 4}, animals={"horse": 0})


def test_butcher_two_of_one_type():
    d = pos({"animals": {"cattle": 3, "horse": 0}})
    s = run(d, place("butcher"), animal("cattle"), animal("cattle"))
    check(s, d, goods={"food": 13, "hide": 6}, animals={"cattle": 1})


def test_butcher_fewer_than_tables():
    d = pos({"animals": {"sheep": 3}})
    s = run(d, place("butcher"), animal("sheep"))
    assert STOP in legal(s)
    s.apply(STOP)
    check(s, d, goods={"food": 8, "hide": 4}, animals={"sheep": 2})


def test_butcher_zero():
    d = pos()
    s = run(d, place("butcher"), STOP)
    check(s, d)


def test_butcher_four_tables():
    d = pos({"tools": {"slaughtering_tables": 4}, "animals": {"sheep": 2, "cattle": 2, "horse": 1},
             "goods": {"food": 0, "hide": 0}})
    s = run(d, place("butcher"), animal("sheep"), animal("cattle"), animal("cattle"),
            animal("horse"))
    check(s, d, goods={"food": 3 + 4 + 4 + 3, "hide": 8},
          animals={"sheep": 1, "cattle": 0, "horse": 0})


def test_butcher_food_capped_at_30():
    d = pos({"goods": {"food": 28}, "animals": {"cattle": 1}})
    s = run(d, place("butcher"), animal("cattle"), STOP)
    check(s, d, goods={"food": 30, "hide": 4}, animals={"cattle": 0})


def test_butcher_hide_capped_at_15():
    d = pos({"goods": {"hide": 14, "food": 0}, "animals": {"sheep": 2, "horse": 0}})
    s = run(d, place("butcher"), animal("sheep"), animal("sheep"))
    check(s, d, goods={"hide": 15, "food": 6}, animals={"sheep": 0})


def test_butcher_without_animals_does_nothing():
    d = pos({"animals": {"horse": 0}})
    s = run(d, place("butcher"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# W5 Cattle Trader
# ---------------------------------------------------------------------------------------------


def test_cattle_trader_offers_cattle_or_horse():
    s = run(pos(), place("cattle_trader"))
    assert s.pending == "action:cattle_trader"
    assert legal(s) == {animal("cattle"), animal("horse")}


def test_cattle_trader_two_grain_sheep_and_cattle():
    d = pos()
    s = run(d, place("cattle_trader"), animal("cattle"))
    check(s, d, goods={"grain": 3}, animals={"sheep": 1, "cattle": 1})


def test_cattle_trader_two_grain_sheep_and_horse_not_food():
    d = pos()
    s = run(d, place("cattle_trader"), animal("horse"))
    check(s, d, goods={"grain": 3}, animals={"sheep": 1, "horse": 2})   # food stays 5


def test_cattle_trader_grain_capped_at_15():
    d = pos({"goods": {"grain": 14}})
    s = run(d, place("cattle_trader"), animal("cattle"))
    check(s, d, goods={"grain": 15}, animals={"sheep": 1, "cattle": 1})


def test_cattle_trader_animals_must_be_housed():
    # 12 horses fill stall 3 + 2 empty land spaces x 2 + 5 dikes: sheep and cattle do not fit
    d = pos({"animals": {"horse": 12}})
    s = run(d, place("cattle_trader"), animal("cattle"))
    assert s.pending == "discard"
    play(s, animal("sheep"), animal("cattle"))
    check(s, d, goods={"grain": 3})


# ---------------------------------------------------------------------------------------------
# W6 Grocer (winter)
# ---------------------------------------------------------------------------------------------


def test_winter_grocer_offers_any_animal():
    s = run(pos(), place("winter_grocer"))
    assert s.pending == "action:winter_grocer"
    assert legal(s) == {animal("sheep"), animal("cattle"), animal("horse")}


@pytest.mark.parametrize("kind,animals", [("sheep", {"sheep": 1}), ("cattle", {"cattle": 1}),
                                          ("horse", {"horse": 2})])
def test_winter_grocer_animal_wood_clay_and_one_peat_cut(kind, animals):
    d = pos()
    s = run(d, place("winter_grocer"), animal(kind))   # the boardwalk is the only source
    check(s, d, goods={"wood": 5, "clay": 5, "peat": 4}, animals=animals,
          home={"boardwalk_peat": 3})


def test_winter_grocer_player_chooses_the_moor_tile():
    d = pos({"home": {"hydrated_moors": 2, "dehydrated_moors": [3]}})
    s = run(d, place("winter_grocer"), animal("sheep"))
    assert s.pending == "action:cut"
    assert legal(s) == {cut(0), cut(3)}
    s.apply(cut(3))
    check(s, d, goods={"wood": 5, "clay": 5, "peat": 4}, animals={"sheep": 1},
          home={"dehydrated_moors": [2]})


def test_winter_grocer_cuts_only_one_peat():
    d = pos({"home": {"hydrated_moors": 1, "dehydrated_moors": [4, 4]}})
    s = run(d, place("winter_grocer"), animal("cattle"), cut(4))
    check(s, d, goods={"wood": 5, "clay": 5, "peat": 4}, animals={"cattle": 1},
          home={"dehydrated_moors": [4, 3]})


def test_winter_grocer_no_peat_on_moors_rest_still_applies():
    d = pos({"home": {"boardwalk_peat": 0}})
    s = run(d, place("winter_grocer"), animal("sheep"))
    check(s, d, goods={"wood": 5, "clay": 5}, animals={"sheep": 1})    # peat stays 3


def test_winter_grocer_cut_empties_a_dehydrated_moor():
    d = pos({"home": {"hydrated_moors": 2, "dehydrated_moors": [1], "boardwalk_peat": 0}})
    s = run(d, place("winter_grocer"), animal("sheep"))
    check(s, d, goods={"wood": 5, "clay": 5, "peat": 4}, animals={"sheep": 1},
          home={"dehydrated_moors": []})
    assert vp(s, "home_board") == vp(make(d), "home_board") + 1       # the -1 moor is gone


# ---------------------------------------------------------------------------------------------
# W7 Builders' Merchant
# ---------------------------------------------------------------------------------------------


def test_builders_merchant_first_wood_or_clay_then_timber_or_brick():
    s = run(pos(), place("builders_merchant"))
    assert s.pending == "action:builders_merchant"
    assert legal(s) == {good("wood"), good("clay")}
    s.apply(good("clay"))
    assert legal(s) == {good("timber"), good("brick")}


@pytest.mark.parametrize("first,second", [("wood", "timber"), ("wood", "brick"),
                                          ("clay", "timber"), ("clay", "brick")])
def test_builders_merchant_two_hides_and_both_choices(first, second):
    d = pos()
    s = run(d, place("builders_merchant"), good(first), good(second))
    start = d["players"][0]["goods"]
    check(s, d, goods={"hide": 4, first: start[first] + 1, second: start[second] + 1})


def test_builders_merchant_hide_capped_at_15():
    d = pos({"goods": {"hide": 14}})
    s = run(d, place("builders_merchant"), good("wood"), good("brick"))
    check(s, d, goods={"hide": 15, "wood": 5, "brick": 1})


# ---------------------------------------------------------------------------------------------
# W8 Potter
# ---------------------------------------------------------------------------------------------


def test_potter_two_wheels_clay_for_three_food_and_a_peat():
    d = pos()
    s = run(d, place("potter"), MORE, MORE)
    check(s, d, goods={"clay": 2, "food": 11, "peat": 5})


def test_potter_peat_from_the_supply_moors_untouched():
    d = pos({"tools": {"pottery_wheels": 3}, "goods": {"peat": 0, "food": 0, "clay": 5}})
    s = run(d, place("potter"), MORE, MORE, MORE)
    check(s, d, goods={"clay": 2, "food": 9, "peat": 3})


def test_potter_four_wheels():
    d = pos({"tools": {"pottery_wheels": 4}, "goods": {"clay": 6, "food": 0}})
    s = run(d, place("potter"), *[MORE] * 4)
    check(s, d, goods={"clay": 2, "food": 12, "peat": 7})


def test_potter_fewer_and_zero():
    d = pos()
    s = run(d, place("potter"), MORE)
    assert legal(s) == {STOP, MORE}
    s.apply(STOP)
    check(s, d, goods={"clay": 3, "food": 8, "peat": 4})
    s = run(d, place("potter"), STOP)
    check(s, d)


def test_potter_limited_by_clay():
    d = pos({"tools": {"pottery_wheels": 4}, "goods": {"clay": 1}})
    s = run(d, place("potter"), MORE)
    check(s, d, goods={"clay": 0, "food": 8, "peat": 4})


def test_potter_brick_not_accepted_for_clay():
    # rules-decisions A3 (actions.md W8 leaves it open: never useful)
    d = pos({"goods": {"clay": 0, "brick": 3}})
    s = run(d, place("potter"))
    check(s, d)


def test_potter_food_capped_at_30_peat_still_gained():
    d = pos({"goods": {"food": 28}})
    s = run(d, place("potter"), MORE, STOP)
    check(s, d, goods={"clay": 3, "food": 30, "peat": 4})


# ---------------------------------------------------------------------------------------------
# W9 Baker
# ---------------------------------------------------------------------------------------------


def test_baker_one_oven_grain_and_peat_for_six_food():
    d = pos()
    s = run(d, place("baker"))
    assert legal(s) == {STOP, MORE}
    s.apply(MORE)                             # one oven: the action ends
    check(s, d, goods={"grain": 0, "peat": 2, "food": 11})


def test_baker_three_ovens():
    d = pos({"tools": {"ovens": 3}, "goods": {"grain": 4, "peat": 5, "food": 0}})
    s = run(d, place("baker"), MORE, MORE, MORE)
    check(s, d, goods={"grain": 1, "peat": 2, "food": 18})


def test_baker_four_ovens_fewer_exchanges():
    d = pos({"tools": {"ovens": 4}, "goods": {"grain": 5, "peat": 5, "food": 0}})
    s = run(d, place("baker"), MORE, MORE)
    assert legal(s) == {STOP, MORE}
    s.apply(STOP)
    check(s, d, goods={"grain": 3, "peat": 3, "food": 12})


def test_baker_zero():
    d = pos()
    s = run(d, place("baker"), STOP)
    check(s, d)


def test_baker_flax_stands_in_for_grain_when_none_left():
    d = pos({"tools": {"ovens": 2}, "goods": {"grain": 0, "flax": 3}})
    s = run(d, place("baker"), MORE, MORE)
    check(s, d, goods={"flax": 1, "peat": 1, "food": 17})


def test_baker_flax_only_after_the_grain():
    d = pos({"tools": {"ovens": 2}, "goods": {"grain": 1, "flax": 3}})
    s = run(d, place("baker"), MORE, MORE)
    check(s, d, goods={"grain": 0, "flax": 2, "peat": 1, "food": 17})


def test_baker_wood_stands_in_for_peat_when_none_left():
    d = pos({"tools": {"ovens": 2}, "goods": {"grain": 2, "peat": 1, "wood": 4}})
    s = run(d, place("baker"), MORE, MORE)
    check(s, d, goods={"grain": 0, "peat": 0, "wood": 3, "food": 17})


def test_baker_timber_pays_as_wood():
    d = pos({"goods": {"peat": 0, "wood": 0, "timber": 1}})
    s = run(d, place("baker"), MORE)
    check(s, d, goods={"grain": 0, "timber": 0, "food": 11})


def test_baker_clay_does_not_stand_in():
    d = pos({"goods": {"peat": 0, "wood": 0, "timber": 0, "clay": 5}})
    s = run(d, place("baker"))
    check(s, d)


def test_baker_without_grain_or_flax_does_nothing():
    d = pos({"goods": {"grain": 0, "flax": 0, "wool": 5}})
    s = run(d, place("baker"))
    check(s, d)


def test_baker_food_capped_at_30():
    d = pos({"tools": {"ovens": 2}, "goods": {"food": 20, "grain": 2}})
    s = run(d, place("baker"), MORE, MORE)
    check(s, d, goods={"food": 30, "grain": 0, "peat": 1})


# ---------------------------------------------------------------------------------------------
# W10 Wood Trader
# ---------------------------------------------------------------------------------------------


def test_wood_trader_one_food_four_wood():
    d = pos()
    s = run(d, place("wood_trader"))
    assert s.pending == "action:wood_trader"
    assert good("wood") in legal(s)
    s.apply(good("wood"))
    check(s, d, goods={"food": 4, "wood": 8})


def test_wood_trader_grain_only_when_no_food():
    d = pos({"goods": {"food": 0, "grain": 2}})
    s = run(d, place("wood_trader"), good("wood"))
    check(s, d, goods={"grain": 1, "wood": 8})


def test_wood_trader_exactly_one_grain_pays_when_no_food():
    # actions.md W10: the cost is 1 food, or 1 grain with no food left; one grain is enough
    d = pos({"goods": {"food": 0, "grain": 1}})
    s = make(d)
    assert place("wood_trader") in legal(s)
    s = run(d, place("wood_trader"))  # nothing left to build with: the wood is forced
    check(s, d, goods={"food": 0, "grain": 0, "wood": 8})


def test_wood_trader_food_paid_while_grain_held():
    d = pos({"goods": {"food": 1, "grain": 5}})
    s = run(d, place("wood_trader"), good("wood"))
    check(s, d, goods={"food": 0, "wood": 8})


def test_wood_trader_needs_food_or_grain():
    s = make(pos({"goods": {"food": 0, "grain": 0}}))
    assert place("wood_trader") not in legal(s)
    assert place("peat_boatman") in legal(s)


def test_wood_trader_builds_a_building():
    d = pos({"goods": {"timber": 2, "grain": 6}})
    s = run(d, place("wood_trader"), build("joinery"))
    check(s, d, goods={"food": 4, "timber": 0, "grain": 1}, home={"buildings": ["joinery"]})
    assert "joinery" not in s.to_dict()["buildings_on_board"]
    assert vp(s, "home_board") == START_HOME_VP + 6


def test_wood_trader_green_house_with_grain_paid_space():
    # no food: the space takes 1 grain, the house another grain and one material
    d = pos({"goods": {"food": 0, "grain": 2}})
    s = run(d, place("wood_trader"), build("colonists_house"), good("wood"))
    check(s, d, goods={"grain": 0, "wood": 3}, home={"buildings": ["colonists_house"]})


def test_wood_trader_food_is_paid_before_the_building_cost():
    s = run(pos({"goods": {"food": 9}}), place("wood_trader"))
    assert build("gulf_house_inn") not in legal(s)
    s = run(pos({"goods": {"food": 10}}), place("wood_trader"))
    assert build("gulf_house_inn") in legal(s)


def test_wood_trader_no_land_only_the_wood():
    d = pos({"home": {"forests": 2}, "goods": {"timber": 2, "grain": 5}})
    s = run(d, place("wood_trader"))       # no land space: the wood is forced
    check(s, d, goods={"food": 4, "wood": 8})


def test_wood_trader_wood_has_no_cap():
    d = pos({"goods": {"wood": 30}})
    s = run(d, place("wood_trader"), good("wood"))
    check(s, d, goods={"food": 4, "wood": 34})


# ---------------------------------------------------------------------------------------------
# W11 Master (winter)
# ---------------------------------------------------------------------------------------------


def test_winter_master_two_moves_each_paid():
    d = pos({"goods": {"brick": 1}})
    s = run(d, place("winter_master"), tool("fleshing_beams"), tool("ovens"))
    check(s, d, goods={"wood": 3, "brick": 0}, tools={"fleshing_beams": 5, "ovens": 2})


def test_winter_master_same_track_twice_not_allowed():
    s = run(pos(), place("winter_master"), tool("slaughtering_tables"))
    assert s.pending == "action:master"
    assert tool("slaughtering_tables") not in legal(s)


def test_winter_master_fewer_and_zero_moves():
    d = pos()
    s = run(d, place("winter_master"), tool("pottery_wheels"), STOP)
    check(s, d, goods={"clay": 3}, tools={"pottery_wheels": 3})
    s = run(d, place("winter_master"), STOP)
    check(s, d)


def test_winter_master_three_workbenches_three_moves():
    d = pos({"tools": {"workbenches": 3}, "goods": {"wood": 4, "clay": 2}})
    s = run(d, place("winter_master"), tool("fleshing_beams"), tool("weaving_looms"),
            tool("pottery_wheels"))
    check(s, d, goods={"wood": 1, "clay": 1},
          tools={"fleshing_beams": 5, "weaving_looms": 3, "pottery_wheels": 3})


def test_winter_master_last_space_not_offered():
    d = pos({"tools": {"fleshing_beams": 6, "slaughtering_tables": 4, "ovens": 4},
             "goods": {"brick": 5}})
    s = run(d, place("winter_master"))
    assert not legal(s) & {tool("fleshing_beams"), tool("slaughtering_tables"), tool("ovens")}
    assert tool("pottery_wheels") in legal(s)


def test_winter_master_brick_pays_clay_timber_pays_wood():
    d = pos({"goods": {"wood": 0, "timber": 1, "clay": 0, "brick": 1}})
    s = run(d, place("winter_master"), tool("fleshing_beams"), tool("slaughtering_tables"))
    check(s, d, goods={"timber": 0, "brick": 0},
          tools={"fleshing_beams": 5, "slaughtering_tables": 3})


def test_winter_master_clay_never_pays_the_oven():
    s = run(pos({"goods": {"clay": 10, "brick": 0}}), place("winter_master"))
    assert tool("ovens") not in legal(s)


def test_winter_master_unaffordable_steps_not_offered():
    d = pos({"goods": {"wood": 1, "timber": 0, "clay": 0, "brick": 0}})
    s = run(d, place("winter_master"))
    # 1 wood: a 1-wood step yes, looms (2 wood) no, clay/brick tracks no
    assert tool("fleshing_beams") in legal(s)
    assert not legal(s) & {tool("weaving_looms"), tool("slaughtering_tables"),
                           tool("pottery_wheels"), tool("ovens"), tool("workbenches")}


def test_winter_master_workbench_step_adds_no_move():
    # rules-decisions A1: N fixed at the start; workbenches 2 -> 3 and one more move, then over
    d = pos({"goods": {"clay": 4, "wood": 4}})
    s = run(d, place("winter_master"), tool("fleshing_beams"), tool("workbenches"))
    check(s, d, goods={"wood": 3, "clay": 2}, tools={"fleshing_beams": 5, "workbenches": 3})


# ---------------------------------------------------------------------------------------------
# W12 Wainwright
# ---------------------------------------------------------------------------------------------


def test_wainwright_offers_vehicles_and_peat_boat_not_plow():
    s = run(pos({"goods": {"wood": 10}, "animals": {"horse": 2}}), place("wainwright"))
    assert legal(s) == {STOP} | {vehicle(v) for v in ("peat_boat", "handcart", "wagon", "cart",
                                                      "horse_cart", "carriage", "droshky")}


def test_wainwright_peat_boat_only():
    d = pos()
    s = run(d, place("wainwright"), vehicle("peat_boat"))
    check(s, d, goods={"wood": 3}, barn={"peat_boats": 1})
    assert vp(s, "barn") == START_BARN_VP + 1


def test_wainwright_vehicle_and_peat_boat():
    d = pos()
    s = run(d, place("wainwright"), vehicle("handcart"), vehicle("peat_boat"))
    check(s, d, goods={"wood": 1}, barn={"peat_boats": 1,
                                         "vehicles": [{"kind": "handcart", "used": []}]})


def test_wainwright_vehicle_only():
    d = pos({"goods": {"wood": 5}})
    s = run(d, place("wainwright"), vehicle("cart"))    # no wood left for a boat: ends
    check(s, d, goods={"wood": 0}, animals={"horse": 0},
          barn={"vehicles": [{"kind": "cart", "used": []}]})
    assert vp(s, "barn") == 1.0                        # cart 1, no -3 for a missing large vehicle


def test_wainwright_vehicle_then_decline_boat():
    d = pos({"goods": {"wood": 8}, "animals": {"horse": 2}})
    s = run(d, place("wainwright"), vehicle("carriage"))
    assert legal(s) == {STOP, vehicle("peat_boat")}
    s.apply(STOP)
    check(s, d, goods={"wood": 4}, animals={"horse": 0},
          barn={"vehicles": [{"kind": "carriage", "used": []}]})


def test_wainwright_nothing():
    d = pos()
    s = run(d, place("wainwright"), STOP, STOP)
    check(s, d)


def test_wainwright_timber_pays_wood():
    d = pos({"goods": {"wood": 1, "timber": 2}})
    s = run(d, place("wainwright"), vehicle("handcart"), vehicle("peat_boat"))
    check(s, d, goods={"wood": 0, "timber": 0},
          barn={"peat_boats": 1, "vehicles": [{"kind": "handcart", "used": []}]})


def test_wainwright_unaffordable_not_offered():
    s = run(pos({"goods": {"wood": 3}, "animals": {"horse": 1}}), place("wainwright"))
    assert legal(s) == {STOP, vehicle("handcart"), vehicle("peat_boat")}


def test_wainwright_peat_boat_supply_empty():
    # 6 peat-boat/plow tiles: player 1 has 5 peat boats, player 0 a plow
    d = pos({"barn": {"plows": 1}}, {"barn": {"peat_boats": 5}})
    s = run(d, place("wainwright"))
    assert vehicle("peat_boat") not in legal(s)
    assert vehicle("handcart") in legal(s)


def test_wainwright_barn_small_spaces_full():
    # 4 small + 2 large + 1 either: 4 peat boats and a wagon fill every small-capable space
    d = pos({"goods": {"wood": 10}, "barn": {"peat_boats": 4,
                                             "vehicles": [{"kind": "wagon", "used": []}]}})
    s = run(d, place("wainwright"))
    assert vehicle("peat_boat") not in legal(s)
    assert vehicle("handcart") not in legal(s)
    assert vehicle("cart") in legal(s)


# ---------------------------------------------------------------------------------------------
# W13 Dike Warden (actions.md §8.5)
# ---------------------------------------------------------------------------------------------


def test_dike_warden_flip_moor_and_one_dike():
    d = pos()
    s = run(d, place("dike_warden"))
    assert legal(s) == {flip("moor"), flip("stall")}
    s.apply(flip("moor"))
    check(s, d, home={"dikes": 1, "hydrated_moors": 2, "dehydrated_moors": [4]})


def test_dike_warden_offers_the_owned_flippable_tiles():
    d = pos({"home": {"forests": 1, "stables": 1},
             "barn": {"peat_boats": 1, "vehicles": [{"kind": "handcart", "used": []}]}})
    s = run(d, place("dike_warden"))
    assert legal(s) == {flip(k) for k in ("moor", "forest", "stall", "stable", "peat_boat",
                                          "handcart")}


def test_dike_warden_forest_to_park_and_a_dike():
    d = pos({"home": {"forests": 1}})
    s = run(d, place("dike_warden"), flip("forest"))
    check(s, d, home={"dikes": 1, "forests": 0, "parks": 1})


def test_dike_warden_stall_to_depot():
    d = pos({"animals": {"horse": 0}, "home": {"dikes": 2}})
    s = run(d, place("dike_warden"), flip("stall"))
    check(s, d, home={"dikes": 3, "stalls": 0, "depots": 1})


def test_dike_warden_peat_boat_to_plow():
    d = pos({"barn": {"peat_boats": 2}})
    s = run(d, place("dike_warden"), flip("peat_boat"))
    check(s, d, home={"dikes": 1}, barn={"peat_boats": 1, "plows": 1})


def test_dike_warden_all_dikes_built_flip_alone():
    d = pos({"home": {"dikes": 7}})
    s = run(d, place("dike_warden"), flip("moor"))
    check(s, d, home={"hydrated_moors": 2, "dehydrated_moors": [4]})


def test_dike_warden_nothing_to_flip_dike_alone():
    d = pos({"home": {"stalls": 0, "hydrated_moors": 0, "dehydrated_moors": [3]},
             "animals": {"horse": 0}})
    s = run(d, place("dike_warden"))
    check(s, d, home={"dikes": 1})


def test_dike_warden_fields_and_backs_not_flippable():
    d = pos({"home": {"stalls": 0, "hydrated_moors": 0, "parks": 1, "depots": 1,
                      "double_stalls": 1},
             "barn": {"plows": 1, "vehicles": [{"kind": "wagon", "used": []}]}})
    s = run(d, place("dike_warden"))
    check(s, d, home={"dikes": 1})


# ---------------------------------------------------------------------------------------------
# W14 Carpenter (winter, actions.md §8.1)
# ---------------------------------------------------------------------------------------------


def test_winter_carpenter_offers_stable_or_stall_no_building():
    d = pos({"goods": {"brick": 2, "timber": 3, "grain": 5}})
    s = run(d, place("winter_carpenter"))
    assert legal(s) == {flip("stall"), tile("stall")}


def test_winter_carpenter_stall_to_stable_two_brick():
    d = pos({"goods": {"brick": 2}})
    s = run(d, place("winter_carpenter"), flip("stall"))
    check(s, d, goods={"brick": 0}, home={"stalls": 0, "stables": 1})
    assert vp(s, "home_board") == START_HOME_VP + 4          # stall 2 -> stable 6


def test_winter_carpenter_new_stall_two_clay_one_grain():
    d = pos({"goods": {"brick": 2}})
    s = run(d, place("winter_carpenter"), tile("stall"))
    check(s, d, goods={"clay": 2, "grain": 0}, home={"stalls": 2})


def test_winter_carpenter_stable_clay_does_not_pay_brick():
    d = pos({"goods": {"clay": 10, "brick": 1}})
    s = run(d, place("winter_carpenter"))          # only the new stall is left: forced
    check(s, d, goods={"clay": 8, "grain": 0}, home={"stalls": 2})


def test_winter_carpenter_brick_pays_the_stall_clay():
    d = pos({"goods": {"clay": 1, "brick": 1}})
    s = run(d, place("winter_carpenter"))          # 2 bricks not there: the stall is forced
    check(s, d, goods={"clay": 0, "brick": 0, "grain": 0}, home={"stalls": 2})


def test_winter_carpenter_stable_keeps_the_animals():
    d = pos({"goods": {"brick": 3, "grain": 0}, "animals": {"horse": 3}})
    s = run(d, place("winter_carpenter"))          # no grain for a stall: the stable is forced
    check(s, d, goods={"brick": 1}, home={"stalls": 0, "stables": 1})


def test_winter_carpenter_stable_needs_a_stall_not_a_depot():
    d = pos({"home": {"stalls": 0, "depots": 1}, "animals": {"horse": 0},
             "goods": {"brick": 4}})
    s = run(d, place("winter_carpenter"))
    assert flip("stall") not in legal(s)


def test_winter_carpenter_stable_supply_empty():
    # 3 stable/double-stall tiles, all with player 1
    d = pos({"goods": {"brick": 2}}, {"home": {"dikes": 1, "stables": 2, "double_stalls": 1}})
    s = run(d, place("winter_carpenter"))
    check(s, d, goods={"clay": 2, "grain": 0}, home={"stalls": 2})    # the stall is forced


def test_winter_carpenter_stall_needs_land():
    d = pos({"home": {"forests": 2}, "goods": {"brick": 2}})
    s = run(d, place("winter_carpenter"))          # no land: only the stable (in place)
    check(s, d, goods={"brick": 0}, home={"stalls": 0, "stables": 1})


def test_winter_carpenter_stall_supply_empty():
    # 7 stall/depot tiles: player 0 has 1, player 1 has 4 stalls and 2 depots
    d = pos({"goods": {"brick": 0}}, {"home": {"dikes": 1, "stalls": 4, "depots": 2}})
    s = run(d, place("winter_carpenter"))
    check(s, d)                                    # nothing possible: the worker only blocks


def test_winter_carpenter_second_stable():
    # the land is full (2 fields, boardwalk, 2 stalls, a stable): the upgrade is forced
    d = pos({"home": {"stalls": 2, "stables": 1}, "goods": {"brick": 2}})
    s = run(d, place("winter_carpenter"))
    check(s, d, goods={"brick": 0}, home={"stalls": 1, "stables": 2})


# ---------------------------------------------------------------------------------------------
# W15 Laborer (winter, actions.md §6)
# ---------------------------------------------------------------------------------------------


def test_winter_laborer_two_food_builds_a_building():
    d = pos({"goods": {"timber": 2, "grain": 5}})
    s = run(d, place("winter_laborer"), build("joinery"))
    check(s, d, goods={"food": 3, "timber": 0, "grain": 0}, home={"buildings": ["joinery"]})


def test_winter_laborer_green_house():
    d = pos()
    s = run(d, place("winter_laborer"), build("colonists_house"), good("clay"))
    check(s, d, goods={"food": 3, "grain": 0, "clay": 3},
          home={"buildings": ["colonists_house"]})


def test_winter_laborer_needs_two_food_grain_does_not_substitute():
    s = make(pos({"goods": {"food": 1, "grain": 5}}))
    assert place("winter_laborer") not in legal(s)
    s = make(pos({"goods": {"food": 2}}))
    assert place("winter_laborer") in legal(s)


def test_winter_laborer_builds_no_vehicle():
    s = run(pos({"goods": {"wood": 10, "grain": 0}}), place("winter_laborer"))
    assert not legal(s) & {vehicle(v) for v in ("peat_boat", "handcart", "cart")}


def test_winter_laborer_nothing_affordable_pays_and_ends():
    d = pos({"goods": {"grain": 0}})
    s = run(d, place("winter_laborer"))
    check(s, d, goods={"food": 3})


def test_winter_laborer_imitates_opponents_butcher_with_own_tables():
    d = pos({"tools": {"slaughtering_tables": 3}, "animals": {"sheep": 2}},
            workers_placed=1, start_player=1, occupied={"butcher": 1})
    s = run(d, place("winter_laborer"))
    assert imitations(s) == {imitate("butcher")}
    play(s, imitate("butcher"), animal("sheep"), animal("sheep"), animal("horse"))
    check(s, d, goods={"food": 3 + 9, "hide": 8}, animals={"sheep": 0, "horse": 0})
    assert s.to_dict()["occupied"] == {"butcher": 1, "winter_laborer": 0}


def test_winter_laborer_imitates_own_peat_boatman():
    d = pos({"barn": {"peat_boats": 1}}, workers_placed=2, occupied={"peat_boatman": 0,
                                                                      "tanner": 1})
    s = run(d, place("winter_laborer"))
    assert imitations(s) == {imitate("peat_boatman"), imitate("tanner")}
    s.apply(imitate("peat_boatman"))
    check(s, d, goods={"food": 3, "peat": 7})


def test_winter_laborer_imitates_wood_trader_paying_its_food():
    d = pos(workers_placed=1, start_player=1, occupied={"wood_trader": 1})
    s = run(d, place("winter_laborer"), imitate("wood_trader"), good("wood"))
    check(s, d, goods={"food": 2, "wood": 8})


def test_winter_laborer_imitated_wood_trader_takes_grain_when_food_gone():
    d = pos({"goods": {"food": 2, "grain": 3}}, workers_placed=1, start_player=1,
            occupied={"wood_trader": 1})
    s = run(d, place("winter_laborer"), imitate("wood_trader"), good("wood"))
    check(s, d, goods={"food": 0, "grain": 2, "wood": 8})


def test_winter_laborer_cannot_imitate_wood_trader_without_its_cost():
    d = pos({"goods": {"food": 2, "grain": 0}}, workers_placed=1, start_player=1,
            occupied={"wood_trader": 1})
    s = run(d, place("winter_laborer"))
    check(s, d, goods={"food": 0})            # nothing affordable: the 2 food are gone


def test_winter_laborer_imitates_cattle_trader():
    d = pos(workers_placed=1, start_player=1, occupied={"cattle_trader": 1})
    s = run(d, place("winter_laborer"), imitate("cattle_trader"), animal("cattle"))
    check(s, d, goods={"food": 3, "grain": 3}, animals={"sheep": 1, "cattle": 1})


def test_winter_laborer_not_free_spaces_not_itself_not_summer():
    # player 1 used the special action on the summer Woodcutter
    d = pos(workers_placed=2, occupied={"potter": 0, "woodcutter": 1}, special=1)
    s = run(d, place("winter_laborer"))
    assert imitations(s) == {imitate("potter")}


def test_winter_laborer_no_occupied_space_only_buildings():
    s = run(pos(), place("winter_laborer"))
    assert imitations(s) == set()
    assert build("colonists_house") in builds(s)


# ---------------------------------------------------------------------------------------------
# the special action: winter spaces in summer (actions.md §7)
# ---------------------------------------------------------------------------------------------


def test_special_action_tanner_in_summer():
    d = pos({"goods": {"hide": 4}}, half_year=1)
    s = make(d)
    assert place("tanner") in legal(s)
    s.apply(place("tanner"))
    play(s, MORE, MORE, MORE)
    check(s, d, goods={"hide": 1, "leather": 3})
    after = s.to_dict()
    assert after["special_action_by"] == 0
    assert after["occupied"] == {"tanner": 0}


def test_special_action_peat_boatman_in_summer():
    d = pos({"barn": {"peat_boats": 1}}, half_year=3)
    s = run(d, place("peat_boatman"))
    check(s, d, goods={"peat": 7})
    assert s.special_action_by == 0


def test_special_action_wood_trader_in_summer():
    d = pos(half_year=5)
    s = run(d, place("wood_trader"), good("wood"))
    check(s, d, goods={"food": 4, "wood": 8})


def test_special_action_winter_carpenter_stable_in_summer():
    d = pos({"goods": {"brick": 2, "grain": 0}}, half_year=1)
    s = run(d, place("winter_carpenter"))
    check(s, d, goods={"brick": 0}, home={"stalls": 0, "stables": 1})


def test_special_action_by_second_player():
    d = pos(p1={"goods": {"hide": 0}}, half_year=1, workers_placed=1, start_player=1,
            occupied={"fisherman": 1})
    s = run(d, place("builders_merchant"), good("clay"), good("brick"))
    check(s, d, goods={"hide": 4, "clay": 5, "brick": 1})
    assert s.special_action_by == 0


def test_special_action_once_per_half_year():
    s = run(pos(half_year=1), place("cattle_trader"), animal("cattle"))
    assert not legal(s) & {place(k) for k in WINTER}
    assert place("fisherman") in legal(s)


def test_special_action_winter_laborer_in_summer_only_builds():
    # rules-decisions A4: it imitates only winter spaces, and none is occupied in summer
    d = pos(half_year=1, workers_placed=2, occupied={"woodcutter": 0, "fisherman": 1})
    s = run(d, place("winter_laborer"))
    assert imitations(s) == set()
    assert build("colonists_house") in builds(s)


# ---------------------------------------------------------------------------------------------
# conventions (actions.md §1)
# ---------------------------------------------------------------------------------------------


def test_winter_offers_all_15_winter_spaces():
    s = make(pos())
    assert {place(k) for k in WINTER} <= legal(s)


def test_occupied_winter_space_not_offered():
    s = make(pos(workers_placed=1, start_player=1, occupied={"potter": 1}))
    assert place("potter") not in legal(s)
    assert PASS in legal(s)


@pytest.mark.parametrize("space", WINTER)
def test_every_winter_space_leaves_opponent_untouched(space):
    d = pos({"goods": {"food": 10, "wood": 10, "timber": 3, "brick": 3, "grain": 5},
             "animals": {"sheep": 2}})
    s = run(d, place(space))
    while s.pending != "turn":
        s.apply(s.legal_actions()[-1])
    assert s.to_dict()["players"][1] == d["players"][1]
    assert s.to_dict()["occupied"] == {space: 0}
    assert s.special_action_by is None
