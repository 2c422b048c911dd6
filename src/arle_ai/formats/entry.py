"""A position entered from a person's words, question by question (``arle edit`` and the
browser's position editor).

The questions ask for the half-year, the start player, the workers on the action spaces and
the workers placed, then for each player the home board (tiles, dikes, hydrated moors, the
peat on the dehydrated ones, buildings), animals, goods, tools, barn (vehicles, peat boats,
plows), what is loaded on the vehicles, the travel track and the supply bottlenecks, and last
the buildings still on the game board, accepting printed names or keys (``timber 2 summer
wear 1``, ``Farmer's House, Mill``, ``P0 Fisherman; P1 Grocer (winter)``). The order is such
that each answer's checks need only the answers before it (the land before the buildings on
it, the stalls before the animals in them). Every answer is checked at once against the rules
of a position (:func:`arle_ai.formats.position.check_position` and the core's checks) and
refused, in the game's words (``P1 has 6 tiles and the boardwalk for 6 land spaces; move a
dike or remove a tile``), when it does not fit; a refused answer leaves the position as it
was. The vehicle compartments the loads take are worked out
(:func:`arle_ai.text.loads.place_loads`).

It lives in the formats layer, above the text layer it reads names with, because it builds
positions and checks them as a position file is checked (and words those checks' messages).

Two ways to use it: :class:`Entry`, the dialogue (one question at a time, Enter keeps,
``back`` returns; ``arle edit`` prompts and prints over it), and :func:`enter`, every answer
at once by question key (the browser's editor, through ``POST /api/position/entry``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from arle_ai.base.errors import PositionError
from arle_ai.engine import _core, rules
from arle_ai.text import names
from arle_ai.text.display import land_spaces, land_tiles
from arle_ai.text.loads import place_loads

__all__ = ["Refused", "Question", "questions", "prepared", "answer", "Entry", "Reply",
           "enter", "Entered", "BACK", "MAX_ANSWER"]

PLAYER = re.compile(r"\s*(?:p|player)?\s*([01])\s*:?\s*(.*)$", re.IGNORECASE | re.DOTALL)
COUNTED = re.compile(r"\s*(?:(\d+)\s+)?(.*?)(?:\s+(\d+))?\s*$", re.DOTALL)
PAIR = re.compile(r"\s*([A-Za-z][A-Za-z' _]*?)\s*[:=]?\s*(-?\d+)\s*,?")
FIELD = re.compile(r"^([A-Za-z_][\w\[\].]*):")  # the field a position check names
BACK = "back"  # the answer that returns to the previous question
MAX_ANSWER = 2000  # characters of one answer (a whole board's buildings fit in 400)


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


def _set_counts(target: dict[str, Any], text: str, find: Callable[[str], str],
                example: str) -> None:
    for name, n in _pairs(text, example):
        try:
            target[find(name)] = n
        except KeyError as exc:
            raise Refused(str(exc)) from None


def _names(text: str, kind: str) -> list[str]:
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


def _number(text: str) -> int:
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


def _set_buildings(d: dict[str, Any], i: int, keys: list[str]) -> list[str]:
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
                    raise Refused(f"{names.building(key)} is on the game board already")
                board.append(key)
            else:
                if key not in board:
                    raise Refused(f"{names.building(key)} is not on the game board now")
                board.remove(key)
    else:
        board = _names(text, "building")
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
        elif len(barn["vehicles"]) + n > rules.MAX_VEHICLES:  # before a list of n is made
            raise Refused(f"a barn holds at most {rules.MAX_VEHICLES} vehicles, not "
                          f"{len(barn['vehicles']) + n}")
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
                    raise Refused(f"{name!r} cannot be loaded; goods that can: "
                                  f"{', '.join(rules.LOAD_GOODS)}")
                loaded[key] = n
        else:
            loaded["destinations"].append(_names(part, "destination")[0])
    player["loaded"] = loaded
    _place(player)


def _set_moors(home: dict[str, Any], text: str, who: str = "the player") -> None:
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


def _land_check(d: dict[str, Any], i: int, asked: str) -> None:
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


def _counts(values: dict[str, int], printed: Callable[[str], str]) -> str:
    shown = [f"{printed(k)} {v}" for k, v in values.items() if v]
    return ", ".join(shown) or "none"


def _home_counts(home: dict[str, Any]) -> str:
    return _counts({f.field: home[f.field] for f in names.HOME_FIELDS},
                   lambda k: k.replace("_", " "))


def barn_text(barn: dict[str, Any]) -> str:
    """A barn in words: ``Handcart, Cart, 2 peat boats``."""
    shown = [names.vehicle(v["kind"]) for v in barn["vehicles"]]
    shown += [names.count(barn[k], k.removesuffix("s")).replace("_", " ")
              for k in ("peat_boats", "plows") if barn[k]]
    return ", ".join(shown) or "none"


def loaded_text(loaded: dict[str, Any]) -> str:
    """What lies on the vehicles in words: ``wood 1, Hage``."""
    goods = _counts({k: v for k, v in loaded.items() if k != "destinations"}, names.thing)
    dests = [names.destination(k) for k in loaded["destinations"]]
    return ", ".join(x for x in [goods if goods != "none" else "", *dests] if x) or "none"


def _occupied(d: dict[str, Any]) -> str:
    if len(d["players"]) == 1:
        return ", ".join(names.space(k, qualified=True) for k in d["occupied"]) or "none"
    parts = [f"P{who} " + ", ".join(names.space(k, qualified=True)
                                     for k, w in d["occupied"].items() if w == who)
             for who in (0, 1) if who in d["occupied"].values()]
    return "; ".join(parts) or "none"


# ---- the questions ----


@dataclass(frozen=True)
class Question:
    """One question: its key (``half_year``, ``p0.goods``, ``board``), its text, what is
    there now in a position, and how an answer changes a copy of the position (raising
    Refused when it cannot; it may return notes to show once the answer is accepted)."""

    key: str
    text: str
    shown: Callable[[dict[str, Any]], str]
    change: Callable[[dict[str, Any], str], list[str] | None]


def _player_questions(i: int, solo: bool = False) -> list[Question]:
    """Player ``i``'s questions, in an order where each answer's checks need only the answers
    before it: the land (tiles, moors, buildings) before the animals housed on it; the solo
    player's are asked as "your"."""
    who = "your" if solo else f"P{i}"

    def p(x: dict[str, Any]) -> dict[str, Any]:
        player: dict[str, Any] = x["players"][i]
        return player

    def tiles(t: dict[str, Any], s: str) -> None:
        _set_counts(p(t)["home"], s, names.home_field, "stalls 2")
        _land_check(t, i, "tiles")

    def moors(t: dict[str, Any], s: str) -> None:
        _set_moors(p(t)["home"], s, who)
        _land_check(t, i, "moors")

    def buildings(t: dict[str, Any], s: str) -> list[str]:
        notes = _set_buildings(t, i, _names(s, "building"))
        _land_check(t, i, "buildings")
        return notes

    def counts(part: str, kind: str, example: str) -> Callable[[dict[str, Any], str], None]:
        return lambda t, s: _set_counts(p(t)[part], s, lambda n: names.find(n, kind), example)

    def setter(part: str, read: Callable[[str], Any]) -> Callable[[dict[str, Any], str], None]:
        return lambda t, s: p(t).__setitem__(part, read(s))

    k = f"p{i}."
    return [
        Question(k + "tiles", f"{who} home board: tiles, dikes, hydrated moors, peat on the "
                 f"boardwalk (e.g. 'stalls 2 forests 1 dikes 3 moors 2 boardwalk 4')",
                 lambda d: _home_counts(p(d)["home"]), tiles),
        Question(k + "moors", f"{who} dehydrated moors: the peat on each (e.g. '4 2'; '-' for "
                 f"none)", lambda d: " ".join(map(str, p(d)["home"]["dehydrated_moors"]))
                 or "none", moors),
        Question(k + "buildings", f"{who} buildings (names separated by commas, '-' for none)",
                 lambda d: ", ".join(names.building(b) for b in p(d)["home"]["buildings"])
                 or "none", buildings),
        Question(k + "animals", f"{who} animals (sheep, cattle, horse)",
                 lambda d: _counts(p(d)["animals"], names.thing),
                 counts("animals", "animal", "sheep 2")),
        Question(k + "goods", f"{who} goods (e.g. 'food 7 timber 2 summer wear 1')",
                 lambda d: _counts(p(d)["goods"], names.thing),
                 counts("goods", "good", "timber 2")),
        Question(k + "tools", f"{who} tools, the number on the track (e.g. 'fish traps 3 ovens "
                 f"2')", lambda d: _counts(p(d)["tools"], names.tool),
                 counts("tools", "tool", "ovens 2")),
        Question(k + "barn", f"{who} barn: vehicles, peat boats, plows (e.g. 'handcart, horse "
                 f"cart, peat boats 2'; '-' for none)",
                 lambda d: barn_text(p(d)["barn"]), lambda t, s: _set_barn(p(t), s)),
        Question(k + "loaded", f"{who} loaded on the vehicles until the inventorying (e.g. "
                 f"'wood 1 linen 1, Hage'; '-' for nothing)",
                 lambda d: loaded_text(p(d)["loaded"]), lambda t, s: _set_loaded(p(t), s)),
        Question(k + "travel", f"{who} travel track: destinations delivered (names separated "
                 f"by commas, '-' for none)",
                 lambda d: ", ".join(names.destination(k) for k in p(d)["travel"]) or "none",
                 setter("travel", lambda s: _names(s, "destination"))),
        Question(k + "bottlenecks", f"{who} supply bottlenecks suffered so far (-2 VP each)",
                 lambda d: str(p(d)["bottlenecks"]), setter("bottlenecks", _number)),
    ]


