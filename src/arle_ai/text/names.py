"""Printed names of the game's things, and the way back from what a person types to a key.

Every name comes from :mod:`arle_ai.engine.rules` (the one source of the game's facts); goods,
animals
and home-board tiles, which have no name field there, are printed as their key with spaces
(``summer_wear`` -> ``summer wear``). Input is accepted as the key or the printed name, in any
case, with or without apostrophes, underscores or extra spaces (:func:`find`).

The summer and winter Grocer, Master, Carpenter and Laborer share a printed name; where both can
be meant the season is added: ``Carpenter (winter)``.

>>> from arle_ai.text import names
>>> names.space("builders_merchant"), names.space("winter_carpenter", qualified=True)
("Builders' Merchant", 'Carpenter (winter)')
>>> names.find("farmer's house"), names.find("Grocer (summer)")
('farmers_house', 'summer_grocer')
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from arle_ai.engine import rules

__all__ = [
    "KINDS",
    "GOODS",
    "TILES",
    "HomeField",
    "HOME_FIELDS",
    "home_field",
    "space",
    "building",
    "tool",
    "vehicle",
    "destination",
    "thing",
    "count",
    "amounts",
    "cost",
    "name",
    "find",
    "matches",
    "NameError_",
    "keys_for_names",
]

GOODS = rules.GOODS  # the engine's goods order


class HomeField(NamedTuple):
    """A count of a position's "home" object (docs/position-format.md)."""

    field: str  # its key in the "home" object: "grain_fields"
    piece: str  # one of what it counts, as the board and the moves name it: "grain_field"
    tile: bool  # a tile on a land space (the dikes, moors and boardwalk are not)
    also: tuple[str, ...] = ()  # other words a person may call one by: "moor"


# The fields a home board counts, in the order they are printed; the one list of them
# (`arle edit`, the browser's editor through /api/catalog, the board's layout).
HOME_FIELDS = (
    HomeField("dikes", "dike", False),
    HomeField("hydrated_moors", "hydrated_moor", False, ("moor",)),
    HomeField("boardwalk_peat", "boardwalk", False),
    HomeField("grain_fields", "grain_field", True),
    HomeField("flax_fields", "flax_field", True),
    HomeField("forests", "forest", True),
    HomeField("parks", "park", True),
    HomeField("stalls", "stall", True),
    HomeField("depots", "depot", True),
    HomeField("stables", "stable", True),
    HomeField("double_stalls", "double_stall", True),
)
# Home-board tiles as counted in a position's "home" object.
TILES = tuple(f.field for f in HOME_FIELDS if f.tile)

_SHARED = {n for n, c in Counter(a.name for a in rules.ACTION_SPACES).items() if c > 1}
_PLURAL = {"sheep": "sheep", "cattle": "cattle", "horse": "horses", "peat boat": "peat boats",
           "dike": "dikes", "double stall": "double stalls", "grain field": "grain fields",
           "flax field": "flax fields"}


class NameError_(KeyError):  # noqa: N801 - not the builtin NameError
    """No thing, or more than one, has the name a person typed."""

    def __str__(self) -> str:
        return str(self.args[0])


def space(key: str, qualified: bool = False) -> str:
    """Printed name of an action space; ``qualified`` adds the season to a shared name."""
    a = rules.action_space(key)
    if qualified and a.name in _SHARED:
        return f"{a.name} ({a.season})"
    return a.name


def building(key: str) -> str:
    return rules.building(key).name


def tool(key: str) -> str:
    return rules.tool(key).name


def vehicle(key: str) -> str:
    return rules.vehicle(key).name


def destination(key: str) -> str:
    return rules.destination(key).name


def thing(key: str) -> str:
    """Printed form of a good, animal or tile key: ``summer_wear`` -> ``summer wear``."""
    text = key.replace("_", " ")
    return text[:-1] if text.endswith("s") and key in TILES else text


def home_field(text: str) -> str:
    """The home board field ``text`` names (``stalls``, ``double stall``, ``moors``,
    ``boardwalk``), KeyError naming the known words when none does."""
    t = " ".join(text.lower().replace("_", " ").split())
    for f in HOME_FIELDS:
        words = (f.piece.replace("_", " "), *f.also)
        if t in (*words, *(w + "s" for w in words), f.field.replace("_", " ")):
            return f.field
    known = ", ".join(w for f in HOME_FIELDS for w in (f.piece.replace("_", " "), *f.also))
    raise NameError_(f"no home tile is called {text!r}; known: {known}")


def count(n: int, key: str, signed: bool = False) -> str:
    """``n`` of a good, animal or tile in words: ``2 horses``, ``1 stall``, ``-2 clay``."""
    word = thing(key)
    if abs(n) != 1 and key not in GOODS:
        word = _PLURAL.get(word, word + "s")
    return f"{n:+d} {word}" if signed else f"{n} {word}"


def amounts(pairs: Iterable[tuple[str, int]]) -> str:
    """``(key, n)`` pairs in words: ``1 grain, 2 horses``."""
    return ", ".join(count(n, k) for k, n in pairs)


