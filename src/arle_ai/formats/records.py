"""Game records: a whole game as JSON (setup, players, every decision in notation, result).

The format is documented in docs/game-record.md. A record starts either from a setup
(``{"seed": S, "variant": V}``, the position ``new_game(S, V)``) or from a position written
out in full (``{"position": {...}}``, the position format), so games from a hand-entered
position can be recorded too. Reading a record replays it: every move must be legal where it
stands, and the stored result must match the replay.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arle_ai.base.errors import IllegalActionError, PositionError
from arle_ai.base.files import read_text
from arle_ai.base.jsontext import BOM, parse_json
from arle_ai.engine import _core

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordError", "load_record", "record_from_dict",
           "record_game"]

FORMAT = "arle-game-record"
VERSION = 1


class RecordError(PositionError):
    """A game record that is malformed, or whose moves or result do not replay."""


@dataclass
class GameRecord:
    """A game: where it started, who played, and every decision (ids and notation)."""

    start: _core.GameState
    players: list[str]
    actions: list[int] = field(default_factory=list)
    setup: dict[str, Any] | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    # (the actions it was computed for, the position after them): spares replays in push
    _cache: tuple[list[int], _core.GameState] | None = field(
        default=None, init=False, repr=False, compare=False)

    @classmethod
    def new(cls, seed: int = 0, variant: str = "standard",
            players: Sequence[str] = ("player 0", "player 1"),
            meta: dict[str, Any] | None = None) -> GameRecord:
        """An empty record of a game from the setup ``(seed, variant)``."""
        return cls(start=_core.new_game(seed=seed, variant=variant), players=list(players),
                   setup={"seed": seed, "variant": variant}, meta=dict(meta or {}))

    @classmethod
    def from_position(cls, state: _core.GameState,
                      players: Sequence[str] = ("player 0", "player 1"),
                      meta: dict[str, Any] | None = None) -> GameRecord:
        """An empty record of a game from any position (stored in full)."""
        return cls(start=state.copy(), players=list(players), meta=dict(meta or {}))

    def states(self) -> Iterator[_core.GameState]:
        """Every position of the game: the start, then after each decision (fresh copies)."""
        s = self.start.copy()
        yield s.copy()
        for a in self.actions:
            s.apply(a)
            yield s.copy()

    def state_at(self, ply: int) -> _core.GameState:
        """The position after the first ``ply`` decisions."""
        if not 0 <= ply <= len(self.actions):
            raise IndexError(f"ply {ply} is outside 0..{len(self.actions)}")
        s = self.start.copy()
        for a in self.actions[:ply]:
            s.apply(a)
        return s

    def final_state(self) -> _core.GameState:
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

    def moves(self) -> list[str]:
        """Every decision in notation, each written in the position where it was taken."""
        out = []
        s = self.start.copy()
        for a in self.actions:
            out.append(s.action_to_string(a))
            s.apply(a)
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
            d["result"] = {
                "scores": final.scores(),
                "winner": final.winner(),
                "breakdowns": [final.score_breakdown(0), final.score_breakdown(1)],
            }
        else:
            d["result"] = None
        if self.meta:
            d["meta"] = dict(self.meta)
        return d

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")


def record_game(start: _core.GameState, actions: Sequence[int], players: Sequence[str],
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


def _start_from(d: dict[str, Any]) -> tuple[_core.GameState, dict[str, Any] | None]:
    if "setup" in d and "position" in d:
        raise RecordError("give either 'setup' or 'position', not both")
    if "setup" in d:
        setup = d["setup"]
        if not isinstance(setup, dict):
            raise RecordError("'setup' must be an object with 'seed' and 'variant'")
        seed = setup.get("seed", 0)
        variant = setup.get("variant", "standard")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= _core.MAX_SEED:
            raise RecordError(f"setup.seed must be an integer in 0..{_core.MAX_SEED}, not "
                              f"{_short(seed)}")
        try:
            return _core.new_game(seed=seed, variant=variant), {"seed": seed, "variant": variant}
        except ValueError as exc:  # the seed is checked above: the variant is unknown
            raise RecordError(f"setup.variant: {exc}") from None
    if "position" in d:
        try:
            return _core.GameState.from_dict(d["position"]), None
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
    start, setup = _start_from(d)
    players = d.get("players", ["player 0", "player 1"])
    if (not isinstance(players, list) or len(players) != 2
            or not all(isinstance(p, str) for p in players)):
        raise RecordError("'players' must be a list of two names")
    moves = d.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list of moves in notation")
    meta = d.get("meta", {})
    if not isinstance(meta, dict):
        raise RecordError("'meta' must be an object")
    rec = GameRecord(start=start, players=players, setup=setup, meta=meta)
    s = start.copy()
    for i, text in enumerate(moves):
        if s.is_terminal():
            raise RecordError(f"move {i + 1} ({text!r}): the game is already over")
        try:
            a = s.parse_action(text)
            s.apply(a)
        except (IllegalActionError, ValueError, TypeError) as exc:
            raise RecordError(f"move {i + 1} ({text!r}): {exc}") from None
        rec.actions.append(a)
    result = d.get("result")
    if result is not None:
        _check_result(result, s)
    return rec


def _check_result(result: Any, final: _core.GameState) -> None:
    if not isinstance(result, dict):
        raise RecordError("'result' must be an object or null")
    if not final.is_terminal():
        raise RecordError("'result' is given but the moves do not finish the game")
    scores = result.get("scores")
    if scores is not None:
        got = final.scores()
        if (not isinstance(scores, list) or len(scores) != 2
                or not all(_is_number(x) for x in scores)):
            raise RecordError(f"result.scores: expected a list of two numbers, got "
                              f"{_short(scores)}")
        if any(abs(a - b) > 1e-6 for a, b in zip(scores, got, strict=True)):
            raise RecordError(f"result.scores {scores!r} do not match the replay {got!r}")
    winner = result.get("winner")
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


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a message stays one readable line)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an int too long to print, or deep nesting
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."


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
