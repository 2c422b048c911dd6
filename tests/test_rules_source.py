"""rules.py is the engine's one source of game data: change a number there and the engine follows.

Each test loads the engine's number tables from a copy of arle_ai.engine.rules with one value
changed
(``_core._reload_tables``), checks that the engine's behaviour changed accordingly, and restores
the real tables. The names and sizes are compiled in from the same module (see test_tables.py).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import arle_ai
from arle_ai.engine import _core, rules
from helpers import (
    MORE,
    STOP,
    L,
    animal,
    base,
    build,
    flip,
    good,
    load,
    make,
    place,
    play,
    position,
    tile,
    veh,
    vp,
)

L_USE = L["use"]
BUILDING_KEYS = [b.key for b in rules.BUILDINGS]


@contextmanager
def patched_rules(**changes: Any) -> Iterator[types.ModuleType]:
    """The engine reading a copy of arle_ai.engine.rules with `changes`, restored afterwards."""
    copy = types.ModuleType("patched_rules")
    copy.__dict__.update(vars(rules))
    copy.__dict__.update(changes)
    # derived tables follow their source, as in rules.py
    copy.DELIVERY_CHOICES = tuple(rules._choices(d) for d in copy.DESTINATIONS)
    _core._reload_tables(copy)
    try:
        yield copy
    finally:
        _core._reload_tables()


@pytest.fixture(autouse=True)
def _real_tables_after_each_test() -> Iterator[None]:
    yield
    _core._reload_tables()


def _inventory(half_year: int, **goods: int) -> arle_ai.GameState:
    """Player 0 (the starting player, no animals but 1 horse) with `goods`, every worker placed:
    the half-year's end runs to the next half-year."""
    d = base(0)
    d.update(half_year=half_year, season="summer" if half_year % 2 else "winter",
             start_player=0, workers_placed=8)
    d["players"][0]["goods"].update(goods)
    s = make(d)
    while s.pending == "end_window":
        s.apply(STOP)
    assert s.half_year == half_year + 1 and s.pending == "turn"
    return s


def _goods(s: arle_ai.GameState, p: int = 0) -> dict[str, int]:
    return s.to_dict()["players"][p]["goods"]


def test_bottleneck_vp():
    s = make(position({"bottlenecks": 2}))
    assert vp(s, "bottlenecks") == 2 * rules.BOTTLENECK_VP == -4
    with patched_rules(BOTTLENECK_VP=-5):
        assert vp(s, "bottlenecks") == -10
    assert vp(s, "bottlenecks") == -4


def test_barn_penalty():
    s = arle_ai.new_game(0)                     # no large vehicle at the start
    assert vp(s, "barn") == rules.BARN_PENALTY_VP == -3
    with patched_rules(BARN_PENALTY_VP=-1):
        assert vp(s, "barn") == -1
    d = position({"barn": {"vehicles": veh("cart")}})
    with patched_rules(BARN_PENALTY_VP=-1):
        assert vp(make(d), "barn") == rules.vehicle("cart").vp


def test_november_fuel():
    assert _goods(_inventory(1, food=10, peat=5))["peat"] == 5 - rules.SUSTENANCE_FUEL_NOVEMBER
    with patched_rules(SUSTENANCE_FUEL_NOVEMBER=4):
        assert _goods(_inventory(1, food=10, peat=5))["peat"] == 1


def test_sustenance_food():
    assert _goods(_inventory(2, food=10))["food"] == 10 - rules.SUSTENANCE_FOOD
    with patched_rules(SUSTENANCE_FOOD=5):
        assert _goods(_inventory(2, food=10))["food"] == 5


def test_tool_track_values():
    """The Fisherman moves the fish traps one step, then takes their value in food."""
    def fish(s: arle_ai.GameState) -> int:
        return _goods(play(s, place("fisherman")))["food"] - 5

    assert fish(arle_ai.new_game(0)) == rules.tool("fish_traps").values[1] == 3
    traps = dataclasses.replace(rules.tool("fish_traps"), values=(2, 9, 4, 5, 6))
    with patched_rules(TOOLS=(traps,) + rules.TOOLS[1:]):
        assert fish(arle_ai.new_game(0)) == 9
    # and the position format reads the value off the same table
    with patched_rules(TOOLS=(traps,) + rules.TOOLS[1:]):
        assert arle_ai.new_game(0).to_dict()["players"][0]["tools"]["fish_traps"] == 2