def cost(price: rules.Cost) -> str:
    """A building's cost in words (``arle info`` and the browser app):
    ``1 grain + 1 building material of any kind``."""
    parts = [amounts(price.fixed)] if price.fixed else []
    if price.either:
        parts.append("either " + " or ".join(amounts(alt) for alt in price.either))
    if price.any_materials:
        parts.append(f"{price.any_materials} building material of any kind")
    if price.different_materials:
        parts.append(f"{price.different_materials} building materials of different kinds")
    if price.different_clothing:
        parts.append(f"{price.different_clothing} clothing of different kinds")
    return " + ".join(parts)


# kind -> (keys, printed name of a key)
KINDS: dict[str, tuple[tuple[str, ...], Callable[[str], str]]] = {
    "space": (tuple(a.key for a in rules.ACTION_SPACES), lambda k: space(k, qualified=True)),
    "building": (tuple(b.key for b in rules.BUILDINGS), building),
    "vehicle": (tuple(v.key for v in rules.VEHICLES), vehicle),
    "destination": (tuple(d.key for d in rules.DESTINATIONS), destination),
    "tool": (tuple(t.key for t in rules.TOOLS), tool),
    "good": (GOODS, thing),
    "animal": (rules.ANIMALS, thing),
}


def name(kind: str, key: str) -> str:
    """Printed name of ``key`` of ``kind`` (one of :data:`KINDS`)."""
    return KINDS[kind][1](key)


def _norm(text: str) -> str:
    t = text.lower().replace("'", "").replace("\u2019", "").replace("_", " ")
    t = re.sub(r"\s*\(\s*", " (", t)
    t = re.sub(r"\s*\)\s*", ")", t)
    return " ".join(t.split())


def matches(text: str, kinds: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """Every ``(kind, key)`` whose key or printed name is ``text`` (normalised); a shared space
    name (``Grocer``) matches both seasons."""
    t = _norm(text)
    found = []
    for kind in kinds or tuple(KINDS):
        keys, printed = KINDS[kind]
        for key in keys:
            forms = {_norm(key), _norm(printed(key))}
            if kind == "space":
                forms.add(_norm(space(key)))
            if kind in ("good", "animal"):
                forms.add(_norm(count(2, key).split(" ", 1)[1]))  # plural: horses
            if t in forms:
                found.append((kind, key))
    return found


def find(text: str, kind: str | tuple[str, ...] | None = None) -> str:
    """The one key named by ``text`` (key or printed name) among ``kind`` (a kind, several, or
    all); NameError_ says when there is none or more than one."""
    kinds = (kind,) if isinstance(kind, str) else kind
    found = matches(text, kinds)
    keys = sorted({key for _, key in found})
    what = " or ".join(kinds) if kinds else "thing"
    if not keys:
        raise NameError_(f"no {what} is called {text!r}")
    if len(keys) > 1:
        options = ", ".join(f"{name(k, key)!r}" for k, key in found)
        raise NameError_(f"{text!r} names more than one {what}: {options}")
    return keys[0]


# ---- printed names in position files ----


def _key(value: Any, kind: str) -> Any:
    """The key ``value`` names, or ``value`` itself when it names nothing (the engine then
    reports it with the field it is in)."""
    if not isinstance(value, str):
        return value
    try:
        return find(value, kind)
    except KeyError:
        return value


def _keys(values: Any, kind: str) -> Any:
    return [_key(v, kind) for v in values] if isinstance(values, list) else values


def keys_for_names(data: Any) -> Any:
    """A copy of the position dict ``data`` with printed names replaced by keys (anything
    that is no dict is returned as it is)."""
    if not isinstance(data, dict):
        return data
    d = copy.deepcopy(data)
    setup = d.get("setup")
    if isinstance(setup, dict):
        setup["buildings"] = _keys(setup.get("buildings"), "building")
        if setup["buildings"] is None:
            del setup["buildings"]
    if "buildings_on_board" in d:
        d["buildings_on_board"] = _keys(d["buildings_on_board"], "building")
    if isinstance(d.get("occupied"), dict):
        d["occupied"] = {_key(k, "space"): v for k, v in d["occupied"].items()}
    players = d.get("players")
    for p in players if isinstance(players, list) else []:  # else the engine names it
        if not isinstance(p, dict):
            continue
        home = p.get("home")
        if isinstance(home, dict) and "buildings" in home:
            home["buildings"] = _keys(home["buildings"], "building")
        if "travel" in p:
            p["travel"] = _keys(p["travel"], "destination")
        if "november_used" in p:
            p["november_used"] = _keys(p["november_used"], "building")
        barn = p.get("barn")
        if isinstance(barn, dict) and isinstance(barn.get("vehicles"), list):
            for v in barn["vehicles"]:
                if isinstance(v, dict) and "kind" in v:
                    v["kind"] = _key(v["kind"], "vehicle")
        loaded = p.get("loaded")
        if isinstance(loaded, dict) and "destinations" in loaded:
            loaded["destinations"] = _keys(loaded["destinations"], "destination")
    return d
