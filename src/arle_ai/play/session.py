"""One game in progress, for any front end (``arle play``, the web app): a tree of variations
with a cursor, serialised as a game record, and told as ``arle play`` tells a game.

A session is a start position and a tree of decisions, as an analysis board keeps them: a
move tried from an earlier decision starts a variation beside the moves already there
instead of replacing them, so nothing taken back is lost. The position shown is the one
after the first ``cursor`` decisions of the *line*, one path from the start through the tree
(the last one chosen, on to its end): undo and redo move the cursor along it, and a move
played at the cursor follows the line when it is the line's next move and branches off it
otherwise. Every node keeps its position and what its move did
(:func:`arle_ai.text.effects.apply`'s steps, which both front ends tell), so a move costs one
``apply``; the AI's choice is attached to the move it made and each hint to the decision it
answers (kept while the session lives: a record keeps the moves, the variations and the
review).

Undo takes back the last decision a person at the keyboard made (a ``human`` seat's), with
the AI's replies after it; redo is its inverse, on to the next such decision of the line.
Why this rule: a turn of Fields of Arle is many decisions (a worker placed, then a good, a
building, a payment, one more exchange), and the one a player regrets is mostly the last;
undoing the whole turn would make them make again the choices they were happy with, while a
few undos still take back a whole turn. The line, redo and goto step by decision too, so undo
is redo's exact inverse. (The engine makes a decision with one choice itself: every decision
a seat is asked is a choice.) A repeated conversion is asked of a person as one count
(:func:`arle_ai.text.decisions.how_many`; :meth:`Session.play_count` plays its moves): its
decisions after a ``more`` were not asked of anyone, so undo takes back the whole count. With
nobody at the keyboard (the AI on every seat) a step is one decision; with no decision of a
person before the cursor, undo goes to the start.

>>> from arle_ai.play.session import Session
>>> game = Session.new(seed=0, seats=["human", "human"])
>>> for move in ("place fisherman", "place woodcutter"):
...     node = game.play(move)
>>> game.undo()
>>> game.cursor, game.state.current_player  # P1's woodcutter taken back
(1, 1)
>>> node = game.play("place colonist")
>>> saved = game.record().to_dict()
>>> saved["moves"]
['place fisherman', 'place colonist']
>>> saved["variations"]
[{'parent': None, 'ply': 1, 'moves': ['place woodcutter']}]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arle_ai import engine
from arle_ai.base.jsontext import shown
from arle_ai.engine import rules
from arle_ai.formats.records import (
    MAX_DECISIONS,
    MAX_VARIATIONS,
    GameRecord,
    Variation,
    default_names,
    record_game,
)
from arle_ai.search.result import SearchResult
from arle_ai.text import decisions, effects
from arle_ai.text.answers import count_actions
from arle_ai.text.narration import Line, Narrator

__all__ = ["AI", "AIChoice", "HUMAN", "Node", "SEAT_KINDS", "Session", "TreeFullError",
           "check_seats"]

HUMAN, AI = "human", "ai"
MORE = rules.ACTION_LAYOUT["more"]
SEAT_KINDS = (HUMAN, AI)  # who plays a seat: a person at the keyboard, or the AI


@dataclass(frozen=True)
class AIChoice:
    """How the AI chose a move: its agent (the spec), the seconds it took and, when it
    searched, what its search expected of the move it chose, for the player who made it
    (``value``: the mean value, a ranking score; ``margin``: the mean final VP lead, the
    final score in the solo game; None for an AI that does not search)."""

    agent: str
    seconds: float
    value: float | None = None
    margin: float | None = None


@dataclass
class Node:
    """A position of the tree: the move that led to it (None at the start) and what that move
    did, its parent, the moves tried from it (the first is its main continuation), how the AI
    chose the move when it did, and the hints asked here (the decision they answer)."""

    action: int | None
    parent: int | None
    depth: int
    state: engine.GameState
    steps: list[effects.Step] = field(default_factory=list)
    children: list[int] = field(default_factory=list)
    ai: AIChoice | None = None
    hints: list[SearchResult] = field(default_factory=list)


class TreeFullError(ValueError):
    """A move that would grow the tree past what a game record keeps (MAX_DECISIONS
    decisions, MAX_VARIATIONS variations): the game could be saved but not opened again."""


def check_seats(value: Any, players: int = 2) -> list[str]:
    """``value`` as the seats of a game of ``players``: one of :data:`SEAT_KINDS` each (the
    AI may play every seat); ValueError naming what is wrong."""
    if (not isinstance(value, list | tuple) or len(value) != players
            or not all(isinstance(v, str) and v in SEAT_KINDS for v in value)):
        if players == 1:
            raise ValueError(f"seats of a solo game must be one of {list(SEAT_KINDS)}, e.g. "
                             f"[\"human\"], not {shown(value)}")
        raise ValueError(f"seats must be two of {list(SEAT_KINDS)}, e.g. [\"human\", \"ai\"], "
                         f"not {shown(value)}")
    return list(value)


class Session:
    """One game in progress (see the module's docstring): ``players`` names its seats as a
    record does, ``seats`` says who plays them (``human`` or ``ai``), ``setup`` is the
    record's (None: a position written out in full) and ``meta`` its free-form facts."""

    def __init__(self, start: engine.GameState, setup: dict[str, Any] | None = None,
                 players: Sequence[str] | None = None, seats: Sequence[str] | None = None,
                 meta: dict[str, Any] | None = None) -> None:
        count = start.players
        self.start = start.copy()
        self.setup = None if setup is None else dict(setup)
        self.players = default_names(count) if players is None else list(players)
        if len(self.players) != count:
            raise ValueError(f"players: {len(self.players)} names for a game of {count} "
                             f"player{'s' if count > 1 else ''}")
        self.seats = check_seats([HUMAN, AI][:count] if seats is None else seats, count)
        self.meta = dict(meta or {})
        self.nodes = [Node(None, None, 0, start.copy())]
        self._branches = 0  # moves tried beside a node's first: the record's variations
        self.line: list[int] = []  # node ids after the start, in order
        self.cursor = 0
        # the review of a line, as a record keeps it, and the node ids of the line reviewed
        self.review: dict[str, Any] | None = None
        self.reviewed: list[int] = []

    @classmethod
    def new(cls, seed: int = 0, variant: str = "standard", players: int = 2,
            seats: Sequence[str] | None = None) -> Session:
        """A new game from the setup ``(seed, variant)`` of ``players`` (1: the solo game)."""
        return cls.from_record(GameRecord.new(seed, variant, players=default_names(players)),
                               seats=seats)

    @classmethod
    def from_record(cls, record: GameRecord, seats: Sequence[str] | None = None,
                    meta: dict[str, Any] | None = None) -> Session:
        """The record's game with its variations and its review, the cursor at the end of its
        moves; ``meta`` replaces the record's own when given."""
        game = cls(record.start, setup=record.setup, players=record.players, seats=seats,
                   meta=record.meta if meta is None else meta)
        game.line = game._walk(record.actions, room=False)  # a record read fits
        paths: list[list[int]] = []  # each variation's node ids, from its parent's
        for v in record.variations:
            parent = game.line if v.parent is None else paths[v.parent]
            head = parent[:v.ply]
            paths.append(head + game._walk(v.actions, head[-1] if head else 0, room=False))
        game.cursor = len(game.line)
        if record.review is not None and record.review.get("decisions"):
            game.keep_review(record.review)
        return game

    # ---- the tree ----

    def _child(self, node: int, action: int, ai: AIChoice | None = None,
               room: bool = True) -> int:
        """The child of ``node`` reached by ``action``, added when it is new (a variation
        when the node has children already); IllegalActionError, nothing changed, if the
        action is not legal there, and TreeFullError (``room``: checked) if the tree would
        outgrow a record."""
        parent = self.nodes[node]
        for c in parent.children:
            if self.nodes[c].action == action:
                if ai is not None:
                    self.nodes[c].ai = ai
                return c
        branch = bool(parent.children)
        if room:
            self._check_room(branch)
        after = parent.state.copy()
        steps = effects.apply(after, action)  # IllegalActionError: nothing changed
        self.nodes.append(Node(action, node, parent.depth + 1, after, steps, ai=ai))
        self._branches += branch
        parent.children.append(len(self.nodes) - 1)
        return len(self.nodes) - 1

    def _check_room(self, branch: bool, more: int = 1) -> None:
        """TreeFullError unless ``more`` nodes (a new variation when ``branch``) keep the
        game within what a record holds; a record written up to an earlier decision turns
        what follows into one more variation, so the tree keeps room for it."""
        if len(self.nodes) - 1 + more > MAX_DECISIONS:
            raise TreeFullError(f"this game holds {MAX_DECISIONS:,} decisions with its "
                                f"variations, the most a game record keeps: go on along the "
                                f"moves tried already, or save it and start a new game from "
                                f"its position")
        if branch and self._branches >= MAX_VARIATIONS - 1:
            raise TreeFullError(f"this game holds {MAX_VARIATIONS - 1:,} variations, the most "
                                f"a game record keeps: go on along the moves tried already, "
                                f"or save it and start a new game from its position")

    def _walk(self, actions: Sequence[int], node: int = 0, room: bool = True) -> list[int]:
        """The node ids of ``actions`` played from ``node`` (the start by default; added
        where new)."""
        ids = []
        for a in actions:
            node = self._child(node, a, room=room)
            ids.append(node)
        return ids

    def continuation(self, node: int) -> list[int]:
        """The main continuation after ``node``: its first child, that one's, and so on."""
        out = []
        while self.nodes[node].children:
            node = self.nodes[node].children[0]
            out.append(node)
        return out

    def path(self, node: int) -> list[int]:
        """The node ids from the start to ``node`` (the start itself left out)."""
        out = []
        while node != 0:
            out.append(node)
            parent = self.nodes[node].parent
            assert parent is not None  # only the start has none
            node = parent
        return out[::-1]

    def before(self, node: int) -> engine.GameState:
        """The position in which ``node``'s move was played (its parent's; do not change it)."""
        parent = self.nodes[node].parent
        if parent is None:
            raise ValueError("the start of the game follows no move")
        return self.nodes[parent].state

    # ---- the line and the cursor ----

    @property
    def actions(self) -> list[int]:
        """The decisions of the line."""
        return [self._action(n) for n in self.line]

    @property
    def played(self) -> list[int]:
        """The decisions of the line up to the cursor: the game as it stands."""
        return [self._action(n) for n in self.line[:self.cursor]]

    def _action(self, node: int) -> int:
        action = self.nodes[node].action
        assert action is not None  # only the start has none
        return action

    @property
    def node(self) -> int:
        """The node shown (after ``cursor`` decisions of the line)."""
        return self.line[self.cursor - 1] if self.cursor else 0

    @property
    def state(self) -> engine.GameState:
        """The position shown (after ``cursor`` decisions); do not change it."""
        return self.nodes[self.node].state

    def play(self, move: int | str, ai: AIChoice | None = None) -> int:
        """Play ``move`` (an action id, or its text in notation or printed names) at the
        cursor and return its node: on along the line when it is the line's next move, else
        into the variation it starts (or had started before), the line then following that
        variation. ``ai`` says how the AI chose it. IllegalActionError (a ValueError), nothing
        changed, when it is not legal there."""
        action = self.state.parse_action(move)
        if self.cursor < len(self.line) and self.nodes[self.line[self.cursor]].action == action:
            child = self.line[self.cursor]
            if ai is not None:
                self.nodes[child].ai = ai
        else:
            child = self._child(self.node, action, ai)
            self.line = self.line[:self.cursor] + [child] + self.continuation(child)
        self.cursor += 1
        return child

    def play_moves(self, moves: Sequence[int | str], ai: AIChoice | None = None) -> list[int]:
        """Play ``moves`` one after another at the cursor (as :meth:`play` does each) and
        return their nodes; IllegalActionError, nothing changed, when one is not legal where
        it comes, and TreeFullError when the tree has no room for them all."""
        trial = self.state.copy()
        actions = []
        for move in moves:
            actions.append(trial.parse_action(move))
            trial.apply(actions[-1])
        # room for all of them first (TreeFullError: none played, not a count cut short)
        self._check_room(bool(self.nodes[self.node].children), len(actions))
        return [self.play(a, ai=ai) for a in actions]

    def play_count(self, count: int) -> list[int]:
        """Answer the how-many question pending (a repeated conversion:
        :func:`arle_ai.text.decisions.how_many`) with ``count``: its ``more`` and ``stop``
        played, their nodes returned. IllegalActionError, nothing changed, when no count is
        asked or ``count`` is not an answer (0 to the most the player can convert)."""
        return self.play_moves(count_actions(self.state, count))

    def goto(self, ply: int) -> None:
        """Show the position after ``ply`` decisions of the line (ValueError beyond it)."""
        if not 0 <= ply <= len(self.line):
            raise ValueError(f"ply {ply} is outside 0..{len(self.line)}, the decisions of "
                             f"this game")
        self.cursor = ply

    def goto_node(self, node: int) -> None:
        """Show ``node``, the line then running through it (on its main continuation)."""
        if not 0 <= node < len(self.nodes):
            raise ValueError(f"node {node} is outside 0..{len(self.nodes) - 1}, the positions "
                             f"of this game")
        path = self.path(node)
        if self.line[:len(path)] != path:
            self.line = path + self.continuation(node)
        self.cursor = len(path)

    def human_at(self, ply: int) -> bool:
        """Whether a person at the keyboard decides after the first ``ply`` decisions of the
        line (a ``human`` seat is to move)."""
        s = self._state_at(ply)
        player = s.current_player
        return not s.is_terminal() and player is not None and self.seats[player] == HUMAN

    def _state_at(self, ply: int) -> engine.GameState:
        return self.nodes[self.line[ply - 1]].state if ply else self.nodes[0].state

    def asked_at(self, ply: int) -> bool:
        """Whether a person at the keyboard is asked the decision after the first ``ply``
        of the line: a ``human`` seat is to move, and not on in a conversion whose count
        they gave (the decision before was a ``more`` of the same count question)."""
        return self.human_at(ply) and not (ply and self._count_goes_on(self.line[ply - 1]))

    def _count_goes_on(self, node: int) -> bool:
        """Whether the decision at ``node`` goes on with the count its move began or went on
        with: the move was a ``more`` at a how-many question, and the same player is asked
        one again (the count's next step, asked of nobody)."""
        n = self.nodes[node]
        if n.action != MORE or n.parent is None or not decisions.counted(n.state):
            return False
        before = self.before(node)
        return decisions.counted(before) and before.current_player == n.state.current_player

    def answer(self, node: int) -> decisions.Answer:
        """The answer ``node``'s move is part of, as the player gives it
        (:func:`arle_ai.text.decisions.answers`): the move, or at a how-many question the
        count its run of ``more`` and ``stop`` makes up to ``node`` (``finished`` False while
        the count goes on after it). What the move list and the event log show of a move."""
        run = [node]  # back to the node whose move began the count (or the move alone)
        while True:
            parent = self.nodes[run[-1]].parent
            if parent is None or parent == 0 or not self._count_goes_on(parent):
                break
            run.append(parent)
        actions = [self._action(n) for n in reversed(run)]
        if len(actions) == 1:  # (most moves: no position to play them in)
            return decisions.first_answer(self.before(node), actions)
        return decisions.answers(self.before(run[-1]), actions)[-1]

    def undo(self) -> None:
        """Back to before the last decision made at the keyboard, or one decision when nobody
        plays at it (the rule: the module's docstring); ValueError at the start."""
        if self.cursor == 0:
            raise ValueError("nothing to undo: this is the start of the game")
        ply = self.cursor - 1
        if HUMAN in self.seats:
            while ply > 0 and not self.asked_at(ply):
                ply -= 1
        self.cursor = ply

    def redo(self) -> None:
        """Forward to the next decision at the keyboard along the line (or its end), one
        decision when nobody plays at it; ValueError at the end of the line."""
        if self.cursor >= len(self.line):
            raise ValueError("nothing to redo: this is the end of the line")
        ply = self.cursor + 1
        if HUMAN in self.seats:
            while ply < len(self.line) and not self.asked_at(ply):
                ply += 1
        self.cursor = ply

    # ---- the account of the game ----

    def tell(self, narrator: Narrator, node: int) -> list[Line]:
        """``narrator``'s lines completed by ``node``'s move, told from what it did."""
        n = self.nodes[node]
        if n.action is None:
            raise ValueError("the start of the game follows no move")
        return narrator.tell(self.before(node), n.action, n.steps, n.depth - 1)

    def narrator(self, players: Sequence[str]) -> Narrator:
        """A :class:`~arle_ai.text.narration.Narrator` that has told the game up to the
        cursor (``players``: the names its lines use); after an undo, its
        :meth:`~arle_ai.text.narration.Narrator.taken_back` against the one before says what
        was taken back."""
        narrator = Narrator(tuple(players))
        for node in self.line[:self.cursor]:
            self.tell(narrator, node)
        return narrator

    # ---- searches attached to their decisions ----

    def add_hint(self, result: SearchResult, node: int | None = None) -> None:
        """Keep a hint: the search of ``node``'s position (default: the one shown), the
        decision made there."""
        self.nodes[self.node if node is None else node].hints.append(result)

    def keep_review(self, review: dict[str, Any], line: Sequence[int] | None = None) -> None:
        """Keep ``review`` (as a record keeps it: docs/game-record.md) of the line ``line``
        (node ids; default: the line now): its decisions belong to the lines sharing them."""
        self.review = review
        self.reviewed = list(self.line if line is None else line)

    def shared(self, line: Sequence[int]) -> int:
        """How many first decisions ``line`` (node ids) shares with the line reviewed."""
        n = 0
        for x, y in zip(self.reviewed, line, strict=False):
            if x != y:
                break
            n += 1
        return n

    # ---- the record ----

    def record(self, upto: int | None = None) -> GameRecord:
        """The game as a record: the line's decisions (up to ``upto``; all by default) as its
        moves, the other lines of the tree as variations (what follows ``upto`` too), and the
        review of the decisions it shares with the line reviewed."""
        main = self.line if upto is None else self.line[:upto]
        rec = record_game(self.start, [self._action(n) for n in main], self.players,
                          setup=self.setup, meta=self.meta)
        # (the variation a line is, its node ids from the start, the first of its own)
        queue: list[tuple[int | None, list[int], int]] = [(None, [0, *main], 0)]
        while queue:
            parent, path, first = queue.pop(0)
            for d in range(first, len(path)):
                after = path[d + 1] if d + 1 < len(path) else None
                for child in self.nodes[path[d]].children:
                    if child == after:
                        continue
                    chain = [child, *self.continuation(child)]
                    rec.variations.append(Variation(parent, d, [self._action(n) for n in chain]))
                    queue.append((len(rec.variations) - 1, path[:d + 1] + chain, d + 1))
        if self.review is not None:
            shared = self.shared(main)
            kept = [d for d in self.review["decisions"] if d["ply"] <= shared]
            if kept:
                rec.review = {**self.review, "decisions": kept}
        return rec