def _game_setter(key: str) -> Callable[[dict[str, Any], str], None]:
    return lambda t, s: t.__setitem__(key, _number(s))


def questions(players: int = 2) -> list[Question]:
    """Every question, in order: the game board's half-year, start player and workers, each
    player's board, and last the buildings still on the game board (which needs every
    player's buildings). The solo game (``players`` 1) has no start player to ask and one
    board."""
    solo = players == 1
    half_year = Question("half_year", f"half-year (1-{rules.HALF_YEARS}; odd = summer)",
                         lambda d: str(d["half_year"]), _game_setter("half_year"))
    workers = rules.SOLO_WORKERS if solo else 2 * rules.WORKERS_PER_PLAYER
    placed = Question("workers_placed", f"workers placed or passed so far this half-year "
                      f"(0-{workers})", lambda d: str(d.get("workers_placed", 0)),
                      _game_setter("workers_placed"))
    board = Question("board", "buildings on the game board, not yet built (names separated "
                     "by commas, or changes: '+Mill, -Joinery')",
                     lambda d: ", ".join(names.building(b) for b in d["buildings_on_board"])
                     or "none", lambda t, s: _set_board(t, s))
    if solo:
        return [half_year,
                Question("occupied", "spaces holding your workers (e.g. 'Fisherman, "
                         "Colonist'; '-' for none)", _occupied, _set_occupied),
                placed, *_player_questions(0, solo=True), board]
    return [half_year,
            Question("start_player", "start player (0 or 1)", lambda d: str(d["start_player"]),
                     _game_setter("start_player")),
            Question("occupied", "workers on the action spaces (e.g. 'P0 Fisherman, Colonist; "
                     "P1 Forester'; '-' for none)", _occupied, _set_occupied),
            placed, *_player_questions(0), *_player_questions(1), board]


