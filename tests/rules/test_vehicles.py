"""Vehicles, equipment, the barn and loading (tiles.md §3, §5; core.md §4.4, §5, 7.5;
docs/rules-decisions.md D2-D4, H9, V1, V2, V6, G4).

Every test builds a concrete position from base(), applies ids (place(...), vehicle(...),
load(item, slot, start), exchange(good), flip(...)) and compares the acting player's whole part
of to_dict() with the expected one; the opponent must be unchanged. Player 0 acts (start player,
no worker placed yet) unless a test says otherwise. Loading and the peat-boat exchange are
anytime actions: after them it is still player 0's turn.

Load ids: `slot` is the index in the barn's vehicle list (sorted by kind: handcart, wagon, cart,
horse cart, carriage, droshky; equal kinds by used compartments), `start` the first compartment
(carriage: 0 single, 1 bench; droshky: 0, 1 bench, 2). Mirror-image placements and identical
vehicles are one choice (D4): only the lowest start/slot is offered.
"""

from __future__ import annotations

from typing import Any

import pytest

import arle_ai
from helpers import (
    PASS,
    STOP,
    L,
    animal,
    build,
    exchange,
    expected,
    flip,
    legal,
    load,
    make,
    place,
    position,
    run,
    veh,
    vehicle,
    vp,
)

MATERIALS = ["wood", "clay", "linen", "woolen", "leather"]
EMPTY_LOAD = {"wood": 0, "clay": 0, "linen": 0, "woolen": 0, "leather": 0, "peat": 0,
              "destinations": []}
EXCHANGE_GOODS = ["food", "grain", "flax", "wool", "hide"]

# ---------------------------------------------------------------------------------------------
# position builders and checks
# ---------------------------------------------------------------------------------------------

pos = position


def check(s: arle_ai.GameState, d: dict[str, Any], pi: int = 0, *, done: bool = True,
          **changes: Any) -> None:
    """Player pi's part equals d's with `changes`; the opponent's is unchanged; with done the
    worker's action is over and it is the opponent's turn, otherwise still pi's turn."""
    after = s.to_dict()
    assert after["players"][pi] == expected(d, pi, **changes)
    assert after["players"][1 - pi] == d["players"][1 - pi]
    assert s.pending == "turn"
    assert s.current_player == (1 - pi if done else pi)


def loads(s: arle_ai.GameState, items: list[str] = MATERIALS) -> set[int]:
    """The legal load ids of the given items."""
    return {a for a in legal(s) if L["load"] <= a < L["good"]
            and s.action_to_string(a).split()[1] in items}


def ids(item: str, *placements: tuple[int, int]) -> set[int]:
    return {load(item, slot, start) for slot, start in placements}


def exchanges(s: arle_ai.GameState) -> set[int]:
    return {a for a in legal(s) if L["exchange"] <= a < L["exchange"] + 5}


def close_half_year(s: arle_ai.GameState, h: int) -> arle_ai.GameState:
    """Close the end-of-work-phase windows of half-year h (STOP; D1 closes a window with nothing
    else to do by itself) and run the inventorying; the state must reach the next half-year's
    first turn (or the end) without another decision."""
    while s.pending in ("end_window", "final_window"):
        s.apply(STOP)
    assert s.is_terminal() or (s.half_year == h + 1 and s.pending == "turn"), s.pending
    return s


# ---------------------------------------------------------------------------------------------
# costs, VP and size class of every barn piece (tiles.md 3.2, core.md 5.3; Wainwright W12)
# ---------------------------------------------------------------------------------------------

# kind, wood, horses, printed VP, large
PIECES = [
    ("peat_boat", 1, 0, 1, False),
    ("handcart", 2, 0, 0, False),
    ("wagon", 4, 0, 1, False),
    ("cart", 5, 1, 1, True),
    ("horse_cart", 7, 1, 2, True),
    ("carriage", 4, 2, 4, True),
    ("droshky", 6, 2, 5, True),
]


@pytest.mark.parametrize("kind, wood, horses, points, large", PIECES)
def test_wainwright_builds_at_the_printed_cost_and_scores_printed_vp(kind, wood, horses,
                                                                     points, large):
    d = pos({"goods": {"wood": wood}, "animals": {"horse": horses}}, half_year=2)
    s = run(d, place("wainwright"), vehicle(kind))
    # nothing is left to pay for a peat boat: the action ends by itself
    barn = {"peat_boats": 1} if kind == "peat_boat" else {"vehicles": veh(kind)}
    check(s, d, goods={"wood": 0}, animals={"horse": 0}, barn=barn)
    # no large vehicle: -3 (core.md 5.2)
    assert vp(s, "barn") == points + (0 if large else -3)


