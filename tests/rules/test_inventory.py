"""Inventorying (core.md 3.4-3.6, 4.2, 5.6, 7.5, 7.6), run from positions with 8 workers placed.

Player 0 is the starting player and is inventoried first; player 1 keeps the start position
(5 food, 3 peat, 1 horse), so it never has a decision. After the half-year's end the state is
at the first turn of the next half-year unless player 0 has a decision.
"""

from __future__ import annotations

import pytest

from helpers import STOP, animal, base, breed, make

NOV, MAY = 1, 2
NO_ANIMALS = {"sheep": 0, "cattle": 0, "horse": 0}


def _pos(h, goods=None, animals=None, home=None, barn=None, loaded=None, **player):
    d = base(0)
    d["half_year"] = h
    d["season"] = "summer" if h % 2 else "winter"
    d["start_player"] = 0
    d["workers_placed"] = 8
    p = d["players"][0]
    p["goods"].update(goods or {})
    if animals is not None:
        p["animals"] = dict(NO_ANIMALS, **animals)
    p["home"].update(home or {})
    p["barn"].update(barn or {})
    p["loaded"].update(loaded or {})
    p.update(player)
    state = make(d)
    while state.pending == "end_window":      # loading is possible: close the work phase
        state.apply(STOP)
    return state


def _p0(state):
    return state.to_dict()["players"][0]


def _done(state, h):
    """The inventorying of half-year h is over and the next half-year has begun."""
    assert state.half_year == h + 1 and state.pending == "turn", (state.half_year, state.pending)
    return _p0(state)


# ---- November milking (core.md 3.5) --------------------------------------------------------

SHEEP_MILK = [0, 0, 1, 1, 1, 2, 2, 2, 3, 3]      # counts 0..9
CATTLE_MILK = [0, 1, 1, 2, 2, 3, 3, 3, 3, 3]

ROOMY = {"dikes": 7}                             # 9 more land spaces: room for every herd here


@pytest.mark.parametrize("n", range(10))
def test_milking_sheep(n):
    s = _pos(NOV, goods={"food": 10}, animals={"sheep": n}, home=ROOMY)
    assert _done(s, NOV)["goods"]["food"] == 10 + SHEEP_MILK[n] - 3


@pytest.mark.parametrize("n", range(10))
def test_milking_cattle(n):
    s = _pos(NOV, goods={"food": 10}, animals={"cattle": n}, home=ROOMY)
    assert _done(s, NOV)["goods"]["food"] == 10 + CATTLE_MILK[n] - 3


@pytest.mark.parametrize("sheep, cattle, milk", [(2, 1, 2), (5, 3, 4), (8, 5, 6), (9, 9, 6),
                                                 (7, 4, 4), (1, 0, 0)])
def test_milking_sheep_and_cattle_add_up_to_at_most_6(sheep, cattle, milk):
    s = _pos(NOV, goods={"food": 10}, animals={"sheep": sheep, "cattle": cattle}, home=ROOMY)
    assert _done(s, NOV)["goods"]["food"] == 10 + milk - 3


def test_horses_give_no_milk():
    s = _pos(NOV, goods={"food": 10}, animals={"horse": 8}, home=ROOMY)
    assert _done(s, NOV)["goods"]["food"] == 7


def test_no_milking_in_may():
    s = _pos(MAY, goods={"food": 10}, animals={"cattle": 5}, home={"stalls": 0})
    assert _done(s, MAY)["goods"]["food"] == 7


# ---- November harvest (core.md 7.5.3, 2.6) -------------------------------------------------

def test_harvest_fields_and_forests():
    s = _pos(NOV, goods={"food": 10, "peat": 5},
             home={"dikes": 4, "grain_fields": 3, "flax_fields": 2, "forests": 2, "parks": 1})
    g = _done(s, NOV)["goods"]
    assert (g["grain"], g["flax"], g["wood"], g["food"], g["peat"]) == (4, 5, 6, 7, 3)


