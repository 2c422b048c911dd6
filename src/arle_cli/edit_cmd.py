"""``arle edit FILE``: enter a position from the table by answering questions.

It asks for the half-year, the start player, the workers on the action spaces and the workers
placed, then for each player the home board (tiles, dikes, hydrated moors, the peat on the
dehydrated ones, buildings), animals, goods, tools, barn (vehicles, peat boats, plows), what is
loaded on the vehicles, the travel track and the supply bottlenecks, and last the buildings
still on the game board, accepting printed names or keys (``timber 2 summer wear 1``,
``Farmer's House, Mill``, ``P0 Fisherman; P1 Grocer (winter)``). The order is such that each
answer's checks need only the answers before it (the land before the buildings on it, the
stalls before the animals in them). Every answer is checked at once against the rules of a
position (docs/position-format.md) and asked again with the reason, in the game's words
(``P1 has 6 tiles and the boardwalk for 6 land spaces; move a dike or remove a tile``), when it
does not fit; Enter keeps what is there, ``back`` returns to the previous question (the
answers given stay). The vehicle compartments the loads take are worked out
(:func:`arle_ai.text.loads.place_loads`). The file is written without a ``pending`` block, so
the position starts at the turn of the player whose worker is next.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import click

import arle_ai
from arle_ai.base.errors import PositionError
from arle_ai.engine import rules
from arle_ai.text import names
from arle_ai.text.display import describe_wide, land_spaces, land_tiles
from arle_ai.text.loads import place_loads
from arle_cli.common import (
    OUT_FILE,
    fail,
    hangup_as_interrupt,
    interrupted,
    players_option,
    read_json,
    seed_option,
    write_text,
)

PLAYER = re.compile(r"\s*(?:p|player)?\s*([01])\s*:?\s*(.*)$", re.IGNORECASE | re.DOTALL)
COUNTED = re.compile(r"\s*(?:(\d+)\s+)?(.*?)(?:\s+(\d+))?\s*$", re.DOTALL)
PAIR = re.compile(r"\s*([A-Za-z][A-Za-z' _]*?)\s*[:=]?\s*(-?\d+)\s*,?")
HOME_TILES = {"grain field": "grain_fields", "flax field": "flax_fields", "forest": "forests",
              "park": "parks", "stall": "stalls", "depot": "depots", "stable": "stables",
              "double stall": "double_stalls", "dike": "dikes", "moor": "hydrated_moors",
              "hydrated moor": "hydrated_moors", "boardwalk": "boardwalk_peat"}
WIDTH = 80  # every line of the dialogue fits an 80-column terminal, words whole
NB = "\x00"  # a space that wrapping keeps (inside a quoted example)


class Answer(ValueError):
    """An answer that cannot be read; the message says why."""


def _pairs(text: str, example: str = "timber 2") -> list[tuple[str, int]]:
    """``'food 7, summer wear 1'`` -> [('food', 7), ('summer wear', 1)]; ``example`` is the
    answer the error shows (one of the question's own kind)."""
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = PAIR.match(text, pos)
        if not m:
            raise Answer(f"cannot read {text[pos:].strip()!r}: write a name and a number, "
                         f"e.g. {example!r}")
        out.append((m.group(1).strip(), int(m.group(2))))
        pos = m.end()
    return out


def _tile_key(name: str) -> str:
    t = " ".join(name.lower().replace("_", " ").split())
    for word, key in HOME_TILES.items():
        if t in (word, word + "s", key.replace("_", " ")):
            return key
    raise Answer(f"no home tile is called {name!r}; known: {', '.join(HOME_TILES)}")


def _set_counts(target: dict[str, Any], text: str, find, example: str) -> None:
    for name, n in _pairs(text, example):
        try:
            target[find(name)] = n
        except KeyError as exc:
            raise Answer(str(exc)) from None


def _names(text: str, kind: str) -> list[str]:
    if text.strip() in ("-", "none"):
        return []
    try:
        return [names.find(part, kind) for part in text.split(",") if part.strip()]
    except KeyError as exc:
        raise Answer(str(exc)) from None


def _list(text: str) -> list[str]:
    """The comma-separated parts of an answer; none for ``-`` or ``none``."""
    if text.strip().lower() in ("-", "none"):
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


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
        raise Answer(str(exc)) from None


def _set_occupied(d: dict[str, Any], text: str) -> None:
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
                raise Answer("a solo game has player 0 only: name the spaces holding your "
                             "workers, e.g. 'Fisherman, Colonist'")
            if not m:
                raise Answer(f"cannot read {part.strip()!r}: start with the player, e.g. "
                             f"'P0 Fisherman, Colonist; P1 Forester'")
            for name in _list(m.group(2)):
                key = _space_key(name, d["half_year"])
                if key in occupied:
                    raise Answer(f"{names.space(key, qualified=True)} is named twice")
                occupied[key] = int(m.group(1))
    season = "summer" if d["half_year"] % 2 else "winter"
    special = [key for key in occupied if rules.action_space(key).season != season]
    if len(special) > 1:
        raise Answer("only one worker per half-year may use the other season, not "
                     + " and ".join(names.space(k, qualified=True) for k in special))
    d["occupied"] = occupied
    d["special_action_by"] = occupied[special[0]] if special else None
    d["workers_placed"] = max(d.get("workers_placed", 0), len(occupied))


def _vehicle_key(name: str) -> str:
    """A vehicle or barn piece by name, singular or plural (``peat boats``, ``droshkies``)."""
    t = name.strip()
    forms = [t, t[:-3] + "y" if t.lower().endswith("ies") else t[:-1] if t.endswith("s") else t]
    for form in forms:
        try:
            return names.find(form, "vehicle")
        except KeyError:
            continue
    raise Answer(f"no vehicle is called {name!r}; known: "
                 f"{', '.join(v.name for v in rules.VEHICLES)}")


def _place(player: dict[str, Any]) -> None:
    """Mark the compartments that the player's loaded items take (Answer: they do not fit)."""
    barn = player["barn"]
    used = place_loads([v["kind"] for v in barn["vehicles"]], player["loaded"])
    if used is None:
        raise Answer(f"the loaded items ({_loaded(player['loaded'])}) do not fit on the "
                     f"vehicles ({_vehicles(barn)})")
    for vehicle, compartments in zip(barn["vehicles"], used, strict=True):
        vehicle["used"] = compartments


def _vehicles(barn: dict[str, Any]) -> str:
    shown = [names.vehicle(v["kind"]) for v in barn["vehicles"]]
    shown += [names.count(barn[k], k.removesuffix("s")).replace("_", " ")
              for k in ("peat_boats", "plows") if barn[k]]
    return ", ".join(shown) or "none"


def _set_barn(player: dict[str, Any], text: str) -> None:
    """``'handcart, horse cart, peat boats 2'``: the player's vehicles and barn pieces."""
    barn: dict[str, Any] = {"peat_boats": 0, "plows": 0, "vehicles": []}
    for part in _list(text):
        m = COUNTED.match(part)
        assert m is not None  # every text matches
        n = int(m.group(1) or m.group(3) or 1)
        key = _vehicle_key(m.group(2))
        if key in ("peat_boat", "plow"):
            barn[key + "s"] += n
        else:
            barn["vehicles"] += [{"kind": key, "used": []} for _ in range(n)]
    player["barn"] = barn
    _place(player)


def _set_loaded(player: dict[str, Any], text: str) -> None:
    """``'wood 1 linen 1, Hage'``: the goods and destinations lying on the vehicles."""
    loaded: dict[str, Any] = {good: 0 for good in rules.LOAD_GOODS}
    loaded["destinations"] = []
    for part in _list(text):
        if re.search(r"\d", part):
            for name, n in _pairs(part, "wood 1"):
                key = names.find(name, "good") if names.matches(name, ("good",)) else name
                if key not in rules.LOAD_GOODS:
                    raise Answer(f"{name!r} cannot be loaded; goods that can: "
                                 f"{', '.join(rules.LOAD_GOODS)}")
                loaded[key] = n
        else:
            loaded["destinations"].append(_names(part, "destination")[0])
    player["loaded"] = loaded
    _place(player)


def _set_moors(home: dict[str, Any], text: str, who: str = "the player") -> None:
    """``'4 2'``: the peat on each dehydrated moor. Answer: more moors than the tiles the
    hydrated ones leave (the home board question counts those)."""
    if text.strip().lower() in ("-", "none"):
        home["dehydrated_moors"] = []
        return
    try:
        moors = [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise Answer(f"cannot read {text.strip()!r}: write the peat on each dehydrated moor, "
                     f"e.g. '4 2'") from None
    tiles, hydrated = rules.START_HOME["hydrated_moor"], home["hydrated_moors"]
    if len(moors) > tiles - hydrated:
        fewer = max(0, tiles - len(moors))
        raise Answer(f"{who} has {tiles} moor tiles and {hydrated} of them hydrated, so "
                     + (f"at most {tiles - hydrated} are" if tiles > hydrated else "none is")
                     + f" dehydrated; type 'back' to give fewer hydrated moors (e.g. 'moors "
                     f"{fewer}')")
    home["dehydrated_moors"] = moors


def _colour(key: str) -> str:
    """The game board's building spaces ``key`` goes on: green, yellow, orange, blue, red."""
    return rules.BUILDING_SPACE_OF_COLOUR[rules.building(key).colour]


def _in_order(keys: set[str] | list[str]) -> list[str]:
    """Building keys in the order of rules.BUILDINGS (the order positions write)."""
    return [b.key for b in rules.BUILDINGS if b.key in keys]


def _set_buildings(d: dict[str, Any], i: int, keys: list[str]) -> list[str]:
    """Player ``i`` owns ``keys``: those leave the game board, and buildings the player no
    longer owns go back to it. A building the setup did not deal (the table's game drew
    another) takes the place of one of its colour still on the board; the notes say which
    (the last question asks for the board's buildings). Answer: a building the other player
    owns, or one that has no place left."""
    home = d["players"][i]["home"]
    other = d["players"][1 - i]["home"]["buildings"] if len(d["players"]) == 2 else []
    setup, board = d["setup"]["buildings"], d["buildings_on_board"]
    for key in keys:
        if key in other:
            raise Answer(f"{names.building(key)} is P{1 - i}'s (each building exists once)")
        if keys.count(key) > 1:
            raise Answer(f"{names.building(key)} is named twice")
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
                raise Answer(f"{names.building(key)} was not dealt, and the "
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


def _set_board(d: dict[str, Any], text: str) -> None:
    """The buildings on the game board, not yet built: a list of names (``'-'``: none), or
    changes to the list there now (``'+Mill, -Joinery'``). The buildings in play are these and
    the ones built; there is one for each building space of the board, by colour."""
    parts = _list(text)
    if parts and all(part[0] in "+-" for part in parts):
        board = list(d["buildings_on_board"])
        for part in parts:
            key = _names(part[1:], "building")[0]
            if part[0] == "+":
                if key in board:
                    raise Answer(f"{names.building(key)} is on the game board already")
                board.append(key)
            else:
                if key not in board:
                    raise Answer(f"{names.building(key)} is not on the game board now")
                board.remove(key)
    else:
        board = _names(text, "building")
    for key in board:
        owner = _owner(d, key)
        if owner is not None:
            raise Answer(f"{names.building(key)} is built by P{owner}, so it is not on the "
                         f"game board")
        if board.count(key) > 1:
            raise Answer(f"{names.building(key)} is named twice")
    built = [b for p in d["players"] for b in p["home"]["buildings"]]
    wrong = []
    for colour, spaces in rules.BUILDING_COLOUR_SPACES.items():
        here = sum(_colour(b) == colour for b in board)
        done = sum(_colour(b) == colour for b in built)
        if here + done != spaces:
            wrong.append(f"{here} {colour} on the board" + (f" and {done} built" if done else "")
                         + f" make {here + done}, the board has {spaces} {colour} spaces")
    if wrong:
        raise Answer("; ".join(wrong) + " (each space holds a building until it is built)")
    d["buildings_on_board"] = _in_order(board)
    d["setup"]["buildings"] = _in_order(set(board) | set(built))


def _land_check(d: dict[str, Any], i: int, asked: str) -> None:
    """Answer in the player's words when player ``i``'s tiles and buildings need more land
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
    raise Answer(f"P{i} has {have} for {land} land spaces; {' or '.join(fixes)}")


def _plain(message: str) -> str:
    """A position check's message in the dialogue's words: ``players[1].home.stalls: ...``
    -> ``P1 stalls: ...``."""
    message = re.sub(r"players\[([01])\](?:\.(?:home|goods|animals|tools|barn))?\.?",
                     r"P\1 ", message)
    return re.sub(r"(P[01] )(\w+)", lambda m: m.group(1) + m.group(2).replace("_", " "),
                  message).replace(" :", ":")


def _check(d: dict[str, Any]) -> None:
    arle_ai.GameState.from_dict(d)


def _lines(text: str, first: str = "", rest: str = "", width: int = WIDTH) -> str:
    """``text`` wrapped at whole words into lines of at most ``width`` characters; a quoted
    example (``'food 7 timber 2'``) is kept on one line."""
    text = re.sub(r"(?<!\w)'[^']*'(?!\w)", lambda m: m.group(0).replace(" ", NB),
                  " ".join(text.split()))  # an apostrophe (Potter's Inn) opens no quote
    return "\n".join(textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                                    break_long_words=False, break_on_hyphens=False)
                      ).replace(NB, " ")


def _question(question: str, shown: str) -> str:
    """The prompt: the question and what is there now; the answer is typed after ``> ``, on
    the same line when the question is short, else on a line of its own."""
    items = ", ".join(item.replace(" ", NB) for item in shown.split(", "))  # 'Ovens 1' whole
    text = _lines(question, rest="  ") + "\n" + _lines(f"now: {items}", "  ", "    ")
    short = f"{question} [{shown}]"
    return short if len(short) <= WIDTH - 30 else text + "\n"


BACK = "back"
INTRO = ("Enter keeps what is there now; 'back' returns to the previous question (the answers "
         "given stay); each answer is checked at once.")


@dataclass(frozen=True)
class Question:
    """One question of the dialogue: its text, what is there now, and how an answer changes
    a trial copy of the position (raising Answer when it cannot; it may return notes to
    show once the answer is accepted)."""

    text: Callable[[dict[str, Any]], str]
    shown: Callable[[dict[str, Any]], str]
    change: Callable[[dict[str, Any], str], list[str] | None]


def _ask(d: dict[str, Any], q: Question) -> bool:
    """Ask ``q`` until the answer reads and gives a valid position (Enter: keep what is
    there); False when the answer is ``back``."""
    while True:
        text = click.prompt(_question(q.text(d), q.shown(d)), default="", show_default=False,
                            prompt_suffix="> ")
        if not text.strip():
            return True
        if text.strip().lower() == BACK:
            return False
        trial = copy.deepcopy(d)
        try:
            notes = q.change(trial, text) or []
            _check(trial)
        except (Answer, PositionError, ValueError) as exc:
            message = str(exc) if isinstance(exc, Answer) else _plain(str(exc))
            click.echo(_lines(f"not accepted: {message}", first="  ", rest="    "))
            continue
        d.clear()
        d.update(trial)
        for note in notes:
            click.echo(_lines(f"note: {note}", first="  ", rest="    "))
        return True


def _counts(values: dict[str, int], printed: Callable[[str], str]) -> str:
    shown = [f"{printed(k)} {v}" for k, v in values.items() if v]
    return ", ".join(shown) or "none"


def _home_counts(home: dict[str, Any]) -> str:
    keys = ("dikes", "hydrated_moors", "boardwalk_peat", *names.TILES)
    return _counts({k: home[k] for k in keys}, lambda k: k.replace("_", " "))


def _player_questions(i: int, solo: bool = False) -> list[Question]:
    """Player ``i``'s questions, in an order where each answer's checks need only the answers
    before it: the land (tiles, moors, buildings) before the animals housed on it; the solo
    player's are asked as "your"."""
    who = "your" if solo else f"P{i}"

    def p(x: dict[str, Any]) -> dict[str, Any]:
        player: dict[str, Any] = x["players"][i]
        return player

    def tiles(t: dict[str, Any], s: str) -> None:
        _set_counts(p(t)["home"], s, _tile_key, "stalls 2")
        _land_check(t, i, "tiles")

    def moors(t: dict[str, Any], s: str) -> None:
        _set_moors(p(t)["home"], s, who)
        _land_check(t, i, "moors")

    def buildings(t: dict[str, Any], s: str) -> list[str]:
        notes = _set_buildings(t, i, _names(s, "building"))
        _land_check(t, i, "buildings")
        return notes

    return [
        Question(lambda d: f"{who} home board: tiles, dikes, hydrated moors, peat on the "
                           f"boardwalk (e.g. 'stalls 2 forests 1 dikes 3 moors 2 boardwalk 4')",
                 lambda d: _home_counts(p(d)["home"]), tiles),
        Question(lambda d: f"{who} dehydrated moors: the peat on each (e.g. '4 2'; '-' for "
                           f"none)",
                 lambda d: " ".join(map(str, p(d)["home"]["dehydrated_moors"])) or "none",
                 moors),
        Question(lambda d: f"{who} buildings (names separated by commas, '-' for none)",
                 lambda d: ", ".join(names.building(b) for b in p(d)["home"]["buildings"])
                 or "none", buildings),
        Question(lambda d: f"{who} animals (sheep, cattle, horse)",
                 lambda d: _counts(p(d)["animals"], names.thing),
                 lambda t, s: _set_counts(p(t)["animals"], s,
                                          lambda n: names.find(n, "animal"), "sheep 2")),
        Question(lambda d: f"{who} goods (e.g. 'food 7 timber 2 summer wear 1')",
                 lambda d: _counts(p(d)["goods"], names.thing),
                 lambda t, s: _set_counts(p(t)["goods"], s, lambda n: names.find(n, "good"),
                                          "timber 2")),
        Question(lambda d: f"{who} tools, the number on the track (e.g. 'fish traps 3 ovens "
                           f"2')",
                 lambda d: _counts(p(d)["tools"], names.tool),
                 lambda t, s: _set_counts(p(t)["tools"], s, lambda n: names.find(n, "tool"),
                                          "ovens 2")),
        Question(lambda d: f"{who} barn: vehicles, peat boats, plows (e.g. 'handcart, horse "
                           f"cart, peat boats 2'; '-' for none)",
                 lambda d: _vehicles(p(d)["barn"]), lambda t, s: _set_barn(p(t), s)),
        Question(lambda d: f"{who} loaded on the vehicles until the inventorying (e.g. 'wood "
                           f"1 linen 1, Hage'; '-' for nothing)",
                 lambda d: _loaded(p(d)["loaded"]), lambda t, s: _set_loaded(p(t), s)),
        Question(lambda d: f"{who} travel track: destinations delivered (names separated by "
                           f"commas, '-' for none)",
                 lambda d: ", ".join(names.destination(k) for k in p(d)["travel"]) or "none",
                 lambda t, s: p(t).__setitem__("travel", _names(s, "destination"))),
        Question(lambda d: f"{who} supply bottlenecks suffered so far (-2 VP each)",
                 lambda d: str(p(d)["bottlenecks"]),
                 lambda t, s: p(t).__setitem__("bottlenecks", _number(s))),
    ]


def _loaded(loaded: dict[str, Any]) -> str:
    goods = _counts({k: v for k, v in loaded.items() if k != "destinations"}, names.thing)
    dests = [names.destination(k) for k in loaded["destinations"]]
    return ", ".join(x for x in [goods if goods != "none" else "", *dests] if x) or "none"


def _number(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise Answer(f"{text.strip()!r} is not a whole number") from None


def _occupied(d: dict[str, Any]) -> str:
    if len(d["players"]) == 1:
        return ", ".join(names.space(k, qualified=True) for k in d["occupied"]) or "none"
    parts = [f"P{who} " + ", ".join(names.space(k, qualified=True)
                                     for k, w in d["occupied"].items() if w == who)
             for who in (0, 1) if who in d["occupied"].values()]
    return "; ".join(parts) or "none"


def questions(players: int = 2) -> list[Question]:
    """Every question of the dialogue, in order: the game board's half-year, start player and
    workers, each player's board, and last the buildings still on the game board (which
    needs both players' buildings). The solo game (``players`` 1) has no start player to
    ask and one board."""
    if players == 1:
        return [
            Question(lambda d: "half-year (1-9; odd = summer)", lambda d: str(d["half_year"]),
                     lambda t, s: t.__setitem__("half_year", _number(s))),
            Question(lambda d: "spaces holding your workers (e.g. 'Fisherman, Colonist'; '-' "
                               "for none)", _occupied, _set_occupied),
            Question(lambda d: f"workers placed or passed so far this half-year "
                               f"(0-{rules.SOLO_WORKERS})",
                     lambda d: str(d.get("workers_placed", 0)),
                     lambda t, s: t.__setitem__("workers_placed", _number(s))),
            *_player_questions(0, solo=True),
            _board_question(),
        ]
    return [
        Question(lambda d: "half-year (1-9; odd = summer)", lambda d: str(d["half_year"]),
                 lambda t, s: t.__setitem__("half_year", _number(s))),
        Question(lambda d: "start player (0 or 1)", lambda d: str(d["start_player"]),
                 lambda t, s: t.__setitem__("start_player", _number(s))),
        Question(lambda d: "workers on the action spaces (e.g. 'P0 Fisherman, Colonist; P1 "
                           "Forester'; '-' for none)", _occupied, _set_occupied),
        Question(lambda d: "workers placed or passed so far this half-year (0-8)",
                 lambda d: str(d.get("workers_placed", 0)),
                 lambda t, s: t.__setitem__("workers_placed", _number(s))),
        *_player_questions(0),
        *_player_questions(1),
        _board_question(),
    ]


def _board_question() -> Question:
    return Question(lambda d: "buildings on the game board, not yet built (names separated by "
                              "commas, or changes: '+Mill, -Joinery')",
                    lambda d: ", ".join(names.building(b) for b in d["buildings_on_board"])
                    or "none", _set_board)


def _edit(d: dict[str, Any]) -> None:
    d.pop("pending", None)
    d.pop("season", None)
    click.echo(_lines(INTRO))
    asked = questions(len(d["players"]))
    k = 0
    while k < len(asked):
        if _ask(d, asked[k]):
            k += 1
        elif k == 0:
            click.echo("  this is the first question")
        else:
            k -= 1


def _write(d: dict[str, Any], path: str) -> arle_ai.GameState:
    """Write the position ``d`` (checked by every answer) to ``path`` without its pending
    block; return it as a state."""
    state = arle_ai.GameState.from_dict(d)
    out = state.to_dict()
    out.pop("pending", None)
    write_text(json.dumps(out, indent=1), path)
    return state


def _stopped(file: str, before: dict[str, Any], d: dict[str, Any], ctrl_c: bool) -> NoReturn:
    """Stopped before the last question: FILE stays as it was; answers already given that
    changed the position are written next to it, so nothing typed is lost."""
    if d == before:
        kept = f"nothing changed, {file} is as it was" if Path(file).exists() else (
            "nothing written")
    else:
        p = Path(file)
        partial = p.with_name(f"{p.stem}.partial{p.suffix or '.json'}")
        n = 2
        while partial.exists():
            partial = p.with_name(f"{p.stem}.partial-{n}{p.suffix or '.json'}")
            n += 1
        _write(d, str(partial))
        kept = (f"{file} is unchanged; the answers so far are in {partial} (go on with "
                f"'arle edit {partial}')")
    if ctrl_c:
        interrupted(kept)
    fail(f"input ended before the last question: {kept}")


@click.command()
@click.argument("file", type=OUT_FILE)
@seed_option("Setup seed of a new position when FILE does not exist yet.")
@players_option("Players of a new position when FILE does not exist yet: 2, or 1 for the "
                "solo game (a FILE says its own).")
def edit(file: str, seed: int, players: int) -> None:
    """Enter or change the position in FILE by answering questions (printed names or keys;
    Enter keeps a value). FILE is created from a new game when it does not exist."""
    if Path(file).exists():
        data = names.keys_for_names(read_json(file))
        try:
            d = arle_ai.GameState.from_dict(data).to_dict()
        except ValueError as exc:
            fail(f"{file}: invalid position: {exc}")
    else:
        d = arle_ai.new_game(seed=seed, players=players).to_dict()
    d.pop("pending", None)
    d.pop("season", None)
    before = copy.deepcopy(d)
    try:
        with hangup_as_interrupt():  # a closed terminal keeps the answers as Ctrl-C does
            _edit(d)
    except (click.Abort, KeyboardInterrupt) as exc:  # click.prompt: Ctrl-C or end of input
        ctrl_c = isinstance(exc, KeyboardInterrupt) or isinstance(exc.__context__,
                                                                  KeyboardInterrupt)
        _stopped(file, before, d, ctrl_c)
    state = _write(d, file)
    click.echo(f"written to {file}:")
    click.echo(describe_wide(state, shutil.get_terminal_size().columns))