def test_wainwright_one_wood_or_one_horse_short_not_offered():
    for kind, wood, horses, _, _ in PIECES:
        s = run(pos({"goods": {"wood": wood - 1}, "animals": {"horse": horses}}, half_year=2),
                place("wainwright"))
        assert vehicle(kind) not in legal(s), kind
        if horses:
            s = run(pos({"goods": {"wood": 10}, "animals": {"horse": horses - 1}}, half_year=2),
                    place("wainwright"))
            assert vehicle(kind) not in legal(s), kind
            assert vehicle("wagon") in legal(s)


def test_wainwright_cattle_and_sheep_do_not_pay_horses():
    s = run(pos({"goods": {"wood": 10}, "animals": {"horse": 0, "cattle": 2, "sheep": 2}},
                half_year=2), place("wainwright"))
    assert legal(s) == {STOP, vehicle("peat_boat"), vehicle("handcart"), vehicle("wagon")}


def test_summer_laborer_builds_a_droshky_for_two_food_six_wood_two_horses():
    d = pos({"goods": {"wood": 6}, "animals": {"horse": 2}})
    s = run(d, place("summer_laborer"), vehicle("droshky"))
    check(s, d, goods={"food": 3, "wood": 0}, animals={"horse": 0},
          barn={"vehicles": veh("droshky")})
    assert vp(s, "barn") == 5.0


def test_summer_laborer_builds_a_horse_cart_with_timber():
    # D5: wood before timber
    d = pos({"goods": {"wood": 3, "timber": 5}})
    s = run(d, place("summer_laborer"), vehicle("horse_cart"))
    check(s, d, goods={"food": 3, "wood": 0, "timber": 1}, animals={"horse": 0},
          barn={"vehicles": veh("horse_cart")})


def test_horses_paid_for_a_carriage_leave_the_animal_score():
    # V6: the 2 horses leave the game. Before: sheep 1, cattle 1, horses 2 -> 2*1 + 1 = 3;
    # after: 1, 1, 0 -> 2*0 + 1 = 1
    d = pos({"goods": {"wood": 4}, "animals": {"sheep": 1, "cattle": 1, "horse": 2},
             "home": {"dikes": 1}}, half_year=2)
    assert vp(make(d), "animals") == 3.0
    s = run(d, place("wainwright"), vehicle("carriage"))
    check(s, d, goods={"wood": 0}, animals={"sheep": 1, "cattle": 1, "horse": 0},
          barn={"vehicles": veh("carriage")})
    assert vp(s, "animals") == 1.0


def test_plow_scores_three_peat_boat_one_no_large_vehicle_minus_three():
    # tiles.md 3.3 / core.md 8.1: equipment never covers the -3 space
    d = pos({"barn": {"peat_boats": 1, "plows": 1, "vehicles": veh("wagon")}})
    assert vp(make(d), "barn") == 1 + 3 + 1 - 3


# ---------------------------------------------------------------------------------------------
# the barn: 4 small + 2 large + 1 either (tiles.md 3.3, core.md 5.2)
# ---------------------------------------------------------------------------------------------


def test_barn_three_large_vehicles_no_fourth_but_small_pieces_fit():
    d = pos({"goods": {"wood": 20}, "animals": {"horse": 2},
             "barn": {"vehicles": veh("cart", "cart", "carriage")}}, half_year=2)
    s = run(d, place("wainwright"))
    assert legal(s) == {STOP, vehicle("peat_boat"), vehicle("handcart"), vehicle("wagon")}


def test_barn_two_large_and_four_small_the_either_space_takes_one_more():
    barn = {"peat_boats": 2, "plows": 1, "vehicles": veh("handcart", "cart", "carriage")}
    d = pos({"goods": {"wood": 20}, "animals": {"horse": 2}, "barn": barn}, half_year=2)
    s = run(d, place("wainwright"))
    assert legal(s) == {STOP, vehicle("peat_boat"), vehicle("handcart"), vehicle("wagon"),
                        vehicle("cart"), vehicle("horse_cart"), vehicle("carriage"),
                        vehicle("droshky")}
    # a wagon takes the last space: no room for the peat boat that would follow
    s.apply(vehicle("wagon"))
    check(s, d, goods={"wood": 16},
          barn=dict(barn, vehicles=veh("handcart", "wagon", "cart", "carriage")))


def test_barn_seven_pieces_full_wainwright_does_nothing():
    barn = {"peat_boats": 3, "plows": 1, "vehicles": veh("wagon", "cart", "carriage")}
    d = pos({"goods": {"wood": 20}, "animals": {"horse": 2}, "barn": barn}, half_year=2)
    s = run(d, place("wainwright"))
    check(s, d)


