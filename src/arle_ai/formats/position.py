"""Loading positions and game records from files or text, with errors that name the problem.

:func:`check_position` validates a position given as Python objects (the dicts and lists of the
JSON format, docs/position-format.md): every type, range, name and duplicate, each error a
:class:`PositionError` naming the field. It returns a :class:`CheckedPosition` of plain ints and
tuples in the order the core fills its C struct; the core (``_position.pxi``) only copies those
values, guards the indexes it writes with, and checks what needs the engine (land, barn, supply,
the decision stack, housing, a legal decision).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from arle_ai import engine
from arle_ai.base.errors import PositionError
from arle_ai.base.files import read_text
from arle_ai.base.jsontext import BOM, parse_json
from arle_ai.formats.records import GameRecord, RecordError, load_record
from arle_ai.text.names import keys_for_names

__all__ = [
    "load_position",
    "check_position",
    "CheckedPosition",
    "CheckedPlayer",
    "CheckedFrame",
    "load_record",
    "GameRecord",
    "RecordError",
]


def load_position(source: str | Path | dict[str, Any]) -> engine.GameState:
    """A position from a dict, a JSON text or a JSON file (docs/position-format.md).

    Printed names are accepted where keys are (:func:`arle_ai.text.names.keys_for_names`).
    Raises PositionError naming the file, the JSON error or the impossible field.
    """
    if isinstance(source, dict):
        return engine.GameState.from_dict(keys_for_names(source))
    if isinstance(source, Path) or not source.lstrip(BOM + " \t\r\n").startswith("{"):
        text = read_text(Path(source), PositionError, "position file")
    else:
        text = source
    return engine.GameState.from_dict(keys_for_names(parse_json(text)))


# ---- the checked, normalised position the core copies ----


class CheckedPlayer(NamedTuple):
    """One player's part of a position, checked: indexes into the core's tables and bitmasks
    (bit i = the i-th key of the core's name tuple)."""

    goods: tuple[int, ...]  # per GOOD_NAMES, within each good's cap
    animals: tuple[int, ...]  # per ANIMAL_NAMES
    tools: tuple[int, ...]  # per TOOL_KEYS: the position on the track (0 = leftmost)
    dikes: int
    hydrated: int
    dehydrated: tuple[int, ...]  # peat on each dehydrated moor, descending, 1..4 each
    moors_removed: int
    boardwalk: int
    grain_fields: int
    flax_fields: int
    forests: int
    parks: int
    stalls: int
    depots: int
    stables: int
    double_stalls: int
    buildings: int  # mask over BUILDING_KEYS
    peat_boats: int
    plows: int
    vehicles: tuple[tuple[int, int], ...]  # (VEHICLE_KEYS index, mask of used compartments)
    loaded: tuple[int, ...]  # per LOAD_NAMES
    dest_loaded: int  # mask over DEST_KEYS
    dest_done: int  # mask over DEST_KEYS
    bottlenecks: int
    november_used: int  # mask over BUILDING_KEYS, of November houses only (light green)


class CheckedFrame(NamedTuple):
    """One pending decision frame: its kind (index in FRAME_KINDS), player and fields."""

    kind: int
    player: int
    what: int  # "step" (a space index or F_PAY_BUILDING + sub-step) or "a"
    step: int  # b
    counted: int  # c (Frame.count)
    low: int  # d
    mask: int  # m


class CheckedPosition(NamedTuple):
    """A whole position, checked; `pending` None = the frames a position without them starts."""

    seed: int
    variant: int  # index in VARIANTS
    in_play: int  # mask over BUILDING_KEYS
    half_year: int
    start_player: int
    workers_placed: int
    special_by: int  # -1 = nobody
    occupied: int  # mask over SPACE_KEYS
    occupied_by: int  # of those, the spaces of player 1
    available: int  # buildings on the board, mask over BUILDING_KEYS
    players: tuple[CheckedPlayer, ...]  # 2, or 1 in the solo game (setup.players)
    pending: tuple[CheckedFrame, ...] | None


# ---- reading, with validation ----


def _short(value: object, limit: int = 40) -> str:
    """repr(value) for a message, cut to `limit` characters; never raises (an int past the
    digit limit or a deeply nested value is named by its type)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


def _mask(keys: Sequence[str], index: dict[str, int]) -> int:
    """The bitmask of `keys` (checked names) by their `index` (from the core's limits)."""
    m = 0
    for k in keys:
        m |= 1 << index[k]
    return m


class _Reader:
    """Reads typed fields out of nested dicts, naming the field in every error."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, dict):
            raise PositionError(
                f"{path or 'position'}: expected an object, got {type(data).__name__}")
        self.data: dict[Any, Any] = data
        self.path = path
        self.used: set[Any] = set()

    def name(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str, default: Any = None, required: bool = False) -> Any:
        data = self.data
        if key in data:
            self.used.add(key)
            return data[key]
        if required:
            raise PositionError(f"{self.name(key)}: missing")
        return default

    def counts(self, fields: Sequence[tuple[str, int]]) -> tuple[int, ...]:
        """The integer fields (key, most) in order, each in 0..most, default 0 (as :meth:`int`)."""
        return tuple([self.int(key, 0, most, default=0) for key, most in fields])

    def int(self, key: str, lo: int, hi: int, default: int | None = None,
            required: bool = False) -> int:
        data = self.data
        if key in data:
            self.used.add(key)
            v = data[key]
        elif required:
            raise PositionError(f"{self.name(key)}: missing")
        else:
            v = default
        if type(v) is not int and (isinstance(v, bool) or not isinstance(v, int)):
            raise PositionError(f"{self.name(key)}: expected an integer, got {_short(v)}")
        if not lo <= v <= hi:
            raise PositionError(f"{self.name(key)}: {_short(v)} is out of range {lo}..{hi}")
        return v

    def sub(self, key: str) -> _Reader:
        return _Reader(self.get(key, {}), self.name(key))

    def keys_list(self, key: str, allowed: Sequence[str], what: str) -> list[str]:
        v = self.get(key, [])
        if not isinstance(v, list):
            raise PositionError(f"{self.name(key)}: expected a list of {what}")
        out: list[str] = []
        for x in v:
            if x not in allowed:
                raise PositionError(f"{self.name(key)}: unknown {what} {_short(x)}")
            if x in out:
                raise PositionError(f"{self.name(key)}: {_short(x)} listed twice")
            out.append(x)
        return out

    def done(self) -> None:
        extra = set(self.data) - self.used
        if extra:
            raise PositionError(f"{self.name(sorted(extra)[0])}: unknown field")


def _check_player(r: _Reader, lim: dict[str, Any]) -> CheckedPlayer:
    goods_r = r.sub("goods")
    goods = goods_r.counts(lim["goods"])
    goods_r.done()
    animals_r = r.sub("animals")
    animals = animals_r.counts(lim["animal_fields"])
    animals_r.done()
    tools_r = r.sub("tools")
    tools = []
    for key, values in lim["tools"]:
        v = tools_r.get(key, values[0])
        if v not in values or isinstance(v, bool):
            raise PositionError(f"{tools_r.name(key)}: {_short(v)} is not a space of the track "
                                f"(one of {list(values)})")
        tools.append(values.index(v))
    tools_r.done()
    home = r.sub("home")
    dikes = home.int("dikes", 0, lim["dike_steps"], default=0)
    moors, peat = lim["moor_tiles"], lim["moor_peat"]
    hydrated = home.int("hydrated_moors", 0, moors, default=lim["start_hydrated"])
    dm = home.get("dehydrated_moors", [])
    if not isinstance(dm, list) or len(dm) > moors - hydrated:
        raise PositionError(f"{home.name('dehydrated_moors')}: a list of at most "
                            f"{moors - hydrated} peat counts ({moors} moor tiles in all)")
    for v in dm:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= peat:
            raise PositionError(f"{home.name('dehydrated_moors')}: {_short(v)} is not a peat "
                                f"count 1..{peat} (an emptied moor is removed)")
    fields, forest_park = lim["supply_fields"], lim["supply_forest_park"]
    stall_depot, stable_double = lim["supply_stall_depot"], lim["supply_stable_double"]
    boardwalk = home.int("boardwalk_peat", 0, lim["start_boardwalk"],
                         default=lim["start_boardwalk"])
    grain_fields = home.int("grain_fields", 0, fields, default=lim["start_grain_fields"])
    flax_fields = home.int("flax_fields", 0, fields, default=lim["start_flax_fields"])
    forests = home.int("forests", 0, forest_park, default=0)
    parks = home.int("parks", 0, forest_park, default=0)
    stalls = home.int("stalls", 0, stall_depot, default=lim["start_stalls"])
    depots = home.int("depots", 0, stall_depot, default=0)
    stables = home.int("stables", 0, stable_double, default=0)
    double_stalls = home.int("double_stalls", 0, stable_double, default=0)
    buildings = _mask(home.keys_list("buildings", lim["buildings"], "building"),
                      lim["building_index"])
    home.done()
    barn = r.sub("barn")
    peat_boats = barn.int("peat_boats", 0, lim["supply_boat_plow"], default=0)
    plows = barn.int("plows", 0, lim["supply_boat_plow"], default=0)
    vehicles = barn.get("vehicles", [])
    maxveh = lim["max_vehicles"]
    if not isinstance(vehicles, list) or len(vehicles) > maxveh:
        raise PositionError(f"{barn.name('vehicles')}: a list of at most {maxveh} vehicles")
    kinds: tuple[str, ...] = lim["vehicle_keys"]
    first = lim["first_vehicle"]
    veh = []
    for i, v in enumerate(vehicles):
        vr = _Reader(v, f"{barn.name('vehicles')}[{i}]")
        kind = vr.get("kind", required=True)
        if kind not in kinds[first:]:
            raise PositionError(f"{vr.name('kind')}: {_short(kind)} is not a vehicle "
                                f"(one of {list(kinds[first:])})")
        k = kinds.index(kind)
        nspaces = lim["vehicle_spaces"][k]
        used = vr.get("used", [])
        if not isinstance(used, list):
            raise PositionError(f"{vr.name('used')}: expected a list of compartment indexes")
        m = 0
        for c in used:
            if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < nspaces:
                raise PositionError(f"{vr.name('used')}: {_short(c)} is not a compartment of a "
                                    f"{kind} (0..{nspaces - 1})")
            if (m >> c) & 1:
                raise PositionError(f"{vr.name('used')}: compartment {c} listed twice")
            m |= 1 << c
        vr.done()
        veh.append((k, m))
    barn.done()
    loaded_r = r.sub("loaded")
    loaded = loaded_r.counts(lim["loaded_fields"])
    dests = lim["destinations"]
    dest_index = lim["destination_index"]
    dest_loaded = _mask(loaded_r.keys_list("destinations", dests, "destination"), dest_index)
    loaded_r.done()
    dest_done = _mask(r.keys_list("travel", dests, "destination"), dest_index)
    bottlenecks = r.int("bottlenecks", 0, lim["bottlenecks_max"], default=0)
    houses = lim["november_houses"]
    november_used = _mask(r.keys_list("november_used", houses, "light-green house"),
                          lim["november_index"])
    r.done()
    return CheckedPlayer(
        goods, animals, tuple(tools), dikes, hydrated,
        tuple(int(v) for v in sorted(dm, reverse=True)), moors - hydrated - len(dm), boardwalk,
        grain_fields, flax_fields, forests, parks, stalls, depots, stables, double_stalls,
        buildings, peat_boats, plows, tuple(veh), loaded, dest_loaded, dest_done, bottlenecks,
        november_used)


def _check_frames(frames: list[Any], lim: dict[str, Any], solo: bool
                  ) -> tuple[CheckedFrame, ...]:
    if len(frames) > lim["stack"]:
        raise PositionError(f"pending: at most {lim['stack']} frames")
    kinds: tuple[str, ...] = lim["frame_kinds"]
    spaces: tuple[str, ...] = lim["spaces"]
    sub_frames: tuple[str, ...] = lim["sub_frames"]
    a_max, b_max = lim["frame_a_max"], lim["frame_b_max"]
    out = []
    for i, fr in enumerate(frames):
        r = _Reader(fr, f"pending[{i}]")
        kind = r.get("kind", required=True)
        if not isinstance(kind, str) or kind not in kinds or kind in ("none", "unused"):
            raise PositionError(f"{r.name('kind')}: unknown decision kind {_short(kind)}")
        k = kinds.index(kind)
        player = r.int("player", -1, 1, default=0)
        if kind == "action":
            step = r.get("step", required=True)
            if step in spaces:
                a = spaces.index(step)
            elif step in sub_frames:
                a = lim["first_sub_frame"] + sub_frames.index(step)
            else:
                raise PositionError(f"{r.name('step')}: unknown step {_short(step)}")
        else:
            a = r.int("a", 0, a_max, default=0)
        b = r.int("b", 0, b_max, default=0)
        c = r.int("c", 0, a_max, default=0)
        d = r.int("d", 0, b_max, default=0)
        m = r.int("m", 0, lim["frame_m_max"], default=0)
        r.done()
        if kind != "game_over" and player < 0:
            raise PositionError(f"{r.name('player')}: must be 0 or 1")
        if solo and player == 1:
            raise PositionError(f"{r.name('player')}: a solo game has player 0 only")
        out.append(CheckedFrame(k, player, a, b, c, d, m))
    return tuple(out)


def check_position(d: object) -> CheckedPosition:
    """Validate a position given as Python objects (docs/position-format.md); PositionError
    names the first bad field. What needs the engine to check (land and barn room, supplies,
    the decision stack, housing, a legal decision) is checked by the core when it loads the
    result (GameState.from_dict does both)."""
    lim: dict[str, Any] = engine.position_limits()
    r = _Reader(d, "")
    fmt = r.get("format", lim["format"])
    if fmt != lim["format"]:
        raise PositionError(f"format: expected {lim['format']!r}, got {_short(fmt)}")
    setup = r.sub("setup")
    seed = setup.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= lim["max_seed"]:
        raise PositionError(f"setup.seed: expected an integer in 0..{lim['max_seed']}, got "
                            f"{_short(seed)}")
    variants: tuple[str, ...] = lim["variants"]
    variant = setup.get("variant", "standard")
    if variant not in variants:
        raise PositionError(f"setup.variant: {_short(variant)} is not one of {list(variants)}")
    buildings: tuple[str, ...] = lim["buildings"]
    in_play = setup.keys_list("buildings", buildings, "building")
    counts: tuple[int, ...] = lim["player_counts"]
    nplayers = setup.get("players", 2)
    if isinstance(nplayers, bool) or nplayers not in counts:
        raise PositionError(f"setup.players: expected 1 (the solo game) or 2, got "
                            f"{_short(nplayers)}")
    solo = nplayers == 1
    setup.done()
    building_index: dict[str, int] = lim["building_index"]
    building_spaces: tuple[str, ...] = lim["building_spaces"]
    want = Counter(building_spaces[building_index[k]] for k in in_play)
    for colour, spaces in lim["colour_spaces"].items():
        if want[colour] != spaces:
            raise PositionError(f"setup.buildings: {want[colour]} {colour} buildings in play, "
                                f"the board has {spaces} {colour} spaces")
    in_play_mask = _mask(in_play, building_index)
    half_year = r.int("half_year", 1, lim["half_years"], required=True)
    season = r.get("season", None)
    if season is not None and season != ("summer" if half_year & 1 else "winter"):
        raise PositionError(f"season: half-year {half_year} is not {_short(season)}")
    start_player = r.int("start_player", 0, 1, required=True)
    if solo and start_player != 0:
        raise PositionError("start_player: the solo player (0) always starts, not "
                            f"{start_player}")
    turn = r.int("workers_placed", 0,
                 lim["solo_workers"] if solo else lim["turns_per_half_year"], default=0)
    sab = r.get("special_action_by", None)
    if sab is not None and (isinstance(sab, bool) or sab not in (0, 1)):
        raise PositionError(f"special_action_by: expected null, 0 or 1, got {_short(sab)}")
    if solo and sab is not None and (sab != 0 or not lim["solo_special_action"]):
        allowed = "null or 0" if lim["solo_special_action"] else (
            "null (rules.SOLO_SPECIAL_ACTION is off: no special action in the solo game)")
        raise PositionError(f"special_action_by: a solo game allows {allowed}, got "
                            f"{_short(sab)}")
    special_by = -1 if sab is None else int(sab)
    occ = r.get("occupied", {})
    if not isinstance(occ, dict):
        raise PositionError("occupied: expected an object mapping space to player")
    space_keys: tuple[str, ...] = lim["spaces"]
    occupied = occupied_by = off_season = 0
    for key, who in occ.items():
        if key not in space_keys:
            raise PositionError(f"occupied.{key}: unknown action space")
        if isinstance(who, bool) or who not in (0, 1):
            raise PositionError(f"occupied.{key}: expected player 0 or 1, got {_short(who)}")
        if solo and who != 0:
            raise PositionError(f"occupied.{key}: a solo game has player 0 only, got {who}")
        i = lim["space_index"][key]
        occupied |= 1 << i
        if who == 1:
            occupied_by |= 1 << i
        if lim["space_seasons"][i] != (half_year & 1):
            off_season += 1
            if special_by != who:
                raise PositionError(f"occupied.{key}: a space of the other season needs "
                                    f"special_action_by = {who}")
    if off_season > 1:
        raise PositionError("occupied: only one worker per half-year may use the other season")
    available = _mask(r.keys_list("buildings_on_board", buildings, "building"),
                      building_index)
    if available & ~in_play_mask:
        raise PositionError("buildings_on_board: a building that is not in play "
                            "(setup.buildings)")
    players = r.get("players", required=True)
    if not isinstance(players, list) or len(players) != nplayers:
        game = "the solo game (setup.players 1)" if solo else "a two-player game"
        got = f"{len(players)}" if isinstance(players, list) else _short(players)
        raise PositionError(f"players: expected a list of {nplayers} player"
                            f"{'' if solo else 's'} for {game}, got {got}")
    checked = tuple(_check_player(_Reader(players[i], f"players[{i}]"), lim)
                    for i in range(nplayers))
    frames = r.get("pending", None)
    r.done()
    pending = None
    if frames is not None:
        if not isinstance(frames, list) or not frames:
            raise PositionError("pending: expected a non-empty list of decision frames")
        pending = _check_frames(frames, lim, solo)
    return CheckedPosition(seed, variants.index(variant), in_play_mask, half_year, start_player,
                           turn, special_by, occupied, occupied_by, available, checked, pending)