def test_building_cost():
    """The Mill costs 1 timber and 8 flax or 8 grain; with 2 timber it takes one more."""
    i = [b.key for b in rules.BUILDINGS].index("mill")
    d = position({"goods": {"timber": 3, "flax": 8, "grain": 0}})

    def timber_left() -> int:
        s = play(make(d), place("builder"))     # the Mill is the only choice: made by itself
        assert "mill" in s.to_dict()["players"][0]["home"]["buildings"]
        return _goods(s)["timber"]

    assert timber_left() == 2
    mill = rules.BUILDINGS[i]
    dearer = dataclasses.replace(mill, cost=dataclasses.replace(mill.cost, fixed=(("timber", 2),)))
    with patched_rules(BUILDINGS=rules.BUILDINGS[:i] + (dearer,) + rules.BUILDINGS[i + 1:]):
        assert timber_left() == 1
        s = play(make(position({"goods": {"timber": 1, "flax": 8}})), place("builder"))
        assert "mill" not in s.to_dict()["players"][0]["home"]["buildings"]


def test_destination_delivery():
    """Beemoor takes 1 peat for 2 food (its only delivery, made at once when loaded)."""
    d = position({"barn": {"vehicles": veh("handcart")}})

    def food_after_beemoor() -> int:
        return _goods(play(make(d), load("beemoor", 0, 0)))["food"]

    assert food_after_beemoor() == 5 + 2
    j = [x.key for x in rules.DESTINATIONS].index("beemoor")
    beemoor = rules.DESTINATIONS[j]
    richer = dataclasses.replace(
        beemoor, deliveries=(dataclasses.replace(beemoor.deliveries[0], food=6),))
    dests = rules.DESTINATIONS[:j] + (richer,) + rules.DESTINATIONS[j + 1:]
    with patched_rules(DESTINATIONS=dests):
        assert food_after_beemoor() == 5 + 6
    # what is handed over comes from the same table: 2 peat instead of 1
    dearer = dataclasses.replace(
        beemoor, deliveries=(dataclasses.replace(beemoor.deliveries[0], gives=(("peat", 2),)),))
    dests = rules.DESTINATIONS[:j] + (dearer,) + rules.DESTINATIONS[j + 1:]
    with patched_rules(DESTINATIONS=dests):
        assert _goods(play(make(d), load("beemoor", 0, 0)))["peat"] == 3 - 2


def test_load_extra_cost():
    """Loading clay costs 1 peat besides; with 2 peat, one more goes."""
    d = position({"barn": {"vehicles": veh("handcart")}})
    assert _goods(play(make(d), load("clay", 0, 0)))["peat"] == 3 - 1
    with patched_rules(LOAD_EXTRA_COST={"clay": (("peat", 2),)}):
        assert _goods(play(make(d), load("clay", 0, 0)))["peat"] == 3 - 2


def test_barn_limits():
    """2 large spaces and 1 for either: a fourth large vehicle fits only with 3 large spaces."""
    d = position({"barn": {"vehicles": veh("cart", "cart", "carriage")},
                  "goods": {"wood": 9}, "animals": {"horse": 3}})
    s = play(make(d), place("summer_laborer"))
    cart = arle_ai.ACTION_LAYOUT["vehicle"] + [v.key for v in rules.VEHICLES].index("cart")
    assert cart not in s.legal_actions()
    with patched_rules(BARN_SMALL=3, BARN_LARGE=3):
        s = play(make(d), place("summer_laborer"))
        assert cart in s.legal_actions()


def test_every_number_table_is_reloadable():
    """The reload reads the whole module: the real tables give back the real behaviour."""
    a = arle_ai.random_playout(arle_ai.new_game(3), seed=1)
    with patched_rules(SUSTENANCE_FOOD=1, BOTTLENECK_VP=0):
        pass
    assert arle_ai.random_playout(arle_ai.new_game(3), seed=1) == a


# ---- what the action spaces give (rules.SPACE_GAINS ... STABLE_UPGRADE_BRICKS) ----


def _winter(p0: dict[str, Any] | None = None) -> dict[str, Any]:
    return position(p0, half_year=2)


def test_space_gains():
    """The summer Grocer gives 1 grain and 1 leather before its choice; the Fisherman 1 sheep;
    the Cattle Trader's sheep comes with the chosen animal."""
    def grocer() -> dict[str, int]:
        return _goods(play(make(position()), place("summer_grocer"), good("timber")))

    assert (grocer()["grain"], grocer()["leather"]) == (1 + 1, 0 + 1)
    with patched_rules(SPACE_GAINS=dict(rules.SPACE_GAINS, summer_grocer=(("grain", 3),))):
        assert (grocer()["grain"], grocer()["leather"]) == (1 + 3, 0)

    def sheep(s: arle_ai.GameState) -> int:
        return s.to_dict()["players"][0]["animals"]["sheep"]

    assert sheep(play(make(position()), place("fisherman"))) == 1
    with patched_rules(SPACE_GAINS=dict(rules.SPACE_GAINS, fisherman=(("sheep", 2),))):
        assert sheep(play(make(position()), place("fisherman"))) == 2
    trader = (place("cattle_trader"), animal("cattle"))
    assert sheep(play(make(_winter()), *trader)) == 1
    with patched_rules(SPACE_GAINS_WITH_CHOICE={"cattle_trader": (("sheep", 2),)}):
        assert sheep(play(make(_winter()), *trader)) == 2