def test_barn_full_farmer_builds_no_plow():
    barn = {"peat_boats": 2, "plows": 1, "vehicles": veh("handcart", "cart", "carriage", "cart")}
    d = pos({"animals": {"cattle": 1}, "barn": barn, "home": {"dikes": 1}})
    s = run(d, place("farmer"))
    assert s.pending == "action:field"     # straight to the one field of the one plow
    assert not legal(s) & {animal("cattle"), animal("horse")}


@pytest.mark.parametrize("barn", [
    {"peat_boats": 6},                                                 # 6 small pieces
    {"peat_boats": 3, "plows": 1, "vehicles": veh("handcart", "wagon")},  # 6 small
    {"vehicles": veh("cart", "cart", "cart", "carriage")},               # 4 large
    {"peat_boats": 5, "vehicles": veh("cart", "cart", "carriage")},      # 8 pieces
])
def test_position_with_an_overfull_barn_rejected(barn):
    d = pos({"barn": barn})
    with pytest.raises(arle_ai.PositionError):
        make(d)


# ---------------------------------------------------------------------------------------------
# shared tile supplies (V2: peat boat/plow 6, handcart/wagon 2, cart/horse cart 3,
# carriage/droshky 3; both players draw from the same stacks)
# ---------------------------------------------------------------------------------------------


def test_supply_cart_pair_empty_no_cart_or_horse_cart():
    d = pos({"goods": {"wood": 20}, "animals": {"horse": 2}, "barn": {"vehicles": veh("cart")}},
            {"barn": {"vehicles": veh("cart", "horse_cart")}}, half_year=2)
    s = run(d, place("wainwright"))
    assert vehicle("cart") not in legal(s) and vehicle("horse_cart") not in legal(s)
    assert {vehicle("carriage"), vehicle("droshky"), vehicle("wagon")} <= legal(s)


def test_supply_carriage_pair_empty_no_carriage_or_droshky():
    d = pos({"goods": {"wood": 20}, "animals": {"horse": 2},
             "barn": {"vehicles": veh("droshky")}},
            {"barn": {"vehicles": veh("carriage", "droshky")}})
    s = run(d, place("summer_laborer"))
    assert legal(s) == {vehicle("handcart"), vehicle("wagon"), vehicle("cart"),
                        vehicle("horse_cart")}


def test_supply_handcart_pair_one_left_then_empty():
    # player 1 owns a wagon: one handcart/wagon tile is left, player 0 takes it
    d = pos({"goods": {"wood": 20}}, {"barn": {"vehicles": veh("wagon")}}, half_year=2)
    s = run(d, place("wainwright"), vehicle("handcart"), STOP)
    check(s, d, goods={"wood": 18}, barn={"vehicles": veh("handcart")})
    # player 1's turn: the stack is empty now
    s.apply(place("summer_laborer"))
    assert not legal(s) & {vehicle("handcart"), vehicle("wagon")}


def test_supply_plow_pair_empty_no_peat_boat():
    d = pos({"barn": {"plows": 2}}, {"barn": {"peat_boats": 2, "plows": 2}}, half_year=2)
    s = run(d, place("wainwright"))
    assert vehicle("peat_boat") not in legal(s)


def test_smithy_swap_of_a_handcart_needs_a_plow_tile_the_boat_swap_does_not():
    # B4; all 6 boat/plow tiles are out (player 1: 5 boats, player 0: 1 boat): the boat turns
    # into a plow in place, the handcart would need a tile from the empty stack
    d = pos({"goods": {"timber": 1, "brick": 1},
             "barn": {"peat_boats": 1, "vehicles": veh("handcart")}},
            {"barn": {"peat_boats": 5}})
    s = run(d, place("builder"), build("smithy"))
    assert legal(s) == {STOP, vehicle("peat_boat")}
    s.apply(vehicle("peat_boat"))
    check(s, d, goods={"timber": 0, "brick": 0}, home={"buildings": ["smithy"]},
          barn={"peat_boats": 0, "plows": 1, "vehicles": veh("handcart")})


def test_village_church_carriage_stack_empty_gives_nothing():
    # B6: player 1 holds all 3 carriage/droshky tiles
    d = pos({"goods": {"timber": 3, "brick": 3, "food": 15}},
            {"barn": {"vehicles": veh("carriage", "carriage", "droshky")}})
    s = run(d, place("builder"), build("village_church"))
    check(s, d, goods={"timber": 0, "brick": 0, "food": 0},
          home={"buildings": ["village_church"]})


