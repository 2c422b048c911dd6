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
was. How each answer sets its part of the position is
:mod:`arle_ai.formats.entry_fields`'s.

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

from arle_ai import engine
from arle_ai.base.errors import PositionError
from arle_ai.engine import rules
from arle_ai.formats.entry_fields import (
    Refused,
    barn_text,
    counts_text,
    home_text,
    keys_named,
    land_check,
    loaded_text,
    number,
    occupied_text,
    set_barn,
    set_board,
    set_buildings,
    set_counts,
    set_loaded,
    set_moors,
    set_occupied,
)
from arle_ai.text import names

__all__ = ["Refused", "Question", "questions", "prepared", "answer", "Entry", "Reply",
           "enter", "Entered", "BACK", "MAX_ANSWER"]

FIELD = re.compile(r"^([A-Za-z_][\w\[\].]*):")  # the field a position check names
BACK = "back"  # the answer that returns to the previous question
MAX_ANSWER = 2000  # characters of one answer (a whole board's buildings fit in 400)


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
        set_counts(p(t)["home"], s, names.home_field, "stalls 2")
        land_check(t, i, "tiles")

    def moors(t: dict[str, Any], s: str) -> None:
        set_moors(p(t)["home"], s, who)
        land_check(t, i, "moors")

    def buildings(t: dict[str, Any], s: str) -> list[str]:
        notes = set_buildings(t, i, keys_named(s, "building"))
        land_check(t, i, "buildings")
        return notes

    def counts(part: str, kind: str, example: str) -> Callable[[dict[str, Any], str], None]:
        return lambda t, s: set_counts(p(t)[part], s, lambda n: names.find(n, kind), example)

    def setter(part: str, read: Callable[[str], Any]) -> Callable[[dict[str, Any], str], None]:
        return lambda t, s: p(t).__setitem__(part, read(s))

    k = f"p{i}."
    return [
        Question(k + "tiles", f"{who} home board: tiles, dikes, hydrated moors, peat on the "
                 f"boardwalk (e.g. 'stalls 2 forests 1 dikes 3 moors 2 boardwalk 4')",
                 lambda d: home_text(p(d)["home"]), tiles),
        Question(k + "moors", f"{who} dehydrated moors: the peat on each (e.g. '4 2'; '-' for "
                 f"none)", lambda d: " ".join(map(str, p(d)["home"]["dehydrated_moors"]))
                 or "none", moors),
        Question(k + "buildings", f"{who} buildings (names separated by commas, '-' for none)",
                 lambda d: ", ".join(names.building(b) for b in p(d)["home"]["buildings"])
                 or "none", buildings),
        Question(k + "animals", f"{who} animals (sheep, cattle, horse)",
                 lambda d: counts_text(p(d)["animals"], names.thing),
                 counts("animals", "animal", "sheep 2")),
        Question(k + "goods", f"{who} goods (e.g. 'food 7 timber 2 summer wear 1')",
                 lambda d: counts_text(p(d)["goods"], names.thing),
                 counts("goods", "good", "timber 2")),
        Question(k + "tools", f"{who} tools, the number on the track (e.g. 'fish traps 3 ovens "
                 f"2')", lambda d: counts_text(p(d)["tools"], names.tool),
                 counts("tools", "tool", "ovens 2")),
        Question(k + "barn", f"{who} barn: vehicles, peat boats, plows (e.g. 'handcart, horse "
                 f"cart, peat boats 2'; '-' for none)",
                 lambda d: barn_text(p(d)["barn"]), lambda t, s: set_barn(p(t), s)),
        Question(k + "loaded", f"{who} loaded on the vehicles until the inventorying (e.g. "
                 f"'wood 1 linen 1, Hage'; '-' for nothing)",
                 lambda d: loaded_text(p(d)["loaded"]), lambda t, s: set_loaded(p(t), s)),
        Question(k + "travel", f"{who} travel track: destinations delivered (names separated "
                 f"by commas, '-' for none)",
                 lambda d: ", ".join(names.destination(k) for k in p(d)["travel"]) or "none",
                 setter("travel", lambda s: keys_named(s, "destination"))),
        Question(k + "bottlenecks", f"{who} supply bottlenecks suffered so far (-2 VP each)",
                 lambda d: str(p(d)["bottlenecks"]), setter("bottlenecks", number)),
    ]


def _game_setter(key: str) -> Callable[[dict[str, Any], str], None]:
    return lambda t, s: t.__setitem__(key, number(s))


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
                     or "none", lambda t, s: set_board(t, s))
    if solo:
        return [half_year,
                Question("occupied", "spaces holding your workers (e.g. 'Fisherman, "
                         "Colonist'; '-' for none)", occupied_text, set_occupied),
                placed, *_player_questions(0, solo=True), board]
    return [half_year,
            Question("start_player", "start player (0 or 1)", lambda d: str(d["start_player"]),
                     _game_setter("start_player")),
            Question("occupied", "workers on the action spaces (e.g. 'P0 Fisherman, Colonist; "
                     "P1 Forester'; '-' for none)", occupied_text, set_occupied),
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
    d: dict[str, Any] = engine.GameState.from_dict(names.keys_for_names(position)).to_dict()
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
        engine.GameState.from_dict(trial)
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