def test_space_exchanges():
    """The Potter turns 1 clay into 3 food and 1 peat per potter's wheel used."""
    def potter() -> dict[str, int]:
        return _goods(play(make(_winter()), place("potter"), MORE, STOP))

    assert {g: potter()[g] for g in ("clay", "food", "peat")} == {"clay": 3, "food": 8, "peat": 4}
    dearer = dict(rules.SPACE_EXCHANGES, potter=(("clay", 2), (("food", 5),)))
    with patched_rules(SPACE_EXCHANGES=dearer):
        assert {g: potter()[g] for g in ("clay", "food", "peat")} == {
            "clay": 2, "food": 10, "peat": 3}


def test_winter_space_numbers():
    """Peat Boatman, Butcher, Baker and Wood Trader read their numbers from rules.py."""
    boats = _winter({"barn": {"peat_boats": 2}})
    assert _goods(play(make(boats), place("peat_boatman")))["peat"] == 3 + 3 + 2
    with patched_rules(PEAT_BOATMAN_PEAT=1, PEAT_BOATMAN_PEAT_PER_BOAT=3):
        assert _goods(play(make(boats), place("peat_boatman")))["peat"] == 3 + 1 + 6

    cattle = _winter({"animals": {"cattle": 1, "horse": 0}})
    butcher = (place("butcher"), animal("cattle"))     # the only animal: the action ends
    assert _goods(play(make(cattle), *butcher))["food"] == 5 + 4
    assert _goods(play(make(cattle), *butcher))["hide"] == 2 + 2
    with patched_rules(BUTCHER_FOOD=dict(rules.BUTCHER_FOOD, cattle=7), BUTCHER_HIDES=1):
        assert _goods(play(make(cattle), *butcher))["food"] == 5 + 7
        assert _goods(play(make(cattle), *butcher))["hide"] == 2 + 1

    baker = (place("baker"), MORE)         # 1 oven: the action ends
    assert _goods(play(make(_winter()), *baker))["food"] == 5 + 6
    with patched_rules(BAKER_FOOD=2):
        assert _goods(play(make(_winter()), *baker))["food"] == 5 + 2

    trader = (place("wood_trader"), good("wood"))
    assert _goods(play(make(_winter()), *trader))["wood"] == 4 + 4
    with patched_rules(WOOD_TRADER_WOOD=1):
        assert _goods(play(make(_winter()), *trader))["wood"] == 4 + 1


def test_stall_cost_and_stable_upgrade():
    """A stall costs 2 clay and 1 grain; the winter Carpenter upgrades one for 2 bricks."""
    def stall(d: dict[str, Any]) -> arle_ai.GameState:
        return play(make(d), place("summer_carpenter"), tile("stall"))

    assert _goods(stall(position()))["clay"] == 4 - 2
    with patched_rules(STALL_COST=(("clay", 3), ("grain", 1))):
        assert _goods(stall(position()))["clay"] == 4 - 3
    upgrade = (place("winter_carpenter"), flip("stall"))
    d = _winter({"goods": {"brick": 3}})
    assert _goods(play(make(d), *upgrade))["brick"] == 1
    with patched_rules(STABLE_UPGRADE_BRICKS=3):
        assert _goods(play(make(d), *upgrade))["brick"] == 0
    with patched_rules(STABLE_UPGRADE_BRICKS=4):
        assert flip("stall") not in play(make(d), place("winter_carpenter")).legal_actions()


# ---- what the buildings give (rules.BUILDING_GAINS ... BUILDING_USES) ----


def _waterfront() -> arle_ai.GameState:
    """Player 0 builds the Waterfront House (on the board of seed 0) with exactly its cost."""
    d = position({"goods": {"brick": 2, "food": 25}})
    d["players"][0]["goods"].update({g: 0 for g in ("wood", "clay", "grain", "flax", "wool")})
    assert "waterfront_house" in d["buildings_on_board"]
    s = play(make(d), place("builder"))
    if s.pending == "action:builder":
        s.apply(build("waterfront_house"))
    return s


def test_building_gains_dikes_and_tool_steps():
    """The Waterfront House gives 10 food, 2 dikes and 3 fish-trap steps."""
    def after() -> tuple[int, int, int]:
        p = _waterfront().to_dict()["players"][0]
        return p["goods"]["food"], p["home"]["dikes"], p["tools"]["fish_traps"]

    assert after() == (10, 2, rules.tool("fish_traps").values[3])
    with patched_rules(BUILDING_GAINS=dict(rules.BUILDING_GAINS,
                                           waterfront_house=(("food", 4),)),
                       BUILDING_DIKES={"waterfront_house": 5},
                       BUILDING_TOOL_STEPS=dict(rules.BUILDING_TOOL_STEPS,
                                                waterfront_house=(("fish_traps", 1),))):
        assert after() == (4, 5, rules.tool("fish_traps").values[1])