# ---- answering ----


def _plain(message: str) -> str:
    """A position check's message in the dialogue's words: ``players[1].home.stalls: ...``
    -> ``P1 stalls: ...``."""
    message = re.sub(r"players\[([01])\](?:\.(?:home|goods|animals|tools|barn))?\.?",
                     r"P\1 ", message)
    return re.sub(r"(P[01] )(\w+)", lambda m: m.group(1) + m.group(2).replace("_", " "),
                  message).replace(" :", ":")


def prepared(position: object) -> dict[str, Any]:
    """A copy of a position (a dict, printed names accepted) to enter answers into: checked,
    without its pending decisions (an entered position starts at the turn of the player
    whose worker is next). Raises PositionError (or ValueError) as a position file does."""
    d: dict[str, Any] = _core.GameState.from_dict(names.keys_for_names(position)).to_dict()
    d.pop("pending", None)
    d.pop("season", None)
    return d


def answer(position: dict[str, Any], question: Question, text: str
           ) -> tuple[dict[str, Any], list[str]]:
    """The position after ``text`` answers ``question`` (``position`` itself is not changed)
    and the notes to show; Refused says why the answer does not read or gives no valid
    position."""
    if len(text) > MAX_ANSWER:
        raise Refused(f"an answer is at most {MAX_ANSWER} characters, not {len(text)}")
    trial = copy.deepcopy(position)
    try:
        notes = question.change(trial, text) or []
        _core.GameState.from_dict(trial)
    except Refused:
        raise
    except (PositionError, ValueError) as exc:
        m = FIELD.match(str(exc))
        named = re.sub(r"\[(\d+)\]", r".\1", m.group(1)) if m else None
        raise Refused(_plain(str(exc)), named) from None
    return trial, notes


