"""Game records: a whole game as JSON (setup, players, every decision in notation, result).

The format is documented in docs/game-record.md. A record starts either from a setup
(``{"seed": S, "variant": V}``, the position ``new_game(S, V)``; ``"players": 1`` for the
solo game) or from a position written out in full (``{"position": {...}}``, the position
format), so games from a hand-entered position can be recorded too. A record names one
player per seat: two, or one in the solo game, whose result is a score (no winner). Reading
a record replays it: every move must be legal where it stands, and the stored result must
match the replay. A record may also keep the lines tried
beside the game (``variations``, as an analysis board keeps them) and the review of its moves
(``review``, what :mod:`arle_ai.play.analysis` found); both are checked against the replay.
A record holds at most :data:`MAX_VARIATIONS` variations and :data:`MAX_DECISIONS` decisions
in all (its moves and every variation's): a larger one is refused before any move is
replayed, so that reading a hostile file costs milliseconds, not minutes and gigabytes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arle_ai import engine
from arle_ai.base import files
from arle_ai.base.errors import IllegalActionError, PositionError
from arle_ai.base.files import read_text
from arle_ai.base.jsontext import BOM, parse_json
from arle_ai.base.jsontext import shown as _short

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordError", "Variation", "REVIEW_FIELDS",
           "MAX_DECISIONS", "MAX_VARIATIONS", "MAX_REVIEW_VP", "load_record",
           "record_from_dict", "record_game", "result_of", "default_names"]

FORMAT = "arle-game-record"
VERSION = 1
# The size of a record (docs/game-record.md): far above a game and its analysis (a game is
# about 150-400 decisions; a tab's game tree of 25 whole games played again from the start
# holds about 5,000), and small enough that reading one takes a second and its tree in a
# game in progress (about 4 KB a position) some 20 MB.
MAX_VARIATIONS = 2000
MAX_DECISIONS = 5000  # the moves of the game and of all its variations
# A VP figure of a review (a mean final margin, VP lost, a category's lead): within this of
# 0. No game comes near (final scores are about -20 to 200 VP); beyond it a figure is damage
# (1e308 printed an accuracy of -inf% and broke the browser's JSON).
MAX_REVIEW_VP = 1000.0


class RecordError(PositionError):
    """A game record that is malformed, or whose moves or result do not replay."""


@dataclass
class Variation:
    """A line tried beside the game: the first ``ply`` decisions of the line it branches from
    (the game's moves when ``parent`` is None, else the variation of that index, an earlier
    one), then ``actions``."""

    parent: int | None
    ply: int
    actions: list[int]


# The fields of a reviewed decision in a record's ``review`` (arle_ai.play.analysis writes
# them): name -> (type, required). Other keys are kept as they are (a newer writer's).
REVIEW_FIELDS: dict[str, tuple[str, bool]] = {
    "ply": ("int", True), "player": ("int", True), "half_year": ("int", True),
    "pending": ("str", True), "played": ("str", True), "best": ("str", True),
    "played_value": ("number", True), "best_value": ("number", True),
    "value_lost": ("number", True), "played_margin": ("number", True),
    "best_margin": ("number", True), "vp_lost": ("number", True),
    "best_visits": ("int", False), "played_visits": ("int", False),
    "near_best": ("moves", False), "best_pv": ("moves", False),
    "simulations": ("int", False), "top": ("str", False),
    "played_pv": ("moves", False), "why": ("why", False),
    "unseparated": ("count", False),
}


@dataclass
class GameRecord:
    """A game: where it started, who played, and every decision (ids and notation)."""

    start: engine.GameState
    players: list[str]
    actions: list[int] = field(default_factory=list)
    setup: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    variations: list[Variation] = field(default_factory=list)
    # the review of the moves (docs/game-record.md): {"decisions": [...], ...}; checked
    # against the moves when read, written as it is
    review: dict[str, Any] | None = None
    # (the actions it was computed for, the position after them): spares replays in push
    _cache: tuple[list[int], engine.GameState] | None = field(
        default=None, init=False, repr=False, compare=False)

    @classmethod
    def new(cls, seed: int = 0, variant: str = "standard",
            players: Sequence[str] = ("player 0", "player 1"),
            meta: dict[str, Any] | None = None) -> GameRecord:
        """An empty record of a game from the setup ``(seed, variant)`` for the ``players``
        named: two, or one for the solo game (``GameRecord.new(3, players=["me"])``)."""
        count = _count_of(players)
        setup: dict[str, Any] = {"seed": seed, "variant": variant}
        if count == 1:
            setup["players"] = 1
        return cls(start=engine.new_game(seed=seed, variant=variant, players=count),
                   players=list(players), setup=setup, meta=dict(meta or {}))

    @classmethod
    def from_position(cls, state: engine.GameState, players: Sequence[str] | None = None,
                      meta: dict[str, Any] | None = None) -> GameRecord:
        """An empty record of a game from any position (stored in full); ``players`` names
        its seats (default "player 0", "player 1" or, solo, "player 0")."""
        names = default_names(state.players) if players is None else list(players)
        if _count_of(names) != state.players:
            raise ValueError(f"players: {len(names)} names for a game of {state.players} "
                             f"player{'s' if state.players > 1 else ''}")
        return cls(start=state.copy(), players=names, meta=dict(meta or {}))

    def states(self) -> Iterator[engine.GameState]:
        """Every position of the game: the start, then after each decision (fresh copies)."""
        s = self.start.copy()
        yield s.copy()
        for a in self.actions:
            s.apply(a)
            yield s.copy()

    def state_at(self, ply: int) -> engine.GameState:
        """The position after the first ``ply`` decisions."""
        if not 0 <= ply <= len(self.actions):
            raise IndexError(f"ply {ply} is outside 0..{len(self.actions)}")
        s = self.start.copy()
        for a in self.actions[:ply]:
            s.apply(a)
        return s

    def final_state(self) -> engine.GameState:
        """The position after every decision so far (a fresh copy)."""
        if self._cache is None or self._cache[0] != self.actions:  # changed since: replay
            self._cache = (list(self.actions), self.state_at(len(self.actions)))
        return self._cache[1].copy()

    def push(self, move: int | str) -> int:
        """Play ``move`` (an action id or notation) where the game stands and record it;
        returns its id. IllegalActionError (record unchanged) when it is not legal there."""
        state = self.final_state()
        action = state.parse_action(move)
        state.apply(action)
        self.actions.append(action)
        self._cache = (list(self.actions), state)
        return action

    def pop(self) -> int:
        """Take back the last decision and return its id (IndexError when there is none)."""
        if not self.actions:
            raise IndexError("pop from a record with no decisions")
        return self.actions.pop()

    def cut(self, ply: int) -> None:
        """Keep the first ``ply`` decisions only (IndexError beyond them). A variation that
        branches after them goes too, with the variations branching from it: it follows
        moves no longer played. The others keep their places (their indexes renumbered)."""
        if not 0 <= ply <= len(self.actions):
            raise IndexError(f"ply {ply} is outside 0..{len(self.actions)}")
        kept: dict[int, int] = {}  # a kept variation's index -> its new index
        variations: list[Variation] = []
        for i, v in enumerate(self.variations):
            if v.parent is None and v.ply <= ply or v.parent in kept:
                kept[i] = len(variations)
                parent = None if v.parent is None else kept[v.parent]
                variations.append(Variation(parent, v.ply, list(v.actions)))
        del self.actions[ply:]
        self.variations = variations

    def moves(self) -> list[str]:
        """Every decision in notation, each written in the position where it was taken."""
        out = []
        s = self.start.copy()
        for a in self.actions:
            out.append(s.action_to_string(a))
            s.apply(a)
        return out

    def line(self, variation: int | None) -> list[int]:
        """The decisions of a line: the game's moves (None) or those of a variation (its
        parents followed back to the game: as many as there are variations, no recursion)."""
        chain: list[Variation] = []
        while variation is not None:
            v = self.variations[variation]
            if v.parent is not None and not 0 <= v.parent < variation:
                raise ValueError(f"variation {variation}'s parent {v.parent} is not an earlier "
                                 f"variation")
            chain.append(v)
            variation = v.parent
        out = list(self.actions)
        for v in reversed(chain):
            del out[v.ply:]
            out.extend(v.actions)
        return out

    def lines(self) -> list[list[int]]:
        """The decisions of every variation's line, in order (each made from its parent's:
        one pass, where calling :meth:`line` for each would follow every chain again)."""
        out: list[list[int]] = []
        for i, v in enumerate(self.variations):
            if v.parent is not None and not 0 <= v.parent < i:
                raise ValueError(f"variation {i}'s parent {v.parent} is not an earlier "
                                 f"variation")
            parent = self.actions if v.parent is None else out[v.parent]
            out.append(parent[:v.ply] + v.actions)
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready record (docs/game-record.md)."""
        final = self.final_state()
        d: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.setup is not None:
            d["setup"] = dict(self.setup)
        else:
            d["position"] = self.start.to_dict()
        d["players"] = list(self.players)
        d["moves"] = self.moves()
        if final.is_terminal():
            d["result"] = result_of(final)
        else:
            d["result"] = None
        if self.variations:
            lines = self.lines()
            d["variations"] = [{"parent": v.parent, "ply": v.ply,
                                "moves": _notation(self.start, line[:v.ply], v.actions)}
                               for v, line in zip(self.variations, lines, strict=True)]
        if self.review is not None:
            d["review"] = _review_of(self.review, d["moves"])
        if self.meta:
            d["meta"] = dict(self.meta)
        return d

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path`` atomically: a crash or a full disk leaves the old file
        or the whole new one (:func:`arle_ai.base.files.atomic_writer`)."""
        files.write_text(path, self.to_json() + "\n")


def default_names(count: int) -> list[str]:
    """The names of the seats of a game of ``count`` players when none are given."""
    return [f"player {i}" for i in range(count)]


def _count_of(players: Sequence[str]) -> int:
    if isinstance(players, str) or len(players) not in engine.PLAYER_COUNTS:
        raise ValueError(f"players: name each seat: two names, or one for the solo game, not "
                         f"{_short(players)}")
    return len(players)


def result_of(final: engine.GameState) -> dict[str, Any]:
    """A finished game's ``result``: ``scores`` and ``breakdowns`` per player, and (two
    players) the ``winner``; a solo game has no winner."""
    players = range(final.players)
    result: dict[str, Any] = {"scores": final.scores()}
    if final.players == 2:
        result["winner"] = final.winner()
    result["breakdowns"] = [final.score_breakdown(p) for p in players]
    return result


def _review_of(review: dict[str, Any], moves: list[str]) -> dict[str, Any]:
    """``review`` with only the decisions still played in ``moves`` (the record's moves may
    have changed since it was read: push, pop)."""
    decisions = review.get("decisions", [])
    kept = [d for d in decisions if isinstance(d, dict) and isinstance(d.get("ply"), int)
            and 0 < d["ply"] <= len(moves) and d.get("played") == moves[d["ply"] - 1]]
    return {**review, "decisions": kept}


def _notation(start: engine.GameState, before: Sequence[int], actions: Sequence[int]) -> list[str]:
    """``actions`` in notation, each written where it is played after ``before`` from ``start``."""
    s = start.copy()
    for a in before:
        s.apply(a)
    out = []
    for a in actions:
        out.append(s.action_to_string(a))
        s.apply(a)
    return out


def record_game(start: engine.GameState, actions: Sequence[int], players: Sequence[str],
                setup: dict[str, Any] | None = None,
                meta: dict[str, Any] | None = None) -> GameRecord:
    """A record of ``actions`` played from ``start`` (checked: each must be legal)."""
    rec = GameRecord(start=start.copy(), players=list(players), setup=setup, meta=dict(meta or {}))
    s = start.copy()
    for i, a in enumerate(actions):
        try:
            s.apply(a)
        except IllegalActionError as exc:
            raise RecordError(f"move {i + 1}: {exc}") from None
        rec.actions.append(a)
    return rec


def _start_from(d: dict[str, Any]) -> tuple[engine.GameState, dict[str, Any] | None]:
    if "setup" in d and "position" in d:
        raise RecordError("give either 'setup' or 'position', not both")
    if "setup" in d:
        setup = d["setup"]
        if not isinstance(setup, dict):
            raise RecordError("'setup' must be an object with 'seed' and 'variant'")
        seed = setup.get("seed", 0)
        variant = setup.get("variant", "standard")
        count = setup.get("players", 2)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= engine.MAX_SEED:
            raise RecordError(f"setup.seed must be an integer in 0..{engine.MAX_SEED}, not "
                              f"{_short(seed)}")
        if isinstance(count, bool) or count not in engine.PLAYER_COUNTS:
            raise RecordError(f"setup.players must be 1 (the solo game) or 2, not "
                              f"{_short(count)}")
        kept = {"seed": seed, "variant": variant}
        if count == 1:
            kept["players"] = 1
        try:
            return engine.new_game(seed=seed, variant=variant, players=count), kept
        except ValueError as exc:  # the seed and count are checked above: the variant
            raise RecordError(f"setup.variant: {exc}") from None
    if "position" in d:
        try:
            return engine.GameState.from_dict(d["position"]), None
        except (PositionError, ValueError, TypeError) as exc:
            raise RecordError(f"position: {exc}") from None
    raise RecordError("a record needs 'setup' (seed, variant) or 'position'")


def record_from_dict(d: Any) -> GameRecord:
    """Read and replay a record dict; raises RecordError naming the first problem."""
    if not isinstance(d, dict):
        raise RecordError("a game record must be a JSON object")
    if d.get("format", FORMAT) != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {d.get('format')!r}")
    if d.get("version", VERSION) != VERSION:
        raise RecordError(f"version {d.get('version')!r} is not supported (only {VERSION})")
    _check_size(d)
    start, setup = _start_from(d)
    players = d.get("players", default_names(start.players))
    if (not isinstance(players, list) or len(players) != start.players
            or not all(isinstance(p, str) for p in players)):
        raise RecordError("'players' must be a list of two names" if start.players == 2 else
                          "'players' must be a list of one name (a solo game)")
    moves = d.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list of moves in notation")
    meta = d.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("'meta' must be an object")
    rec = GameRecord(start=start, players=players, setup=setup, meta=meta)
    rec.actions, s = _replay(start, [], moves, "move")
    result = d.get("result")
    if result is not None:
        _check_result(result, s)
    lines: list[list[int]] = []  # each variation's line, made from its parent's
    for i, v in enumerate(_list(d.get("variations", []), "variations")):
        variation = _variation(rec, lines, v, f"variations[{i}]")
        rec.variations.append(variation)
        parent = rec.actions if variation.parent is None else lines[variation.parent]
        lines.append(parent[:variation.ply] + variation.actions)
    if d.get("review") is not None:
        rec.review = _review(rec, d["review"])
    return rec


def _check_size(d: dict[str, Any]) -> None:
    """Refuse a record beyond :data:`MAX_VARIATIONS` or :data:`MAX_DECISIONS` before
    anything is replayed (counting costs microseconds; replaying a hostile file took minutes
    and gigabytes)."""
    variations = d.get("variations")
    if not isinstance(variations, list):
        variations = []
    if len(variations) > MAX_VARIATIONS:
        raise RecordError(f"the record holds {len(variations):,} variations, more than the "
                          f"{MAX_VARIATIONS:,} a record may keep")
    moves = d.get("moves")
    count = len(moves) if isinstance(moves, list) else 0
    for v in variations:
        if isinstance(v, dict) and isinstance(v.get("moves"), list):
            count += len(v["moves"])
    if count > MAX_DECISIONS:
        raise RecordError(f"the record holds {count:,} decisions (its moves and its "
                          f"variations'), more than the {MAX_DECISIONS:,} a record may keep")


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"'{name}' must be a list")
    return value


def _replay(start: engine.GameState, before: Sequence[int], moves: Sequence[Any], what: str
            ) -> tuple[list[int], engine.GameState]:
    """The ids of ``moves`` (notation) played after ``before`` from ``start``, and the position
    after them; RecordError naming ``what`` and the move's number when one does not replay."""
    s = start.copy()
    for a in before:
        s.apply(a)
    actions = []
    for i, text in enumerate(moves):
        label = f"{what} {i + 1} ({_short(text)})"
        if s.is_terminal():
            raise RecordError(f"{label}: the game is already over")
        if not isinstance(text, str):
            raise RecordError(f"{label}: a move must be text in notation")
        try:
            a = s.parse_action(text)
            s.apply(a)
        except (IllegalActionError, ValueError, TypeError) as exc:
            raise RecordError(f"{label}: {exc}") from None
        actions.append(a)
    return actions, s