def test_building_uses():
    """A clock building (the Schnapps Distillery: 1 grain and 1 peat for 3 food) and a
    November house (the Novice's Hut: 1 grain and 1 dike) use rules.BUILDING_USES."""
    def owner(**goods: int) -> dict[str, Any]:
        d = base(1)                 # the Schnapps Distillery is in play
        d["start_player"] = 0
        d["players"][0]["goods"].update(goods)
        d["players"][0]["home"]["buildings"] = ["schnapps_distillery"]
        d["buildings_on_board"].remove("schnapps_distillery")
        return d

    d = owner(grain=3, peat=3, food=5)

    def distil() -> dict[str, int]:
        return _goods(play(make(d), L_USE + BUILDING_KEYS.index("schnapps_distillery")))

    assert {g: distil()[g] for g in ("grain", "peat", "food")} == {"grain": 2, "peat": 2, "food": 8}
    uses = dict(rules.BUILDING_USES, schnapps_distillery=rules.BuildingUse(
        pays=(("grain", 2),), gains=(("food", 1), ("sheep", 1))))
    with patched_rules(BUILDING_USES=uses):
        s = play(make(d), L_USE + BUILDING_KEYS.index("schnapps_distillery"))
        assert {g: _goods(s)[g] for g in ("grain", "peat", "food")} == {
            "grain": 1, "peat": 3, "food": 6}
        assert s.to_dict()["players"][0]["animals"]["sheep"] == 1
        d2 = owner(grain=1, peat=3)
        assert L_USE + BUILDING_KEYS.index("schnapps_distillery") not in make(d2).legal_actions()

    hut = {"novices_hut": rules.BuildingUse(gains=(("grain", 1),), dikes=3)}
    d3 = base(0, "first-game")     # the light-green houses are in play
    d3.update(half_year=1, season="summer", start_player=0, workers_placed=8)
    d3["players"][0]["home"]["buildings"] = ["novices_hut"]
    d3["players"][0]["home"]["dikes"] = 1
    d3["buildings_on_board"].remove("novices_hut")

    def hut_dikes() -> int:
        s = make(d3)
        while s.pending == "end_window":
            s.apply(STOP)
        assert s.pending == "november"
        s.apply(L_USE + BUILDING_KEYS.index("novices_hut"))
        return s.to_dict()["players"][0]["home"]["dikes"]

    assert hut_dikes() == 2
    with patched_rules(BUILDING_USES=dict(rules.BUILDING_USES, **hut)):
        assert hut_dikes() == 4


def test_november_houses_are_the_buildings_timed_november():
    # The game's November houses are the 4 light-green ones, first in rules.BUILDINGS; the
    # engine and the position format follow the timing, not the place in the table: two
    # dark-green buildings timed 'november' (at indexes 4..10) are offered before November, and
    # the one used is kept in november_used through to_dict and from_dict.
    assert [b.key for b in rules.BUILDINGS if b.timing == "november"] == BUILDING_KEYS[:4]
    assert _core._position_limits()["november_houses"] == tuple(BUILDING_KEYS[:4])
    d = base(0)
    keys = [k for k in d["setup"]["buildings"]
            if rules.BUILDINGS[BUILDING_KEYS.index(k)].colour == "dark_green"][:2]
    first, second = (BUILDING_KEYS.index(k) for k in keys)
    d.update(half_year=1, season="summer", start_player=0, workers_placed=8)
    d["players"][0]["home"]["buildings"] = keys
    for k in keys:
        d["buildings_on_board"].remove(k)
    d["players"][0]["goods"].update(grain=5, flax=5, wool=5, brick=3, food=10, peat=3)
    table = tuple(dataclasses.replace(b, timing="november") if b.key in keys else b
                  for b in rules.BUILDINGS)
    with patched_rules(BUILDINGS=table):
        assert _core._position_limits()["november_houses"] == \
            tuple(BUILDING_KEYS[:4]) + tuple(sorted(keys, key=BUILDING_KEYS.index))
        s = make(d)
        while s.pending == "end_window":
            s.apply(STOP)
        assert s.pending == "november"
        assert {L_USE + first, L_USE + second} <= set(s.legal_actions())
        s.apply(L_USE + first)
        while s.pending != "november":  # the use's own steps (a peat cut), if any
            s.apply(s.legal_actions()[0])
        assert L_USE + first not in s.legal_actions() and L_USE + second in s.legal_actions()
        out = s.to_dict()
        assert out["players"][0]["november_used"] == [BUILDING_KEYS[first]]
        assert arle_ai.GameState.from_dict(out) == s


# ---- dikes and land (rules.DIKE_STEPS_MAX ... TIDAL_GAP_VP) ----


