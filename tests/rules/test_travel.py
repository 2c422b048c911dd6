"""Travel destinations (tiles.md §6, core.md §6) and the clothing and building-material tiles
(tiles.md §5, core.md 4.1) where test_buildings / test_summer / test_winter / test_scoring /
test_inventory do not already cover them; docs/rules-decisions.md D1, D4, G5, V3-V5.

A destination is loaded with load(dest, slot, start) as an anytime action; then the deliveries
are chosen with deliver(dest, k) (k in rules.DESTINATIONS order; Hage: 0 grain field, 1 flax
field), at least one, each at most once, STOP to end (D1 ends the choice by itself when nothing
else is possible). The food comes at once; the tile reaches the travel track at the next
inventorying. Player 0 acts in half-year 1 (summer) at its first turn unless a test says
otherwise; player 0's start goods: food 5, grain 1, flax 3, wool 4, hide 2, wood 4, clay 4,
peat 3; 1 horse.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import arle_ai
from arle_ai.engine import rules
from helpers import (
    DESTINATIONS,
    PASS,
    STOP,
    L,
    animal,
    deliver,
    expected,
    good,
    legal,
    load,
    make,
    place,
    play,
    position,
    run,
    tile,
    veh,
    vehicle,
    vp,
)

# ---------------------------------------------------------------------------------------------
# position builders and checks
# ---------------------------------------------------------------------------------------------

pos = position


def barn(*specs: str | tuple[str, list[int]], **pieces: int) -> dict[str, Any]:
    return {"peat_boats": pieces.get("peat_boats", 0), "plows": pieces.get("plows", 0),
            "vehicles": veh(*specs)}


def with_vehicle(kind: str, p0: dict | None = None, **kw: Any) -> dict[str, Any]:
    p0 = copy.deepcopy(p0 or {})
    p0.setdefault("barn", {})["vehicles"] = veh(kind)
    return pos(p0, **kw)


def check(s: arle_ai.GameState, d: dict[str, Any], pi: int = 0, **changes: Any) -> None:
    """After an anytime action: still pi's turn; pi's part equals d's with `changes`; the
    opponent's is unchanged."""
    after = s.to_dict()
    assert (s.pending, s.current_player) == ("turn", pi)
    assert after["players"][pi] == expected(d, pi, **changes)
    assert after["players"][1 - pi] == d["players"][1 - pi]


def dest_loads(s: arle_ai.GameState) -> set[str]:
    """The destinations some legal load id offers."""
    out = set()
    for a in legal(s):
        if L["load"] <= a < L["good"]:
            item = s.action_to_string(a).split()[1]
            if item in DESTINATIONS:
                out.add(item)
    return out


def loaded(kind: str, used: list[int], *dests: str) -> dict[str, Any]:
    """Barn and loaded sections for a vehicle carrying destinations."""
    return {"barn": {"vehicles": veh((kind, used))},
            "loaded": {"destinations": list(dests)}}


def close_half_year(s: arle_ai.GameState) -> arle_ai.GameState:
    """STOP the closing windows until the inventorying has run (no other decision allowed)."""
    while s.pending in ("end_window", "final_window"):
        s.apply(STOP)
    assert s.pending == "turn" or s.is_terminal(), s.pending
    return s


def all_deliveries(dest: str) -> set[int]:
    n = 2 if dest == "hage" else len(rules.destination(dest).deliveries)
    return {deliver(dest, k) for k in range(n)}


# ---------------------------------------------------------------------------------------------
# Hage (size 1): a field tile -> 1 food (V5: two ids, grain field / flax field)
# ---------------------------------------------------------------------------------------------


def test_hage_grain_field_for_one_food():
    d = with_vehicle("handcart")
    s = run(d, load("hage", 0, 0))
    assert s.pending == "action:deliver"
    assert legal(s) == {deliver("hage", 0), deliver("hage", 1)}     # no STOP: one is required
    s.apply(deliver("hage", 0))                                      # the only delivery: done
    check(s, d, goods={"food": 6}, home={"grain_fields": 0},
          **loaded("handcart", [0], "hage"))