def test_parks_give_nothing():
    s = _pos(NOV, goods={"food": 10, "peat": 5},
             home={"grain_fields": 0, "flax_fields": 0, "parks": 2})
    g = _done(s, NOV)["goods"]
    assert (g["grain"], g["flax"], g["wood"]) == (1, 3, 4)


def test_no_harvest_in_may():
    s = _pos(MAY, goods={"food": 10},
             home={"dikes": 4, "grain_fields": 3, "flax_fields": 2, "forests": 2})
    g = _done(s, MAY)["goods"]
    assert (g["grain"], g["flax"], g["wood"]) == (1, 3, 4)


# ---- food sustenance (core.md 7.6): food, then grain, then animals, then bottlenecks -------

# (food, grain, animals) before -> (food, grain, animals, bottlenecks) after; May, no stall so
# nothing breeds (and nothing is sheared but sheep: wool is not checked here)
FOOD_CASES = [
    ((5, 1, {}), (2, 1, {}, 0)),
    ((3, 4, {}), (0, 4, {}, 0)),                              # grain untouched while food lasts
    ((2, 5, {}), (0, 4, {}, 0)),
    ((0, 2, {}), (0, 0, {}, 1)),
    ((0, 3, {"sheep": 2}), (0, 0, {"sheep": 2}, 0)),          # animals untouched while grain lasts
    ((1, 1, {"horse": 1}), (0, 0, {}, 0)),
    ((0, 0, {"sheep": 3}), (0, 0, {}, 0)),                    # one type: no choice
    ((0, 1, {"sheep": 5}), (0, 0, {"sheep": 3}, 0)),
    ((0, 0, {"sheep": 1, "cattle": 1}), (0, 0, {}, 1)),       # every animal goes: no choice
    ((0, 0, {}), (0, 0, {}, 3)),
    ((1, 0, {}), (0, 0, {}, 2)),
]


@pytest.mark.parametrize("before, after", FOOD_CASES)
def test_food_sustenance_substitutions(before, after):
    food, grain, animals = before
    s = _pos(MAY, goods={"food": food, "grain": grain}, animals=animals, home={"stalls": 0})
    p = _done(s, MAY)
    food2, grain2, animals2, bn = after
    assert (p["goods"]["food"], p["goods"]["grain"]) == (food2, grain2)
    assert p["animals"] == dict(NO_ANIMALS, **animals2)
    assert p["bottlenecks"] == bn


def test_food_sustenance_in_november_too():
    s = _pos(NOV, goods={"food": 1, "grain": 0}, animals={"sheep": 1}, home={"stalls": 0})
    p = _done(s, NOV)
    # harvest +1 grain first: food 1 + grain 1 + sheep 1
    assert (p["goods"]["food"], p["goods"]["grain"], p["animals"]["sheep"]) == (0, 0, 0)
    assert p["bottlenecks"] == 0


def _feed_position():
    return _pos(MAY, goods={"food": 0, "grain": 0}, animals={"sheep": 2, "cattle": 2},
                home={"stalls": 0})


def test_feed_choice_of_type_when_several_types():
    s = _feed_position()
    assert s.pending == "feed" and s.current_player == 0
    assert s.legal_actions() == [animal("sheep"), animal("cattle")]


def test_feed_two_sheep_then_the_cattle():
    s = _feed_position()
    # types go in non-decreasing order, so the first of the 3 animals is a sheep either way
    # (it was given automatically); this choice is the second animal
    s.apply(animal("sheep"))              # the third animal can only be a cattle
    p = _done(s, MAY)
    assert p["animals"] == {"sheep": 0, "cattle": 1, "horse": 0}
    assert p["bottlenecks"] == 0


def _feed_outcomes(state, out):
    if state.pending != "feed":
        p = _done(state, MAY)
        assert p["bottlenecks"] == 0
        out.add((p["animals"]["sheep"], p["animals"]["cattle"], p["animals"]["horse"]))
        return out
    for a in state.legal_actions():
        _feed_outcomes(state.copy().apply(a), out)
    return out


def test_feed_every_choice_pays_three_animals():
    # 3 food owed, 2 sheep + 2 cattle: whichever animals are chosen, 3 of them go
    assert _feed_outcomes(_feed_position(), set()) == {(0, 1, 0), (1, 0, 0)}