def _land(s: arle_ai.GameState) -> int:
    return int(s.features(0)[arle_ai.FEATURE_NAMES.index("me.land_total")])


def test_land_by_dikes_and_moors():
    """6 land spaces at the start, 3 per tidal row opened at dike steps 1, 4 and 7, 2 per moor
    tile gone."""
    def land(dikes: int, moors_removed: int = 0) -> int:
        home = {"dikes": dikes}
        if moors_removed:
            home.update(hydrated_moors=3 - moors_removed)
        return _land(make(position({"home": home})))

    assert [land(d) for d in range(8)] == [6, 9, 9, 9, 12, 12, 12, 15]
    assert land(0, moors_removed=1) == 8
    with patched_rules(START_LAND=5, TIDAL_ROW_LAND=2, TIDAL_ROWS_OPEN_AT=(2, 3, 7),
                       MOOR_LAND=3):
        assert [land(d) for d in range(8)] == [5, 5, 7, 9, 9, 9, 9, 11]
        assert land(0, moors_removed=1) == 8


def test_dike_steps_and_the_top_row_penalty():
    """Steps past the 7th are lost; each empty gap of the top dike row scores -1."""
    def home_vp(dikes: int) -> float:
        return vp(make(position({"home": {"dikes": dikes}})), "home_board")

    start = home_vp(0)
    assert [home_vp(d) - start for d in range(8)] == [0, 0, 0, 0, 0, 1, 2, 3]
    with patched_rules(TIDAL_GAP_VP=-2, TOP_DIKE_ROW_GAPS=(3, 3, 3, 3, 2, 2, 1, 0)):
        assert [home_vp(d) - home_vp(0) for d in range(8)] == [0, 0, 0, 0, 2, 2, 4, 6]
    p = _waterfront().to_dict()["players"][0]
    assert p["home"]["dikes"] == 2
    with patched_rules(DIKE_STEPS_MAX=1, TOP_DIKE_ROW_GAPS=(3, 0), TIDAL_ROWS_OPEN_AT=(1,)):
        assert _waterfront().to_dict()["players"][0]["home"]["dikes"] == 1


# ---- the one-off buildings counted per tile, animal or threshold ----

_COSTS = {
    "gulf_house_inn": {"food": 9, "wood": 1, "clay": 1},
    "cooperage": {"timber": 1, "brick": 1},
    "bakehouse": {"timber": 1, "brick": 1},
    "mill": {"timber": 1, "flax": 8},
    "joinery": {"timber": 2, "grain": 5},
}


def _built(key: str, goods: dict[str, int] | None = None, **sections: Any) -> arle_ai.GameState:
    """Player 0 holds exactly the cost of `key` (in play in seed 1) plus `goods`, with the
    `sections` of the player's part updated, and builds it (payment choices: the first)."""
    d = base(1)
    d["start_player"] = 0
    p = d["players"][0]
    p["goods"] = {g: 0 for g in p["goods"]} | _COSTS[key] | (goods or {})
    for section, values in sections.items():
        p[section].update(values)
    s = play(make(d), place("builder"))
    if s.pending == "action:builder":
        s.apply(build(key))
    while s.current_player == 0 and s.pending == "action:pay_building":
        s.apply(s.legal_actions()[0])
    assert key in s.to_dict()["players"][0]["home"]["buildings"]
    return s


def test_inn_gifts():
    """The Gulf House Inn gives 1 timber per stall and 1 brick per stable."""
    def gulf() -> tuple[int, int]:
        g = _goods(_built("gulf_house_inn", home={"stalls": 1, "stables": 1}))
        return g["timber"], g["brick"]

    assert gulf() == (1, 1)
    with patched_rules(GULF_HOUSE_TIMBER_PER_STALL=3, GULF_HOUSE_BRICK_PER_STABLE=2):
        assert gulf() == (3, 2)
    # a double stall counts as DOUBLE_STALL_PENS stalls
    g = _goods(_built("gulf_house_inn", home={"stalls": 1, "double_stalls": 1}))
    assert g["timber"] == 3
    with patched_rules(DOUBLE_STALL_PENS=3):
        g = _goods(_built("gulf_house_inn", home={"stalls": 1, "double_stalls": 1}))
        assert g["timber"] == 4


def test_cooperage_and_mill_thresholds():
    """Cooperage: a level per 5 / 10 / 15 sheep and cattle, each 2 food and 1 grain, flax,
    wool and hide; Mill: 8 / 10 / 12 food at 3 / 5 / 6 fields."""
    def cooperage() -> dict[str, int]:
        return _goods(_built("cooperage", animals={"sheep": 5}))

    assert (cooperage()["food"], cooperage()["hide"]) == (2, 1)
    with patched_rules(COOPERAGE_LEVELS=(2, 5, 15), COOPERAGE_PER_LEVEL=(("food", 3),)):
        assert (cooperage()["food"], cooperage()["hide"]) == (6, 0)

    def mill() -> int:
        return _goods(_built("mill", home={"grain_fields": 2}))["food"]

    assert mill() == 8
    with patched_rules(MILL_FOOD_BY_FIELDS=((2, 1), (3, 5))):
        assert mill() == 5


