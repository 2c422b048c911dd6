"""Each part of a position set from a person's words, for the position entry
(:mod:`arle_ai.formats.entry`, whose questions call these): the parts of an answer read
(names, counts, lists), the workers on the action spaces, the buildings built and on the game
board, a home board's tiles and moors, the barn and what is loaded on its vehicles (the
compartments worked out by :func:`arle_ai.text.loads.place_loads`), each refused with the
reason in the game's words when it cannot be; and what a part holds now, in words.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from arle_ai.engine import rules
from arle_ai.text import names
from arle_ai.text.display import land_spaces, land_tiles
from arle_ai.text.loads import place_loads

__all__ = ["Refused", "keys_named", "number", "set_counts", "set_occupied", "set_buildings",
           "set_board", "set_barn", "set_loaded", "set_moors", "land_check", "counts_text",
           "home_text", "barn_text", "loaded_text", "occupied_text"]

PLAYER = re.compile(r"\s*(?:p|player)?\s*([01])\s*:?\s*(.*)$", re.IGNORECASE | re.DOTALL)
COUNTED = re.compile(r"\s*(?:(\d+)\s+)?(.*?)(?:\s+(\d+))?\s*$", re.DOTALL)
PAIR = re.compile(r"\s*([A-Za-z][A-Za-z' _]*?)\s*[:=]?\s*(-?\d+)\s*,?")


class Refused(ValueError):
    """An answer that cannot be read or gives no valid position; the message says why in the
    game's words, ``field`` is the position's field a position check named (dotted:
    ``players.0.goods.grain``), if one did."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


# ---- reading the parts of an answer ----


def _pairs(text: str, example: str = "timber 2") -> list[tuple[str, int]]:
    """``'food 7, summer wear 1'`` -> [('food', 7), ('summer wear', 1)]; ``example`` is the
    answer the error shows (one of the question's own kind)."""
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = PAIR.match(text, pos)
        if not m:
            raise Refused(f"cannot read {text[pos:].strip()!r}: write a name and a number, "
                          f"e.g. {example!r}")
        out.append((m.group(1).strip(), int(m.group(2))))
        pos = m.end()
    return out


def set_counts(target: dict[str, Any], text: str, find: Callable[[str], str],
                example: str) -> None:
    for name, n in _pairs(text, example):
        try:
            target[find(name)] = n
        except KeyError as exc:
            raise Refused(str(exc)) from None


def keys_named(text: str, kind: str) -> list[str]:
    if text.strip() in ("-", "none"):
        return []
    try:
        return [names.find(part, kind) for part in text.split(",") if part.strip()]
    except KeyError as exc:
        raise Refused(str(exc)) from None


def _list(text: str) -> list[str]:
    """The comma-separated parts of an answer; none for ``-`` or ``none``."""
    if text.strip().lower() in ("-", "none"):
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