def test_hage_flax_field_for_one_food():
    d = with_vehicle("wagon")
    s = run(d, load("hage", 0, 0), deliver("hage", 1))
    check(s, d, goods={"food": 6}, home={"flax_fields": 0}, **loaded("wagon", [0], "hage"))


def test_hage_only_field_kind_is_handed_over_by_itself():
    # D1: with no grain field the flax field is the only choice
    d = with_vehicle("handcart", {"home": {"grain_fields": 0}})
    s = run(d, load("hage", 0, 0))
    check(s, d, goods={"food": 6}, home={"grain_fields": 0, "flax_fields": 0},
          **loaded("handcart", [0], "hage"))


def test_hage_not_loadable_without_a_field():
    d = with_vehicle("handcart", {"home": {"grain_fields": 0, "flax_fields": 0}})
    assert "hage" not in dest_loads(make(d))


def test_hage_field_returns_to_the_supply():
    # 14 field tiles: player 0 has 2, player 1 has 12, so none is left; Hage returns one and
    # the Farmer's plow can place it
    d = with_vehicle("handcart", {"barn": {"plows": 1}},
                     p1={"home": {"dikes": 7, "grain_fields": 6, "flax_fields": 6}})
    s = run(d, load("hage", 0, 0), deliver("hage", 0), place("farmer"), STOP)
    assert s.pending == "action:field"
    s.apply(tile("flax_field"))
    assert s.to_dict()["players"][0]["home"]["grain_fields"] == 0
    assert s.to_dict()["players"][0]["home"]["flax_fields"] == 2


# ---------------------------------------------------------------------------------------------
# Beemoor (size 1): 1 peat -> 2 food
# ---------------------------------------------------------------------------------------------


def test_beemoor_one_peat_for_two_food():
    d = with_vehicle("handcart")
    s = run(d, load("beemoor", 0, 0))         # its only delivery is made by itself (D1)
    check(s, d, goods={"food": 7, "peat": 2}, **loaded("handcart", [0], "beemoor"))


def test_beemoor_needs_peat_in_the_supply_not_on_the_moors():
    d = with_vehicle("handcart", {"goods": {"peat": 0}})    # 4 peat on the boardwalk
    assert "beemoor" not in dest_loads(make(d))


# ---------------------------------------------------------------------------------------------
# Dornum (size 1): 1 plow from the barn -> 8 food
# ---------------------------------------------------------------------------------------------


def test_dornum_plow_for_eight_food():
    d = pos({"barn": barn("cart", plows=1)})
    before = vp(make(d), "barn")
    s = run(d, load("dornum", 0, 0))
    check(s, d, goods={"food": 13}, barn=barn(("cart", [0])),
          loaded={"destinations": ["dornum"]})
    assert vp(s, "barn") == before - 3


def test_dornum_needs_a_plow_not_a_peat_boat():
    d = pos({"barn": barn("handcart", peat_boats=2)})
    assert "dornum" not in dest_loads(make(d))


def test_dornum_frees_the_barn_space_and_returns_the_tile():
    # player 0's barn is full (4 boats + plow + 2 carts) and the 6 boat/plow tiles are all taken;
    # after Dornum the Wainwright can build a peat boat again
    d = pos({"barn": barn("cart", "cart", peat_boats=4, plows=1)},
            {"barn": barn(peat_boats=1)}, half_year=2)
    s = make(d)
    s.apply(place("wainwright"))
    assert vehicle("peat_boat") not in legal(s)
    s = run(d, load("dornum", 0, 0), place("wainwright"))
    assert vehicle("peat_boat") in legal(s)


# ---------------------------------------------------------------------------------------------
# Norden (size 2): sheep 4, peat boat 5, winter wear 7
# ---------------------------------------------------------------------------------------------


def test_norden_all_three_deliveries():
    d = with_vehicle("cart", {"animals": {"sheep": 1}, "goods": {"winter_wear": 1},
                              "barn": {"peat_boats": 1}})
    s = run(d, load("norden", 0, 0))
    assert legal(s) == all_deliveries("norden")
    s.apply(deliver("norden", 0))
    assert legal(s) == {STOP, deliver("norden", 1), deliver("norden", 2)}
    s.apply(deliver("norden", 1))
    s.apply(deliver("norden", 2))           # nothing left to deliver: done
    check(s, d, goods={"food": 5 + 4 + 5 + 7, "winter_wear": 0}, animals={"sheep": 0},
          barn=barn(("cart", [0, 1])), loaded={"destinations": ["norden"]})