def test_bakehouse_and_joinery():
    """Bakehouse: per oven 2 grain and 1 flax for 8 food; Joinery: 2 peat per peat boat and a
    horse per plow."""
    def bake() -> dict[str, int]:
        return _goods(play(_built("bakehouse", {"grain": 3, "flax": 1}), MORE))

    assert (bake()["grain"], bake()["food"]) == (1, 8)
    with patched_rules(BAKEHOUSE_EXCHANGE=((("grain", 3),), (("food", 2), ("peat", 1)))):
        assert (bake()["grain"], bake()["flax"], bake()["food"], bake()["peat"]) == (0, 1, 2, 1)

    def joinery() -> tuple[int, int]:
        s = _built("joinery", barn={"peat_boats": 1, "plows": 1})
        return _goods(s)["peat"], s.to_dict()["players"][0]["animals"]["horse"]

    assert joinery() == (2, 2)
    with patched_rules(JOINERY_PEAT_PER_BOAT=5, JOINERY_HORSES_PER_PLOW=0):
        assert joinery() == (5, 1)


# ---- animal housing (rules.STALL_PEN ... DIKE_PLACES) ----


def test_animal_housing():
    """No free land (2 forests): 8 sheep fit (a stall pen of 3 and the 5 dikes), 9 do not; a
    stall pen of 4, a sixth dike or a park's places make room for the ninth."""
    def fits(sheep: int, **home: int) -> bool:
        d = position({"home": {"forests": 2, **home}, "animals": {"sheep": sheep, "horse": 0}})
        try:
            make(d)
        except arle_ai.PositionError as e:
            assert "do not fit" in str(e)
            return False
        return True

    assert fits(8) and not fits(9)
    with patched_rules(STALL_PEN=4):
        assert fits(9) and not fits(10)
    with patched_rules(DIKES=6):
        assert fits(9)
    assert fits(9, forests=1, parks=1) and not fits(11, forests=1, parks=1)
    with patched_rules(PARK_PLACES=4):
        assert fits(11, forests=1, parks=1)
    assert fits(11, stalls=0, stables=1) and not fits(12, stalls=0, stables=1)
    # (the newborns of STABLE_BREEDING must fit the stable: 4 -> +2 is refused in a stable of 5)
    with patched_rules(STABLE_PEN=5, STABLE_BREEDING={2: 1, 3: 1, 4: 1}):
        assert fits(10, stalls=0, stables=1) and not fits(11, stalls=0, stables=1)
    # a double stall is two stall pens: 6 + the 5 dikes; three pens of 3 with DOUBLE_STALL_PENS 3
    assert fits(11, stalls=0, double_stalls=1) and not fits(12, stalls=0, double_stalls=1)
    with patched_rules(DOUBLE_STALL_PENS=3):
        assert fits(14, stalls=0, double_stalls=1) and not fits(15, stalls=0, double_stalls=1)
    with pytest.raises(ValueError, match="LAND_PEN"):
        with patched_rules(LAND_PEN=3):
            pass


# ---- breeding (rules.STALL_BREEDING, STABLE_BREEDING) ----


def _may_plans(sheep: int, cattle: int = 0, **home: int) -> list[tuple[int, ...]]:
    """The newborn vectors of a May with no free land (2 forests): the single plan applied, or
    the plans of the breeding decision."""
    d = base(0)
    d.update(half_year=2, season="winter", start_player=0, workers_placed=8)
    p = d["players"][0]
    p["goods"].update(food=10)
    p["animals"] = {"sheep": sheep, "cattle": cattle, "horse": 0}
    p["home"].update(forests=2, **home)
    s = make(d)
    while s.pending == "end_window":
        s.apply(STOP)
    if s.pending == "breed":
        return s.breeding_plans()
    after = s.to_dict()["players"][0]["animals"]
    return [(after["sheep"] - sheep, after["cattle"] - cattle, 0)]