def test_feed_three_types_choice():
    # 1 food + 2 animals owed from one of each type: any two may go
    s = _pos(MAY, goods={"food": 1, "grain": 0}, animals={"sheep": 1, "cattle": 1, "horse": 1},
             home={"stalls": 0})
    assert s.pending == "feed"
    # types in non-decreasing order: a horse first could not be followed by a second animal
    assert s.legal_actions() == [animal("sheep"), animal("cattle")]
    assert _feed_outcomes(s, set()) == {(1, 0, 0), (0, 1, 0), (0, 0, 1)}


def test_feed_sheep_then_horse():
    s = _pos(MAY, goods={"food": 1, "grain": 0}, animals={"sheep": 1, "cattle": 1, "horse": 1},
             home={"stalls": 0})
    s.apply(animal("sheep"))
    s.apply(animal("horse"))
    p = _done(s, MAY)
    assert p["animals"] == {"sheep": 0, "cattle": 1, "horse": 0}
    assert p["bottlenecks"] == 0


def test_breeding_comes_before_sustenance():
    # 2 horses in the stall breed to 3, then all 3 are eaten: no bottleneck
    s = _pos(MAY, goods={"food": 0, "grain": 0}, animals={"horse": 2})
    p = _done(s, MAY)
    assert p["animals"] == NO_ANIMALS
    assert p["bottlenecks"] == 0


# ---- fuel (November): peat, then wood, then timber, then bottlenecks ------------------------

FUEL_CASES = [
    ((3, 4, 0), (1, 4, 0, 0)),
    ((2, 0, 0), (0, 0, 0, 0)),
    ((1, 3, 0), (0, 2, 0, 0)),
    ((0, 1, 2), (0, 0, 1, 0)),
    ((0, 0, 3), (0, 0, 1, 0)),
    ((0, 0, 1), (0, 0, 0, 1)),
    ((0, 0, 0), (0, 0, 0, 2)),
    ((1, 0, 0), (0, 0, 0, 1)),
]


@pytest.mark.parametrize("before, after", FUEL_CASES)
def test_fuel_substitutions(before, after):
    peat, wood, timber = before
    s = _pos(NOV, goods={"food": 10, "peat": peat, "wood": wood, "timber": timber})
    p = _done(s, NOV)
    assert (p["goods"]["peat"], p["goods"]["wood"], p["goods"]["timber"],
            p["bottlenecks"]) == after


def test_fuel_uses_wood_harvested_this_november():
    s = _pos(NOV, goods={"food": 10, "peat": 0, "wood": 0}, home={"forests": 2})
    p = _done(s, NOV)
    assert (p["goods"]["wood"], p["bottlenecks"]) == (0, 0)


def test_food_and_fuel_bottlenecks_add():
    s = _pos(NOV, goods={"food": 0, "grain": 0, "peat": 0, "wood": 0},
             home={"grain_fields": 0}, animals={})
    assert _done(s, NOV)["bottlenecks"] == 5


@pytest.mark.parametrize("goods", [{"peat": 3}, {"peat": 0, "wood": 0}])
def test_no_fuel_in_may(goods):
    s = _pos(MAY, goods=dict(food=10, **goods))
    p = _done(s, MAY)
    assert p["goods"]["peat"] == goods["peat"]
    assert p["bottlenecks"] == 0


# ---- caps clip gains (core.md 4.2) ---------------------------------------------------------

@pytest.mark.parametrize("good, start, fields, expected", [("grain", 15, 1, 15),
                                                           ("grain", 14, 3, 15),
                                                           ("flax", 15, 1, 15),
                                                           ("flax", 13, 2, 15)])
def test_harvest_clipped_at_15(good, start, fields, expected):
    s = _pos(NOV, goods={"food": 10, good: start}, home={f"{good}_fields": fields})
    assert _done(s, NOV)["goods"][good] == expected


@pytest.mark.parametrize("start", [28, 29, 30])
def test_milking_clipped_at_30_food(start):
    # +3 from 5 cattle is clipped at 30, then 3 are eaten
    s = _pos(NOV, goods={"food": start}, animals={"cattle": 5}, home=ROOMY)
    assert _done(s, NOV)["goods"]["food"] == 27


