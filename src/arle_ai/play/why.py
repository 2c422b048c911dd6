"""Why one move is better than another, in the game's terms: the difference the two moves make
to the mover's lead, in VP, in each scoring category of ``GameState.score_breakdown``
(clothing and materials, barn, travel, tools, goods track, home board, animals, bottlenecks).

Each move is followed along the line the search expects after it (its principal variation,
the move first) and on to the start of the next half-year, where both lines are compared at
the same point of the game: the rest of the half-year is played by uniformly random moves,
the search's own rollout policy, :data:`CONTINUATIONS` times with the same seeds for both
lines, and the values are averaged. Those positions are valued by category in one of two ways:

- ``model``: the learned model's prediction of the final VP by category (its auxiliary head,
  :func:`arle_ai.search.net.predict_scores`), when the weights have one: the expected final
  score, by category;
- ``lines``: the VP by category as they stand then (``score_breakdown``), when they do not:
  what the line has gained by the start of the next half-year, which leaves out what the
  positions promise beyond it.

A category's figure is the mover's lead there (own VP minus the opponent's) after the better
move minus after the other one: ``+3 barn`` says the better move leaves the mover 3 VP further
ahead in the barn. In the solo game the figure is the player's own VP (and the lines are
always played out: the model predicts two-player games).

The search values a move further ahead than the lines are compared (its final margin, or its
estimate two half-years on): a move can be VP better to the search and level in every category
at the start of the next half-year. When the caller gives the difference the search expects
(``expected``), the text says how much of it the categories leave to come later (``no category
differs by half a VP or more yet (...): the 9.4 VP the search expects come later``), never
"no category differs" alone beside a gap of several VP.

>>> import arle_ai
>>> from arle_ai.play.why import explain
>>> s = arle_ai.new_game(seed=0)
>>> why = explain(s, ["place woodcutter"], ["pass"])
>>> sorted(why.by_category) == sorted(s.score_breakdown(0))
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from arle_ai import engine
from arle_ai.base.errors import IllegalActionError
from arle_ai.search.result import SearchResult
from arle_ai.text.reading import printed_move

__all__ = ["Why", "explain", "explain_ranking", "line_end", "model_has_categories",
           "CATEGORY_NAMES", "SOURCES"]

# Printed names of the scoring categories (score_breakdown's keys).
CATEGORY_NAMES = {key: key.replace("_", " ") for key in engine.SCORE_CATEGORIES}
SOURCES = ("model", "lines")
# Random continuations of each line to the end of the half-year, averaged (the same seeds for
# both lines).
CONTINUATIONS = 32
# Differences under this many VP are not named (half a VP is the smallest step of a score).
SHOWN_FROM = 0.5


@dataclass(frozen=True)
class Why:
    """Why ``better`` beats ``other`` (moves in notation, from the same position): the
    mover's lead in each scoring category after ``better`` minus after ``other``, valued by
    ``source`` (``model`` or ``lines``) at ``where`` (words: ``the start of half-year 3``)."""

    better: str
    other: str
    player: int
    by_category: dict[str, float]
    source: str
    where: str
    better_label: str = ""
    other_label: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    players: int = 2  # 1: the solo game, where a category's figure is the player's own VP
    # the VP the search expects the better move to gain over the other (its mean final margin,
    # the solo game's score, minus the other's), when the caller knows it
    expected: float | None = None

    @property
    def total(self) -> float:
        """The difference in the mover's lead over all categories (VP)."""
        return sum(self.by_category.values())

    def largest(self, count: int = 4) -> list[tuple[str, float]]:
        """The categories that differ by at least :data:`SHOWN_FROM` VP, largest first."""
        shown = [(k, v) for k, v in self.by_category.items() if abs(v) >= SHOWN_FROM]
        return sorted(shown, key=lambda kv: -abs(kv[1]))[:count]

    def text(self, count: int = 4) -> str:
        """One line: ``+3 barn, +2 animals, -1 home board (your lead in VP, expected at the
        game's end)``; ``no category differs by half a VP or more`` when none does; and what
        the categories leave of the VP the search expects (:attr:`expected`): ``the 9.4 VP
        the search expects come later`` when the lines are compared before the game's end,
        ``the search expects 9.4 VP`` when at its end (or by the model) and no category
        differs."""
        parts = [f"{_signed(v)} {CATEGORY_NAMES[k]}" for k, v in self.largest(count)]
        what = ("the final lead the model expects" if self.source == "model"
                else f"your VP at {self.where}" if self.players == 1
                else f"the lead in VP at {self.where}")
        before_end = self.source == "lines" and self.where != "the game's end"
        gap = self.expected
        if gap is None:  # not known: a better move's gain not seen yet comes later
            rest = ("the better move's gain comes later" if before_end and parts
                    and self.total < SHOWN_FROM else "")
        elif gap - max(0.0, self.total) < SHOWN_FROM:
            rest = ""  # the categories account for what the search expects
        elif not before_end:  # the categories stand beside it; none: the search's gap
            rest = "" if parts else f"the search expects {gap:.1f} VP"
        elif self.total < SHOWN_FROM:
            rest = f"the {gap:.1f} VP the search expects come later"
        else:
            rest = f"the rest of the {gap:.1f} VP the search expects comes later"
        if not parts:
            yet = " yet" if before_end and rest else ""
            return f"no category differs by half a VP or more{yet} ({what})" + (
                f": {rest}" if rest else "")
        return f"{', '.join(parts)} ({what}, by category{'; ' + rest if rest else ''})"

    def sentence(self, players: tuple[str, ...] = ("P0", "P1"), count: int = 4) -> str:
        """``why place Grocer rather than place Colonist: +3 barn, ...``."""
        better = self.better_label or self.better
        other = self.other_label or self.other
        return f"why {better} rather than {other}: {self.text(count)}"

    def to_dict(self) -> dict[str, Any]:
        """JSON data: the moves (notation and printed), the categories, the source and the
        point of the game where the lines are compared."""
        return {"better": self.better, "other": self.other, "better_label": self.better_label,
                "other_label": self.other_label, "player": self.player,
                "by_category": dict(self.by_category), "total": self.total,
                "source": self.source, "where": self.where, "expected": self.expected,
                "text": self.text()}

    @classmethod
    def from_dict(cls, data: dict[str, Any], players: int = 2,
                  expected: float | None = None) -> Why:
        """A :meth:`to_dict` as a game record keeps it (checked there: ``by_category`` gives
        VP by scoring category), of a game of ``players``; ``expected`` when the record's
        review knows it (its best move's margin minus the played one's). Its text is made
        again, so a review stored under earlier words reads under today's."""
        def text(key: str) -> str:
            value = data.get(key)
            return value if isinstance(value, str) else ""

        source = data.get("source") if data.get("source") in SOURCES else "lines"
        player = data.get("player")
        return cls(better=text("better"), other=text("other"),
                   player=player if isinstance(player, int) else 0,
                   by_category={k: float(v) for k, v in data["by_category"].items()},
                   source=str(source), where=text("where") or "the start of the next half-year",
                   better_label=text("better_label"), other_label=text("other_label"),
                   players=players, expected=expected)