def test_breeding():
    """A stall pen breeds +1 from exactly 2 animals, a stable +1 from 2, 3 or 5 and +2 from 4;
    the engine follows rules.STALL_BREEDING and STABLE_BREEDING."""
    stable = {"stalls": 0, "stables": 1}
    assert _may_plans(2) == [(1, 0, 0)] and _may_plans(3) == [(1, 0, 0)]  # 2 in the stall
    assert _may_plans(8) == [(0, 0, 0)]             # a full stall of 3 and 5 dikes
    assert _may_plans(9, **stable) == [(2, 0, 0)]   # 4 in the stable, 5 on the dikes
    assert _may_plans(10, **stable) == [(1, 0, 0)]  # 5 in the stable
    assert _may_plans(3, 5, **stable) == [(1, 0, 0), (0, 2, 0)]
    with patched_rules(STALL_BREEDING={1: 1}):
        assert _may_plans(1) == [(1, 0, 0)] and _may_plans(2) == [(1, 0, 0)]
        assert _may_plans(8) == [(0, 0, 0)] and _may_plans(7) == [(0, 0, 0)]
    with patched_rules(STALL_BREEDING={2: 0, 3: 0, 1: 2}):
        assert _may_plans(1) == [(2, 0, 0)]
    with patched_rules(STABLE_BREEDING={2: 1, 3: 1, 4: 1, 5: 1}):  # no +2
        assert _may_plans(9, **stable) == [(1, 0, 0)]
        assert _may_plans(3, 5, **stable) == [(1, 0, 0), (0, 1, 0)]
    with patched_rules(STABLE_BREEDING={2: 1, 3: 3}):  # 3 -> +3, 4 and 5 -> none
        assert _may_plans(8, **stable) == [(3, 0, 0)]   # 3 in the stable
        assert _may_plans(10, **stable) == [(0, 0, 0)]  # at least 5 in the stable
    with patched_rules(STABLE_BREEDING={3: 1, 4: 1, 5: 1}):
        assert _may_plans(2, **stable) == [(0, 0, 0)]
    # each pen of a double stall breeds as a stall (rules.DOUBLE_STALL_PENS)
    double = {"stalls": 0, "double_stalls": 1}
    assert _may_plans(6, **double) == [(2, 0, 0)]   # 2 + 2 in the pens, 2 on dikes
    with patched_rules(DOUBLE_STALL_PENS=3):
        assert _may_plans(6, **double) == [(3, 0, 0)]


@pytest.mark.parametrize("changes, words", [
    ({"STALL_BREEDING": {2: 1, 1: 1}}, "STALL_BREEDING must give newborns for exactly one"),
    ({"STALL_BREEDING": {3: 1}}, r"the newborns must fit the stall pen \(STALL_PEN 3\)"),
    ({"STALL_BREEDING": {0: 1}}, "STALL_BREEDING must map animal counts"),
    ({"STABLE_BREEDING": {2: 1, 5: 1}}, "STABLE_BREEDING must give 1 newborn for a run"),
    ({"STABLE_BREEDING": {2: 2, 4: 2}}, "STABLE_BREEDING must give 1 newborn for a run"),
    ({"STABLE_BREEDING": {2: 1, 3: 1, 4: 2, 5: 1, 6: 1}},
     r"the newborns must fit the stable \(STABLE_PEN 6\)"),
    ({"STABLE_BREEDING": {2: 1, 5: 2}}, r"must fit the stable"),
])
def test_breeding_shapes_the_search_cannot_read_are_refused(changes, words):
    with pytest.raises(ValueError, match=words):
        with patched_rules(**changes):
            pass


# ---- the board spaces of the building colours (rules.BUILDING_SPACE_OF_COLOUR) ----


def test_building_colours_go_on_their_board_spaces():
    """Light and dark green share the board's 4 green spaces: the standard game draws 4 dark-
    green houses for them, and a position is checked by the spaces its buildings go on."""
    colour = {b.key: b.colour for b in rules.BUILDINGS}
    standard = arle_ai.new_game(seed=0).to_dict()
    assert sum(colour[k] == "dark_green" for k in standard["setup"]["buildings"]) == 4
    yellow_dark = {**rules.BUILDING_SPACE_OF_COLOUR, "dark_green": "yellow"}
    with patched_rules(BUILDING_SPACE_OF_COLOUR=yellow_dark):
        drawn = arle_ai.new_game(seed=0).to_dict()["setup"]["buildings"]
        assert sum(colour[k] == "dark_green" for k in drawn) == 2  # for the 2 yellow spaces
        with pytest.raises(ValueError, match="setup.buildings: 0 green buildings in play, "
                                             "the board has 4 green spaces"):
            arle_ai.GameState.from_dict(standard)
    no_red = {c: space for c, space in rules.BUILDING_SPACE_OF_COLOUR.items() if c != "red"}
    with pytest.raises(ValueError, match="BUILDING_SPACE_OF_COLOUR: no board space for the "
                                         "building colour 'red'"):
        with patched_rules(BUILDING_SPACE_OF_COLOUR=no_red):
            pass
    purple = {**rules.BUILDING_SPACE_OF_COLOUR, "red": "purple"}
    with pytest.raises(ValueError, match="the building colour 'red' goes on 'purple' spaces, "
                                         "which BUILDING_COLOUR_SPACES does not count"):
        with patched_rules(BUILDING_SPACE_OF_COLOUR=purple):
            pass


# ---- the peat boat exchange (rules.PEAT_BOAT_PEAT, PEAT_BOAT_GOOD) ----