def test_flip_does_not_need_the_supply():
    # the handcart/wagon stack is empty, the handcart still turns into a wagon
    d = pos({"barn": {"vehicles": veh("handcart")}}, {"barn": {"vehicles": veh("handcart")}})
    s = run(d, place("warden"), flip("handcart"))
    check(s, d, barn={"vehicles": veh("wagon")})


@pytest.mark.parametrize("p0, p1", [
    ({"vehicles": veh("cart", "cart")}, {"vehicles": veh("horse_cart", "cart")}),
    ({"vehicles": veh("handcart", "wagon")}, {"vehicles": veh("wagon")}),
    ({"peat_boats": 4}, {"plows": 3}),
])
def test_position_over_the_shared_supply_rejected(p0, p1):
    d = pos({"barn": p0}, {"barn": p1})
    with pytest.raises(arle_ai.PositionError):
        make(d)


# ---------------------------------------------------------------------------------------------
# loading shapes (tiles.md 3.4, core.md 5.5; V1: the bench takes no size-1 item)
# ---------------------------------------------------------------------------------------------

FABRICS = {"goods": {"linen": 1, "woolen": 1, "leather": 1}}


def _shape(kind: str, used: list[int] | None = None) -> arle_ai.GameState:
    """One vehicle; its used singles hold wood, a used bench holds linen."""
    used = used or []
    bench = kind in ("carriage", "droshky") and 1 in used
    cargo = {"wood": len(used) - bench, "linen": int(bench)}
    return make(pos({**FABRICS, "barn": {"vehicles": veh((kind, used))}, "loaded": cargo}))


@pytest.mark.parametrize("kind, wood, linen, three", [
    ("handcart", [0], [], []),
    ("wagon", [0], [], []),                    # the second bin is the mirror image
    ("cart", [0, 1], [0], [0]),
    ("horse_cart", [0, 1], [0, 1], [0]),
    ("carriage", [0], [1], [0]),               # size 1 on the single, size 2 on the bench
    ("droshky", [0], [1], [0]),
])
def test_empty_vehicle_loading_spaces(kind, wood, linen, three):
    s = _shape(kind)
    assert loads(s, ["wood"]) == ids("wood", *[(0, k) for k in wood])
    assert loads(s, ["clay"]) == ids("clay", *[(0, k) for k in wood])
    assert loads(s, ["linen"]) == ids("linen", *[(0, k) for k in linen])
    assert loads(s, ["woolen"]) == ids("woolen", *[(0, k) for k in three])
    assert loads(s, ["leather"]) == ids("leather", *[(0, k) for k in three])


@pytest.mark.parametrize("kind, used, wood, linen, three", [
    ("wagon", [0], [1], [], []),
    ("cart", [0], [1, 2], [1], []),
    ("cart", [1], [0], [], []),                # 2 single spaces left, not adjacent
    ("horse_cart", [1], [0, 2, 3], [2], []),
    ("horse_cart", [0, 1], [2, 3], [2], []),
    ("horse_cart", [0], [1, 2, 3], [1, 2], [1]),
    ("carriage", [0], [], [1], []),            # the bench alone takes no wood
    ("carriage", [1], [0], [], []),
    ("droshky", [0], [2], [1], [1]),           # bench + last single = 3
    ("droshky", [1], [0], [], []),             # the other single is the mirror image
    ("droshky", [0, 2], [], [1], []),
    ("cart", [0, 1, 2], [], [], []),
    ("droshky", [0, 1, 2], [], [], []),
])
def test_partly_used_vehicle_loading_spaces(kind, used, wood, linen, three):
    s = _shape(kind, used)
    assert loads(s, ["wood"]) == ids("wood", *[(0, k) for k in wood])
    assert loads(s, ["linen"]) == ids("linen", *[(0, k) for k in linen])
    assert loads(s, ["woolen", "leather"]) == (ids("woolen", *[(0, k) for k in three])
                                               | ids("leather", *[(0, k) for k in three]))


def test_wood_on_the_carriage_bench_is_illegal_and_changes_nothing():
    s = _shape("carriage")
    before = s.to_dict()
    assert not s.is_legal(load("wood", 0, 1))
    with pytest.raises(arle_ai.IllegalActionError):
        s.apply(load("wood", 0, 1))
    assert s.to_dict() == before


def test_linen_on_a_wagon_never_combines_the_bins():
    s = _shape("wagon")
    assert not s.is_legal(load("linen", 0, 0))
    assert not loads(s, ["linen", "woolen", "leather"])


