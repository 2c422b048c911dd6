"""Text notation for action ids (docs/notation.md).

Every action id of :data:`arle_ai.ACTION_LAYOUT` has one fixed meaning and one text, e.g.
``"place fisherman"``, ``"good timber"``, ``"load wood on cart#0 at 0"``,
``"deliver bremen:timber"``. A few texts read the position for decoration or for the index they
stand for: ``place`` adds ``" (special)"`` when the space belongs to the other season, ``load``
names the kind of the vehicle in that barn slot, ``breed`` spells out the k-th entry of
:meth:`GameState.breeding_plans`.

The same id can mean slightly different things in different decisions: ``"animal cattle"``
takes a cattle at the Cattle Trader, pays one for a plow at the Farmer, gives one when food is
missing ('feed') and returns one that cannot be housed ('discard'); ``"good wood"`` takes wood at
the Builders' Merchant and pays wood for a building ('action:pay_building'). The pending
decision (``state.pending``) gives that context; the text stays the same.

:func:`find_action` reads a text back (any case and spacing, keys or printed names); reading a
player's answer with an explained refusal is :mod:`arle_ai.text.answers`, which builds on this
module and on the question of :mod:`arle_ai.text.decisions`.

>>> import arle_ai
>>> from arle_ai.text.notation import action_label, action_to_string, find_action, normalise
>>> s = arle_ai.new_game(seed=0)
>>> a = find_action(s, normalise("Place  Fisherman"), s.legal_actions())
>>> action_to_string(s, a), action_label(s, a)
('place fisherman', 'place Fisherman')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from arle_ai.engine import rules
from arle_ai.text import names

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = [
    "GOODS",
    "LOAD_ITEMS",
    "action_to_string",
    "action_label",
    "normalise",
    "find_action",
    "legal_moves_text",
    "action_range",
]

# The layout and every name come from arle_ai.engine.rules (the engine's enums are generated
# from it).
ACTION_LAYOUT = rules.ACTION_LAYOUT
NUM_ACTIONS = rules.NUM_ACTIONS
MAX_VEHICLES = rules.MAX_VEHICLES
COMPARTMENTS = rules.VEHICLE_COMPARTMENTS
PER_DESTINATION = rules.DELIVERY_IDS_PER_DESTINATION

GOODS = rules.GOODS
SPACES = tuple(a.key for a in rules.ACTION_SPACES)
TOOLS = tuple(t.key for t in rules.TOOLS)
BUILDINGS = tuple(b.key for b in rules.BUILDINGS)
VEHICLES = tuple(v.key for v in rules.VEHICLES)
DESTINATIONS = tuple(d.key for d in rules.DESTINATIONS)
FLIPS = rules.FLIP_TARGETS
TILES = rules.HOME_TILES
LOAD_ITEMS = rules.LOAD_GOODS + DESTINATIONS
SPECIAL_SUFFIX = " (special)"

# (range name, first id, number of ids), ascending
_RANGES: tuple[tuple[str, int, int], ...] = ()


def _build_ranges() -> tuple[tuple[str, int, int], ...]:
    return tuple((name, ACTION_LAYOUT[name], size) for name, size in rules.ACTION_RANGES)


_RANGES = _build_ranges()


def action_range(a: int) -> tuple[str, int]:
    """The ACTION_LAYOUT range of id `a` and the offset in it, e.g. (``"place"``, 0)."""
    _check_id(a)
    for name, start, size in _RANGES:
        if start <= a < start + size:
            return name, a - start
    raise ValueError(f"action id {a} is in no range")  # pragma: no cover


def _check_id(a: object) -> None:
    if not isinstance(a, int) or isinstance(a, bool):
        raise ValueError(f"action id must be an integer, not {a!r}")
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action id {a} is out of range 0..{NUM_ACTIONS - 1}")


def _name(table: tuple[str, ...], i: int, what: str) -> str:
    if 0 <= i < len(table):
        return table[i]
    return f"{what}#{i}"  # an id with no meaning (never legal); still a unique text


def _load_text(state: GameState, code: int) -> str:
    start = code % COMPARTMENTS
    slot = (code // COMPARTMENTS) % MAX_VEHICLES
    item = code // (COMPARTMENTS * MAX_VEHICLES)
    player = state.current_player
    kind = state.vehicle_kind_at(player, slot) if player is not None else None
    return f"load {_name(LOAD_ITEMS, item, 'item')} on {kind or 'vehicle'}#{slot} at {start}"


BREED = re.compile(r"breed sheep\+(\d+) cattle\+(\d+) horse\+(\d+)")


def _breed_label(text: str) -> str | None:
    """``breed sheep+1 cattle+0 horse+2`` as a player reads it: ``breed +1 sheep, +2 horses``
    (``breed nothing`` when no animal is born); None for another text."""
    m = BREED.fullmatch(text)
    if not m:
        return None
    born = [names.count(int(n), key, signed=True)
            for n, key in zip(m.groups(), ("sheep", "cattle", "horse"), strict=True) if int(n)]
    return "breed " + (", ".join(born) or "nothing")


def _breed_text(state: GameState, k: int) -> str:
    plans = state.breeding_plans()
    if k < len(plans):
        sheep, cattle, horse = plans[k]
        return f"breed sheep+{sheep} cattle+{cattle} horse+{horse}"
    return f"breed plan#{k}"


def _deliver_text(code: int) -> str:
    d, k = divmod(code, PER_DESTINATION)
    choices = rules.DELIVERY_CHOICES[d]
    what = choices[k].key if k < len(choices) else f"#{k}"
    return f"deliver {DESTINATIONS[d]}:{what}"


def action_to_string(state: GameState, a: int) -> str:
    """The text of action id `a` in `state` (ValueError if `a` is not an action id)."""
    kind, i = action_range(a)
    if kind in ("stop", "pass", "more"):
        return kind
    if kind == "place":
        text = f"place {SPACES[i]}"
        if rules.ACTION_SPACES[i].season != state.season:
            text += SPECIAL_SUFFIX
        return text
    if kind == "exchange":
        return f"exchange {GOODS[i]}"
    if kind == "use":
        return f"use {BUILDINGS[i]}"
    if kind == "load":
        return _load_text(state, i)
    if kind == "good":
        return f"good {GOODS[i]}"
    if kind == "animal":
        return f"animal {rules.ANIMALS[i]}"
    if kind == "tool":
        return f"tool {TOOLS[i]}"
    if kind == "build":
        return f"build {BUILDINGS[i]}"
    if kind == "vehicle":
        return f"vehicle {VEHICLES[i]}"
    if kind == "cut":
        return "cut boardwalk" if i == 0 else f"cut moor({i})"
    if kind == "imitate":
        return f"imitate {SPACES[i]}"
    if kind == "flip":
        return f"flip {FLIPS[i]}"
    if kind == "tile":
        return f"tile {TILES[i]}"
    if kind == "breed":
        return _breed_text(state, i)
    if kind == "deliver":
        return _deliver_text(i)
    raise ValueError(f"action id {a}: unknown range {kind!r}")  # pragma: no cover


def normalise(text: str) -> str:
    """Case, spacing, underscores and apostrophes do not matter: ``Builders' Merchant``,
    ``builders_merchant`` and ``builders merchant`` read the same."""
    t = text.strip().lower().replace("_", " ").replace("'", "").replace("\u2019", "")
    t = " ".join(t.split())
    t = re.sub(r"\s*([:#+()])\s*", r"\1", t)
    return t


# The decision where "flip stall" upgrades a stall to a stable (W14 Carpenter) instead of
# flipping it to a depot.
CARPENTER_UPGRADE = "action:winter_carpenter"


def _flip_side(key: str) -> str:
    """A side of a flippable tile or vehicle as printed: ``double stall``, ``Horse Cart``."""
    return names.vehicle(key) if key in VEHICLES else names.thing(key)


def action_label(state: GameState, a: int) -> str:
    """The text of action id `a` with printed names (:mod:`arle_ai.text.names`) in place of keys:
    ``place Builders' Merchant (special)``, ``build Farmer's House``, ``good summer wear``,
    ``cut 1 peat from a dehydrated moor with 4 peat``, ``flip stall to depot`` (``upgrade stall
    to stable`` at the winter Carpenter), ``load Hage on the Carriage (bench)``, ``Tanner once
    more``, ``give 1 horse for food``.
    :func:`find_action` reads it back; a player reads it in menus, pvs and analyses."""
    kind, i = action_range(a)
    text = action_to_string(state, a)
    if kind == "place" and i < len(SPACES):
        special = rules.ACTION_SPACES[i].season != state.season
        return f"place {names.space(SPACES[i])}" + (SPECIAL_SUFFIX if special else "")
    if kind == "imitate" and i < len(SPACES):
        return f"imitate {names.space(SPACES[i], qualified=True)}"
    if kind in ("use", "build") and i < len(BUILDINGS):
        return f"{kind} {names.building(BUILDINGS[i])}"
    if kind == "tool" and i < len(TOOLS):
        return f"tool {names.tool(TOOLS[i])}"
    if kind == "vehicle" and i < len(VEHICLES):
        return f"vehicle {names.vehicle(VEHICLES[i])}"
    if kind == "cut" and i <= rules.MOOR_PEAT:
        source = "the boardwalk" if i == 0 else f"a dehydrated moor with {i} peat"
        return f"cut {names.count(rules.PEAT_PER_CUT, 'peat')} from {source}"
    if kind == "flip" and i < len(FLIPS):
        if state.pending == CARPENTER_UPGRADE:  # W14: the stall is replaced by a stable
            return "upgrade stall to stable"
        return f"flip {_flip_side(FLIPS[i])} to {_flip_side(rules.FLIP_BACKS[FLIPS[i]])}"
    if kind == "breed":
        return _breed_label(text) or text
    if kind == "deliver":
        dest, _, what = text[len("deliver "):].partition(":")
        return f"deliver {names.destination(dest)}: {what.replace('_', ' ')}"
    if kind == "tile" and i < len(TILES):  # a field or forest is placed, a stall built
        verb = "build" if TILES[i] == "stall" else "place"
        return f"{verb} a {names.thing(TILES[i])}"
    if kind == "load":
        return _load_label(state, i) or text
    if kind == "more":
        return _more_label(state) or text
    if kind == "animal" and state.pending in ANIMAL_GIVEN and i < len(rules.ANIMALS):
        return ANIMAL_GIVEN[state.pending].format(names.count(1, rules.ANIMALS[i]))
    return text.replace("_", " ")


# What "animal X" does where the animal is given up, not taken (the words of the question).
ANIMAL_GIVEN = {"feed": "give {} for food", "discard": "return {} (no room)"}


def _more_label(state: GameState) -> str | None:
    """``more`` as the repetition of what it repeats: ``Tanner once more``, ``Bakehouse once
    more`` (the space or building of the pending exchange); None outside one."""
    step = state.pending.partition(":")[2] if state.pending.startswith("action:") else ""
    if step in SPACES:
        return f"{names.space(step)} once more"
    if step in BUILDINGS:
        return f"{names.building(step)} once more"
    return None


def _load_item(item: int) -> tuple[str, int] | None:
    """The printed name and size of load item ``item`` (rules.LOAD_SIZES; peat is the Loading
    Station's), or None for an id with no meaning."""
    if item < len(rules.LOAD_GOODS):
        good = rules.LOAD_GOODS[item]
        return good, rules.LOAD_SIZES.get(good, rules.LOADING_STATION_PEAT_SIZE)
    if item < len(LOAD_ITEMS):
        dest = rules.destination(LOAD_ITEMS[item])
        return dest.name, dest.size
    return None


def _spaces_loaded(kind: str, used: list[int]) -> int:
    return sum(rules.vehicle(kind).spaces[c] for c in used)


def _load_label(state: GameState, code: int) -> str | None:
    """A load as a player says it: the item, the vehicle by name (the empty one, or how much
    of it is loaded, when the player has several of its kind) and the compartments it takes
    where the vehicle has a choice of them (no comma: a continuation lists moves with commas):
    ``load Hage on the Carriage (bench)``, ``load wood on the empty Cart (space 2 of 3)``,
    ``load Bremen on the Droshky (all 4 spaces)``. None when the id names no vehicle of the
    player."""
    start = code % COMPARTMENTS
    slot = (code // COMPARTMENTS) % MAX_VEHICLES
    named = _load_item(code // (COMPARTMENTS * MAX_VEHICLES))
    player = state.current_player
    kind = state.vehicle_kind_at(player, slot) if player is not None else None
    if named is None or kind is None or kind not in VEHICLES:
        return None
    item, size = named
    v = rules.vehicle(kind)
    if start >= len(v.spaces):
        return None
    assert player is not None  # a vehicle was found
    barn = state.to_dict()["players"][player]["barn"]["vehicles"]
    total = sum(v.spaces)
    vehicle = f"the {v.name}"
    same = [x["used"] for x in barn if x["kind"] == kind]
    if len(same) > 1 and slot < len(barn):
        used = barn[slot]["used"]
        n = _spaces_loaded(kind, used)
        if not used:
            vehicle = f"the empty {v.name}"
        elif sum(_spaces_loaded(kind, u) == n for u in same) > 1:
            at = ", ".join(str(sum(v.spaces[:c]) + 1) for c in used)
            vehicle = f"the {v.name} loaded at space{'s' if len(used) > 1 else ''} {at}"
        else:
            vehicle = f"the {v.name} with {n} of {total} spaces loaded"
    text = f"load {item} on {vehicle}"
    if len(v.spaces) == 1 or (not v.combinable and set(v.spaces) == {1}):
        return text  # one compartment, or equal ones that never join: no choice of place
    first = sum(v.spaces[:start]) + 1
    if size == total:
        return f"{text} (all {total} spaces)"
    if v.spaces[start] == size == 2:
        return f"{text} (bench)"
    if size == 1:
        return f"{text} (space {first} of {total})"
    return f"{text} (spaces {first}-{first + size - 1} of {total})"


def _aliases(state: GameState, a: int) -> list[str]:
    """The normalised notation texts that name id `a`: its text, and forms without
    decoration."""
    text = action_to_string(state, a)
    out = [normalise(text)]
    if text.endswith(SPECIAL_SUFFIX):
        out.append(normalise(text[: -len(SPECIAL_SUFFIX)]))
    if text.startswith("load "):
        out.append(normalise(re.sub(r" on \w+#", " on vehicle#", text)))
    label = _breed_label(text)
    if label:
        out.append(normalise(label))
    return out


def _label_aliases(state: GameState, a: int) -> list[str]:
    """The normalised printed forms of id `a`: its label, and for a space the name with its
    season (a shared name alone only for the space of the current season)."""
    label = action_label(state, a)
    out = [normalise(label)]
    kind, i = action_range(a)
    if kind == "place" and i < len(SPACES):
        qualified = names.space(SPACES[i], qualified=True)
        out.append(normalise(f"place {qualified}"))
        if not label.endswith(SPECIAL_SUFFIX) or qualified == names.space(SPACES[i]):
            out.append(normalise(f"place {names.space(SPACES[i])}"))
    return out


def _text_map(state: GameState, ids: Iterable[int],
              aliases: Callable[[GameState, int], list[str]] = _aliases) -> dict[str, int]:
    m: dict[str, int] = {}
    for a in ids:
        for t in aliases(state, a):
            m.setdefault(t, a)
    return m


def find_action(state: GameState, t: str, ids: Iterable[int]) -> int | None:
    """The id among `ids` that the normalised text `t` (:func:`normalise`) names: notation
    first, then labels; None when it names none of them."""
    found = _text_map(state, ids).get(t)
    if found is None:
        found = _text_map(state, ids, _label_aliases).get(t)
    return found


def legal_moves_text(state: GameState, printed: bool = False) -> list[tuple[int, str]]:
    """The legal actions of `state` with their texts (``printed``: their labels), in id
    order."""
    text = action_label if printed else action_to_string
    return [(a, text(state, a)) for a in state.legal_actions()]
