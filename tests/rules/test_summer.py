"""The 15 summer action spaces (actions.md §1-3, §6-8, §10; core.md 2.4-2.5 for dikes and moors).

Every test builds a concrete position from base(), takes the action (place(...) then the
sub-decision ids) and compares the acting player's whole part of to_dict() with the expected
one; the opponent must be unchanged. Player 0 acts (start player, no worker placed yet) unless
a test says otherwise.
"""

from __future__ import annotations

import copy

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

# ---------------------------------------------------------------------------------------------
# position builders and checks
# ---------------------------------------------------------------------------------------------

pos = position
check = check_action


def free_land(s: arle_ai.GameState, pi: int = 0) -> int:
    """Empty land spaces of player pi, measured with the position validator: the number of
    extra tiles the home board still takes (animals removed so housing does not interfere)."""
    d = s.to_dict()
    d.pop("pending")
    d["workers_placed"] = 0
    d["occupied"] = {}
    d["special_action_by"] = None
    for p in d["players"]:
        p["animals"] = {"sheep": 0, "cattle": 0, "horse": 0}
    kinds = ["grain_fields", "forests", "stalls", "stables"]
    added = 0
    while True:
        for k in kinds:
            d2 = copy.deepcopy(d)
            d2["players"][pi]["home"][k] += 1
            try:
                arle_ai.GameState.from_dict(d2)
            except arle_ai.PositionError as e:
                if "land spaces" in str(e):
                    return added
                continue   # that supply is empty: try another tile kind
            d = d2
            added += 1
            break
        else:
            raise AssertionError("no tile kind left to probe the land with")


# the start position's scores (player 0): 3 hydrated moors -12, boardwalk -3, stall +2,
# top tidal row -3 (core.md 8.5); barn: no large vehicle -3
START_HOME_VP = -16.0
START_BARN_VP = -3.0


# ---------------------------------------------------------------------------------------------
# S1 Fisherman
# ---------------------------------------------------------------------------------------------


def test_fisherman_start_sheep_free_step_then_food_at_new_value():
    d = pos()
    s = run(d, place("fisherman"))
    check(s, d, goods={"food": 5 + 3}, animals={"sheep": 1}, tools={"fish_traps": 3})


def test_fisherman_from_five_reaches_six_and_gives_six():
    d = pos({"goods": {"food": 2}, "tools": {"fish_traps": 5}})
    s = run(d, place("fisherman"))
    check(s, d, goods={"food": 8}, animals={"sheep": 1}, tools={"fish_traps": 6})
    assert vp(s, "tools") == 3.0      # the last fish-trap space scores 3


def test_fisherman_at_last_space_no_move_six_food():
    d = pos({"goods": {"food": 0}, "tools": {"fish_traps": 6}})
    s = run(d, place("fisherman"))
    check(s, d, goods={"food": 6}, animals={"sheep": 1})


def test_fisherman_food_capped_at_30():
    d = pos({"goods": {"food": 27}, "tools": {"fish_traps": 3}})
    s = run(d, place("fisherman"))
    check(s, d, goods={"food": 30}, animals={"sheep": 1}, tools={"fish_traps": 4})


def test_fisherman_sheep_must_be_housed_else_returned():
    # 12 horses fill stall (3), 2 empty land spaces (2 x 2) and the 5 dikes: the sheep does not fit
    d = pos({"animals": {"horse": 12}})
    s = run(d, place("fisherman"))
    assert s.pending == "discard"
    assert legal(s) == {animal("sheep"), animal("horse")}
    s.apply(animal("sheep"))
    check(s, d, goods={"food": 8}, tools={"fish_traps": 3})


def test_fisherman_other_player_uses_own_track():
    d = pos(p1={"tools": {"fish_traps": 4}}, workers_placed=1)
    s = run(d, place("fisherman"))
    check(s, d, 1, goods={"food": 10}, animals={"sheep": 1}, tools={"fish_traps": 5})


# ---------------------------------------------------------------------------------------------
# S2 Grocer (summer)
# ---------------------------------------------------------------------------------------------


def test_summer_grocer_offers_exactly_timber_brick_or_an_animal():
    s = run(pos(), place("summer_grocer"))
    assert s.pending == "action:summer_grocer"
    assert legal(s) == {good("timber"), good("brick"), animal("sheep"), animal("cattle"),
                        animal("horse")}


@pytest.mark.parametrize("choice,goods,animals", [
    (good("timber"), {"timber": 1}, {}),
    (good("brick"), {"brick": 1}, {}),
    (animal("sheep"), {}, {"sheep": 1}),
    (animal("cattle"), {}, {"cattle": 1}),
    (animal("horse"), {}, {"horse": 2}),
])
def test_summer_grocer_grain_leather_and_the_choice(choice, goods, animals):
    d = pos()
    s = run(d, place("summer_grocer"), choice)
    check(s, d, goods={"grain": 2, "leather": 1, **goods}, animals=animals)


def test_summer_grocer_grain_capped_at_15():
    d = pos({"goods": {"grain": 15, "leather": 2}})
    s = run(d, place("summer_grocer"), good("brick"))
    check(s, d, goods={"grain": 15, "leather": 3, "brick": 1})


# ---------------------------------------------------------------------------------------------
# S3 Wool Weaver
# ---------------------------------------------------------------------------------------------