def _signed(x: float) -> str:
    """``3.0`` -> ``+3``, ``-0.46`` -> ``-0.5``."""
    text = f"{x:+.1f}"
    return text[:-2] if text.endswith(".0") else text


def line_end(state: engine.GameState, line: Sequence[str], seed: int = 0) -> engine.GameState:
    """The position ``line`` (moves in notation from ``state``) reaches at the start of the
    next half-year (or the game's end): its moves while they replay and the half-year lasts,
    then uniformly random moves (seeded: the search's own rollout policy) until the half-year
    ends."""
    s = state.copy()
    start = s.half_year
    for text in line:
        if s.is_terminal() or s.half_year != start:
            break
        try:
            s.apply(s.parse_action(text))
        except IllegalActionError:
            break
    rng = random.Random(seed)
    while not s.is_terminal() and s.half_year == start:
        s.apply(rng.choice(s.legal_actions()))
    return s


def _lead(state: engine.GameState, player: int, source: str) -> dict[str, float]:
    """The player's lead (own VP minus the opponent's) in each category of ``state``; in the
    solo game, the player's own VP."""
    if state.players == 1:
        own = state.score_breakdown(player)
        return {k: float(own[k]) for k in engine.SCORE_CATEGORIES}
    if source == "model":
        from arle_ai.search.net import predict_scores

        pred = predict_scores(state)
        assert not isinstance(pred, list)
        mine, theirs = pred.by_category[player], pred.by_category[1 - player]
    else:
        mine, theirs = state.score_breakdown(player), state.score_breakdown(1 - player)
    return {k: float(mine[k] - theirs[k]) for k in engine.SCORE_CATEGORIES}