def _variation(rec: GameRecord, lines: list[list[int]], v: Any, name: str) -> Variation:
    """A variation of ``rec`` read from ``v``: its parent an earlier variation (or null, the
    game), its ply within the parent's line, and moves that replay from there. ``lines``:
    the lines of the variations read so far."""
    if not isinstance(v, dict):
        raise RecordError(f"{name} must be an object with 'parent', 'ply' and 'moves'")
    parent = v.get("parent")
    if parent is not None and (not isinstance(parent, int) or isinstance(parent, bool)
                               or not 0 <= parent < len(rec.variations)):
        raise RecordError(f"{name}.parent must be null (the game's moves) or the index of an "
                          f"earlier variation (0..{len(rec.variations) - 1}), not "
                          f"{_short(parent)}")
    line = rec.actions if parent is None else lines[parent]
    ply = v.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= len(line):
        raise RecordError(f"{name}.ply must be the number of decisions of its parent line it "
                          f"follows, 0..{len(line)}, not {_short(ply)}")
    moves = _list(v.get("moves"), f"{name}.moves")
    if not moves:
        raise RecordError(f"{name}.moves must hold at least one move")
    actions, _ = _replay(rec.start, line[:ply], moves, f"{name} move")
    return Variation(parent=parent, ply=ply, actions=actions)


