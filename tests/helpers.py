"""Shared helpers for the tests: build positions from dicts and name action ids."""

from __future__ import annotations

import copy
from typing import Any

import arle_ai
from arle_ai import rules

L = arle_ai.ACTION_LAYOUT
SPACES = [a.key for a in rules.ACTION_SPACES]
TOOLS = [t.key for t in rules.TOOLS]
BUILDINGS = [b.key for b in rules.BUILDINGS]
VEHICLES = [v.key for v in rules.VEHICLES]
DESTINATIONS = [d.key for d in rules.DESTINATIONS]
GOODS = ["food", "grain", "flax", "wool", "hide", "wood", "timber", "clay", "brick", "peat",
         "linen", "woolen", "leather", "summer_wear", "winter_wear", "leather_wear"]
ANIMALS = ["sheep", "cattle", "horse"]
FLIPS = ["moor", "forest", "stall", "stable", "peat_boat", "handcart", "cart", "carriage"]
TILES = ["grain_field", "flax_field", "forest", "stall"]
LOAD_ITEMS = ["wood", "clay", "linen", "woolen", "leather", "peat"] + DESTINATIONS

STOP = L["stop"]
PASS = L["pass"]
MORE = L["more"]


def place(space: str) -> int:
    return L["place"] + SPACES.index(space)


def imitate(space: str) -> int:
    return L["imitate"] + SPACES.index(space)


def good(name: str) -> int:
    return L["good"] + GOODS.index(name)


def exchange(name: str) -> int:
    return L["exchange"] + GOODS.index(name)


def animal(name: str) -> int:
    return L["animal"] + ANIMALS.index(name)


def tool(key: str) -> int:
    return L["tool"] + TOOLS.index(key)


def build(key: str) -> int:
    return L["build"] + BUILDINGS.index(key)


def use(key: str) -> int:
    return L["use"] + BUILDINGS.index(key)


def vehicle(key: str) -> int:
    return L["vehicle"] + VEHICLES.index(key)


def cut(source: int) -> int:
    """0 = the boardwalk, k = a dehydrated moor holding k peat."""
    return L["cut"] + source


def flip(name: str) -> int:
    return L["flip"] + FLIPS.index(name)


def tile(name: str) -> int:
    return L["tile"] + TILES.index(name)


def breed(k: int) -> int:
    return L["breed"] + k


def deliver(destination: str, k: int) -> int:
    return L["deliver"] + DESTINATIONS.index(destination) * 5 + k


def load(item: str, slot: int, start: int) -> int:
    return L["load"] + (LOAD_ITEMS.index(item) * L["max_vehicles"] + slot) * 4 + start


def base(seed: int = 0, variant: str = "standard") -> dict[str, Any]:
    """The start position of `seed` as a dict, to edit and load with make()."""
    return arle_ai.new_game(seed, variant).to_dict()


def make(d: dict[str, Any], *, keep_pending: bool = False) -> arle_ai.GameState:
    """Load an edited position; by default the pending decisions are recomputed from the
    workers placed (the turn of the player whose worker is next)."""
    d = copy.deepcopy(d)
    d.pop("season", None)      # only a check; edited half-years would contradict it
    if not keep_pending:
        d.pop("pending", None)
    return arle_ai.GameState.from_dict(d)


def play(state: arle_ai.GameState, *actions: int) -> arle_ai.GameState:
    for a in actions:
        state.apply(a)
    return state


def me(state: arle_ai.GameState) -> dict[str, Any]:
    """The current player's part of the position."""
    return state.to_dict()["players"][state.current_player]
