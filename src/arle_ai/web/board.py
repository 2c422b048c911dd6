"""Where the pieces of a position lie on the printed boards: what the page draws.

A position records how many of each thing a player has (docs/position-format.md), not where
each piece lies. This module lays them out as on the table (the rules reference's home-board
grid, core.md 2.1): three columns; three rows of tidal flats, each behind a row of dike gaps;
two rows of land; the three moor tiles, each covering two spaces of a column, below. Built
dikes stand in the gap rows (:func:`dike_rows`), tiles and buildings on land spaces, animals
in an arrangement that houses them all (:func:`house_animals`), barn pieces in the barn's
slots with what is loaded in their compartments, the goods-track indicators on their
spaces, the buildings in play on the game board's building spaces.

Where the rules leave a place free (which land space a tile takes, which pen an animal), the
layout is chosen here: a tile stays on the space it lay on in the position before
(``previous``), so stepping through a game does not shuffle the board; a new tile takes the
first free space of its kind's side (animal housing left, fields right, the rest middle).
Every number comes from :mod:`arle_ai.engine.rules`; the names are the text layer's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from arle_ai.engine import rules
from arle_ai.text.loads import assign_loads
from arle_ai.text.names import HOME_FIELDS

__all__ = ["COLUMNS", "TIDAL_ROWS", "LAND_ROWS", "MOOR_ROWS", "HomeLayout", "dike_rows",
           "home_board", "house_animals", "barn", "goods_track", "building_spaces",
           "workers_left", "move_target"]

COLUMNS = rules.TIDAL_ROW_LAND  # spaces of a row (an opened tidal row gives them all)
TIDAL_ROWS = len(rules.TIDAL_ROWS_OPEN_AT)  # rows 0 (at the sea) .. TIDAL_ROWS - 1
LAND_ROWS = rules.START_LAND // COLUMNS  # the starting land, below the tidal flats
MOOR_ROWS = rules.MOOR_LAND  # a moor tile covers this many spaces of one column
MOORS = rules.START_HOME["hydrated_moor"]  # moor tiles at the start, one per column
FIRST_LAND = TIDAL_ROWS  # the first row of starting land
FIRST_MOOR = TIDAL_ROWS + LAND_ROWS  # the first row under the moor tiles
BOARDWALK = (FIRST_LAND + LAND_ROWS - 1, 1)  # the boardwalk's space (row, column)

Cell = tuple[int, int]  # (row, column)

# Which side of the board a new tile goes to first: the column order it tries.
_SIDE = {"stall": (0, 1, 2), "double_stall": (0, 1, 2), "stable": (0, 1, 2),
         "depot": (0, 1, 2), "grain_field": (2, 1, 0), "flax_field": (2, 1, 0)}
_MIDDLE = (1, 0, 2)
# Home tiles a position counts (text.names.HOME_FIELDS), by the key the page names them with
# (singular) and the position's field, in the order they are given their spaces: the sides'
# tiles as _SIDE lists them (the housing first), then the rest.
TILE_FIELDS = tuple(sorted(((f.piece, f.field) for f in HOME_FIELDS if f.tile),
                           key=lambda tile: [*_SIDE, tile[0]].index(tile[0])))
# The starting tiles' spaces (core.md 2.3): a tile still there is drawn there.
START_TILES: dict[Cell, str] = {(FIRST_LAND, COLUMNS - 1): "grain_field",
                                (FIRST_LAND + 1, COLUMNS - 1): "flax_field",
                                (FIRST_LAND + 1, 0): "stall"}
# A tile turned over in place (flip, upgrade, Farmer's Inn) keeps its space.
_TURNS_INTO = {"stall": ("depot", "stable"), "stable": ("double_stall",), "forest": ("park",),
               "grain_field": ("forest",), "flax_field": ("forest",)}


def dike_rows(steps: int) -> list[int]:
    """Dikes in each gap row (G0 at the sea .. G3 above the land) after ``steps`` dike steps
    (core.md 2.4): the rules.DIKES dikes start with a full row above the land and the rest in
    the row above it; a step takes the lowest dike into the row above the dike line (the
    highest full row); steps past rules.DIKE_STEPS_MAX are lost."""
    rows = [0] * (TIDAL_ROWS + 1)
    rows[-1] = COLUMNS
    rows[-2] = rules.DIKES - COLUMNS
    for _ in range(min(steps, rules.DIKE_STEPS_MAX)):
        line = min(i for i, n in enumerate(rows) if n == COLUMNS)
        if line == 0:
            break
        lowest = max(i for i, n in enumerate(rows) if n)
        rows[lowest] -= 1
        rows[line - 1] += 1
    return rows


def _tidal_rows_open(steps: int) -> int:
    """Tidal rows turned to land (the lowest first): one per rules.TIDAL_ROWS_OPEN_AT step."""
    return sum(1 for at in rules.TIDAL_ROWS_OPEN_AT if steps >= at)


@dataclass
class HomeLayout:
    """Where a home board's tiles and buildings lie: (row, column) -> tile or building key."""

    tiles: dict[Cell, str] = field(default_factory=dict)