def _review(rec: GameRecord, review: Any) -> dict[str, Any]:
    """The ``review`` object checked against the record's moves: each decision's fields have
    their types (REVIEW_FIELDS), its ply is a move of the record (in increasing order), the
    move it names as played is that move, and its best moves are legal there."""
    if not isinstance(review, dict):
        raise RecordError("'review' must be an object with 'decisions'")
    decisions = _list(review.get("decisions"), "review.decisions")
    for key in ("iterations", "time_limit"):
        value = review.get(key)
        if value is not None and not _is_number(value):
            raise RecordError(f"review.{key} must be a number or null, not {_short(value)}")
    moves = rec.moves()
    states = list(rec.states())
    last = 0
    for i, d in enumerate(decisions):
        name = f"review.decisions[{i}]"
        if not isinstance(d, dict):
            raise RecordError(f"{name} must be an object")
        for key, (kind, required) in REVIEW_FIELDS.items():
            if key not in d:
                if required:
                    raise RecordError(f"{name}.{key} is missing")
                continue
            if not _of_type(d[key], kind):
                raise RecordError(f"{name}.{key} must be {_TYPE_WORDS[kind]}, not "
                                  f"{_short(d[key])}")
        ply = d["ply"]
        if not last < ply <= len(moves):
            raise RecordError(f"{name}.ply must be a move of the record after the decision "
                              f"before ({last + 1}..{len(moves)}), not {ply}")
        last = ply
        if d["played"] != moves[ply - 1]:
            raise RecordError(f"{name}.played {d['played']!r} is not move {ply} of the record "
                              f"({moves[ply - 1]!r})")
        state = states[ply - 1]
        if d["player"] != state.current_player:
            seats = "a solo game has one, player 0" if state.players == 1 else "players 0, 1"
            raise RecordError(f"{name}.player {d['player']} is not the player who made move "
                              f"{ply} (player {state.current_player}; {seats})")
        _check_figures(d, name)
        for key in ("best", "top"):
            if d.get(key):
                _legal(state, d[key], f"{name}.{key}")
        for j, text in enumerate(d.get("near_best", [])):
            _legal(state, text, f"{name}.near_best[{j}]")
    return review