@functools.cache
def model_has_categories() -> bool:
    """Whether the shipped model predicts the final VP by category (an auxiliary head)."""
    from arle_ai.search.net import NetError, predict_scores

    try:
        predict_scores(engine.GameState())
    except NetError:
        return False
    return True


def explain(state: engine.GameState, better_line: Sequence[str], other_line: Sequence[str],
            source: str | None = None, seed: int = 0, expected: float | None = None) -> Why:
    """Why the first move of ``better_line`` beats the first of ``other_line`` (each a move
    and the continuation the search expects, in notation from ``state``): :class:`Why`.
    ``source`` is ``"model"`` or ``"lines"`` (default: the model when it predicts categories);
    ``expected``: the VP the search expects the better move to gain over the other, which the
    text weighs the categories against (:meth:`Why.text`).
    ValueError: a line that does not start with a legal move, or a finished game."""
    if state.is_terminal():
        raise ValueError("the game is over: no move is better than another")
    player = state.current_player
    assert player is not None
    for line in (better_line, other_line):
        if not line:
            raise ValueError("each line needs its move")
        state.parse_action(line[0])  # IllegalActionError (a ValueError) names a bad move
    if source is None:  # the model predicts two-player games: solo lines are played out
        source = "model" if model_has_categories() and state.players == 2 else "lines"
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, not {source!r}")
    leads, ends = [], []
    for line in (better_line, other_line):
        these = [line_end(state, line, seed * CONTINUATIONS + k) for k in range(CONTINUATIONS)]
        ends += these
        each = [_lead(end, player, source) for end in these]
        leads.append({c: sum(e[c] for e in each) / len(each) for c in engine.SCORE_CATEGORIES})
    diff = {k: leads[0][k] - leads[1][k] for k in engine.SCORE_CATEGORIES}
    if source == "model":
        where = "the game's end"
    elif all(end.is_terminal() for end in ends):
        where = "the game's end"
    else:
        where = f"the start of half-year {state.half_year + 1}"
    return Why(better=better_line[0], other=other_line[0], player=player, by_category=diff,
               source=source, where=where,
               better_label=printed_move(state, better_line[0], better_line),
               other_label=printed_move(state, other_line[0], other_line),
               players=state.players,
               expected=expected)


def explain_ranking(state: engine.GameState, result: SearchResult, seed: int = 0
                    ) -> Why | None:
    """Why a search's best move beats its second (``arle suggest``, the hint), against the VP
    the search expects between them (their mean final margins, the solo game's scores): None
    when it ranked one move only."""
    if len(result.moves) < 2:
        return None
    best, second = result.moves[0], result.moves[1]
    return explain(state, list(best.pv) or [best.move], list(second.pv) or [second.move],
                   seed=seed, expected=best.mean_margin - second.mean_margin)