@pytest.mark.parametrize("start, sheep, expected", [(15, 1, 15), (14, 6, 15), (13, 4, 15)])
def test_shearing_clipped_at_15_wool(start, sheep, expected):
    s = _pos(MAY, goods={"food": 10, "wool": start}, animals={"sheep": sheep},
             home={"stalls": 0})
    assert _done(s, MAY)["goods"]["wool"] == expected


# ---- May breeding (core.md 3.4) ------------------------------------------------------------

FULL_LAND = {"forests": 2}        # with grain, flax, boardwalk and one pen tile: no free land


def _may(animals, home):
    return _pos(MAY, goods={"food": 10}, animals=animals, home=home)


@pytest.mark.parametrize("sheep, after", [(0, 0), (1, 1), (2, 3), (7, 8), (8, 8)])
def test_stall_breeding(sheep, after):
    # capacity stall 3 + 5 dikes: 7 sheep = 2 in the stall (+1); 8 = a full stall (none)
    s = _may({"sheep": sheep}, FULL_LAND)
    assert _done(s, MAY)["animals"]["sheep"] == after


STABLE = {"stalls": 0, "stables": 1, **FULL_LAND}   # stable 6 + 5 dikes = 11


@pytest.mark.parametrize("sheep, after", [(1, 1), (2, 3), (9, 11), (10, 11), (11, 11)])
def test_stable_breeding(sheep, after):
    # 9 = 4 in the stable (+2), 10 = 5 in the stable (+1), 11 = 6 in the stable (none)
    s = _may({"sheep": sheep}, STABLE)
    assert _done(s, MAY)["animals"]["sheep"] == after


def test_stable_with_three_breeds_one():
    # 3 sheep must go to the stable if the 5 cattle fill the dikes: +1 sheep; or 4 cattle in
    # the stable (+2) with 1 cattle and the 3 sheep on dikes
    s = _may({"sheep": 3, "cattle": 5}, STABLE)
    assert s.pending == "breed"
    assert s.breeding_plans() == [(1, 0, 0), (0, 2, 0)]
    s.apply(breed(0))
    assert _done(s, MAY)["animals"] == {"sheep": 4, "cattle": 5, "horse": 0}


def test_stable_four_breed_two_chosen():
    s = _may({"sheep": 3, "cattle": 5}, STABLE)
    s.apply(breed(1))
    assert _done(s, MAY)["animals"] == {"sheep": 3, "cattle": 7, "horse": 0}


DOUBLE = {"stalls": 0, "double_stalls": 1, **FULL_LAND}   # 2 pens of 3 + 5 dikes = 11


@pytest.mark.parametrize("animals, after", [({"sheep": 2, "cattle": 2}, (3, 3)),
                                            ({"sheep": 4}, (6, 0)),
                                            ({"sheep": 2}, (3, 0)),
                                            ({"sheep": 11}, (11, 0))])
def test_double_stall_pens_breed_as_two_stalls(animals, after):
    s = _may(animals, DOUBLE)
    p = _done(s, MAY)
    assert (p["animals"]["sheep"], p["animals"]["cattle"]) == after


def test_parks_land_and_dikes_never_breed():
    s = _may({"sheep": 2, "cattle": 2, "horse": 2}, {"stalls": 0, "parks": 1})
    assert _done(s, MAY)["animals"] == {"sheep": 2, "cattle": 2, "horse": 2}


def test_breed_choice_when_the_arrangement_matters():
    # one stall, 2 sheep and 2 cattle: only one pair can be in it
    s = _may({"sheep": 2, "cattle": 2}, {})
    assert s.pending == "breed" and s.current_player == 0
    assert s.breeding_plans() == [(1, 0, 0), (0, 1, 0)]
    assert s.legal_actions() == [breed(0), breed(1)]
    s.apply(breed(1))
    p = _done(s, MAY)
    assert p["animals"] == {"sheep": 2, "cattle": 3, "horse": 0}
    assert p["goods"]["wool"] == 4 + 1                      # 2 sheep shorn