# The bounds of a reviewed decision's figures: values are a player's mean result (0 a sure
# loss, 1 a sure win) and a loss of one never beyond 1; VP figures within MAX_REVIEW_VP.
REVIEW_BOUNDS: dict[str, tuple[float, float]] = {
    "played_value": (0.0, 1.0), "best_value": (0.0, 1.0), "value_lost": (0.0, 1.0),
    "played_margin": (-MAX_REVIEW_VP, MAX_REVIEW_VP),
    "best_margin": (-MAX_REVIEW_VP, MAX_REVIEW_VP), "vp_lost": (0.0, MAX_REVIEW_VP),
}


def _check_figures(d: dict[str, Any], name: str) -> None:
    """A reviewed decision's values and VP within REVIEW_BOUNDS (its why's VP too)."""
    for key, (lo, hi) in REVIEW_BOUNDS.items():
        if not lo <= d[key] <= hi:
            what = "a value" if hi == 1.0 else "VP"
            raise RecordError(f"{name}.{key} must be {what} in {lo:g}..{hi:g}, not "
                              f"{_short(d[key])}")
    why = d.get("why")
    if isinstance(why, dict):
        for category, vp in why["by_category"].items():
            if not -MAX_REVIEW_VP <= vp <= MAX_REVIEW_VP:
                raise RecordError(f"{name}.why.by_category.{category} must be VP in "
                                  f"{-MAX_REVIEW_VP:g}..{MAX_REVIEW_VP:g}, not {_short(vp)}")


