"""Per-tab games of the web app: a tree of moves with a line and a cursor on it.

A game is a start position and a tree of decisions, as an analysis board keeps it: a move
tried from an earlier decision starts a variation beside the moves already there instead of
replacing them. The board shows the position after the first ``cursor`` decisions of the
*line*, one path from the start through the tree (the last one chosen, on to its end): undo
and redo move the cursor along it, a move played at the cursor follows the line when it is
its next move and branches off it otherwise. Every node keeps its position, a description of
its move and where the home boards' tiles lie, so a move costs one ``apply``.

A review (:mod:`arle_ai.play.analysis`) belongs to the line it was made of; its marks show on
every line that shares the decisions up to the marked one.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from arle_ai.engine import _core
from arle_ai.formats.records import GameRecord, Variation, record_game
from arle_ai.play.analysis import GameAnalysis
from arle_ai.text import effects, narration
from arle_ai.text.notation import action_label
from arle_ai.text.reading import pv_steps
from arle_ai.web import board, view

__all__ = ["Game", "GameStore", "SEAT_KINDS", "analysis_view", "review_of"]

SEAT_KINDS = ("human", "ai")


@dataclass
class Node:
    """A position of the tree: the move that led to it (None at the start), its parent,
    the moves tried from it (the first is its main continuation), and what the page shows."""

    action: int | None
    parent: int | None
    depth: int
    state: _core.GameState
    homes: list[board.HomeLayout]
    entry: dict[str, Any] | None = None
    children: list[int] = field(default_factory=list)


@dataclass
class Game:
    """One tab's game."""

    start: _core.GameState
    setup: dict[str, Any] | None
    players: list[str] = field(default_factory=lambda: ["player 0", "player 1"])
    seats: list[str] = field(default_factory=lambda: ["human", "ai"])
    nodes: list[Node] = field(default_factory=list)
    line: list[int] = field(default_factory=list)  # node ids after the start, in order
    cursor: int = 0
    # the review of a line: the analysis payload (analysis_view) and the node ids it reviewed
    analysis: dict[str, Any] | None = None
    analysed: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.start.players == 1:  # the solo game: one seat
            self.players = self.players[:1]
            self.seats = self.seats[:1]
        if not self.nodes:
            state = self.start.copy()
            self.nodes = [Node(None, None, 0, state, view.layouts(state))]

    @classmethod
    def new(cls, seed: int, variant: str, players: int = 2) -> Game:
        setup: dict[str, Any] = {"seed": seed, "variant": variant}
        if players == 1:
            setup["players"] = 1
        return cls(start=_core.new_game(seed=seed, variant=variant, players=players),
                   setup=setup)

    @classmethod
    def from_position(cls, state: _core.GameState) -> Game:
        return cls(start=state.copy(), setup=None)

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """The record's game with its variations; its review shown on its moves."""
        game = cls(start=record.start.copy(), setup=record.setup, players=list(record.players))
        game.line = game._walk(record.actions)
        for i in range(len(record.variations)):
            game._walk(record.line(i))
        game.cursor = len(game.line)
        if record.review is not None and record.review.get("decisions"):
            analysis = GameAnalysis.from_review(record.review, record.start.players)
            game.analysis = analysis_view(analysis.to_dict(record), record)
            game.analysed = list(game.line)
        return game

    # ---- the tree ----

    def _child(self, node: int, action: int) -> int:
        """The child of ``node`` reached by ``action``, added when it is new (a variation
        when the node has children already); IllegalActionError, nothing changed, if the
        action is not legal there."""
        parent = self.nodes[node]
        for c in parent.children:
            if self.nodes[c].action == action:
                return c
        before = parent.state
        after = before.copy()
        steps = effects.apply(after, action)  # IllegalActionError: nothing changed
        label = action_label(before, action)
        entry = {
            "ply": parent.depth + 1, "player": before.current_player,
            "half_year": before.half_year, "text": before.action_to_string(action),
            # as arle play says it: the move alone when it changed nothing ("pass")
            "label": label, "event": (f"{label}: {steps[0].text()}" if steps[0].changed()
                                      else label),
            # each inventorying step that changed something and the new half-year it set off
            "steps": [_step_text(s) for s in steps[1:]
                      if s.what == effects.NEW_HALF_YEAR or s.changed()],
        }
        self.nodes.append(Node(action, node, parent.depth + 1, after,
                               view.layouts(after, parent.homes), entry))
        nid = len(self.nodes) - 1
        parent.children.append(nid)
        return nid

    def _walk(self, actions: list[int]) -> list[int]:
        """The node ids of ``actions`` played from the start (added where new)."""
        ids, node = [], 0
        for a in actions:
            node = self._child(node, a)
            ids.append(node)
        return ids

    def _continuation(self, node: int) -> list[int]:
        """The main continuation after ``node``: its first child, that one's, and so on."""
        out = []
        while self.nodes[node].children:
            node = self.nodes[node].children[0]
            out.append(node)
        return out

    def _path(self, node: int) -> list[int]:
        """The node ids from the start to ``node`` (the start itself left out)."""
        out = []
        while node != 0:
            out.append(node)
            parent = self.nodes[node].parent
            assert parent is not None  # only the start has none
            node = parent
        return out[::-1]

    # ---- the line ----

    @property
    def actions(self) -> list[int]:
        """The decisions of the line."""
        return [self.nodes[n].action for n in self.line]  # type: ignore[misc]

    @property
    def node(self) -> int:
        """The node shown (after ``cursor`` decisions of the line)."""
        return self.line[self.cursor - 1] if self.cursor else 0

    @property
    def state(self) -> _core.GameState:
        """The position shown (after ``cursor`` decisions); do not change it."""
        return self.nodes[self.node].state

    def play(self, action: int) -> None:
        """Play ``action`` at the cursor (IllegalActionError, nothing changed, if illegal):
        on along the line when it is the line's next move, else into the variation it starts
        (or had started before), the line then following that variation."""
        if self.cursor < len(self.line) and self.nodes[self.line[self.cursor]].action == action:
            self.cursor += 1
            return
        child = self._child(self.node, action)
        self.line = self.line[:self.cursor] + [child] + self._continuation(child)
        self.cursor += 1

    def goto(self, ply: int) -> None:
        if not 0 <= ply <= len(self.line):
            raise ValueError(f"ply {ply} is outside 0..{len(self.line)}, the decisions of "
                             f"this game")
        self.cursor = ply

    def goto_node(self, node: int) -> None:
        """Show ``node``, the line then running through it (on its main continuation)."""
        if not 0 <= node < len(self.nodes):
            raise ValueError(f"node {node} is outside 0..{len(self.nodes) - 1}, the positions "
                             f"of this game")
        path = self._path(node)
        on_line = self.line[:len(path)] == path
        self.line = self.line if on_line else path + self._continuation(node)
        self.cursor = len(path)

    def _human_at(self, ply: int) -> bool:
        s = self.nodes[self.line[ply - 1]].state if ply else self.nodes[0].state
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
        if self.cursor >= len(self.line):
            raise ValueError("nothing to redo: this is the end of the line")
        self.cursor += 1
        if "human" in self.seats:
            while self.cursor < len(self.line) and not self._human_at(self.cursor):
                self.cursor += 1

    def record(self, upto: int | None = None) -> GameRecord:
        """The game as a record: the line's decisions (up to ``upto``; all by default) as its
        moves, the other lines of the tree as variations, and the review of the decisions
        it shares with the line reviewed."""
        main = self.line if upto is None else self.line[:upto]
        rec = record_game(self.start, [self.nodes[n].action for n in main],  # type: ignore[misc]
                          self.players, setup=self.setup)
        # (the variation a line is, its node ids from the start, the first of its own)
        queue: list[tuple[int | None, list[int], int]] = [(None, [0, *main], 0)]
        while queue:
            parent, path, first = queue.pop(0)
            for d in range(first, len(path)):
                nid = path[d]
                after = path[d + 1] if d + 1 < len(path) else None
                for child in self.nodes[nid].children:
                    if child == after:
                        continue
                    chain = [child, *self._continuation(child)]
                    rec.variations.append(Variation(parent, d, [
                        self.nodes[n].action for n in chain]))  # type: ignore[misc]
                    queue.append((len(rec.variations) - 1, path[:d + 1] + chain, d + 1))
        if self.analysis is not None:
            shared = _shared(self.analysed, main)
            review = review_of(self.analysis)
            review["decisions"] = [d for d in review["decisions"] if d["ply"] <= shared]
            if review["decisions"]:
                rec.review = review
        return rec

    # ---- the review ----

    def keep_analysis(self, payload: dict[str, Any], line: list[int]) -> None:
        """Keep the review ``payload`` (an analysis's ``to_dict`` with its ``review``) of the
        line ``line`` (node ids)."""
        self.analysis = payload
        self.analysed = list(line)

    def _marks(self) -> dict[int, dict[str, Any]]:
        """The reviewed decisions by node id."""
        if self.analysis is None:
            return {}
        return {self.analysed[d["ply"] - 1]: d for d in self.analysis["decisions"]
                if d["ply"] <= len(self.analysed)}

    # ---- the page's view ----

    def _entry(self, nid: int, marks: dict[int, dict[str, Any]]) -> dict[str, Any]:
        node = self.nodes[nid]
        assert node.entry is not None
        out = {**node.entry, "node": nid}
        d = marks.get(nid)
        if d is not None:
            out["review"] = _review_entry(d)
        return out

    def tree(self, marks: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
        """Every node but the start: id, parent, ply, who moved, the move and its mark, and
        the moves tried from it (the first one its main continuation)."""
        out = []
        for nid, node in enumerate(self.nodes[1:], start=1):
            assert node.entry is not None
            d = marks.get(nid)
            out.append({"node": nid, "parent": node.parent, "ply": node.depth,
                        "player": node.entry["player"], "label": node.entry["label"],
                        "text": node.entry["text"], "children": node.children,
                        "mark": d["mark"] if d else ""})
        return out

    def to_view(self) -> dict[str, Any]:
        state = self.state
        out = view.position_view(state, self.nodes[self.node].homes)
        marks = self._marks()
        analysis = None
        if self.analysis is not None:
            analysis = {**self.analysis, "nodes": self.analysed,
                        "shared": _shared(self.analysed, self.line)}
        out.update({
            "ply": self.cursor,
            "length": len(self.line),
            "node": self.node,
            "setup": self.setup,
            "players": self.players,
            "seats": self.seats,
            "legal": view.legal_moves(state),
            "moves": [self._entry(n, marks) for n in self.line],
            "root_children": self.nodes[0].children,
            "tree": self.tree(marks),
            "ai_to_move": (state.current_player is not None
                           and self.seats[state.current_player] == "ai"),
            "analysis": analysis,
        })
        return out


def _step_text(step: effects.Step) -> str:
    """An automatic step in the event log, in arle play's words: ``feeding (half-year 1): P0:
    -3 food, -2 peat``; ``half-year 1 over; half-year 2 (winter) begins`` (after the ninth:
    ``last actions before final scoring`` or ``the game is over``)."""
    if step.what != effects.NEW_HALF_YEAR:
        return f"{step.what} (half-year {step.half_year}): {step.text()}"
    return f"half-year {step.half_year} over; {narration.what_follows(step)}"


def _shared(a: list[int], b: list[int]) -> int:
    """How many first decisions two lines share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _review_entry(d: dict[str, Any]) -> dict[str, Any]:
    """What the move list shows of a reviewed decision."""
    return {"mark": d["mark"], "best": d.get("best_label") or d["best"], "best_text": d["best"],
            "best_line": d.get("best_line", []), "lost": d["value_lost"],
            "vp_lost": d["vp_lost"], "best_value": d["best_value"],
            "played_value": d["played_value"], "near_best": d.get("near_best_labels", []),
            "why": d.get("why")}


def analysis_view(analysis: dict[str, Any], record: GameRecord) -> dict[str, Any]:
    """An analysis (``GameAnalysis.to_dict(record)``) as the page shows it: one graph point
    per reviewed decision from player 0's view, each decision's better line in printed names
    with who moves, and the review as a record keeps it (``review``)."""
    states = list(record.states())
    points = []
    for d in analysis["decisions"]:
        sign = 1 if d["player"] == 0 else -1
        value = d["best_value"] if sign == 1 else 1.0 - d["best_value"]
        points.append({"ply": d["ply"], "player": d["player"], "value": value,
                       "margin": sign * d["best_margin"], "lost": d["value_lost"],
                       "vp_lost": d["vp_lost"], "played": d["played"], "best": d["best"],
                       "mark": d["mark"]})
        d["best_line"] = [{"player": p, "label": label} for p, label in
                          pv_steps(states[d["ply"] - 1], list(d.get("best_pv") or []))]
    return {**analysis, "points": points}


def review_of(analysis: dict[str, Any]) -> dict[str, Any]:
    """The review a game record keeps of an :func:`analysis_view` (docs/game-record.md)."""
    return {"iterations": analysis["iterations"], "time_limit": analysis["time_limit"],
            "decisions": [{k: v for k, v in d.items() if k not in _SHOWN_ONLY}
                          for d in analysis["decisions"]]}


# what the page adds to a reviewed decision, left out of the review a record keeps
_SHOWN_ONLY = {"mark", "loss_beyond_noise", "played_label", "best_label", "near_best_labels",
               "best_line"}


class GameStore:
    """The games of the open tabs, by id; the least recently used go beyond ``capacity``, and
    any unused for ``idle_seconds``. The ids of the last ``MEMORY`` games closed are kept
    with the reason, so that a page asking for its game can be told what became of it."""

    MEMORY = 4096  # closed games remembered (an id and a reason: ~100 bytes each)

    def __init__(self, capacity: int = 64, idle_seconds: float = 6 * 3600) -> None:
        self.capacity = capacity
        self.idle_seconds = idle_seconds
        self._games: dict[str, tuple[Game, float]] = {}
        self._gone: dict[str, str] = {}  # id -> why it was closed, oldest first

    def add(self, game: Game) -> str:
        self._expire()
        while len(self._games) >= self.capacity:
            oldest = min(self._games, key=lambda k: self._games[k][1])
            self._close(oldest, f"closed to make room for a newer game: the server keeps the "
                                f"{self.capacity} games used most recently, and this one was "
                                f"used least recently")
        gid = secrets.token_urlsafe(12)
        self._games[gid] = (game, time.monotonic())
        return gid

    def get(self, gid: str) -> Game | None:
        entry = self._games.get(gid)
        if entry is None:
            return None
        self._games[gid] = (entry[0], time.monotonic())
        return entry[0]

    def gone(self, gid: str) -> str | None:
        """Why game ``gid`` was closed, if it was one of the last closed; else None."""
        return self._gone.get(gid)

    def replace(self, gid: str, game: Game) -> None:
        self._games[gid] = (game, time.monotonic())

    def __len__(self) -> int:
        return len(self._games)

    def _close(self, gid: str, reason: str) -> None:
        del self._games[gid]
        self._gone[gid] = reason
        while len(self._gone) > self.MEMORY:
            del self._gone[next(iter(self._gone))]

    def _expire(self) -> None:
        now = time.monotonic()
        hours = self.idle_seconds / 3600
        for gid in [k for k, (_, t) in self._games.items() if now - t > self.idle_seconds]:
            self._close(gid, f"closed after {hours:g} hours unused")
