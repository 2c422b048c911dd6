"""Per-tab games of the web app: a line of moves with a cursor (undo/redo/navigation).

A game is a start position and a line of decisions. The board shows the position after the
first ``cursor`` of them: undo and redo move the cursor, so a taken-back move can be replayed;
a different move played before the end of the line replaces the rest of it. Every position of
the line and a description of every move are cached, so a move costs one ``apply``.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from arle_ai.engine import _core
from arle_ai.formats.records import GameRecord, record_game
from arle_ai.text import effects
from arle_ai.text.notation import action_label
from arle_ai.web import view

__all__ = ["Game", "GameStore", "SEAT_KINDS"]

SEAT_KINDS = ("human", "ai")


@dataclass
class Game:
    """One tab's game."""

    start: _core.GameState
    setup: dict[str, Any] | None
    players: list[str] = field(default_factory=lambda: ["player 0", "player 1"])
    actions: list[int] = field(default_factory=list)
    states: list[_core.GameState] = field(default_factory=list)
    entries: list[dict[str, Any]] = field(default_factory=list)
    cursor: int = 0
    seats: list[str] = field(default_factory=lambda: ["human", "ai"])
    analysis: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if not self.states:
            self.states = [self.start.copy()]

    @classmethod
    def new(cls, seed: int, variant: str) -> Game:
        return cls(start=_core.new_game(seed=seed, variant=variant),
                   setup={"seed": seed, "variant": variant})

    @classmethod
    def from_position(cls, state: _core.GameState) -> Game:
        return cls(start=state.copy(), setup=None)

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        game = cls(start=record.start.copy(), setup=record.setup, players=list(record.players))
        for a in record.actions:
            game._append(a)
        game.cursor = len(game.actions)
        return game

    # ---- the line ----

    @property
    def state(self) -> _core.GameState:
        """The position shown (after ``cursor`` decisions); do not change it."""
        return self.states[self.cursor]

    def _append(self, action: int) -> None:
        before = self.states[-1]
        after = before.copy()
        steps = effects.apply(after, action)  # IllegalActionError: nothing changed
        label = action_label(before, action)
        self.entries.append({
            "ply": len(self.actions) + 1, "player": before.current_player,
            "half_year": before.half_year, "text": before.action_to_string(action),
            "label": label, "event": f"{label}: {steps[0].text()}",
            # each inventorying step and the new half-year it set off
            "steps": [f"{s.what} (half-year {s.half_year}): {s.text()}" for s in steps[1:]],
        })
        self.actions.append(action)
        self.states.append(after)

    def play(self, action: int) -> None:
        """Play ``action`` at the cursor (IllegalActionError, nothing changed, if illegal)."""
        if self.cursor < len(self.actions) and self.actions[self.cursor] == action:
            self.cursor += 1
            return
        if not self.state.is_legal(action):
            self.state.copy().apply(action)  # raises the engine's IllegalActionError
        del self.actions[self.cursor:], self.states[self.cursor + 1:], self.entries[self.cursor:]
        self.analysis = None
        self._append(action)
        self.cursor += 1

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.actions):
            raise ValueError(f"ply {ply} is outside 0..{len(self.actions)}, the decisions of "
                             f"this game")
        self.cursor = ply

    def _human_at(self, ply: int) -> bool:
        s = self.states[ply]
        player = s.current_player
        return not s.is_terminal() and player is not None and self.seats[player] == "human"

    def undo(self) -> None:
        """Back to before the last decision; against the AI, back to the human's last one."""
        if self.cursor == 0:
            raise ValueError("nothing to undo: this is the start of the game")
        self.cursor -= 1
        if "human" in self.seats:
            while self.cursor > 0 and not self._human_at(self.cursor):
                self.cursor -= 1

    def redo(self) -> None:
        """Forward one decision of the line; against the AI, on to the human's next one."""
        if self.cursor >= len(self.actions):
            raise ValueError("nothing to redo: this is the end of the line")
        self.cursor += 1
        if "human" in self.seats:
            while self.cursor < len(self.actions) and not self._human_at(self.cursor):
                self.cursor += 1

    def record(self, upto: int | None = None) -> GameRecord:
        """The game as a record (up to ``upto`` decisions; the whole line by default)."""
        actions = self.actions if upto is None else self.actions[:upto]
        return record_game(self.start, actions, self.players, setup=self.setup)

    # ---- the page's view ----

    def to_view(self) -> dict[str, Any]:
        state = self.state
        out = view.position_view(state)
        out.update({
            "ply": self.cursor,
            "length": len(self.actions),
            "setup": self.setup,
            "players": self.players,
            "seats": self.seats,
            "legal": view.legal_moves(state),
            "moves": self.entries,
            "ai_to_move": (state.current_player is not None
                           and self.seats[state.current_player] == "ai"),
            "analysis": self.analysis,
        })
        return out


class GameStore:
    """The games of the open tabs, by id; the least recently used go beyond ``capacity``."""

    def __init__(self, capacity: int = 64, idle_seconds: float = 6 * 3600) -> None:
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self._games: dict[str, tuple[Game, float]] = {}

    def add(self, game: Game) -> str:
        self._expire()
        while len(self._games) >= self.capacity:
            oldest = min(self._games, key=lambda k: self._games[k][1])
            del self._games[oldest]
        gid = secrets.token_urlsafe(12)
        self._games[gid] = (game, time.monotonic())
        return gid

    def get(self, gid: str) -> Game | None:
        entry = self._games.get(gid)
        if entry is None:
            return None
        self._games[gid] = (entry[0], time.monotonic())
        return entry[0]

    def replace(self, gid: str, game: Game) -> None:
        self._games[gid] = (game, time.monotonic())

    def __len__(self) -> int:
        return len(self._games)

    def _expire(self) -> None:
        now = time.monotonic()
        for gid in [k for k, (_, t) in self._games.items() if now - t > self.idle_seconds]:
            del self._games[gid]