def test_several_vehicles_each_offered_by_slot():
    # slots in kind order: handcart 0, cart 1, carriage 2
    s = make(pos({**FABRICS, "barn": {"vehicles": veh("carriage", "handcart", "cart")}}))
    assert loads(s, ["wood"]) == ids("wood", (0, 0), (1, 0), (1, 1), (2, 0))
    assert loads(s, ["linen"]) == ids("linen", (1, 0), (2, 1))
    assert loads(s, ["woolen"]) == ids("woolen", (1, 0), (2, 0))


def test_identical_empty_vehicles_are_one_choice():
    s = make(pos({"barn": {"vehicles": veh("handcart", "handcart")}}))
    assert loads(s, ["wood"]) == ids("wood", (0, 0))


# ---------------------------------------------------------------------------------------------
# loading: what leaves the supply (tiles.md 3.4, core.md 5.4)
# ---------------------------------------------------------------------------------------------


def test_load_wood_on_a_handcart():
    d = pos({"barn": {"vehicles": veh("handcart")}})
    s = run(d, load("wood", 0, 0))
    check(s, d, done=False, goods={"wood": 3}, barn={"vehicles": veh(("handcart", [0]))},
          loaded={"wood": 1})
    assert not loads(s)


def test_load_clay_costs_one_peat():
    d = pos({"barn": {"vehicles": veh("wagon")}})
    s = run(d, load("clay", 0, 0), load("clay", 0, 1))
    check(s, d, done=False, goods={"clay": 2, "peat": 1},
          barn={"vehicles": veh(("wagon", [0, 1]))}, loaded={"clay": 2})


def test_clay_not_loadable_without_peat():
    d = pos({"goods": {"peat": 0, "wood": 0}, "barn": {"vehicles": veh("cart")}})
    assert not loads(make(d))


def test_clay_peat_not_cut_from_the_moors():
    # the peat is paid from the supply; the 4 peat on the boardwalk stay
    d = pos({"goods": {"peat": 1}, "barn": {"vehicles": veh("cart")}})
    s = run(d, load("clay", 0, 0))
    check(s, d, done=False, goods={"clay": 3, "peat": 0}, barn={"vehicles": veh(("cart", [0]))},
          loaded={"clay": 1})
    assert loads(s, ["clay"]) == set()
    assert loads(s, ["wood"]) == ids("wood", (0, 1), (0, 2))


def test_timber_brick_and_clothing_not_loadable():
    d = pos({"goods": {"wood": 0, "clay": 0, "timber": 3, "brick": 3, "summer_wear": 1,
                       "winter_wear": 1, "leather_wear": 1},
             "barn": {"vehicles": veh("horse_cart")}})
    assert not loads(make(d))


def test_load_linen_on_the_carriage_bench():
    d = pos({"goods": {"linen": 2}, "barn": {"vehicles": veh("carriage")}})
    s = run(d, load("linen", 0, 1))
    check(s, d, done=False, goods={"linen": 1}, barn={"vehicles": veh(("carriage", [1]))},
          loaded={"linen": 1})
    assert loads(s) == ids("wood", (0, 0)) | ids("clay", (0, 0))


def test_load_woolen_then_wood_on_a_horse_cart():
    d = pos({"goods": {"woolen": 1}, "barn": {"vehicles": veh("horse_cart")}})
    s = run(d, load("woolen", 0, 0), load("wood", 0, 3))
    check(s, d, done=False, goods={"woolen": 0, "wood": 3},
          barn={"vehicles": veh(("horse_cart", [0, 1, 2, 3]))}, loaded={"woolen": 1, "wood": 1})
    assert not loads(s)


def test_load_leather_on_droshky_single_and_bench():
    d = pos({"goods": {"leather": 1}, "barn": {"vehicles": veh("droshky")}})
    s = run(d, load("leather", 0, 0))
    check(s, d, done=False, goods={"leather": 0}, barn={"vehicles": veh(("droshky", [0, 1]))},
          loaded={"leather": 1})
    assert loads(s) == ids("wood", (0, 2)) | ids("clay", (0, 2))


def test_load_two_linen_on_a_horse_cart():
    d = pos({"goods": {"linen": 3}, "barn": {"vehicles": veh("horse_cart")}})
    s = run(d, load("linen", 0, 0), load("linen", 0, 2))
    check(s, d, done=False, goods={"linen": 1},
          barn={"vehicles": veh(("horse_cart", [0, 1, 2, 3]))}, loaded={"linen": 2})


def test_identical_vehicles_loaded_one_after_the_other():
    # the loaded handcart sorts after the empty one, so the empty one is slot 0 again
    d = pos({"barn": {"vehicles": veh("handcart", "handcart")}})
    s = run(d, load("wood", 0, 0))
    assert s.to_dict()["players"][0]["barn"]["vehicles"] == veh("handcart", ("handcart", [0]))
    assert loads(s, ["wood"]) == ids("wood", (0, 0))
    s.apply(load("wood", 0, 0))
    check(s, d, done=False, goods={"wood": 2},
          barn={"vehicles": veh(("handcart", [0]), ("handcart", [0]))}, loaded={"wood": 2})