def _moor_columns(home: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Each moor column's state, left to right: ("removed", 0), ("dehydrated_moor", peat) or
    ("hydrated_moor", 0); the removed moors' columns first, then the dehydrated ones."""
    dry = list(home["dehydrated_moors"])
    removed = MOORS - home["hydrated_moors"] - len(dry)
    return ([("removed", 0)] * removed + [("dehydrated_moor", p) for p in dry]
            + [("hydrated_moor", 0)] * home["hydrated_moors"])


def _land(home: Mapping[str, Any]) -> list[Cell]:
    """The land spaces without the boardwalk: the starting land, the opened tidal rows (the
    lowest first), the spaces of removed moors."""
    cells = [(r, c) for r in range(FIRST_LAND, FIRST_MOOR) for c in range(COLUMNS)]
    opened = _tidal_rows_open(home["dikes"])
    cells += [(TIDAL_ROWS - 1 - i, c) for i in range(opened) for c in range(COLUMNS)]
    for c, (state, _) in enumerate(_moor_columns(home)):
        if state == "removed":
            cells += [(FIRST_MOOR + r, c) for r in range(MOOR_ROWS)]
    if home["boardwalk_peat"] > 0:
        cells.remove(BOARDWALK)
    return cells


def _wanted(home: Mapping[str, Any]) -> list[str]:
    """Every tile and building on the land, housing tiles first."""
    out = [key for key, name in TILE_FIELDS for _ in range(home[name])]
    return out + list(home["buildings"])


def place_tiles(home: Mapping[str, Any], previous: HomeLayout | None) -> HomeLayout:
    """The spaces of ``home``'s tiles and buildings: each where it lay in ``previous`` (the
    starting layout when None) if it is still there, a tile turned over in place on the space
    of the one it was, a new one on the first free space of its side."""
    land = _land(home)
    free = set(land)
    before = START_TILES if previous is None else previous.tiles
    left = Counter(_wanted(home))
    out: dict[Cell, str] = {}
    for cell, key in before.items():
        if cell in free and left[key] > 0:
            out[cell] = key
            left[key] -= 1
    orphans = [(cell, key) for cell, key in before.items() if cell in free and cell not in out]
    for cell, key in orphans:
        turned = next((k for k in _TURNS_INTO.get(key, ()) if left[k] > 0), None)
        if turned is not None:
            out[cell] = turned
            left[turned] -= 1
    for key in _wanted(home):
        if left[key] <= 0:
            continue
        left[key] -= 1
        columns = _SIDE.get(key, _MIDDLE)
        spaces = sorted((cell for cell in land if cell not in out),
                        key=lambda cell: (columns.index(cell[1]), land.index(cell)))
        if not spaces:  # more tiles than land: the position check refuses this
            break
        out[spaces[0]] = key
    return HomeLayout(tiles=out)


# ---- animals ----

@dataclass
class Pen:
    """A place for animals: ``size`` places, of one type (``mixed`` False) or any."""

    where: str  # "cell" (a tile or an empty land space) or "dike"
    index: Any  # the cell, or the dike's number
    size: int
    mixed: bool
    animals: list[str] = field(default_factory=list)


def _pens(layout: HomeLayout, home: Mapping[str, Any]) -> tuple[list[Pen], list[Pen],
                                                                 list[Pen], list[Pen]]:
    """(stall pens, stables, empty land spaces, places of any type: parks and dikes)."""
    stalls, stables, parks = [], [], []
    for cell, key in sorted(layout.tiles.items()):
        if key == "stall":
            stalls.append(Pen("cell", cell, rules.STALL_PEN, False))
        elif key == "double_stall":
            stalls += [Pen("cell", cell, rules.STALL_PEN, False)
                       for _ in range(rules.DOUBLE_STALL_PENS)]
        elif key == "stable":
            stables.append(Pen("cell", cell, rules.STABLE_PEN, False))
        elif key == "park":
            parks.append(Pen("cell", cell, rules.PARK_PLACES, True))
    empty = [Pen("cell", cell, rules.LAND_PEN, False) for cell in _land(home)
             if cell not in layout.tiles]
    dikes = [Pen("dike", i, rules.DIKE_PLACES, True) for i in range(rules.DIKES)]
    return stalls, stables, empty, parks + dikes


def house_animals(layout: HomeLayout, home: Mapping[str, Any],
                  animals: Mapping[str, int]) -> tuple[list[Pen], list[str]]:
    """An arrangement of ``animals`` on the home board (core.md 3.2): each stall pen and
    stable holding one type, the rest two of a type on empty land spaces and one anywhere on
    parks and dikes; of those that house the most, the one that keeps most in stalls and
    stables. Also the animals it leaves without a place: none, except while their owner
    decides which to return (the engine asks when they no longer fit)."""
    kinds = list(rules.ANIMALS)
    counts = [animals.get(k, 0) for k in kinds]
    stalls, stables, empty, anywhere = _pens(layout, home)
    best: tuple[tuple[int, int], list[Pen], list[str]] | None = None
    for stall_types in _typings(len(stalls), counts, rules.STALL_PEN):
        for stable_types in _typings(len(stables), counts, rules.STABLE_PEN):
            pens, left = _fill(kinds, animals, stalls, stall_types, stables, stable_types,
                               empty, anywhere)
            housed = sum(len(p.animals) for p in pens[:len(stalls) + len(stables)])
            score = (-len(left), housed)
            if best is None or score > best[0]:
                best = (score, pens, left)
    assert best is not None  # _typings always offers the arrangement without typed pens
    return best[1], best[2]


def _typings(pens: int, counts: list[int], size: int) -> list[tuple[int, ...]]:
    """How many of ``pens`` alike pens of ``size`` take each type: (n0, n1, ..), never more
    pens of a type than its animals fill."""
    most = [min(pens, -(-n // size)) for n in counts]
    return [t for t in product(*(range(m + 1) for m in most)) if sum(t) <= pens]


def _fill(kinds: list[str], animals: Mapping[str, int], stalls: list[Pen],
          stall_types: tuple[int, ...], stables: list[Pen], stable_types: tuple[int, ...],
          empty: list[Pen], anywhere: list[Pen]) -> tuple[list[Pen], list[str]]:
    """The pens filled: stables and stall pens with their types' animals, then the rest on
    empty land (two of a type) and anywhere (one each), an odd one anywhere first; and the
    animals left without a place."""
    pens = [Pen(p.where, p.index, p.size, p.mixed) for p in stables + stalls + empty + anywhere]
    left = {k: animals.get(k, 0) for k in kinds}
    it = iter(pens)
    for types in (stable_types, stall_types):
        for k, n in zip(kinds, types, strict=True):
            for _ in range(n):
                pen = next(it)
                take = min(pen.size, left[k])
                pen.animals = [k] * take
                left[k] -= take
    typed = len(stables) + len(stalls)
    land = pens[typed:typed + len(empty)]
    flex = [spot for spot in pens[typed + len(empty):] for _ in range(spot.size)]
    for k in kinds:  # an odd one anywhere saves a land space
        if left[k] % 2 and flex:
            flex.pop(0).animals.append(k)
            left[k] -= 1
    over: list[str] = []
    for k in kinds:
        while left[k] > 0:
            empty_pen = next((p for p in land if not p.animals), None)
            if empty_pen is not None:
                take = min(empty_pen.size, left[k])
                empty_pen.animals = [k] * take
            elif flex:
                flex.pop(0).animals.append(k)
                take = 1
            else:
                over += [k] * left[k]
                take = left[k]
            left[k] -= take
    return pens, over


# ---- the home board as the page draws it ----

def home_board(player: Mapping[str, Any], layout: HomeLayout) -> dict[str, Any]:
    """A player's home board: the dikes per gap row (and the animals on them), every space
    of the grid with what lies there, and the goods-track indicators."""
    home = player["home"]
    land = set(_land(home))
    pens, unhoused = house_animals(layout, home, player["animals"])
    on_cell: dict[Cell, list[str]] = {}
    on_dike: list[str | None] = [None] * rules.DIKES
    for pen in pens:
        if pen.where == "dike":
            on_dike[pen.index] = pen.animals[0] if pen.animals else None
        else:
            on_cell.setdefault(pen.index, []).extend(pen.animals)
    moors = _moor_columns(home)
    cells: list[dict[str, Any]] = []
    for r in range(FIRST_MOOR + MOOR_ROWS):
        for c in range(COLUMNS):
            cell = (r, c)
            spot: dict[str, Any] = {"row": r, "col": c}
            if cell == BOARDWALK and home["boardwalk_peat"] > 0:
                spot.update(kind="boardwalk", peat=home["boardwalk_peat"])
            elif cell in land:
                key = layout.tiles.get(cell)
                spot.update(kind="land", tile=key,
                            building=key is not None and key not in dict(TILE_FIELDS))
            elif r < TIDAL_ROWS:
                spot.update(kind="tidal")
            elif r == FIRST_MOOR:  # a moor tile: both its spaces
                state, peat = moors[c]
                spot.update(kind=state, peat=peat, rows=MOOR_ROWS)
            else:
                continue  # the moor tile's lower space
            spot["animals"] = on_cell.get(cell, [])
            cells.append(spot)
    return {"dikes": dike_rows(home["dikes"]), "dike_animals": on_dike,
            "land_rows_open": _tidal_rows_open(home["dikes"]), "cells": cells,
            "unhoused": unhoused,
            "goods_track": goods_track(player["goods"]),
            "barn": barn(player),
            "travel": travel(player["travel"])}


def goods_track(goods: Mapping[str, int]) -> list[dict[str, Any]]:
    """The goods-track indicators: food's two (the first up to rules.GOODS_CAP, the rest on
    the second), then grain, flax, wool and hide."""
    food = goods.get("food", 0)
    first = min(food, rules.GOODS_CAP)
    out = [{"good": "food", "space": first}, {"good": "food", "space": food - first}]
    out += [{"good": g, "space": goods.get(g, 0)} for g in rules.TRACK_GOODS if g != "food"]
    return out


def barn(player: Mapping[str, Any]) -> dict[str, Any]:
    """The barn's slots (rules.BARN_SMALL small, rules.BARN_LARGE large, rules.BARN_FLEX for
    either) with the piece in each; a vehicle with its compartments and what lies on each
    (:func:`arle_ai.text.loads.assign_loads`), its index in the barn list (what a load move
    names)."""
    b = player["barn"]
    vehicles = b["vehicles"]
    loads = assign_loads([(v["kind"], v["used"]) for v in vehicles], player["loaded"])
    pieces: list[dict[str, Any]] = []
    for i, v in enumerate(vehicles):
        spec = rules.vehicle(v["kind"])
        comps: list[dict[str, Any]] = [
            {"width": w, "used": j in v["used"], "item": None, "span": 1}
            for j, w in enumerate(spec.spaces)]
        for item, where in (loads[i] if loads is not None else []):
            comps[where[0]].update(item=item, span=len(where))
            for j in where[1:]:
                comps[j].update(item=None, span=0)
        pieces.append({"kind": v["kind"], "size": spec.kind, "index": i,
                       "compartments": comps})
    pieces += [{"kind": "peat_boat", "size": "small", "index": None, "compartments": []}
               for _ in range(b["peat_boats"])]
    pieces += [{"kind": "plow", "size": "small", "index": None, "compartments": []}
               for _ in range(b["plows"])]
    small: list[dict[str, Any] | None] = [None] * rules.BARN_SMALL
    large: list[dict[str, Any] | None] = [None] * rules.BARN_LARGE
    flex: list[dict[str, Any] | None] = [None] * rules.BARN_FLEX
    for piece in pieces:
        slots = large if piece["size"] == "large" else small
        target = next((s for s in (slots, flex) if None in s), None)
        if target is not None:
            target[target.index(None)] = piece
    unplaced = loads is None and any(v["used"] for v in vehicles)
    return {"small": small, "large": large, "flex": flex, "loads_unplaced": unplaced,
            "loaded": player["loaded"]}


def travel(destinations: Sequence[str]) -> dict[str, Any]:
    """The travel-experience track: the destinations on it (lowest first), the spaces they
    cover and the VP it scores."""
    spaces = sum(rules.destination(k).size for k in destinations)
    vp = rules.TRAVEL_VP[min(spaces, len(rules.TRAVEL_VP) - 1)]
    return {"destinations": list(destinations), "spaces": spaces, "vp": vp,
            "length": len(rules.TRAVEL_VP) - 1, "track_vp": list(rules.TRAVEL_VP)}


# ---- the game board ----

def building_spaces(position: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The game board's building spaces by colour (rules.BUILDING_COLOUR_SPACES): the
    building in play on each, and who built it (None: still on the board)."""
    built = {b: i for i, p in enumerate(position["players"]) for b in p["home"]["buildings"]}
    in_play = list(position.get("setup", {}).get("buildings") or [])
    for key in [*position["buildings_on_board"], *built]:
        if key not in in_play:
            in_play.append(key)
    out = []
    for colour, count in rules.BUILDING_COLOUR_SPACES.items():
        mine = [k for k in in_play
                if rules.BUILDING_SPACE_OF_COLOUR[rules.building(k).colour] == colour]
        for i in range(max(count, len(mine))):
            key = mine[i] if i < len(mine) else None
            out.append({"space": colour, "building": key,
                        "built_by": built.get(key) if key is not None else None})
    return out


def workers_left(position: Mapping[str, Any]) -> list[int]:
    """Each player's workers still on the months this half-year (the start player's take
    turns 0, 2, 4, 6 of the rules.WORKERS_PER_PLAYER * 2; the solo player every turn of
    rules.SOLO_WORKERS)."""
    placed = position.get("workers_placed", 0)
    if len(position["players"]) == 1:
        return [rules.SOLO_WORKERS - placed]
    start = position["start_player"]
    firsts = (placed + 1) // 2
    seconds = placed // 2
    left = [rules.WORKERS_PER_PLAYER] * 2
    left[start] -= firsts
    left[1 - start] -= seconds
    return left


# ---- what a move is about on the board ----

_RANGES = [name for name, _ in rules.ACTION_RANGES]


def move_target(action: int, player: int | None) -> str | None:
    """The piece of the board a move is about, as the page marks it (``space:fisherman``,
    ``tool:axes``, ``building:mill``, ``vehicle:P:i`` the i-th vehicle of player P's barn,
    ``cut:P:boardwalk``, ``cut:P:moor:4``, ``flip:P:stall``, ``land:P``, ``barn:P``), or None
    for a move about no one piece (a good, an animal, a delivery)."""
    lay = rules.ACTION_LAYOUT
    kind = max((name for name in _RANGES if lay[name] <= action), key=lambda n: lay[n])
    i = action - lay[kind]
    if kind in ("place", "imitate"):
        return f"space:{rules.ACTION_SPACES[i].key}"
    if kind == "tool":
        return f"tool:{rules.TOOLS[i].key}"
    if kind in ("build", "use"):
        return f"building:{rules.BUILDINGS[i].key}"
    if kind == "load":
        slot = (i // rules.VEHICLE_COMPARTMENTS) % rules.MAX_VEHICLES
        return f"vehicle:{player}:{slot}"
    if kind == "cut":
        return f"cut:{player}:boardwalk" if i == 0 else f"cut:{player}:moor:{i}"
    if kind == "flip":
        return f"flip:{player}:{rules.FLIP_TARGETS[i]}"
    if kind == "tile":
        return f"land:{player}"
    if kind == "vehicle":
        return f"barn:{player}"
    return None