def test_norden_each_delivery_at_most_once():
    d = with_vehicle("cart", {"animals": {"sheep": 3}, "home": {"dikes": 1}})
    # D1: the sheep is the only delivery, then only STOP would be left: both happen by
    # themselves, and the second sheep is not delivered
    s = run(d, load("norden", 0, 0))
    check(s, d, goods={"food": 9}, animals={"sheep": 2}, **loaded("cart", [0, 1], "norden"))


def test_norden_one_of_two_possible_then_stop():
    d = with_vehicle("horse_cart", {"goods": {"winter_wear": 2}, "barn": {"peat_boats": 1}})
    s = run(d, load("norden", 0, 1), deliver("norden", 2))
    assert legal(s) == {STOP, deliver("norden", 1)}
    s.apply(STOP)
    check(s, d, goods={"food": 12, "winter_wear": 1}, **loaded("horse_cart", [1, 2], "norden"))


def test_norden_peat_boat_leaves_the_barn_no_more_exchange():
    d = with_vehicle("cart", {"barn": {"peat_boats": 1}})
    s = make(d)
    assert L["exchange"] in legal(s)
    s.apply(load("norden", 0, 0))           # the boat is the only delivery
    check(s, d, goods={"food": 10}, barn=barn(("cart", [0, 1])),
          loaded={"destinations": ["norden"]})
    assert not {a for a in legal(s) if L["exchange"] <= a < L["exchange"] + 5}


def test_norden_on_the_carriage_bench():
    d = with_vehicle("carriage", {"animals": {"sheep": 1}})
    s = make(d)
    assert {a for a in legal(s) if s.action_to_string(a).startswith("load norden")} == {
        load("norden", 0, 1)}
    s.apply(load("norden", 0, 1))
    check(s, d, goods={"food": 9}, animals={"sheep": 0}, **loaded("carriage", [1], "norden"))


def test_norden_not_on_small_vehicles_or_without_a_delivery():
    s = make(pos({"animals": {"sheep": 1}, "barn": barn("handcart", "wagon")}))
    assert "norden" not in dest_loads(s)
    s = make(with_vehicle("cart", {"goods": {"woolen": 3}}))    # woolen is not winter wear
    assert "norden" not in dest_loads(s)


# ---------------------------------------------------------------------------------------------
# Aurich (size 2): leather 4, any animal 4, horse 5 (V4)
# ---------------------------------------------------------------------------------------------


def test_aurich_all_three_deliveries():
    d = with_vehicle("cart", {"goods": {"leather": 1}, "animals": {"sheep": 1}})
    s = run(d, load("aurich", 0, 0))
    assert legal(s) == all_deliveries("aurich")
    s.apply(deliver("aurich", 1))
    assert s.pending == "action:give_animals"
    assert legal(s) == {animal("sheep"), animal("horse")}
    play(s, animal("sheep"), deliver("aurich", 0))
    assert legal(s) == {STOP, deliver("aurich", 2)}
    s.apply(deliver("aurich", 2))
    check(s, d, goods={"food": 5 + 4 + 4 + 5, "leather": 0}, animals={"sheep": 0, "horse": 0},
          **loaded("cart", [0, 1], "aurich"))


def test_aurich_any_animal_and_horse_both_with_two_horses():
    d = with_vehicle("cart", {"animals": {"horse": 2}})
    s = run(d, load("aurich", 0, 0), deliver("aurich", 2), deliver("aurich", 1))
    # the any-animal delivery takes the last horse by itself (D1)
    check(s, d, goods={"food": 14}, animals={"horse": 0}, **loaded("cart", [0, 1], "aurich"))


def test_aurich_leather_is_the_fabric_not_hide():
    d = with_vehicle("cart", {"animals": {"horse": 0}, "goods": {"hide": 5}})
    assert "aurich" not in dest_loads(make(d))