def test_loading_not_offered_in_a_sub_decision():
    # during the Farmer's plow choice only its own ids are offered
    d = pos({"barn": {"vehicles": veh("cart")}, "animals": {"cattle": 1}})
    s = run(d, place("farmer"))
    assert s.pending == "action:farmer"
    assert not loads(s)


def test_vehicle_built_this_half_year_loaded_at_the_next_turn():
    d = pos({"goods": {"wood": 7}}, half_year=2)
    s = run(d, place("wainwright"), vehicle("cart"), STOP, PASS)   # no boat; player 1 passes
    assert (s.pending, s.current_player) == ("turn", 0)
    assert loads(s, ["wood"]) == ids("wood", (0, 0), (0, 1))
    s.apply(load("wood", 0, 0))
    check(s, d, done=False, goods={"wood": 1}, animals={"horse": 0},
          barn={"vehicles": veh(("cart", [0]))}, loaded={"wood": 1})


def test_loading_in_the_closing_window_then_stop():
    d = pos({"barn": {"vehicles": veh("wagon")}}, workers_placed=8)
    s = make(d)
    assert (s.pending, s.current_player) == ("end_window", 0)
    assert legal(s) == {STOP} | ids("wood", (0, 0)) | ids("clay", (0, 0)) | {
        load("hage", 0, 0), load("beemoor", 0, 0)}
    s.apply(load("wood", 0, 0))
    assert (s.pending, s.current_player) == ("end_window", 0)
    p = s.to_dict()["players"][0]
    assert (p["goods"]["wood"], p["loaded"]["wood"]) == (3, 1)
    s.apply(STOP)
    assert s.half_year == 2                  # player 1 has nothing to do: inventorying ran
    assert s.to_dict()["players"][0]["goods"]["timber"] == 1


def test_window_closes_by_itself_when_the_last_space_is_filled():
    # D1: with the handcart full nothing but STOP is left, so the window closes
    d = pos({"barn": {"vehicles": veh("handcart")}}, workers_placed=8)
    s = run(d, load("wood", 0, 0))
    assert (s.half_year, s.pending) == (2, "turn")


def test_no_loading_before_final_scoring():
    # D2: the window before final scoring offers the peat-boat exchange, not loading
    d = pos({"goods": {"food": 10}, "barn": {"peat_boats": 1, "vehicles": veh("cart")}},
            half_year=9, workers_placed=8)
    s = make(d)
    s.apply(STOP)                                   # closing window of half-year 9
    assert s.pending == "final_window"
    assert legal(s) == {STOP} | {exchange(g) for g in EXCHANGE_GOODS}


# ---------------------------------------------------------------------------------------------
# emptying at the next inventorying (tiles.md 3.4, core.md 5.6, 7.5)
# ---------------------------------------------------------------------------------------------


def after_inventory(s: arle_ai.GameState, d: dict[str, Any], h: int, **changes: Any) -> None:
    """Half-year h is over; player 0 equals d's with `changes`, player 1 is unchanged except
    for its own inventorying (it keeps the start position: -3 food, -2 peat in November, +1
    grain/flax harvest)."""
    assert s.half_year == h + 1 or s.is_terminal()
    assert s.to_dict()["players"][0] == expected(d, 0, **changes)


def test_november_empties_wood_clay_linen_into_timber_brick_summer_wear():
    d = pos({"goods": {"food": 10, "linen": 1}, "barn": {"vehicles": veh("handcart", "cart")}},
            workers_placed=8)
    # handcart slot 0, cart slot 1
    s = run(d, load("linen", 1, 0), load("wood", 0, 0))
    p = s.to_dict()["players"][0]
    assert p["loaded"] == dict(EMPTY_LOAD, wood=1, linen=1)
    assert p["barn"]["vehicles"] == veh(("handcart", [0]), ("cart", [0, 1]))
    s.apply(load("clay", 1, 2))       # every space used: the window closes (D1)
    close_half_year(s, 1)
    # wood 4-1, clay 4-1, peat 3-1 (clay) -2 (heating) = 0; grain/flax +1 harvest; food 10-3
    after_inventory(s, d, 1, goods={"food": 7, "grain": 2, "flax": 4, "wood": 3, "timber": 1,
                                    "clay": 3, "brick": 1, "peat": 0, "linen": 0,
                                    "summer_wear": 1})


