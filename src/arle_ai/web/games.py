"""Per-tab games of the web app: a game in progress (:class:`arle_ai.play.session.Session`:
the tree of moves, its line and cursor, undo and redo, the record) and what the page shows
of it.

The page's view of a position adds where the home boards' tiles lie (each kept where it lay
in the position before) and the event log's entry of the move that led there, in ``arle
play``'s words; both are made once per position, when it is first shown. A review
(:mod:`arle_ai.play.analysis`) belongs to the line it was made of; its marks show on every
line that shares the decisions up to the marked one.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from arle_ai.formats.records import GameRecord
from arle_ai.play.analysis import GameAnalysis
from arle_ai.play.session import AI, AIChoice, Session
from arle_ai.text import effects, narration
from arle_ai.text.decisions import Answer
from arle_ai.text.reading import as_good_text, pv_steps
from arle_ai.web import board, view

__all__ = ["Game", "GameStore", "StoreFull", "ai_view", "analysis_view", "review_of"]


@dataclass
class Game:
    """One tab's game: its session, and the review as the page shows it (``analysis``, an
    :func:`analysis_view`, of the line ``session.reviewed``)."""

    session: Session
    analysis: dict[str, Any] | None = None
    seat_names: list[str] | None = None  # who played the seats (a tournament's agents)
    _homes: dict[int, list[board.HomeLayout]] = field(default_factory=dict, repr=False)
    _entries: dict[int, dict[str, Any]] = field(default_factory=dict, repr=False)

    @classmethod
    def from_record(cls, record: GameRecord, seat_names: list[str] | None = None) -> Game:
        """The record's game with its variations; its review shown on its moves. (Its
        ``meta`` is left out: the page does not know who played the file's moves, unless
        ``seat_names`` says it, as a tournament's results do.)"""
        game = cls(Session.from_record(record, meta={}), seat_names=seat_names)
        if game.session.review is not None:
            analysis = GameAnalysis.from_review(record.review or {}, record.start.players)
            game.keep_analysis(analysis_view(analysis.to_dict(record), record),
                               game.session.line)
        return game

    def keep_analysis(self, payload: dict[str, Any], line: list[int]) -> None:
        """Keep the review ``payload`` (an :func:`analysis_view`) of the line ``line`` (node
        ids): the session keeps it as a record does."""
        self.analysis = payload
        self.session.keep_review(review_of(payload), line)

    def homes(self, nid: int) -> list[board.HomeLayout]:
        """Where the tiles lie in node ``nid``'s position (made along its path once)."""
        nodes = self.session.nodes
        todo = []
        while nid not in self._homes:
            todo.append(nid)
            parent = nodes[nid].parent
            if parent is None:
                break
            nid = parent
        for n in reversed(todo):
            parent = nodes[n].parent
            self._homes[n] = view.layouts(nodes[n].state,
                                          None if parent is None else self._homes[parent])
        return self._homes[todo[0] if todo else nid]

    def entry(self, nid: int) -> dict[str, Any]:
        """The move list's and the event log's entry of node ``nid``'s move: the answer it
        is part of (:meth:`arle_ai.play.session.Session.answer`: at a how-many question the
        count, ``Tanner: 2 hide into 2 leather``, on the node of its last move; ``inner``
        on the nodes before it, which the page folds into it; ``count``, the count answered
        up to this move) and what it did, as arle play tells it."""
        if nid not in self._entries:
            session = self.session
            node = session.nodes[nid]
            before = session.before(nid)
            assert node.action is not None  # (the start has no entry)
            steps = node.steps
            answer = session.answer(nid)
            first = nid  # the node of the answer's first move
            for _ in answer.actions[1:]:
                first = session.nodes[first].parent or 0
            changes = (steps[0].changes if first == nid
                       else effects.describe(session.before(first), steps[0].after))
            self._entries[nid] = {
                "ply": node.depth, "player": before.current_player,
                "half_year": before.half_year, "text": before.action_to_string(node.action),
                "label": answer.label, "inner": not answer.finished,
                # at a how-many question the count answered up to this move (None elsewhere)
                "count": answer.count.count if answer.count is not None else None,
                # as arle play says it: the move alone when it changed nothing ("pass"); the
                # mover is named once, by the log's tag
                "event": _event(answer, changes, before.current_player),
                # each inventorying step that changed something and the new half-year it set
                # off
                "steps": [_step_text(s) for s in steps[1:]
                          if s.what == effects.NEW_HALF_YEAR or s.changed()],
            }
        return self._entries[nid]

    def _marks(self) -> dict[int, dict[str, Any]]:
        """The reviewed decisions by node id."""
        if self.analysis is None:
            return {}
        reviewed = self.session.reviewed
        return {reviewed[d["ply"] - 1]: d for d in self.analysis["decisions"]
                if d["ply"] <= len(reviewed)}

    def _move(self, nid: int, marks: dict[int, dict[str, Any]]) -> dict[str, Any]:
        out = {**self.entry(nid), "node": nid}
        choice = self.session.nodes[nid].ai
        if choice is not None:  # the AI made it: how, and what its search expected
            out["ai"] = ai_view(choice)
        d = marks.get(nid)
        if d is not None:
            out["review"] = _review_entry(d)
        return out

    def tree(self, marks: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
        """Every node but the start: id, parent, ply, who moved, the move and its mark, and
        the moves tried from it (the first one its main continuation)."""
        out = []
        for nid, node in enumerate(self.session.nodes[1:], start=1):
            entry = self.entry(nid)
            d = marks.get(nid)
            out.append({"node": nid, "parent": node.parent, "ply": node.depth,
                        "player": entry["player"], "label": entry["label"],
                        "inner": entry["inner"], "count": entry["count"],
                        "text": entry["text"],
                        "children": node.children,
                        "mark": d["mark"] if d else ""})
        return out

    def to_view(self) -> dict[str, Any]:
        session = self.session
        state = session.state
        out = view.position_view(state, self.homes(session.node))
        marks = self._marks()
        analysis = None
        if self.analysis is not None:
            analysis = {**self.analysis, "nodes": session.reviewed,
                        "shared": session.shared(session.line)}
        out.update({
            "ply": session.cursor,
            "length": len(session.line),
            "node": session.node,
            "setup": session.setup,
            "players": session.players,
            "seats": session.seats,
            "seat_names": self.seat_names,
            "legal": view.legal_moves(state),
            "counts": view.count_answers(state),  # a repeated conversion asked as a count
            "moves": [self._move(n, marks) for n in session.line],
            "root_children": session.nodes[0].children,
            "tree": self.tree(marks),
            "ai_to_move": (state.current_player is not None
                           and session.seats[state.current_player] == AI),
            "analysis": analysis,
        })
        return out


def _event(answer: Answer, changes: list[effects.PlayerChange], mover: int | None) -> str:
    """A move in the event log, its player named by the log's tag: ``place Woodcutter: +3
    wood``, ``Tanner: 2 hide into 2 leather: -2 hide, +2 leather (+2 VP)`` (a count, what
    all its moves did), another player's change named (``...; P1: +1 food``); the move alone
    when it changed nothing, a count of none as arle play tells it (``Tanner: converted
    nothing``)."""
    parts = [c.text() if c.player == mover else f"P{c.player}: {c.text()}"
             for c in changes if not c.is_empty()]
    if parts:
        return f"{answer.label}: {'; '.join(parts)}"
    if answer.count is not None and answer.count.count == 0:
        return f"{answer.where}: {narration.CONVERTED_NOTHING}"
    return answer.label


def _step_text(step: effects.Step) -> str:
    """An automatic step in the event log, in arle play's words: ``feeding (half-year 1): P0:
    -3 food, -2 peat``; ``half-year 1 over; half-year 2 (winter) begins`` (after the ninth:
    ``last actions before final scoring`` or ``the game is over``)."""
    if step.what != effects.NEW_HALF_YEAR:
        return f"{step.what} (half-year {step.half_year}): {step.text()}"
    return f"half-year {step.half_year} over; {narration.what_follows(step)}"


def ai_view(choice: AIChoice) -> dict[str, Any]:
    """How the AI chose a move, as the page shows it: its agent and seconds and, when it
    searched, its search's mean value and final VP margin of the move for the mover (the
    expected lead; the expected final score in the solo game), else None."""
    return {"agent": choice.agent, "seconds": choice.seconds, "value": choice.value,
            "margin": choice.margin}


def _review_entry(d: dict[str, Any]) -> dict[str, Any]:
    """What the move list shows of a reviewed decision (the scores, ``best_margin`` and
    ``played_margin``, are what the solo review compares, in VP)."""
    return {"mark": d["mark"], "best": d.get("best_label") or d["best"], "best_text": d["best"],
            "best_line": d.get("best_line", []), "lost": d["value_lost"],
            "vp_lost": d["vp_lost"], "best_value": d["best_value"],
            "played_value": d["played_value"], "best_margin": d["best_margin"],
            "played_margin": d["played_margin"], "near_best": d.get("near_best_labels", []),
            "unseparated": d.get("unseparated", 0), "as_good": d["as_good"],
            "why": d.get("why")}


def analysis_view(analysis: dict[str, Any], record: GameRecord) -> dict[str, Any]:
    """An analysis (``GameAnalysis.to_dict(record)``) as the page shows it: one graph point
    per reviewed decision from player 0's view, each decision's better line in printed names
    with who moves and its moves as good as the best in a sentence (``as_good``), and the
    review as a record keeps it (``review``)."""
    states = list(record.states())
    points = []
    for d in analysis["decisions"]:
        sign = 1 if d["player"] == 0 else -1
        value = d["best_value"] if sign == 1 else 1.0 - d["best_value"]
        points.append({"ply": d["ply"], "player": d["player"], "value": value,
                       "margin": sign * d["best_margin"], "lost": d["value_lost"],
                       "vp_lost": d["vp_lost"], "played": d["played"], "best": d["best"],
                       "mark": d["mark"]})
        d["best_line"] = [{"player": step.player, "label": step.label} for step in
                          pv_steps(states[d["ply"] - 1], list(d.get("best_pv") or []))]
        # the moves as good as the best in arle analyze's words (at most 3 named)
        d["as_good"] = as_good_text(d.get("near_best_labels", []), d.get("unseparated", 0))
    return {**analysis, "points": points}


def review_of(analysis: dict[str, Any]) -> dict[str, Any]:
    """The review a game record keeps of an :func:`analysis_view` (docs/game-record.md)."""
    return {"iterations": analysis["iterations"], "time_limit": analysis["time_limit"],
            "decisions": [{k: v for k, v in d.items() if k not in _SHOWN_ONLY}
                          for d in analysis["decisions"]]}


# what the page adds to a reviewed decision, left out of the review a record keeps
_SHOWN_ONLY = {"mark", "loss_beyond_noise", "played_label", "best_label", "near_best_labels",
               "played_count", "best_count", "best_line", "as_good"}


class StoreFull(RuntimeError):
    """No room for a new game: the store holds its most, every one of them in use."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds until the game unused longest makes room


class GameStore:
    """The games of the open tabs, by id. At most ``capacity`` are kept: a new game beyond
    them takes the place of the game unused longest, but only of one unused for
    ``in_use_seconds`` at least: a game in use is never closed for another (100 pages playing
    at once on a store of 64 closed each other's games until none could finish one); a new
    game is refused (:class:`StoreFull`) while all are in use. A game unused for
    ``idle_seconds`` is closed. The ids of the last ``MEMORY`` games closed are kept with
    the reason, so that a page asking for its game can be told what became of it."""

    MEMORY = 4096  # closed games remembered (an id and a reason: ~100 bytes each)
    IN_USE_SECONDS = 300.0  # a game used within this time is in use: it is not closed for another

    def __init__(self, capacity: int = 64, idle_seconds: float = 6 * 3600,
                 in_use_seconds: float = IN_USE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.capacity = capacity
        self.clock = clock
        self.idle_seconds = idle_seconds
        self.in_use_seconds = in_use_seconds
        self._games: dict[str, tuple[Game, float]] = {}  # id -> game, last used; oldest first
        self._gone: dict[str, str] = {}  # id -> why it was closed, oldest first

    def terms(self) -> dict[str, Any]:
        """What the store promises, for the page: how many games it keeps, and that a game
        used within ``in_use_seconds`` is never closed for another (nor one within
        ``idle_seconds`` unless the store is full)."""
        return {"games_kept": self.capacity, "in_use_seconds": self.in_use_seconds,
                "idle_seconds": self.idle_seconds}

    def check_room(self) -> str | None:
        """The game to close for a new one (the game unused longest, when the store is full
        and that game is out of use), None when there is room; StoreFull when every game is
        in use."""
        self._expire()
        if len(self._games) < self.capacity:
            return None
        oldest = next(iter(self._games))  # the least recently used: kept in order of use
        unused = self.clock() - self._games[oldest][1]
        if unused < self.in_use_seconds:
            raise StoreFull(f"the server keeps {self.capacity} games and every one of them "
                            f"was used in the last {_duration(self.in_use_seconds)}: there is "
                            f"no room for a new game until one has been left for that long "
                            f"(in {_duration(self.in_use_seconds - unused)})",
                            self.in_use_seconds - unused)
        return oldest

    def add(self, game: Game) -> str:
        """Keep ``game`` and return its id, closing the game unused longest to make room
        (StoreFull: see :meth:`check_room`)."""
        oldest = self.check_room()
        if oldest is not None:
            unused = self.clock() - self._games[oldest][1]
            self._close(oldest, f"closed to make room for a newer game: the server keeps "
                                f"{self.capacity} games, and this one had been unused longest "
                                f"({_duration(unused)})")
        gid = secrets.token_urlsafe(12)
        self._games[gid] = (game, self.clock())
        return gid

    def get(self, gid: str) -> Game | None:
        entry = self._games.pop(gid, None)
        if entry is None:
            return None
        self._games[gid] = (entry[0], self.clock())  # to the end: the most recently used
        return entry[0]

    def close(self, gid: str, reason: str) -> bool:
        """Close game ``gid`` (its page, asking for it, is told ``reason``); whether it was
        kept."""
        if gid not in self._games:
            return False
        self._close(gid, reason)
        return True

    def gone(self, gid: str) -> str | None:
        """Why game ``gid`` was closed, if it was one of the last closed; else None."""
        return self._gone.get(gid)

    def __len__(self) -> int:
        return len(self._games)

    def _close(self, gid: str, reason: str) -> None:
        del self._games[gid]
        self._gone[gid] = reason
        while len(self._gone) > self.MEMORY:
            del self._gone[next(iter(self._gone))]

    def _expire(self) -> None:
        now = self.clock()
        for gid in [k for k, (_, t) in self._games.items() if now - t > self.idle_seconds]:
            self._close(gid, f"closed after {_duration(self.idle_seconds)} unused")


def _duration(seconds: float) -> str:
    """``seconds`` as a person says it: 45 s, 5 minutes, 6 hours."""
    if seconds < 90:
        return f"{max(seconds, 0):.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:g} hours"