# ---------------------------------------------------------------------------------------------
# Esens (size 2): hide 2, 2 grain 4, woolen 4
# ---------------------------------------------------------------------------------------------


def test_esens_all_three_deliveries():
    d = with_vehicle("cart", {"goods": {"grain": 2, "woolen": 1}})
    s = run(d, load("esens", 0, 0))
    assert legal(s) == all_deliveries("esens")
    play(s, deliver("esens", 0), deliver("esens", 1), deliver("esens", 2))
    check(s, d, goods={"food": 5 + 2 + 4 + 4, "hide": 1, "grain": 0, "woolen": 0},
          **loaded("cart", [0, 1], "esens"))


def test_esens_one_grain_is_not_enough():
    d = with_vehicle("cart", {"goods": {"grain": 1}})
    s = run(d, load("esens", 0, 0))
    # only the hide is possible: made by itself
    check(s, d, goods={"food": 7, "hide": 1}, **loaded("cart", [0, 1], "esens"))


def test_esens_woolen_is_the_fabric_not_wool():
    d = with_vehicle("cart", {"goods": {"hide": 0, "grain": 0, "wool": 9}})
    assert "esens" not in dest_loads(make(d))


# ---------------------------------------------------------------------------------------------
# Emden (size 3): peat 3, summer wear 6, leather wear 7, winter wear 7
# ---------------------------------------------------------------------------------------------

WEAR = {"summer_wear": 1, "winter_wear": 1, "leather_wear": 1}


def test_emden_all_four_deliveries_on_a_carriage():
    # size 3 = the carriage's single + bench
    d = with_vehicle("carriage", {"goods": WEAR})
    s = run(d, load("emden", 0, 0))
    assert legal(s) == all_deliveries("emden")
    play(s, deliver("emden", 3), deliver("emden", 0), deliver("emden", 2), deliver("emden", 1))
    check(s, d, goods={"food": 5 + 3 + 6 + 7 + 7, "peat": 2, "summer_wear": 0,
                       "winter_wear": 0, "leather_wear": 0},
          **loaded("carriage", [0, 1], "emden"))


def test_emden_food_capped_at_30():
    d = with_vehicle("cart", {"goods": dict(WEAR, food=20)})
    s = run(d, load("emden", 0, 0), deliver("emden", 1), deliver("emden", 2),
            deliver("emden", 3), STOP)
    check(s, d, goods={"food": 30, "summer_wear": 0, "winter_wear": 0, "leather_wear": 0},
          **loaded("cart", [0, 1, 2], "emden"))


def test_emden_not_on_two_spaces():
    s = make(pos({"barn": barn(("cart", [0]), "wagon"), "loaded": {"wood": 1}}))
    assert "emden" not in dest_loads(s)
    assert "norden" not in dest_loads(s) and "beemoor" in dest_loads(s)


# ---------------------------------------------------------------------------------------------
# Leer (size 3): flax 2, linen 3, cattle 5, one clothing tile of your choice 6
# ---------------------------------------------------------------------------------------------


def test_leer_all_four_deliveries_clothing_chosen():
    d = with_vehicle("droshky", {"goods": dict(WEAR, linen=1), "animals": {"cattle": 1},
                                 "home": {"dikes": 1}})
    s = run(d, load("leer", 0, 0))
    assert legal(s) == all_deliveries("leer")
    s.apply(deliver("leer", 3))
    assert s.pending == "action:give_clothing"
    assert legal(s) == {good("summer_wear"), good("winter_wear"), good("leather_wear")}
    play(s, good("winter_wear"), deliver("leer", 0), deliver("leer", 1), deliver("leer", 2))
    check(s, d, goods={"food": 5 + 6 + 2 + 3 + 5, "flax": 2, "linen": 0, "winter_wear": 0},
          animals={"cattle": 0}, **loaded("droshky", [0, 1], "leer"))


def test_leer_clothing_excludes_fabrics():
    # linen, woolen and leather are fabrics, not clothing: only flax and linen deliveries
    d = with_vehicle("cart", {"goods": {"linen": 1, "woolen": 1, "leather": 1}})
    s = run(d, load("leer", 0, 0))
    assert legal(s) == {deliver("leer", 0), deliver("leer", 1)}