@dataclass(frozen=True)
class Reply:
    """What became of one answer in the dialogue: ``accepted`` (with ``notes``), ``kept``
    (Enter), ``refused`` (``message`` says why; asked again), ``back`` (to the previous
    question) or ``first`` (``back`` at the first question)."""

    outcome: Literal["accepted", "kept", "refused", "back", "first"]
    message: str = ""
    notes: list[str] = field(default_factory=list)


class Entry:
    """The dialogue: a position and the question asked now. :meth:`reply` takes one answer
    (Enter keeps what is there, ``back`` returns to the previous question with the answers
    kept) and moves on once it is accepted; :attr:`position` is always a valid position."""

    def __init__(self, position: object) -> None:
        self.position = prepared(position)
        self.questions = questions(len(self.position["players"]))
        self.index = 0

    @property
    def done(self) -> bool:
        return self.index >= len(self.questions)

    @property
    def question(self) -> Question:
        return self.questions[self.index]

    def shown(self) -> str:
        """What the position holds now for the question asked."""
        return self.question.shown(self.position)

    def reply(self, text: str) -> Reply:
        if not text.strip():
            self.index += 1
            return Reply("kept")
        if text.strip().lower() == BACK:
            if self.index == 0:
                return Reply("first")
            self.index -= 1
            return Reply("back")
        try:
            self.position, notes = answer(self.position, self.question, text)
        except Refused as exc:
            return Reply("refused", str(exc))
        self.index += 1
        return Reply("accepted", notes=notes)


@dataclass(frozen=True)
class Entered:
    """The result of :func:`enter`: the position with every accepted answer (always valid),
    the refused answers by question key (the Refused error, with its message and field) and
    the notes of the accepted ones."""

    position: dict[str, Any]
    refused: dict[str, Refused]
    notes: list[str]


def enter(position: object, answers: Mapping[str, str]) -> Entered:
    """Every answer at once, by question key (an empty answer keeps what is there): the
    answers are given in the questions' order, and again while that changes the position,
    so that an answer which needs a later one (a building moved from P1 to P0 needs P1's
    answer first) gets in, and every accepted answer holds in the result. KeyError names a
    key that is no question of the position."""
    d = prepared(position)
    every = questions(len(d["players"]))
    unknown = set(answers) - {q.key for q in every}
    if unknown:
        raise KeyError(f"no question is called {sorted(unknown)[0]!r}")
    asked = [q for q in every if answers.get(q.key, "").strip()]
    refused: dict[str, Refused] = {}
    notes: list[str] = []
    for _ in range(len(asked) + 1):  # each round that changes the position lets one more in
        before, refused, notes = d, {}, []
        for q in asked:
            try:
                d, said = answer(d, q, answers[q.key])
                notes += said
            except Refused as exc:
                refused[q.key] = exc
        if d == before:
            break
    return Entered(d, refused, notes)