def number(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise Refused(f"{text.strip()!r} is not a whole number") from None


# ---- the game board: workers and buildings ----


def _space_key(name: str, half_year: int) -> str:
    """The action space ``name`` means; a name both seasons share is this half-year's."""
    found = {key for _, key in names.matches(name, ("space",))}
    season = "summer" if half_year % 2 else "winter"
    if len(found) > 1:
        found = {k for k in found if rules.action_space(k).season == season}
    if len(found) == 1:
        return found.pop()
    try:
        return names.find(name, "space")
    except KeyError as exc:
        raise Refused(str(exc)) from None


def set_occupied(d: dict[str, Any], text: str) -> None:
    """``'P0 Fisherman, Colonist; P1 Forester'``: the spaces holding each player's workers;
    the workers placed grow to at least their number and the other season's space says who
    used the special action."""
    occupied: dict[str, int] = {}
    solo = len(d["players"]) == 1
    if text.strip().lower() not in ("-", "none"):
        for part in text.split(";"):
            m = PLAYER.match(part)
            if solo and not m:
                m = PLAYER.match("P0 " + part)  # the solo player's spaces need no player
            if solo and m and m.group(1) != "0":
                raise Refused("a solo game has player 0 only: name the spaces holding your "
                              "workers, e.g. 'Fisherman, Colonist'")
            if not m:
                raise Refused(f"cannot read {part.strip()!r}: start with the player, e.g. "
                              f"'P0 Fisherman, Colonist; P1 Forester'")
            for name in _list(m.group(2)):
                key = _space_key(name, d["half_year"])
                if key in occupied:
                    raise Refused(f"{names.space(key, qualified=True)} is named twice")
                occupied[key] = int(m.group(1))
    season = "summer" if d["half_year"] % 2 else "winter"
    special = [key for key in occupied if rules.action_space(key).season != season]
    if len(special) > 1:
        raise Refused("only one worker per half-year may use the other season, not "
                      + " and ".join(names.space(k, qualified=True) for k in special))
    d["occupied"] = occupied
    d["special_action_by"] = occupied[special[0]] if special else None
    d["workers_placed"] = max(d.get("workers_placed", 0), len(occupied))


def _colour(key: str) -> str:
    """The game board's building spaces ``key`` goes on: green, yellow, orange, blue, red."""
    return rules.BUILDING_SPACE_OF_COLOUR[rules.building(key).colour]


def _in_order(keys: set[str] | list[str]) -> list[str]:
    """Building keys in the order of rules.BUILDINGS (the order positions write)."""
    return [b.key for b in rules.BUILDINGS if b.key in keys]


def set_buildings(d: dict[str, Any], i: int, keys: list[str]) -> list[str]:
    """Player ``i`` owns ``keys``: those leave the game board, and buildings the player no
    longer owns go back to it. A building the setup did not deal (the table's game drew
    another) takes the place of one of its colour still on the board; the notes say which
    (the last question asks for the board's buildings). Refused: a building the other
    player owns, or one that has no place left."""
    home = d["players"][i]["home"]
    other = d["players"][1 - i]["home"]["buildings"] if len(d["players"]) == 2 else []
    setup, board = d["setup"]["buildings"], d["buildings_on_board"]
    for key in keys:
        if key in other:
            raise Refused(f"{names.building(key)} is P{1 - i}'s (each building exists once)")
        if keys.count(key) > 1:
            raise Refused(f"{names.building(key)} is named twice")
    for key in home["buildings"]:
        if key not in keys:
            board.append(key)
    notes = []
    for key in keys:
        if key in board:
            board.remove(key)
        elif key not in setup:
            colour = _colour(key)
            spare = [b for b in board if _colour(b) == colour]
            if not spare:
                built = [names.building(b) for b in setup if _colour(b) == colour]
                raise Refused(f"{names.building(key)} was not dealt, and the "
                              f"{len(built)} {colour} buildings in play are all built "
                              f"({', '.join(built)}); leave one of them out, or type 'back'")
            out = spare[-1]
            board.remove(out)
            setup[setup.index(out)] = key
            notes.append(f"{names.building(key)} was not dealt: it takes the place of "
                         f"{names.building(out)} on the game board (the last question asks "
                         f"for the board's buildings)")
    home["buildings"] = keys
    d["buildings_on_board"] = _in_order(board)
    d["setup"]["buildings"] = _in_order(setup)
    return notes


def _owner(d: dict[str, Any], key: str) -> int | None:
    for i in range(len(d["players"])):
        if key in d["players"][i]["home"]["buildings"]:
            return i
    return None


def set_board(d: dict[str, Any], text: str) -> None:
    """The buildings on the game board, not yet built: a list of names (``'-'``: none), or
    changes to the list there now (``'+Mill, -Joinery'``). The buildings in play are these and
    the ones built; there is one for each building space of the board, by colour."""
    parts = _list(text)
    if parts and all(part[0] in "+-" for part in parts):
        board = list(d["buildings_on_board"])
        for part in parts:
            key = keys_named(part[1:], "building")[0]
            if part[0] == "+":
                if key in board:
                    raise Refused(f"{names.building(key)} is on the game board already")
                board.append(key)
            else:
                if key not in board:
                    raise Refused(f"{names.building(key)} is not on the game board now")
                board.remove(key)
    else:
        board = keys_named(text, "building")
    for key in board:
        owner = _owner(d, key)
        if owner is not None:
            raise Refused(f"{names.building(key)} is built by P{owner}, so it is not on the "
                          f"game board")
        if board.count(key) > 1:
            raise Refused(f"{names.building(key)} is named twice")
    built = [b for p in d["players"] for b in p["home"]["buildings"]]
    wrong = []
    for colour, spaces in rules.BUILDING_COLOUR_SPACES.items():
        here = sum(_colour(b) == colour for b in board)
        done = sum(_colour(b) == colour for b in built)
        if here + done != spaces:
            wrong.append(f"{here} {colour} on the board" + (f" and {done} built" if done else "")
                         + f" make {here + done}, the board has {spaces} {colour} spaces")
    if wrong:
        raise Refused("; ".join(wrong) + " (each space holds a building until it is built)")
    d["buildings_on_board"] = _in_order(board)
    d["setup"]["buildings"] = _in_order(set(board) | set(built))


# ---- a player's board ----


def _vehicle_key(name: str) -> str:
    """A vehicle or barn piece by name, singular or plural (``peat boats``, ``droshkies``)."""
    t = name.strip()
    forms = [t, t[:-3] + "y" if t.lower().endswith("ies") else t[:-1] if t.endswith("s") else t]
    for form in forms:
        try:
            return names.find(form, "vehicle")
        except KeyError:
            continue
    raise Refused(f"no vehicle is called {name!r}; known: "
                  f"{', '.join(v.name for v in rules.VEHICLES)}")


def _place(player: dict[str, Any]) -> None:
    """Mark the compartments that the player's loaded items take (Refused: they do not fit)."""
    barn = player["barn"]
    used = place_loads([v["kind"] for v in barn["vehicles"]], player["loaded"])
    if used is None:
        raise Refused(f"the loaded items ({loaded_text(player['loaded'])}) do not fit on the "
                      f"vehicles ({barn_text(barn)})")
    for vehicle, compartments in zip(barn["vehicles"], used, strict=True):
        vehicle["used"] = compartments


def set_barn(player: dict[str, Any], text: str) -> None:
    """``'handcart, horse cart, peat boats 2'``: the player's vehicles and barn pieces."""
    barn: dict[str, Any] = {"peat_boats": 0, "plows": 0, "vehicles": []}
    for part in _list(text):
        m = COUNTED.match(part)
        assert m is not None  # every text matches
        n = int(m.group(1) or m.group(3) or 1)
        key = _vehicle_key(m.group(2))
        if key in ("peat_boat", "plow"):
            barn[key + "s"] += n
        elif len(barn["vehicles"]) + n > rules.MAX_VEHICLES:  # before a list of n is made
            raise Refused(f"a barn holds at most {rules.MAX_VEHICLES} vehicles, not "
                          f"{len(barn['vehicles']) + n}")
        else:
            barn["vehicles"] += [{"kind": key, "used": []} for _ in range(n)]
    player["barn"] = barn
    _place(player)


def set_loaded(player: dict[str, Any], text: str) -> None:
    """``'wood 1 linen 1, Hage'``: the goods and destinations lying on the vehicles."""
    loaded: dict[str, Any] = {good: 0 for good in rules.LOAD_GOODS}
    loaded["destinations"] = []
    for part in _list(text):
        if re.search(r"\d", part):
            for name, n in _pairs(part, "wood 1"):
                key = names.find(name, "good") if names.matches(name, ("good",)) else name
                if key not in rules.LOAD_GOODS:
                    raise Refused(f"{name!r} cannot be loaded; goods that can: "
                                  f"{', '.join(rules.LOAD_GOODS)}")
                loaded[key] = n
        else:
            loaded["destinations"].append(keys_named(part, "destination")[0])
    player["loaded"] = loaded
    _place(player)


def set_moors(home: dict[str, Any], text: str, who: str = "the player") -> None:
    """``'4 2'``: the peat on each dehydrated moor. Refused: more moors than the tiles the
    hydrated ones leave (the home board question counts those)."""
    if text.strip().lower() in ("-", "none"):
        home["dehydrated_moors"] = []
        return
    try:
        moors = [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise Refused(f"cannot read {text.strip()!r}: write the peat on each dehydrated moor, "
                      f"e.g. '4 2'") from None
    tiles, hydrated = rules.START_HOME["hydrated_moor"], home["hydrated_moors"]
    if len(moors) > tiles - hydrated:
        fewer = max(0, tiles - len(moors))
        raise Refused(f"{who} has {tiles} moor tiles and {hydrated} of them hydrated, so "
                      + (f"at most {tiles - hydrated} are" if tiles > hydrated else "none is")
                      + f" dehydrated; type 'back' to give fewer hydrated moors (e.g. 'moors "
                      f"{fewer}')")
    home["dehydrated_moors"] = moors


def land_check(d: dict[str, Any], i: int, asked: str) -> None:
    """Refused in the player's words when player ``i``'s tiles and buildings need more land
    spaces than the home board has, with what to change at the question ``asked``
    (``tiles``, ``moors`` or ``buildings``)."""
    home = d["players"][i]["home"]
    land, tiles, built = land_spaces(home), land_tiles(home), len(home["buildings"])
    if tiles + built <= land:
        return
    walk = 1 if home["boardwalk_peat"] > 0 else 0
    parts = [f"{tiles - walk} tile{'s' if tiles - walk != 1 else ''}"]
    parts += ["the boardwalk"] if walk else []
    parts += [f"{built} building{'s' if built != 1 else ''}"] if built else []
    have = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    rows = [step for step in rules.TIDAL_ROWS_OPEN_AT if step > home["dikes"]]
    dike = ("move a dike" if rows and rows[0] == home["dikes"] + 1
            else f"move the dikes to {rows[0]}" if rows else "")
    if asked == "tiles":
        fixes = [f for f in (dike, "remove a tile") if f]
        if built:
            fixes[-1] += " (or a building, at the buildings question)"
    elif asked == "moors":
        fixes = ["name fewer dehydrated moors (a moor gone frees "
                 f"{rules.MOOR_LAND} land spaces)", "type 'back' to change the tiles"]
    else:
        fixes = ["leave out a building", "type 'back' to " + (f"{dike} or " if dike else "")
                 + "remove a tile"]
    raise Refused(f"P{i} has {have} for {land} land spaces; {' or '.join(fixes)}")


# ---- what is there now, in words ----


def counts_text(values: dict[str, int], printed: Callable[[str], str]) -> str:
    shown = [f"{printed(k)} {v}" for k, v in values.items() if v]
    return ", ".join(shown) or "none"


def home_text(home: dict[str, Any]) -> str:
    return counts_text({f.field: home[f.field] for f in names.HOME_FIELDS},
                   lambda k: k.replace("_", " "))


def barn_text(barn: dict[str, Any]) -> str:
    """A barn in words: ``Handcart, Cart, 2 peat boats``."""
    shown = [names.vehicle(v["kind"]) for v in barn["vehicles"]]
    shown += [names.count(barn[k], k.removesuffix("s")).replace("_", " ")
              for k in ("peat_boats", "plows") if barn[k]]
    return ", ".join(shown) or "none"


def loaded_text(loaded: dict[str, Any]) -> str:
    """What lies on the vehicles in words: ``wood 1, Hage``."""
    goods = counts_text({k: v for k, v in loaded.items() if k != "destinations"}, names.thing)
    dests = [names.destination(k) for k in loaded["destinations"]]
    return ", ".join(x for x in [goods if goods != "none" else "", *dests] if x) or "none"


def occupied_text(d: dict[str, Any]) -> str:
    if len(d["players"]) == 1:
        return ", ".join(names.space(k, qualified=True) for k in d["occupied"]) or "none"
    parts = [f"P{who} " + ", ".join(names.space(k, qualified=True)
                                     for k, w in d["occupied"].items() if w == who)
             for who in (0, 1) if who in d["occupied"].values()]
    return "; ".join(parts) or "none"