def test_leer_single_clothing_tile_handed_over_by_itself():
    d = with_vehicle("cart", {"goods": {"flax": 0, "leather_wear": 2}})
    s = run(d, load("leer", 0, 0))      # the clothing delivery is the only one; one kind
    check(s, d, goods={"food": 11, "flax": 0, "leather_wear": 1},
          **loaded("cart", [0, 1, 2], "leer"))


# ---------------------------------------------------------------------------------------------
# Bremen (size 4): moor (no food), timber 5, 2 animals 9, linen+woolen+leather 12,
# summer+winter+leather wear 30 (V3, V4)
# ---------------------------------------------------------------------------------------------


def test_bremen_moor_alone_is_a_delivery_hydrated_first():
    # V3: a hydrated moor goes first; no food; home board -4 -> 0 for that moor
    d = with_vehicle("horse_cart", {"goods": {"timber": 0}, "animals": {"horse": 0},
                                    "home": {"hydrated_moors": 2, "dehydrated_moors": [3]}})
    before = vp(make(d), "home_board")
    s = run(d, load("bremen", 0, 0))      # the moor is the only possible delivery
    check(s, d, home={"hydrated_moors": 1, "dehydrated_moors": [3]},
          **loaded("horse_cart", [0, 1, 2, 3], "bremen"))
    assert vp(s, "home_board") == before + 4


def test_bremen_moor_dehydrated_with_least_peat_when_none_hydrated():
    d = with_vehicle("droshky", {"home": {"hydrated_moors": 0, "dehydrated_moors": [4, 2]}})
    s = run(d, load("bremen", 0, 0))      # only the moor is possible: made by itself
    check(s, d, home={"hydrated_moors": 0, "dehydrated_moors": [4]},
          **loaded("droshky", [0, 1, 2], "bremen"))


def test_bremen_moor_frees_two_land_spaces():
    # the 2 empty land spaces are taken by forests; the discarded moor frees 2 more
    d = with_vehicle("horse_cart", {"home": {"forests": 2}, "animals": {"horse": 0}})
    s = run(d, load("bremen", 0, 0))
    after = s.to_dict()
    after.pop("pending")
    after["players"][0]["home"]["forests"] = 4
    arle_ai.GameState.from_dict(after)              # 4 forests fit now
    after["players"][0]["home"]["forests"] = 5
    with pytest.raises(arle_ai.PositionError):
        arle_ai.GameState.from_dict(after)
    before = copy.deepcopy(d)
    before["players"][0]["home"]["forests"] = 3
    with pytest.raises(arle_ai.PositionError):
        make(before)


def test_bremen_timber_animals_and_clothing_food_capped_at_30():
    # 5 + 9 + 30 = 44 food, but food stops at 30 (tiles.md 6.1)
    d = with_vehicle("horse_cart", {"goods": dict(WEAR, food=0, timber=2),
                                    "animals": {"sheep": 1, "cattle": 1}, "home": {"dikes": 1}})
    s = run(d, load("bremen", 0, 0), deliver("bremen", 1), deliver("bremen", 2))
    assert s.pending == "action:give_animals"
    # two animals, any types (V4); the lower type first (D4)
    assert legal(s) == {animal("sheep"), animal("cattle")}
    play(s, animal("sheep"), animal("cattle"), deliver("bremen", 4), STOP)
    check(s, d, goods={"food": 30, "timber": 1, "summer_wear": 0, "winter_wear": 0,
                       "leather_wear": 0},
          animals={"sheep": 0, "cattle": 0}, **loaded("horse_cart", [0, 1, 2, 3], "bremen"))


def test_bremen_fabrics_need_all_three():
    d = with_vehicle("horse_cart", {"goods": {"linen": 1, "woolen": 1, "leather": 1}})
    s = run(d, load("bremen", 0, 0))
    assert legal(s) == {deliver("bremen", 0), deliver("bremen", 3)}   # 1 horse: no 2 animals
    s.apply(deliver("bremen", 3))
    s.apply(STOP)
    check(s, d, goods={"food": 17, "linen": 0, "woolen": 0, "leather": 0},
          **loaded("horse_cart", [0, 1, 2, 3], "bremen"))
    s2 = make(with_vehicle("horse_cart", {"goods": {"linen": 1, "woolen": 1}}))
    s2.apply(load("bremen", 0, 0))
    assert deliver("bremen", 3) not in legal(s2)