def test_may_empties_woolen_and_leather_into_winter_and_leather_wear():
    d = pos({"goods": {"food": 10, "woolen": 1, "leather": 1},
             "barn": {"vehicles": veh("cart", "horse_cart")}}, half_year=2, workers_placed=8)
    # cart slot 0, horse cart slot 1
    s = run(d, load("leather", 0, 0), load("woolen", 1, 0), load("wood", 1, 3))
    close_half_year(s, 2)
    # May: no harvest, no heating; sustenance 3 food; 1 horse does not breed
    after_inventory(s, d, 2, goods={"food": 7, "wood": 3, "timber": 1, "woolen": 0,
                                    "leather": 0, "winter_wear": 1, "leather_wear": 1})
    assert vp(s, "clothing_and_materials") == 0.5 + 2.5 + 2.5


def test_emptied_vehicle_is_loadable_again_next_half_year():
    d = pos({"goods": {"food": 10}, "barn": {"vehicles": veh("wagon")}}, workers_placed=8)
    s = run(d, load("wood", 0, 0), load("wood", 0, 1))
    close_half_year(s, 1)
    assert s.to_dict()["players"][0]["barn"]["vehicles"] == veh("wagon")
    if s.current_player == 1:
        s.apply(PASS)
    assert loads(s, ["wood"]) == ids("wood", (0, 0))


def test_loaded_goods_score_nothing_until_emptied():
    d = pos({"goods": {"food": 10, "linen": 1, "wood": 0, "clay": 0},
             "barn": {"vehicles": veh("horse_cart")}}, workers_placed=8)
    s = make(d)
    assert vp(s, "clothing_and_materials") == 1.0          # the linen
    s.apply(load("linen", 0, 0))
    assert s.pending == "end_window"
    assert vp(s, "clothing_and_materials") == 0.0          # on the cart
    close_half_year(s, 1)
    assert vp(s, "clothing_and_materials") == 2.0          # summer wear


def test_opponent_vehicle_emptied_in_its_own_inventory():
    d = pos({"goods": {"food": 10}},
            {"goods": {"food": 10, "wood": 2}, "barn": {"vehicles": veh(("cart", [0, 1]))},
             "loaded": {"wood": 2}}, half_year=2, workers_placed=8)
    s = close_half_year(make(d), 2)
    p1 = s.to_dict()["players"][1]
    assert (p1["goods"]["wood"], p1["goods"]["timber"]) == (2, 2)
    assert p1["loaded"] == EMPTY_LOAD and p1["barn"]["vehicles"] == veh("cart")
    assert s.to_dict()["players"][0]["goods"]["timber"] == 0


# ---------------------------------------------------------------------------------------------
# flipping vehicles and peat boats (Warden S14 / Dike Warden W13; H9)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("front, back, gain", [
    ("handcart", "wagon", 1), ("cart", "horse_cart", 1), ("carriage", "droshky", 1),
])
def test_warden_flips_a_vehicle_front_to_back(front, back, gain):
    d = pos({"barn": {"vehicles": veh(front)}})
    before = vp(make(d), "barn")
    s = run(d, place("warden"), flip(front))
    check(s, d, barn={"vehicles": veh(back)})
    assert vp(s, "barn") == before + gain


def test_warden_flips_peat_boat_to_plow_no_more_exchange():
    d = pos({"barn": {"peat_boats": 1}})
    assert exchanges(make(d)) == {exchange(g) for g in EXCHANGE_GOODS}
    s = run(d, place("warden"), flip("peat_boat"))
    check(s, d, barn={"peat_boats": 0, "plows": 1})
    assert vp(s, "barn") == 3 - 3
    s.apply(PASS)                                          # player 1
    assert not exchanges(s)


def test_backs_are_not_flippable():
    d = pos({"home": {"stalls": 0, "hydrated_moors": 0},
             "animals": {"horse": 0},
             "barn": {"plows": 1, "vehicles": veh("wagon", "horse_cart", "droshky")}})
    s = make(d)
    s.apply(place("warden"))           # nothing to flip: the action ends
    check(s, d)


def test_flipped_loaded_cart_keeps_cargo_and_adds_a_compartment():
    # H9: the horse cart's fourth compartment is free
    d = pos({"barn": {"vehicles": veh(("cart", [0, 1, 2]))}, "loaded": {"woolen": 1},
             "goods": {"woolen": 0}})
    s = run(d, place("warden"), flip("cart"))
    check(s, d, barn={"vehicles": veh(("horse_cart", [0, 1, 2]))})
    s.apply(PASS)
    assert loads(s, ["wood"]) == ids("wood", (0, 3))