def test_no_breeding_in_november():
    s = _pos(NOV, goods={"food": 10}, animals={"sheep": 2})
    assert _done(s, NOV)["animals"]["sheep"] == 2


# ---- May shearing (core.md 3.6) ------------------------------------------------------------

WOOL = [0, 1, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("sheep", range(8))
def test_shearing(sheep):
    s = _may({"sheep": sheep}, {"stalls": 0})              # nowhere to breed
    assert _done(s, MAY)["goods"]["wool"] == 4 + WOOL[sheep]


def test_shearing_counts_newborn_sheep():
    # 4 sheep in a stable breed to 6: 3 wool, not the 2 of 4 sheep
    s = _may({"sheep": 4}, {"stalls": 0, "stables": 1})
    p = _done(s, MAY)
    assert (p["animals"]["sheep"], p["goods"]["wool"]) == (6, 7)


def test_no_shearing_in_november():
    s = _pos(NOV, goods={"food": 10}, animals={"sheep": 6}, home={"stalls": 0})
    assert _done(s, NOV)["goods"]["wool"] == 4


# ---- emptying vehicles (core.md 5.6) -------------------------------------------------------

def _cart(used, kind="cart"):
    return {"vehicles": [{"kind": kind, "used": used}]}


@pytest.mark.parametrize("h", [NOV, MAY])
@pytest.mark.parametrize("item, kind, used, result", [
    ("wood", "cart", [0], "timber"),
    ("clay", "cart", [0], "brick"),
    ("linen", "horse_cart", [0, 1], "summer_wear"),
    ("woolen", "horse_cart", [0, 1, 2], "winter_wear"),
    ("leather", "horse_cart", [1, 2, 3], "leather_wear"),
])
def test_unloading_converts_goods(h, item, kind, used, result):
    s = _pos(h, goods={"food": 10}, barn=_cart(used, kind), loaded={item: 1})
    p = _done(s, h)
    assert p["goods"][result] == 1
    assert p["goods"][item] == {"wood": 4, "clay": 4}.get(item, 0)     # supply untouched
    assert p["loaded"] == {"wood": 0, "clay": 0, "linen": 0, "woolen": 0, "leather": 0,
                           "peat": 0, "destinations": []}
    assert p["barn"]["vehicles"] == [{"kind": kind, "used": []}]


def test_unloading_several_items():
    s = _pos(MAY, goods={"food": 10}, barn=_cart([0, 1, 2]),
             loaded={"wood": 2, "clay": 1})
    g = _done(s, MAY)["goods"]
    assert (g["timber"], g["brick"], g["wood"], g["clay"]) == (2, 1, 4, 4)


@pytest.mark.parametrize("h", [NOV, MAY])
def test_unloading_destination_goes_to_travel_track(h):
    s = _pos(h, goods={"food": 10}, barn=_cart([0, 1], "horse_cart"),
             loaded={"destinations": ["norden"]}, travel=["hage"])
    p = _done(s, h)
    assert sorted(p["travel"]) == ["hage", "norden"]
    assert p["loaded"]["destinations"] == []
    assert s.score_breakdown(0)["travel"] == 3.0            # 1 + 2 spaces


def test_unloaded_timber_can_heat():
    s = _pos(NOV, goods={"food": 10, "peat": 0, "wood": 0}, barn=_cart([0, 1]),
             loaded={"wood": 2})
    p = _done(s, NOV)
    assert (p["goods"]["timber"], p["bottlenecks"]) == (0, 0)


def test_last_november_unloads_before_final_scoring():
    # half-year 9: the wood on the cart comes back as timber and scores 1/2 each
    s = _pos(9, goods={"food": 10, "wood": 0}, barn=_cart([0, 1]), loaded={"wood": 2})
    assert s.is_terminal()
    p = _p0(s)
    assert p["goods"]["timber"] == 2
    assert s.score_breakdown(0)["clothing_and_materials"] == 1.0
    assert s.score_breakdown(0)["barn"] == 1.0                  # the cart: 1 VP, no -3