def test_bremen_timber_not_wood():
    d = with_vehicle("horse_cart", {"goods": {"wood": 9}, "home": {"hydrated_moors": 0,
                                                                  "dehydrated_moors": []},
                                    "animals": {"horse": 0}})
    assert "bremen" not in dest_loads(make(d))


@pytest.mark.parametrize("vehicles, ok", [
    (veh("cart"), False), (veh("carriage"), False), (veh("horse_cart"), True),
    (veh("droshky"), True), (veh("cart", "carriage"), False),
])
def test_bremen_needs_four_combined_spaces(vehicles, ok):
    s = make(pos({"barn": {"vehicles": vehicles}}))
    assert ("bremen" in dest_loads(s)) == ok


# ---------------------------------------------------------------------------------------------
# at least one delivery, each destination once (tiles.md 6.1, core.md 6.1)
# ---------------------------------------------------------------------------------------------


def test_no_stop_before_the_first_delivery():
    d = with_vehicle("cart", {"animals": {"sheep": 1}, "barn": {"peat_boats": 1}})
    s = run(d, load("norden", 0, 0))
    assert STOP not in legal(s)
    before = s.to_dict()
    with pytest.raises(arle_ai.IllegalActionError):
        s.apply(STOP)
    assert s.to_dict() == before


def test_a_loaded_destination_cannot_be_loaded_twice():
    d = pos({"barn": barn("handcart", "handcart")})
    s = run(d, load("beemoor", 0, 0))
    assert "beemoor" not in dest_loads(s)
    assert "hage" in dest_loads(s)


def test_destination_on_the_travel_track_never_again():
    d = with_vehicle("cart", {"animals": {"sheep": 1}, "travel": ["norden", "hage"]})
    assert dest_loads(make(d)) == {"beemoor", "aurich", "esens", "emden", "leer"}


def test_opponent_destinations_are_its_own():
    # player 1 already travelled to Norden; player 0 still can
    d = with_vehicle("cart", {"animals": {"sheep": 1}}, p1={"travel": ["norden"]})
    assert "norden" in dest_loads(make(d))


def test_start_position_offers_no_destination_without_a_vehicle():
    assert not dest_loads(make(pos()))


# ---------------------------------------------------------------------------------------------
# the tile reaches the travel track at the next inventorying (G5: rules.TRAVEL_VP)
# ---------------------------------------------------------------------------------------------


def test_loaded_destination_scores_only_after_the_inventorying():
    d = with_vehicle("cart", {"animals": {"sheep": 1}, "goods": {"food": 10}}, workers_placed=8)
    s = run(d, load("norden", 0, 0))            # the sheep, by itself (D1)
    assert s.pending == "end_window"
    assert vp(s, "travel") == 0.0
    assert s.to_dict()["players"][0]["travel"] == []
    close_half_year(s)
    p = s.to_dict()["players"][0]
    assert s.half_year == 2
    assert (p["travel"], p["loaded"]["destinations"]) == (["norden"], [])
    assert p["barn"]["vehicles"] == veh("cart")
    assert vp(s, "travel") == rules.TRAVEL_VP[2] == 1


def test_two_destinations_in_one_half_year():
    d = pos({"barn": barn("wagon", "cart"), "animals": {"sheep": 1}, "goods": {"food": 10}},
            half_year=2, workers_placed=8)
    s = run(d, load("hage", 0, 0), deliver("hage", 1), load("norden", 1, 0))
    close_half_year(s)
    assert sorted(s.to_dict()["players"][0]["travel"]) == ["hage", "norden"]
    assert vp(s, "travel") == rules.TRAVEL_VP[3] == 3
    assert vp(s, "travel", 1) == 0