def test_flipped_loaded_carriage_gets_the_last_single():
    d = pos({"barn": {"vehicles": veh(("carriage", [0, 1]))}, "loaded": {"woolen": 1},
             "goods": {"woolen": 0}})
    s = run(d, place("warden"), flip("carriage"), PASS)
    assert s.to_dict()["players"][0]["barn"]["vehicles"] == veh(("droshky", [0, 1]))
    assert loads(s, ["wood"]) == ids("wood", (0, 2))


def test_warden_flips_the_emptiest_of_two_carts():
    # H9 narrowing: the loaded cart keeps its cargo as a cart
    d = pos({"barn": {"vehicles": veh(("cart", [0]), "cart")}, "loaded": {"wood": 1}})
    s = run(d, place("warden"), flip("cart"))
    check(s, d, barn={"vehicles": veh(("cart", [0]), "horse_cart")})


def test_dike_warden_flips_a_handcart_and_builds_a_dike():
    d = pos({"barn": {"vehicles": veh("handcart")}}, half_year=2)
    s = run(d, place("dike_warden"), flip("handcart"))
    check(s, d, home={"dikes": 1}, barn={"vehicles": veh("wagon")})


# ---------------------------------------------------------------------------------------------
# the peat-boat exchange (tiles.md 3.5, core.md 4.4; D2, D3, G4)
# ---------------------------------------------------------------------------------------------


def test_peat_boat_exchange_one_peat_for_one_good():
    d = pos({"barn": {"peat_boats": 1}})
    assert exchanges(make(d)) == {exchange(g) for g in EXCHANGE_GOODS}
    for g in EXCHANGE_GOODS:
        s = run(d, exchange(g))
        check(s, d, done=False, goods={"peat": 2, g: d["players"][0]["goods"][g] + 1})


def test_peat_boat_exchange_any_number_of_times():
    d = pos({"barn": {"peat_boats": 1}})
    s = run(d, exchange("hide"), exchange("hide"), exchange("grain"))
    check(s, d, done=False, goods={"peat": 0, "hide": 4, "grain": 2})
    assert not exchanges(s)                      # no peat left; wood does not stand in


def test_two_peat_boats_same_rate():
    d = pos({"barn": {"peat_boats": 2}})
    s = run(d, exchange("food"))
    check(s, d, done=False, goods={"peat": 2, "food": 6})


def test_no_exchange_without_a_peat_boat():
    assert not exchanges(make(pos({"barn": {"plows": 2}})))


def test_exchange_not_offered_into_a_full_good():
    # D3: grain 15 and food 30 are at their caps
    d = pos({"goods": {"grain": 15, "food": 30}, "barn": {"peat_boats": 1}})
    assert exchanges(make(d)) == {exchange(g) for g in ("flax", "wool", "hide")}


def test_exchange_only_for_the_player_to_move():
    d = pos(None, {"barn": {"peat_boats": 1}})
    s = make(d)
    assert not exchanges(s)
    s.apply(PASS)
    assert exchanges(s) == {exchange(g) for g in EXCHANGE_GOODS}


def test_exchange_in_the_closing_window():
    d = pos({"barn": {"peat_boats": 1}}, workers_placed=8)
    s = make(d)
    assert s.pending == "end_window"
    s.apply(exchange("wool"))
    assert s.pending == "end_window"
    assert s.to_dict()["players"][0]["goods"]["wool"] == 5


def test_exchange_once_more_before_final_scoring():
    # half-year 9: after the last November (food 10 - 3, peat 5 - 2) the final window offers the
    # exchange; 3 peat into hide 6 -> 9 moves hide from 0 to 1 VP on the goods track
    d = pos({"goods": {"food": 10, "peat": 5, "hide": 6}, "barn": {"peat_boats": 1}},
            half_year=9, workers_placed=8)
    s = make(d)
    s.apply(STOP)
    assert s.pending == "final_window" and s.current_player == 0
    before = vp(s, "goods_track")
    s.apply(exchange("hide"))
    assert s.pending == "final_window"
    s.apply(STOP)
    assert s.is_terminal()
    p = s.to_dict()["players"][0]
    assert (p["goods"]["peat"], p["goods"]["hide"]) == (2, 7)
    assert vp(s, "goods_track") == before + 1


def test_no_exchange_during_inventorying():
    # G4: in May's sustenance decision (no food, no grain) only animals are offered
    d = pos({"goods": {"food": 0, "grain": 0}, "animals": {"sheep": 1, "horse": 3},
             "barn": {"peat_boats": 1}}, half_year=2, workers_placed=8)
    s = make(d)
    while s.pending == "end_window":
        s.apply(STOP)
    assert s.pending == "feed"
    assert not exchanges(s)
    assert legal(s) <= {animal("sheep"), animal("cattle"), animal("horse")}