def test_wool_weaver_two_looms_two_exchanges_then_ends():
    d = pos()
    s = run(d, place("wool_weaver"), MORE, MORE)
    check(s, d, goods={"wool": 2, "woolen": 2})


def test_wool_weaver_fewer_exchanges_than_looms():
    d = pos({"tools": {"weaving_looms": 4}, "goods": {"wool": 10}})
    s = run(d, place("wool_weaver"), MORE)
    assert legal(s) == {STOP, MORE}
    s.apply(STOP)
    check(s, d, goods={"wool": 9, "woolen": 1})


def test_wool_weaver_zero_exchanges():
    d = pos()
    s = run(d, place("wool_weaver"), STOP)
    check(s, d)


def test_wool_weaver_limited_by_wool():
    d = pos({"tools": {"weaving_looms": 5}, "goods": {"wool": 3, "woolen": 1}})
    s = run(d, place("wool_weaver"), MORE, MORE, MORE)
    check(s, d, goods={"wool": 0, "woolen": 4})


def test_wool_weaver_five_looms():
    d = pos({"tools": {"weaving_looms": 5}, "goods": {"wool": 15}})
    s = run(d, place("wool_weaver"), *[MORE] * 5)
    check(s, d, goods={"wool": 10, "woolen": 5})


def test_wool_weaver_without_wool_does_nothing():
    d = pos({"goods": {"wool": 0}})
    s = run(d, place("wool_weaver"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# S4 Colonist
# ---------------------------------------------------------------------------------------------


def test_colonist_horse_and_dehydrates_a_moor_with_four_peat():
    d = pos()
    s = run(d, place("colonist"))
    check(s, d, animals={"horse": 2}, home={"hydrated_moors": 2, "dehydrated_moors": [4]})
    assert vp(s, "home_board") == START_HOME_VP + 3       # -4 becomes -1


def test_colonist_second_moor():
    d = pos({"home": {"hydrated_moors": 2, "dehydrated_moors": [2]}})
    s = run(d, place("colonist"))
    check(s, d, animals={"horse": 2}, home={"hydrated_moors": 1, "dehydrated_moors": [4, 2]})


def test_colonist_without_hydrated_moor_only_the_horse():
    d = pos({"home": {"hydrated_moors": 0, "dehydrated_moors": [3]}})
    s = run(d, place("colonist"))
    check(s, d, animals={"horse": 2})


# ---------------------------------------------------------------------------------------------
# S5 Peat Cutter
# ---------------------------------------------------------------------------------------------


def test_peat_cutter_three_spades_from_the_boardwalk():
    d = pos()
    s = run(d, place("peat_cutter"))     # the boardwalk is the only source: forced
    check(s, d, goods={"peat": 6}, home={"boardwalk_peat": 1})


def test_peat_cutter_player_chooses_the_tiles():
    d = pos({"home": {"hydrated_moors": 2, "dehydrated_moors": [4]}})
    s = run(d, place("peat_cutter"))
    assert s.pending == "action:cut"
    assert legal(s) == {cut(0), cut(4)}            # cutting is not optional: no STOP
    s.apply(cut(4))
    assert legal(s) == {cut(0), cut(3)}
    play(s, cut(3), cut(0))
    check(s, d, goods={"peat": 6}, home={"dehydrated_moors": [2], "boardwalk_peat": 3})


def test_peat_cutter_emptied_dehydrated_moor_is_removed_two_land_spaces():
    d = pos({"home": {"hydrated_moors": 2, "dehydrated_moors": [1]}})
    before = free_land(make(d))
    s = run(d, place("peat_cutter"), cut(1))
    check(s, d, goods={"peat": 6}, home={"dehydrated_moors": [], "boardwalk_peat": 2})
    assert free_land(s) == before + 2
    assert vp(s, "home_board") == vp(make(d), "home_board") + 1    # the -1 moor is gone


def test_peat_cutter_emptied_boardwalk_is_removed_one_land_space():
    d = pos({"home": {"boardwalk_peat": 2}})
    before = free_land(make(d))
    s = run(d, place("peat_cutter"))
    check(s, d, goods={"peat": 5}, home={"boardwalk_peat": 0})
    assert free_land(s) == before + 1
    assert vp(s, "home_board") == START_HOME_VP + 3                 # no boardwalk: no -3


def test_peat_cutter_fewer_tokens_than_spades():
    d = pos({"tools": {"spades": 7}, "home": {"boardwalk_peat": 1, "hydrated_moors": 2,
                                               "dehydrated_moors": [1]}})
    s = run(d, place("peat_cutter"), cut(0))
    check(s, d, goods={"peat": 5}, home={"boardwalk_peat": 0, "dehydrated_moors": []})


def test_peat_cutter_no_peat_on_moors_nothing_from_supply():
    d = pos({"home": {"boardwalk_peat": 0}})
    s = run(d, place("peat_cutter"))
    check(s, d)


def test_peat_cutter_seven_spades_over_three_tiles():
    d = pos({"tools": {"spades": 7}, "home": {"hydrated_moors": 1, "dehydrated_moors": [4, 4]}})
    s = run(d, place("peat_cutter"), cut(4), cut(4), cut(3), cut(3), cut(2), cut(2), cut(1))
    check(s, d, goods={"peat": 10}, home={"dehydrated_moors": [1]})


# ---------------------------------------------------------------------------------------------
# S6 Dike Builder
# ---------------------------------------------------------------------------------------------


def test_dike_builder_offers_sheep_or_cattle_only():
    s = run(pos(), place("dike_builder"))
    assert legal(s) == {animal("sheep"), animal("cattle")}


def test_dike_builder_one_dike_opens_three_land_spaces():
    d = pos()
    s = run(d, place("dike_builder"), animal("sheep"))
    check(s, d, animals={"sheep": 1}, home={"dikes": 1})
    assert free_land(s) == free_land(make(d)) + 3


def test_dike_builder_second_step_opens_nothing():
    d = pos({"home": {"dikes": 1}})
    s = run(d, place("dike_builder"), animal("cattle"))
    check(s, d, animals={"cattle": 1}, home={"dikes": 2})
    assert free_land(s) == free_land(make(d))


def test_dike_builder_two_dikes_reach_step_four():
    d = pos({"tools": {"shovels": 4}, "home": {"dikes": 3}})
    s = run(d, place("dike_builder"), animal("cattle"))
    check(s, d, animals={"cattle": 1}, home={"dikes": 5})
    assert free_land(s) == free_land(make(d)) + 3
    assert vp(s, "home_board") == START_HOME_VP + 1     # top gap row: one empty gap filled


def test_dike_builder_three_dikes_with_six_shovels():
    d = pos({"tools": {"shovels": 6}})
    s = run(d, place("dike_builder"), animal("sheep"))
    check(s, d, animals={"sheep": 1}, home={"dikes": 3})


def test_dike_builder_steps_beyond_seven_lost():
    d = pos({"tools": {"shovels": 6}, "home": {"dikes": 6}})
    s = run(d, place("dike_builder"), animal("sheep"))
    check(s, d, animals={"sheep": 1}, home={"dikes": 7})
    assert free_land(s) == free_land(make(d)) + 3
    assert vp(s, "home_board") == START_HOME_VP + 3     # no unreclaimed top row left


def test_dike_builder_all_dikes_built_only_the_animal():
    d = pos({"tools": {"shovels": 5}, "home": {"dikes": 7}})
    s = run(d, place("dike_builder"), animal("cattle"))
    check(s, d, animals={"cattle": 1})


@pytest.mark.parametrize("dikes,land", [(0, 6), (1, 9), (2, 9), (3, 9), (4, 12), (5, 12),
                                        (6, 12), (7, 15)])
def test_land_opens_at_dike_steps_1_4_7(dikes, land):
    # start: 6 land spaces, 4 of them used (2 fields, stall, boardwalk)
    s = make(pos({"home": {"dikes": dikes}}))
    assert free_land(s) == land - 4


# ---------------------------------------------------------------------------------------------
# S7 Clay Worker
# ---------------------------------------------------------------------------------------------


def test_clay_worker_three_shovels():
    d = pos()
    s = run(d, place("clay_worker"))
    check(s, d, goods={"clay": 7})


def test_clay_worker_six_shovels_no_brick():
    d = pos({"tools": {"shovels": 6}, "goods": {"clay": 0, "brick": 2}})
    s = run(d, place("clay_worker"))
    check(s, d, goods={"clay": 6})


# ---------------------------------------------------------------------------------------------
# S8 Farmer
# ---------------------------------------------------------------------------------------------


def test_farmer_plow_paid_with_cattle_then_one_field():
    d = pos({"animals": {"cattle": 1}})
    s = run(d, place("farmer"))
    assert legal(s) == {STOP, animal("cattle"), animal("horse")}
    play(s, animal("cattle"), tile("grain_field"))
    check(s, d, goods={"wood": 3}, animals={"cattle": 0}, barn={"plows": 1},
          home={"grain_fields": 2})
    assert vp(s, "barn") == START_BARN_VP + 3          # a plow is worth 3


def test_farmer_plow_paid_with_horse_flax_side():
    d = pos()
    s = run(d, place("farmer"), animal("horse"), tile("flax_field"))
    check(s, d, goods={"wood": 3}, animals={"horse": 0}, barn={"plows": 1},
          home={"flax_fields": 2})


def test_farmer_new_plow_counts_fields_per_plow_including_it():
    d = pos({"animals": {"cattle": 2}, "barn": {"plows": 1}})
    s = run(d, place("farmer"), animal("cattle"), tile("grain_field"))
    assert s.pending == "action:field"
    s.apply(tile("flax_field"))
    check(s, d, goods={"wood": 3}, animals={"cattle": 1}, barn={"plows": 2},
          home={"grain_fields": 2, "flax_fields": 2})


def test_farmer_existing_plows_without_building():
    d = pos({"barn": {"plows": 2}})
    s = run(d, place("farmer"), STOP, tile("flax_field"), tile("flax_field"))
    check(s, d, home={"flax_fields": 3})


def test_farmer_fewer_fields_than_plows():
    d = pos({"barn": {"plows": 2}})
    s = run(d, place("farmer"), STOP, tile("grain_field"), STOP)
    check(s, d, home={"grain_fields": 2})


def test_farmer_at_most_one_plow_per_action():
    d = pos({"animals": {"cattle": 2}, "goods": {"wood": 5}})
    s = run(d, place("farmer"), animal("cattle"))
    assert s.pending == "action:field"
    assert not legal(s) & {animal("cattle"), animal("horse")}


def test_farmer_no_animal_to_pay_no_plow():
    d = pos({"animals": {"horse": 0}, "barn": {"plows": 1}})
    s = run(d, place("farmer"))
    assert s.pending == "action:field"       # no plow can be built: straight to the fields
    s.apply(tile("grain_field"))
    check(s, d, home={"grain_fields": 2})


def test_farmer_plow_needs_wood_timber_pays():
    d = pos({"goods": {"wood": 0, "timber": 1}})
    s = run(d, place("farmer"), animal("horse"), tile("grain_field"))
    check(s, d, goods={"timber": 0}, animals={"horse": 0}, barn={"plows": 1},
          home={"grain_fields": 2})


def test_farmer_no_wood_no_plow_nothing_to_do():
    d = pos({"goods": {"wood": 0, "timber": 0}})
    s = run(d, place("farmer"))
    check(s, d)


def test_farmer_no_land_plow_but_no_field():
    d = pos({"home": {"forests": 2}})               # the 2 empty land spaces are used
    s = run(d, place("farmer"), animal("horse"))
    check(s, d, goods={"wood": 3}, animals={"horse": 0}, barn={"plows": 1})


def test_farmer_field_supply_empty():
    # 14 field tiles: player 0 has 2, player 1 has 12 (on 15 land spaces)
    d = pos(p1={"home": {"dikes": 7, "grain_fields": 6, "flax_fields": 6}})
    s = run(d, place("farmer"), animal("horse"))
    check(s, d, goods={"wood": 3}, animals={"horse": 0}, barn={"plows": 1})


def test_farmer_plow_needs_barn_space():
    # barn: 4 small + 2 large + 1 either; 4 peat boats and a handcart fill the small places
    d = pos({"barn": {"peat_boats": 4, "vehicles": [{"kind": "handcart", "used": []}]},
             "animals": {"cattle": 1}})
    s = run(d, place("farmer"))
    check(s, d)                     # no plow, no plows owned: nothing


def test_farmer_plow_supply_shared_with_peat_boats():
    # 6 peat-boat/plow tiles: player 1 has 5 peat boats, player 0 one plow
    d = pos({"barn": {"plows": 1}}, {"barn": {"peat_boats": 5}})
    s = run(d, place("farmer"))
    assert s.pending == "action:field"
    s.apply(tile("grain_field"))
    check(s, d, home={"grain_fields": 2})


# ---------------------------------------------------------------------------------------------
# S9 Forester
# ---------------------------------------------------------------------------------------------


def test_forester_pays_food_places_forest():
    d = pos()
    s = run(d, place("forester"))
    assert tile("forest") in legal(s)
    s.apply(tile("forest"))
    check(s, d, goods={"food": 4}, home={"forests": 1})
    assert vp(s, "home_board") == START_HOME_VP + 2


def test_forester_builds_a_building():
    d = pos({"goods": {"timber": 2, "grain": 6}})
    s = run(d, place("forester"), build("joinery"))
    check(s, d, goods={"food": 4, "timber": 0, "grain": 1}, home={"buildings": ["joinery"]})
    assert "joinery" not in s.to_dict()["buildings_on_board"]


def test_forester_green_house_material_chosen():
    d = pos()
    s = run(d, place("forester"), build("colonists_house"))
    assert legal(s) == {good("wood"), good("clay")}
    s.apply(good("clay"))
    check(s, d, goods={"food": 4, "grain": 0, "clay": 3},
          home={"buildings": ["colonists_house"]})


def test_forester_needs_one_food_grain_does_not_substitute():
    s = make(pos({"goods": {"food": 0, "grain": 5}}))
    assert place("forester") not in legal(s)
    assert place("woodcutter") in legal(s)


def test_forester_food_is_paid_before_the_building_cost():
    # an inn costs 9 food + 2 different materials: 9 food is not enough after the Forester's 1
    s = run(pos({"goods": {"food": 9}}), place("forester"))
    assert build("gulf_house_inn") not in legal(s)
    s = run(pos({"goods": {"food": 10}}), place("forester"))
    assert build("gulf_house_inn") in legal(s)


def test_forester_forest_supply_empty():
    # 5 forest/park tiles, all with player 1
    d = pos(p1={"home": {"dikes": 1, "forests": 3, "parks": 2}})
    s = run(d, place("forester"))
    assert tile("forest") not in legal(s)
    assert build("colonists_house") in legal(s)


def test_forester_forest_on_land_holding_animals_displaces_them():
    # 12 horses fill stall 3 + 2 empty land spaces x 2 + 5 dikes; the forest takes a land space
    d = pos({"animals": {"horse": 12}})
    s = run(d, place("forester"), tile("forest"))
    check(s, d, goods={"food": 4}, animals={"horse": 10}, home={"forests": 1})


def test_forester_no_land_pays_and_does_nothing():
    d = pos({"home": {"stalls": 3}})                # no empty land space left
    s = run(d, place("forester"))
    check(s, d, goods={"food": 4})


# ---------------------------------------------------------------------------------------------
# S10 Woodcutter
# ---------------------------------------------------------------------------------------------


def test_woodcutter_three_axes_forests_irrelevant():
    d = pos({"home": {"forests": 2}})
    s = run(d, place("woodcutter"))
    check(s, d, goods={"wood": 7})


def test_woodcutter_six_axes():
    d = pos({"tools": {"axes": 6}, "goods": {"wood": 0, "timber": 1}})
    s = run(d, place("woodcutter"))
    check(s, d, goods={"wood": 6})


# ---------------------------------------------------------------------------------------------
# S11 Master (summer)
# ---------------------------------------------------------------------------------------------


def test_master_two_moves_different_tracks_each_paid():
    d = pos({"goods": {"wood": 4, "clay": 4}})
    s = run(d, place("summer_master"), tool("fish_traps"), tool("slaughtering_tables"))
    check(s, d, goods={"wood": 3, "clay": 3},
          tools={"fish_traps": 3, "slaughtering_tables": 3})


def test_master_same_track_twice_not_allowed():
    s = run(pos({"goods": {"wood": 4}}), place("summer_master"), tool("axes"))
    assert s.pending == "action:master"
    assert tool("axes") not in legal(s)


def test_master_fewer_moves():
    d = pos()
    s = run(d, place("summer_master"), tool("spades"), STOP)
    check(s, d, goods={"wood": 3}, tools={"spades": 5})


def test_master_zero_moves():
    d = pos()
    s = run(d, place("summer_master"), STOP)
    check(s, d)


@pytest.mark.parametrize("bench,moves", [(2, 2), (3, 3), (4, 4)])
def test_master_moves_equal_workbench_value(bench, moves):
    d = pos({"tools": {"workbenches": bench}, "goods": {"wood": 10}})
    tracks = ["fish_traps", "fleshing_beams", "spades", "shovels", "axes"]
    s = run(d, place("summer_master"), *[tool(t) for t in tracks[:moves]])
    check(s, d, goods={"wood": 10 - moves},
          tools={t: {"fish_traps": 3, "fleshing_beams": 5, "spades": 5, "shovels": 4,
                     "axes": 4}[t] for t in tracks[:moves]})


def _master_outcomes(s: arle_ai.GameState) -> list[dict[str, int]]:
    """Every tool result reachable within one Master action (search over its decisions)."""
    out = []
    stack = [s]
    while stack:
        t = stack.pop()
        if t.pending != "action:master":
            out.append(t.to_dict()["players"][0]["tools"])
            continue
        for a in t.legal_actions():
            stack.append(play(t.copy(), a))
    return out


def test_master_n_fixed_at_start_workbench_step_adds_no_move():
    # workbenches 2 -> 3 during the action: still only 2 moves in this action (rules-decisions A1)
    d = pos({"goods": {"wood": 10, "clay": 10, "brick": 10}})
    start = d["players"][0]["tools"]
    outcomes = _master_outcomes(run(d, place("summer_master")))
    moved = [sum(1 for k in start if r[k] != start[k]) for r in outcomes]
    assert max(moved) == 2
    assert any(r["workbenches"] == 3 for r in outcomes)
    assert all(m <= 2 for m, r in zip(moved, outcomes, strict=True) if r["workbenches"] == 3)


def test_master_timber_pays_wood_brick_pays_clay():
    d = pos({"goods": {"wood": 0, "timber": 2, "clay": 0, "brick": 2}})
    s = run(d, place("summer_master"), tool("fish_traps"), tool("slaughtering_tables"))
    check(s, d, goods={"timber": 1, "brick": 1},
          tools={"fish_traps": 3, "slaughtering_tables": 3})


def test_master_clay_never_pays_the_oven_brick():
    s = run(pos({"goods": {"clay": 10, "wood": 10, "brick": 0}}), place("summer_master"))
    assert tool("ovens") not in legal(s)
    assert tool("pottery_wheels") in legal(s)


def test_master_oven_step_paid_with_brick():
    d = pos({"goods": {"brick": 1}})
    s = run(d, place("summer_master"), tool("ovens"), STOP)
    check(s, d, goods={"brick": 0}, tools={"ovens": 2})


def test_master_track_at_last_space_not_offered():
    d = pos({"tools": {"axes": 6, "fish_traps": 6}, "goods": {"wood": 10}})
    s = run(d, place("summer_master"))
    assert tool("axes") not in legal(s)
    assert tool("fish_traps") not in legal(s)
    assert tool("spades") in legal(s)


def test_master_four_workbenches_mixed_costs():
    d = pos({"tools": {"workbenches": 4}, "goods": {"wood": 3, "clay": 1, "brick": 1}})
    s = run(d, place("summer_master"), tool("weaving_looms"), tool("slaughtering_tables"),
            tool("ovens"), tool("axes"))
    check(s, d, goods={"wood": 0, "clay": 0, "brick": 0},
          tools={"weaving_looms": 3, "slaughtering_tables": 3, "ovens": 2, "axes": 4})


# ---------------------------------------------------------------------------------------------
# S12 Carpenter (summer)
# ---------------------------------------------------------------------------------------------


def test_summer_carpenter_stall_for_two_clay_one_grain():
    d = pos()
    s = run(d, place("summer_carpenter"))
    assert tile("stall") in legal(s)
    s.apply(tile("stall"))
    check(s, d, goods={"clay": 2, "grain": 0}, home={"stalls": 2})
    assert vp(s, "home_board") == START_HOME_VP + 2


def test_summer_carpenter_brick_pays_for_clay():
    d = pos({"goods": {"clay": 1, "brick": 1}})
    s = run(d, place("summer_carpenter"), tile("stall"))
    check(s, d, goods={"clay": 0, "brick": 0, "grain": 0}, home={"stalls": 2})


def test_summer_carpenter_builds_a_building():
    d = pos({"goods": {"timber": 3, "grain": 5}})
    s = run(d, place("summer_carpenter"), build("joinery"))
    check(s, d, goods={"timber": 1, "grain": 0}, home={"buildings": ["joinery"]})


def test_summer_carpenter_cannot_make_a_stable():
    s = run(pos({"goods": {"brick": 4}}), place("summer_carpenter"))
    assert flip("stall") not in legal(s)
    assert all(a == tile("stall") or build("colonists_house") <= a <= build("berum_castle")
               for a in legal(s))


def test_summer_carpenter_stall_unaffordable():
    s = run(pos({"goods": {"clay": 1, "brick": 0}}), place("summer_carpenter"))
    assert tile("stall") not in legal(s)
    s = run(pos({"goods": {"clay": 4, "grain": 0}}), place("summer_carpenter"))
    assert tile("stall") not in legal(s)


def test_summer_carpenter_stall_supply_empty():
    # 7 stall/depot tiles: player 0 has 1, player 1 has 4 stalls and 2 depots
    d = pos(p1={"home": {"dikes": 1, "stalls": 4, "depots": 2}})
    s = run(d, place("summer_carpenter"))
    assert tile("stall") not in legal(s)


def test_summer_carpenter_no_land():
    d = pos({"home": {"forests": 2}, "goods": {"timber": 2, "grain": 5}})
    s = run(d, place("summer_carpenter"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# S13 Builder
# ---------------------------------------------------------------------------------------------


def test_builder_joinery_fixed_cost():
    d = pos({"goods": {"timber": 2, "grain": 5}})
    s = run(d, place("builder"), build("joinery"))
    check(s, d, goods={"timber": 0, "grain": 0}, home={"buildings": ["joinery"]})
    assert vp(s, "home_board") == START_HOME_VP + 6


def test_builder_green_house_any_material_timber():
    d = pos({"goods": {"wood": 0, "clay": 0, "timber": 1}})
    s = run(d, place("builder"), build("loading_station"))
    check(s, d, goods={"grain": 0, "timber": 0}, home={"buildings": ["loading_station"]})


def test_builder_inn_two_different_materials_and_food():
    # Gulf House Inn: 9 food + 2 different materials; on building, 1 timber per stall
    d = pos({"goods": {"food": 9, "brick": 1}})
    s = run(d, place("builder"), build("gulf_house_inn"))
    # kinds are paid in increasing order (wood, timber, clay, brick): brick cannot come first
    assert legal(s) == {good("wood"), good("clay")}
    s.apply(good("wood"))
    assert legal(s) == {good("clay"), good("brick")}       # a second, different kind
    s.apply(good("brick"))
    check(s, d, goods={"food": 0, "wood": 3, "brick": 0, "timber": 1},
          home={"buildings": ["gulf_house_inn"]})


def test_builder_only_affordable_buildings_offered():
    s = run(pos({"goods": {"grain": 0, "food": 5}}), place("builder"))
    # no grain: no green house; no timber/brick, 5 food: nothing else either
    assert s.pending == "turn"


def test_builder_no_land_builds_nothing():
    d = pos({"home": {"forests": 2}, "goods": {"timber": 2, "grain": 5}})
    s = run(d, place("builder"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# S14 Warden (actions.md §8.5)
# ---------------------------------------------------------------------------------------------


def test_warden_offers_the_owned_flippable_tiles():
    d = pos({"home": {"dikes": 1, "forests": 1, "stables": 1},
             "barn": {"peat_boats": 1, "vehicles": [{"kind": "handcart"}, {"kind": "cart"},
                                                     {"kind": "carriage"}]}})
    s = run(d, place("warden"))
    assert legal(s) == {flip(k) for k in ("moor", "forest", "stall", "stable", "peat_boat",
                                          "handcart", "cart", "carriage")}


def test_warden_moor_dehydrated_with_four_peat():
    d = pos()
    s = run(d, place("warden"), flip("moor"))
    check(s, d, home={"hydrated_moors": 2, "dehydrated_moors": [4]})
    assert vp(s, "home_board") == START_HOME_VP + 3


def test_warden_forest_to_park():
    d = pos({"home": {"forests": 1}})
    s = run(d, place("warden"), flip("forest"))
    check(s, d, home={"forests": 0, "parks": 1})
    assert vp(s, "home_board") == vp(make(d), "home_board") + 4      # forest 2 -> park 6


def test_warden_stall_to_depot_doubles_goods_track():
    d = pos({"goods": {"grain": 7, "flax": 11}})
    before = vp(make(d), "goods_track")
    s = run(d, place("warden"), flip("stall"))
    check(s, d, home={"stalls": 0, "depots": 1})
    assert before == 3.0 and vp(s, "goods_track") == 6.0


def test_warden_stall_to_depot_animals_rehoused_or_lost():
    # 12 horses: stall 3 + 2 land spaces x 2 + 5 dikes; the depot holds none -> 9 fit
    d = pos({"animals": {"horse": 12}})
    s = run(d, place("warden"), flip("stall"))
    check(s, d, animals={"horse": 9}, home={"stalls": 0, "depots": 1})


def test_warden_stall_to_depot_player_chooses_animals_returned():
    d = pos({"animals": {"horse": 6, "sheep": 6}})
    s = run(d, place("warden"), flip("stall"))
    assert s.pending == "discard"
    play(s, animal("sheep"), animal("horse"), animal("horse"))
    check(s, d, animals={"horse": 4, "sheep": 5}, home={"stalls": 0, "depots": 1})


def test_warden_stable_to_double_stall():
    d = pos({"home": {"stalls": 0, "stables": 1}})
    s = run(d, place("warden"), flip("stable"))
    check(s, d, home={"stables": 0, "double_stalls": 1})
    assert vp(s, "home_board") == vp(make(d), "home_board") + 3      # 6 -> 9


def test_warden_peat_boat_to_plow():
    d = pos({"barn": {"peat_boats": 1}})
    s = run(d, place("warden"), flip("peat_boat"))
    check(s, d, barn={"peat_boats": 0, "plows": 1})
    assert vp(s, "barn") == START_BARN_VP + 3


@pytest.mark.parametrize("front,back,gain", [("handcart", "wagon", 1), ("cart", "horse_cart", 1),
                                             ("carriage", "droshky", 1)])
def test_warden_vehicle_front_to_back(front, back, gain):
    d = pos({"barn": {"vehicles": [{"kind": front}]}})
    s = run(d, place("warden"), flip(front))
    check(s, d, barn={"vehicles": [{"kind": back, "used": []}]})
    assert vp(s, "barn") == vp(make(d), "barn") + gain


def test_warden_fields_boardwalk_dehydrated_moor_not_flippable():
    d = pos({"home": {"stalls": 0, "hydrated_moors": 0, "dehydrated_moors": [3, 2]}})
    s = run(d, place("warden"))
    check(s, d)                                  # nothing to flip: the worker only blocks


def test_warden_backs_not_flippable():
    d = pos({"home": {"stalls": 0, "hydrated_moors": 0, "parks": 1, "depots": 1,
                      "double_stalls": 1},
             "barn": {"plows": 1, "vehicles": [{"kind": "wagon", "used": []},
                                              {"kind": "droshky", "used": []}]}})
    s = run(d, place("warden"))
    check(s, d)


# ---------------------------------------------------------------------------------------------
# S15 Laborer (summer, actions.md §6)
# ---------------------------------------------------------------------------------------------


def test_summer_laborer_two_food_builds_a_handcart():
    d = pos()
    s = run(d, place("summer_laborer"), vehicle("handcart"))
    check(s, d, goods={"food": 3, "wood": 2},
          barn={"vehicles": [{"kind": "handcart", "used": []}]})


def test_summer_laborer_builds_a_cart_with_a_horse():
    d = pos({"goods": {"wood": 5}})
    s = run(d, place("summer_laborer"), vehicle("cart"))
    check(s, d, goods={"food": 3, "wood": 0}, animals={"horse": 0},
          barn={"vehicles": [{"kind": "cart", "used": []}]})
    assert vp(s, "barn") == 1.0                    # cart 1, and the -3 barn space is covered


def test_summer_laborer_offers_vehicles_not_plow_or_peat_boat():
    s = run(pos({"goods": {"wood": 10}, "animals": {"horse": 2}}), place("summer_laborer"))
    assert legal(s) == {vehicle(v) for v in ("handcart", "wagon", "cart", "horse_cart",
                                             "carriage", "droshky")}


def test_summer_laborer_vehicle_supply_and_barn():
    # 2 handcart/wagon tiles, both with player 1
    d = pos({"goods": {"wood": 4}}, {"barn": {"vehicles": [{"kind": "handcart", "used": []},
                                                          {"kind": "wagon", "used": []}]}})
    s = run(d, place("summer_laborer"))
    check(s, d, goods={"food": 3})       # nothing buildable (a cart needs 5 wood)


def test_summer_laborer_needs_two_food():
    s = make(pos({"goods": {"food": 1, "grain": 5}}))
    assert place("summer_laborer") not in legal(s)
    s = make(pos({"goods": {"food": 2}}))
    assert place("summer_laborer") in legal(s)


def test_summer_laborer_imitates_forester_paying_its_food():
    d = pos(workers_placed=1, start_player=1, occupied={"forester": 1})
    s = run(d, place("summer_laborer"))
    assert legal(s) == {vehicle("handcart"), vehicle("wagon"), imitate("forester")}
    play(s, imitate("forester"), tile("forest"))
    check(s, d, goods={"food": 2}, home={"forests": 1})
    assert s.to_dict()["occupied"] == {"forester": 1, "summer_laborer": 0}


def test_summer_laborer_imitation_needs_the_imitated_cost():
    d = pos({"goods": {"food": 2, "wood": 0}}, workers_placed=1, start_player=1,
            occupied={"forester": 1})
    s = run(d, place("summer_laborer"))
    check(s, d, goods={"food": 0})                 # forester not affordable, no vehicle either


def test_summer_laborer_imitates_own_woodcutter_with_own_axes():
    d = pos({"tools": {"axes": 5}}, {"tools": {"axes": 3}}, workers_placed=2,
            occupied={"woodcutter": 0, "fisherman": 1})
    s = run(d, place("summer_laborer"))
    assert legal(s) >= {imitate("woodcutter"), imitate("fisherman")}
    s.apply(imitate("woodcutter"))
    check(s, d, goods={"food": 3, "wood": 9})


def test_summer_laborer_imitates_fisherman_moves_own_traps():
    d = pos(workers_placed=1, start_player=1, occupied={"fisherman": 1})
    s = run(d, place("summer_laborer"), imitate("fisherman"))
    check(s, d, goods={"food": 6}, animals={"sheep": 1}, tools={"fish_traps": 3})


def test_summer_laborer_only_occupied_spaces_not_itself_not_winter():
    # player 1 used the special action on the winter Master
    d = pos({"goods": {"wood": 0}}, workers_placed=2,
            occupied={"colonist": 0, "winter_master": 1}, special=1)
    s = run(d, place("summer_laborer"))
    check(s, d, goods={"food": 3, "wood": 0}, animals={"horse": 2},
          home={"hydrated_moors": 2, "dehydrated_moors": [4]})   # only the colonist: forced


def test_summer_laborer_imitation_ids_offered():
    d = pos(workers_placed=2, occupied={"colonist": 0, "winter_master": 1}, special=1)
    s = run(d, place("summer_laborer"))
    imitations = {a for a in legal(s) if imitate("fisherman") <= a <= imitate("winter_laborer")}
    assert imitations == {imitate("colonist")}


# ---------------------------------------------------------------------------------------------
# the special action (actions.md §7)
# ---------------------------------------------------------------------------------------------


def test_special_action_summer_space_in_winter():
    d = pos(half_year=2)
    s = make(d)
    assert place("woodcutter") in legal(s)
    s.apply(place("woodcutter"))
    check(s, d, goods={"wood": 7})
    after = s.to_dict()
    assert after["special_action_by"] == 0
    assert after["occupied"] == {"woodcutter": 0}


def test_special_action_once_per_half_year_for_both_players():
    s = run(pos(half_year=2), place("fisherman"))
    summer_ids = {place(k) for k in ("summer_grocer", "woodcutter", "summer_master", "warden")}
    assert not legal(s) & summer_ids
    assert place("tanner") in legal(s)


def test_special_action_summer_master_in_winter():
    d = pos({"goods": {"wood": 2}}, half_year=4)
    s = run(d, place("summer_master"), tool("fish_traps"), tool("axes"))
    check(s, d, goods={"wood": 0}, tools={"axes": 4, "fish_traps": 3})
    assert s.special_action_by == 0


def test_special_action_summer_laborer_in_winter_builds_a_vehicle_only():
    d = pos(half_year=2, workers_placed=2, occupied={"tanner": 0, "potter": 1})
    s = run(d, place("summer_laborer"))
    assert legal(s) == {vehicle("handcart"), vehicle("wagon")}


def test_special_action_by_other_player_keeps_start_marker():
    # half-year 2, player 0 starts; player 1's last worker takes the summer Woodcutter
    d = pos({"goods": {"food": 10}}, {"goods": {"food": 10}}, half_year=2, workers_placed=7,
            occupied={"tanner": 0, "potter": 1, "baker": 0, "butcher": 1, "wood_trader": 0,
                      "cattle_trader": 1, "winter_grocer": 0})
    s = run(d, place("woodcutter"))
    guard = 0
    while s.half_year == 2 and guard < 50:
        s.apply(STOP if STOP in legal(s) else s.legal_actions()[0])
        guard += 1
    assert s.half_year == 3
    assert s.start_player == 0            # normally the marker would pass to player 1
    assert s.special_action_by is None


def test_no_special_action_marker_passes():
    d = pos({"goods": {"food": 10}}, {"goods": {"food": 10}}, half_year=2, workers_placed=7,
            occupied={"tanner": 0, "potter": 1, "baker": 0, "butcher": 1, "wood_trader": 0,
                      "cattle_trader": 1, "winter_grocer": 0})
    s = run(d, PASS)
    guard = 0
    while s.half_year == 2 and guard < 50:
        s.apply(STOP if STOP in legal(s) else s.legal_actions()[0])
        guard += 1
    assert s.half_year == 3 and s.start_player == 1


# ---------------------------------------------------------------------------------------------
# conventions (actions.md §1)
# ---------------------------------------------------------------------------------------------


def test_summer_offers_all_15_summer_spaces_and_winter_as_special():
    s = make(pos())
    assert {place(k) for k in ("fisherman", "summer_laborer", "tanner", "winter_laborer")} <= \
        legal(s)


def test_occupied_space_not_offered():
    s = make(pos(workers_placed=1, start_player=1, occupied={"woodcutter": 1}))
    assert place("woodcutter") not in legal(s)


@pytest.mark.parametrize("space", ["fisherman", "summer_grocer", "wool_weaver", "colonist",
                                   "peat_cutter", "dike_builder", "clay_worker", "farmer",
                                   "forester", "woodcutter", "summer_master",
                                   "summer_carpenter", "builder", "warden", "summer_laborer"])
def test_every_summer_space_leaves_opponent_untouched(space):
    d = pos({"goods": {"food": 10, "wood": 10, "timber": 3, "brick": 3, "grain": 5}})
    s = run(d, place(space))
    while s.pending != "turn":
        s.apply(s.legal_actions()[-1])
    assert s.to_dict()["players"][1] == d["players"][1]
    assert s.to_dict()["occupied"] == {space: 0}