_TYPE_WORDS = {"int": "an integer", "count": "a whole number, 0 or more", "number": "a number",
               "str": "text",
               "moves": "a list of moves in notation",
               "why": "null or an object whose by_category gives VP by scoring category"}


def _of_type(value: Any, kind: str) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "count":
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind == "number":
        return _is_number(value)
    if kind == "str":
        return isinstance(value, str)
    if kind == "why":  # arle_ai.play.why.Why.to_dict(); null: a move without a mark
        parts = value.get("by_category") if isinstance(value, dict) else None
        return value is None or (isinstance(parts, dict) and all(
            k in engine.SCORE_CATEGORIES and _is_number(v) for k, v in parts.items()))
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _legal(state: engine.GameState, text: str, name: str) -> None:
    try:
        state.parse_action(text)
    except (IllegalActionError, ValueError) as exc:
        raise RecordError(f"{name} {_short(text)} is not a legal move there: "
                          f"{getattr(exc, 'reason', exc)}") from None


def _check_result(result: Any, final: engine.GameState) -> None:
    if not isinstance(result, dict):
        raise RecordError("'result' must be an object or null")
    if not final.is_terminal():
        raise RecordError("'result' is given but the moves do not finish the game")
    scores = result.get("scores")
    solo = final.players == 1
    if scores is not None:
        got = final.scores()
        if (not isinstance(scores, list) or len(scores) != final.players
                or not all(_is_number(x) for x in scores)):
            want = "one number (a solo game)" if solo else "two numbers"
            raise RecordError(f"result.scores: expected a list of {want}, got "
                              f"{_short(scores)}")
        if any(abs(a - b) > 1e-6 for a, b in zip(scores, got, strict=True)):
            raise RecordError(f"result.scores {scores!r} do not match the replay {got!r}")
    winner = result.get("winner")
    if solo and winner is not None:
        raise RecordError(f"result.winner {_short(winner)}: a solo game has no winner (its "
                          "result is the score)")
    if winner is not None and winner != final.winner():
        raise RecordError(f"result.winner {_short(winner)} does not match the replay "
                          f"({final.winner()})")


def _is_number(x: Any) -> bool:
    """A finite JSON number (not a bool, not a float overflowing to inf)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return False
    try:
        return math.isfinite(x)
    except OverflowError:  # an integer too large for a float
        return False


def load_record(source: str | Path | dict[str, Any]) -> GameRecord:
    """Load a game record from a dict, a JSON text, or a path to a JSON file, and replay it.

    Raises RecordError (a PositionError, so a ValueError) naming the problem: malformed JSON,
    a missing field, a move that is not legal where it stands, a result that does not match.
    """
    if isinstance(source, dict):
        return record_from_dict(source)
    is_text = isinstance(source, str) and source.lstrip(BOM + " \t\r\n").startswith("{")
    if not is_text:
        text = read_text(Path(source), RecordError, "game record")
    else:
        text = str(source)
    return record_from_dict(parse_json(text, RecordError))