@pytest.mark.parametrize("travel, dest, kind, extra, total", [
    ([], "hage", "handcart", {}, 1),
    (["bremen"], "emden", "cart", {"goods": {"peat": 3}}, 7),
    (["bremen", "emden", "leer", "norden"], "esens", "cart", {}, 14),
    (["hage", "beemoor", "dornum", "norden", "aurich", "esens", "emden", "leer"], "bremen",
     "horse_cart", {}, 19),
])
def test_travel_vp_after_inventorying(travel, dest, kind, extra, total):
    d = with_vehicle(kind, dict(extra, travel=travel, goods=dict(
        extra.get("goods", {}), food=10)), workers_placed=8)
    s = make(d)
    s.apply(load(dest, 0, 0))
    while s.pending.startswith("action"):
        s.apply(min(legal(s) - {STOP}) if legal(s) - {STOP} else STOP)
    close_half_year(s)
    assert sum(rules.destination(t).size for t in s.to_dict()["players"][0]["travel"]) == total
    assert vp(s, "travel") == rules.TRAVEL_VP[total]


def test_destination_loaded_in_the_last_half_year_scores():
    # half-year 9: unloaded at the last November, before final scoring
    others = ["hage", "beemoor", "dornum", "aurich", "esens", "emden", "leer", "bremen"]
    d = with_vehicle("cart", {"travel": others, "animals": {"sheep": 1},
                              "goods": {"food": 10}}, half_year=9, workers_placed=8)
    s = run(d, load("norden", 0, 0))
    close_half_year(s)
    assert s.is_terminal()
    assert vp(s, "travel") == 10.0


# ---------------------------------------------------------------------------------------------
# clothing and building-material tiles (tiles.md §5, core.md 4.1, 4.3)
# ---------------------------------------------------------------------------------------------


def test_clothing_from_a_vehicle_delivered_next_half_year():
    # woolen loaded in winter comes back as winter wear in May; Emden takes it in summer
    d = with_vehicle("horse_cart", {"goods": {"woolen": 1, "food": 10}},
                     half_year=2, workers_placed=8)
    s = run(d, load("woolen", 0, 0))
    close_half_year(s)
    assert s.half_year == 3
    if s.current_player == 1:
        s.apply(PASS)
    s.apply(load("emden", 0, 0))
    assert legal(s) == {deliver("emden", 0), deliver("emden", 3)}
    play(s, deliver("emden", 3), STOP)
    p = s.to_dict()["players"][0]
    assert (p["goods"]["winter_wear"], p["goods"]["food"]) == (0, 7 + 7)


def test_materials_have_no_cap():
    # goods-track caps (15, food 30) do not apply to timber, brick and clothing
    d = pos({"goods": {"timber": 40, "brick": 40, "summer_wear": 20, "food": 10},
             "barn": barn(("horse_cart", [0, 1, 2, 3])),
             "loaded": {"wood": 2, "linen": 1}}, workers_placed=8)
    s = close_half_year(make(d))
    g = s.to_dict()["players"][0]["goods"]
    # heating: 2 peat of 3
    assert (g["timber"], g["brick"], g["summer_wear"], g["peat"]) == (42, 40, 21, 1)


def test_fabrics_score_one_clothing_more_after_loading():
    # linen 1 -> summer wear 2; woolen and leather 1 -> 2 1/2 (G3)
    d = pos({"goods": {"food": 10, "linen": 1, "woolen": 1, "leather": 1, "wood": 0, "clay": 0},
             "barn": barn("cart", "horse_cart", "droshky")}, half_year=2, workers_placed=8)
    s = make(d)
    assert vp(s, "clothing_and_materials") == 3.0
    play(s, load("leather", 0, 0), load("woolen", 1, 0), load("linen", 2, 1))
    close_half_year(s)
    assert vp(s, "clothing_and_materials") == 2 + 2.5 + 2.5


def test_brick_and_timber_substitute_only_one_way_when_loading():
    # timber cannot be loaded as wood, brick not as clay: only wood/clay are loadable
    d = with_vehicle("handcart", {"goods": {"wood": 0, "clay": 0, "timber": 5, "brick": 5,
                                            "peat": 0},
                                  "home": {"grain_fields": 0, "flax_fields": 0}})
    assert not {a for a in legal(make(d)) if L["load"] <= a < L["good"]}