def test_peat_boat_exchange():
    """With a peat boat, 1 peat buys 1 goods-track good; the engine follows the two numbers."""
    grain = L["exchange"] + rules.TRACK_GOODS.index("grain")

    def after(peat: int) -> dict[str, int] | None:
        s = make(position({"goods": {"peat": peat, "grain": 0}, "barn": {"peat_boats": 1}}))
        if grain not in s.legal_actions():
            return None
        s.apply(grain)
        g = _goods(s)
        return {"peat": g["peat"], "grain": g["grain"]}

    assert after(1) == {"peat": 0, "grain": 1}
    with patched_rules(PEAT_BOAT_PEAT=2, PEAT_BOAT_GOOD=3):
        assert after(1) is None
        assert after(2) == {"peat": 0, "grain": 3}
    with pytest.raises(ValueError, match="PEAT_BOAT_PEAT must be in 1..15, not 0"):
        with patched_rules(PEAT_BOAT_PEAT=0):
            pass


# ---- the Baker's payment, the peat cut, the winter Grocer's cut, the choice counts ----


def test_baker_payment():
    """A bake pays BAKER_GRAIN grain (flax for what grain cannot) and BAKER_FUEL peat (wood for
    what peat cannot); with too little the Baker cannot bake."""
    def bake(**goods: int) -> dict[str, int] | None:
        s = make(_winter({"goods": goods}))
        s.apply(place("baker"))
        if MORE not in s.legal_actions():
            return None
        s.apply(MORE)
        g = _goods(s)
        return {k: g[k] for k in ("grain", "flax", "peat", "wood", "food")}

    assert bake(grain=1, flax=1, peat=0, wood=1, timber=0) == {
        "grain": 0, "flax": 1, "peat": 0, "wood": 0, "food": 5 + 6}
    with patched_rules(BAKER_GRAIN=2, BAKER_FUEL=2):
        assert bake(grain=1, flax=0, peat=3, wood=0, timber=0) is None
        assert bake(grain=1, flax=3, peat=1, wood=0, timber=0) is None
        assert bake(grain=1, flax=3, peat=1, wood=2, timber=0) == {
            "grain": 0, "flax": 2, "peat": 0, "wood": 1, "food": 5 + 6}
    with pytest.raises(ValueError, match="BAKER_FUEL must be in 1..15, not 0"):
        with patched_rules(BAKER_FUEL=0):
            pass


def test_peat_cut_and_the_winter_grocer_cuts():
    """The winter Grocer cuts WINTER_GROCER_CUTS times from the boardwalk (4 peat on it), each
    cut giving PEAT_PER_CUT peat."""
    def grocer() -> tuple[int, int]:
        s = play(make(_winter()), place("winter_grocer"), animal("sheep"))
        d = s.to_dict()["players"][0]
        return d["goods"]["peat"], d["home"]["boardwalk_peat"]

    assert grocer() == (3 + 1, 4 - 1)
    with patched_rules(PEAT_PER_CUT=2):
        assert grocer() == (3 + 2, 4 - 1)
    with patched_rules(WINTER_GROCER_CUTS=2):
        assert grocer() == (3 + 2, 4 - 2)
    with pytest.raises(ValueError, match="PEAT_PER_CUT must be in 1..15, not 0"):
        with patched_rules(PEAT_PER_CUT=0):
            pass


def test_space_choice_count():
    """A space's choice gives SPACE_CHOICE_COUNT of the chosen item; the table names exactly the
    spaces with such a choice."""
    def timber() -> int:
        return _goods(play(make(position()), place("summer_grocer"), good("timber")))["timber"]

    def cattle() -> int:
        s = play(make(_winter()), place("cattle_trader"), animal("cattle"))
        return int(s.to_dict()["players"][0]["animals"]["cattle"])

    def merchant() -> tuple[int, int]:
        g = _goods(play(make(_winter()), place("builders_merchant"), good("wood"), good("brick")))
        return g["wood"], g["brick"]

    assert (timber(), cattle(), merchant()) == (1, 1, (4 + 1, 1))
    more = dict(rules.SPACE_CHOICE_COUNT, summer_grocer=3, cattle_trader=2, builders_merchant=2)
    with patched_rules(SPACE_CHOICE_COUNT=more):
        assert (timber(), cattle(), merchant()) == (3, 2, (4 + 2, 2))
    with pytest.raises(ValueError, match=r"SPACE_CHOICE_COUNT\['dike_builder'\] must be in"):
        with patched_rules(SPACE_CHOICE_COUNT=dict(rules.SPACE_CHOICE_COUNT, dike_builder=0)):
            pass
    fewer = {k: n for k, n in rules.SPACE_CHOICE_COUNT.items() if k != "winter_grocer"}
    with pytest.raises(ValueError, match="SPACE_CHOICE_COUNT must name the spaces"):
        with patched_rules(SPACE_CHOICE_COUNT=fewer):
            pass
