"""arle_ai.text.loads: the vehicle compartments that loaded goods and destinations take."""

from __future__ import annotations

import pytest

import arle_ai
from arle_ai.text.loads import item_sizes, place_loads


def test_item_sizes_follow_the_rules_tables():
    assert item_sizes({"wood": 2, "linen": 1, "woolen": 1, "peat": 1,
                       "destinations": ["hage", "bremen"]}) == [
        ("bremen", 4), ("woolen", 3), ("linen", 2), ("wood", 1), ("wood", 1), ("peat", 1),
        ("hage", 1)]


@pytest.mark.parametrize("kinds, loaded, used", [
    (["handcart"], {"wood": 1}, [[0]]),
    (["wagon"], {"wood": 1, "clay": 1}, [[0, 1]]),
    (["wagon"], {"linen": 1}, None),                   # small vehicles never combine spaces
    (["carriage"], {"wood": 2}, None),                 # a size-1 item never sits on the bench
    (["carriage"], {"linen": 1}, [[1]]),               # the bench holds a size-2 item
    (["carriage"], {"woolen": 1}, [[0, 1]]),           # single + bench: size 3
    (["droshky"], {"destinations": ["bremen"]}, [[0, 1, 2]]),
    (["handcart", "droshky"], {"wood": 1, "clay": 1, "linen": 1}, [[0], [0, 1]]),
    (["peat_boat", "cart"], {"leather": 1}, [[], [0, 1, 2]]),
    (["wagon", "wagon", "handcart", "handcart"], {"wood": 7}, None),  # more than fits
    (["horse_cart"], {}, [[]]),
])
def test_place_loads(kinds, loaded, used):
    assert place_loads(kinds, loaded) == used


def test_placed_loads_make_a_position_the_engine_accepts():
    d = arle_ai.new_game(seed=0).to_dict()
    d.pop("pending")
    p = d["players"][0]
    p["barn"]["vehicles"] = [{"kind": "droshky", "used": []}, {"kind": "cart", "used": []}]
    p["animals"]["horse"] = 4
    p["loaded"].update(wood=1, linen=1, woolen=1, destinations=["hage"])
    for vehicle, used in zip(p["barn"]["vehicles"], place_loads(["droshky", "cart"],
                                                                  p["loaded"]), strict=True):
        vehicle["used"] = used
    arle_ai.GameState.from_dict(d)  # raises PositionError when the widths disagree
