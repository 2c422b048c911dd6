"""rules.py is the engine's one source of game data: change a number there and the engine follows.

Each test loads the engine's number tables from a copy of arle_ai.rules with one value changed
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
from arle_ai import _core, rules
from helpers import STOP, base, load, make, place, play, position, veh, vp


@contextmanager
def patched_rules(**changes: Any) -> Iterator[types.ModuleType]:
    """The engine reading a copy of arle_ai.rules with `changes`, restored afterwards."""
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
