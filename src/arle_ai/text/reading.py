"""Search results a player can read: who moves in a principal variation, printed names, and
which moves the search cannot tell apart from the best (what ``arle suggest``, ``hint``, the
review and the browser app show).

A move's *value* is the search's mean result for the player to decide over the simulations
through it: a win counts 1, a loss 0, blended with a squashed VP margin
(``Weights.margin_blend``); it ranks moves but is not a probability of winning. Two values are
*within noise* when their difference is under two standard errors of the difference. A
value's standard error has two parts: its sampling error, the variance taken at the Bernoulli
bound ``v (1 - v)`` (values lie in 0..1, so it errs on the side of calling moves equal), and
the spread between two searches of one position, which grow different trees
(:data:`SEARCH_SPREAD`, measured).

The solo game has nothing to win: its verdicts compare a move's *score*, the mean VP the
search expects (``mean_margin``), never the squashed value, whose scale is flat at the scores
searches expect. A score's standard error is one simulation's spread
(:data:`SOLO_SCORE_SD`, a bound) over the root of the visits and the spread between two
searches (:data:`SOLO_SEARCH_SPREAD`), both measured (bench/solo_noise.py).

A move is *as good* as the best (``~`` in a hint, "as good" in a review) only when the search
measured it, and measured it close to the best: its interval (its mean, give or take
:data:`NOISE_Z` standard errors) is at most twice the smallest loss a review marks wide on
either side (:data:`MEASURED_HALF_WIDTH`, 0.02, about 2,700 simulations at a value near 0.5;
2 VP in the solo game), and it overlaps the best move's interval (:meth:`Measure.as_good`). A
move of a few hundred simulations has an interval so wide that it overlaps almost anything;
the search did not measure it, so it is not named. At most :data:`AS_GOOD_NAMED` moves are
named; the others as good are counted (:func:`as_good_moves`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from arle_ai.base.errors import IllegalActionError
from arle_ai.text import decisions

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = ["LEGEND", "SOLO_LEGEND", "NOISE_Z", "SEARCH_SPREAD", "EXACT_VISITS", "DOUBTFUL",
           "MISTAKE", "SOLO_DOUBTFUL_VP", "SOLO_MISTAKE_VP", "SOLO_SCORE_SD",
           "SOLO_SEARCH_SPREAD", "MEASURED_HALF_WIDTH", "AS_GOOD_NAMED", "Measure", "VALUE",
           "SCORE", "measure_for", "binomial_error", "score_error", "standard_error",
           "printed_move", "printed_answer", "within_noise", "as_good_moves", "as_good_text",
           "Step", "pv_steps", "move_steps", "pv_text", "turn_end", "same_move"]

NOISE_Z = 2.0
# The spread of a move's value between two searches of one position that sampling error does
# not explain: the searches grow different trees, so their values for one move differ more
# than coin flips would. Of the values `arle analyze`'s verdicts compare (the most visited
# move's, the move played searched on), 10.0% of same-move pairs of two seeds lay beyond 1.96
# binomial standard errors at its default budget, where 5% is meant; 4.5% with this spread
# (290 pairs; bench/noise_floor.py on two games other than the one the stability figure is
# taken on; docs/benchmarks-history.md, "Stability of verdicts").
SEARCH_SPREAD = 0.003
# Visits standing for an exact value (a finished game's): no error.
EXACT_VISITS = 10**9
# The losses (beyond statistical noise) a review marks "?" and "??": value in a two-player
# game; VP of the expected score in the solo game, where over two games each reviewed at 1 s
# a decision they marked 26-29% of a random and of a greedy player's decisions (5-22% "??")
# and none of the default AI's (docs/solo.md, "The solo review").
DOUBTFUL, MISTAKE = 0.01, 0.05
SOLO_DOUBTFUL_VP, SOLO_MISTAKE_VP = 1.0, 3.0
# The widest interval (NOISE_Z standard errors on either side of its mean) of a move the
# search measured: twice the smallest loss a review marks ("?": 0.01), so that a move named
# as good is never one whose interval could hide a "??" (0.05). About 2,700 simulations at a
# value near 0.5, 1,000 near 0.9; the best move of a 1-second search has tens of thousands.
MEASURED_HALF_WIDTH = 2 * DOUBTFUL
# The solo game's scores: one simulation's spread (VP), a bound, and the spread between two
# searches of one position. One leaf's score (a heuristic rollout of 2 half-years) spread by
# 4.2 VP (median) and 6.5 (90th percentile) over 40 positions of solo games of a random, a
# greedy and the default player; with 8 VP and 0.5 VP, 3.3% of 303 same-move pairs of two
# seeds' 1-second searches lay beyond 1.96 standard errors of their difference, where 5% is
# meant (bench/solo_noise.py; docs/solo.md, "The solo review").
SOLO_SCORE_SD = 8.0
SOLO_SEARCH_SPREAD = 0.5
# The most moves a verdict names as good as the best; the rest are counted.
AS_GOOD_NAMED = 3

LEGEND = (
    "visits: simulations through the move (the search plays the most visited one)",
    "value: the mover's mean result in them, 1 = win and 0 = loss, blended with the VP margin;",
    "       a ranking score, not a chance to win",
    "margin: the mover's mean final VP lead",
    "~: as good as the best: measured (its value known within 0.02) and within 2 standard",
    "   errors of it (at most 3 marked; a move of few visits is never marked)",
    "continuation: the moves the search expects next, each with the player who makes it",
    "why: the best move's line against the second's, the mover's lead in VP by scoring",
    "     category where the lines meet (docs/search.md, \"Why a move is better\")",
)


# The solo game's legend: no win, the score in place of the value and the margin.
SOLO_LEGEND = (
    "visits: simulations through the move (the search plays the most visited one)",
    "score: the mean VP the search expects after the move: the final score where its lines",
    "       end, else the estimate of the score where they stop (2 half-years on)",
    "vs best: the move's score minus the best move's, in VP",
    "~: as good as the best: measured (its score known within 2 VP) and within 2 standard",
    "   errors of it (at most 3 marked; a move of few visits is never marked)",
    "continuation: the moves the search expects next",
    "why: the best move's line against the second's, your VP by scoring category where",
    "     the lines meet (docs/search.md, \"Why a move is better\")",
)


def binomial_error(value: float, visits: int) -> float:
    """Upper bound of the sampling error of a mean value in 0..1 over ``visits`` simulations:
    the standard error at the Bernoulli bound ``v (1 - v)``."""
    v = min(1.0, max(0.0, value))
    return math.sqrt(max(v * (1 - v), 1e-4) / max(1, visits))


def standard_error(value: float, visits: int) -> float:
    """The standard error of a search's mean value: its sampling error
    (:func:`binomial_error`) and the spread between searches (:data:`SEARCH_SPREAD`), added
    in quadrature; 0 for an exact value (``visits`` at least :data:`EXACT_VISITS`)."""
    if visits >= EXACT_VISITS:
        return 0.0
    return math.hypot(binomial_error(value, visits), SEARCH_SPREAD)


def within_noise(best_value: float, best_visits: int, value: float, visits: int) -> bool:
    """Whether a move's value cannot be told apart from the best move's at this many visits
    (:meth:`Measure.within_noise` of :data:`VALUE`)."""
    return VALUE.within_noise((best_value, best_visits), (value, visits))


def score_error(score: float, visits: int) -> float:
    """The standard error of a solo search's mean score (VP): one simulation's spread
    (:data:`SOLO_SCORE_SD`) over the root of the visits and the spread between searches
    (:data:`SOLO_SEARCH_SPREAD`), in quadrature; 0 for an exact score (a finished game's)."""
    if visits >= EXACT_VISITS:
        return 0.0
    return math.hypot(SOLO_SCORE_SD / math.sqrt(max(1, visits)), SOLO_SEARCH_SPREAD)


@dataclass(frozen=True)
class Measure:
    """What the verdicts compare a move by, and how surely the search knows it: a mean over a
    move's simulations (the statistic ``field`` of a search's move), its standard error at so
    many visits (``error(mean, visits)``), and the losses a review marks ``?`` and ``??``
    (``doubtful``, ``mistake``). A move is measured when its interval is at most ``widest``,
    twice ``doubtful``, on either side."""

    name: str
    field: str
    error: Callable[[float, int], float]
    doubtful: float
    mistake: float

    @property
    def widest(self) -> float:
        """The widest interval (either side) of a move the search measured."""
        return 2 * self.doubtful

    def mean(self, move: object) -> float:
        """A search's move's mean (its ``win_rate`` or ``mean_margin``)."""
        return float(getattr(move, self.field))

    def interval(self, mean: float, visits: int) -> tuple[float, float]:
        """The mean give or take :data:`NOISE_Z` standard errors."""
        half = NOISE_Z * self.error(mean, visits)
        return mean - half, mean + half

    def measured(self, mean: float, visits: int) -> bool:
        """Whether the search measured a move: its interval is at most ``widest`` either side
        (a move it never tried is not measured)."""
        return visits > 0 and NOISE_Z * self.error(mean, visits) <= self.widest

    def as_good(self, best: tuple[float, int], move: tuple[float, int]) -> bool:
        """Whether ``move`` (mean, visits) is as good as ``best`` (mean, visits): measured,
        and its interval overlaps the best's."""
        if not self.measured(*move):
            return False
        low, high = self.interval(*move)
        best_low, best_high = self.interval(*best)
        return low <= best_high and best_low <= high

    def within_noise(self, best: tuple[float, int], move: tuple[float, int]) -> bool:
        """Whether the difference of two means is under :data:`NOISE_Z` standard errors of the
        difference (however few the visits: a test of a loss, not a claim of equality)."""
        spread = math.hypot(self.error(*best), self.error(*move))
        return best[0] - move[0] <= NOISE_Z * spread

    def loss_beyond_noise(self, best: tuple[float, int], move: tuple[float, int]) -> float:
        """What ``move`` lost against ``best`` beyond statistical noise: the loss minus
        :data:`NOISE_Z` standard errors of it (the low end of its interval), never below 0."""
        spread = math.hypot(self.error(*best), self.error(*move))
        return max(0.0, best[0] - move[0] - NOISE_Z * spread)

    def mark(self, loss: float) -> str:
        """``""``, ``"?"`` or ``"??"`` for a loss beyond noise."""
        return "" if loss < self.doubtful else "?" if loss < self.mistake else "??"


# The two-player game's verdicts: values; the solo game's: scores in VP.
VALUE = Measure("value", "win_rate", standard_error, DOUBTFUL, MISTAKE)
SCORE = Measure("score", "mean_margin", score_error, SOLO_DOUBTFUL_VP, SOLO_MISTAKE_VP)


def measure_for(players: int) -> Measure:
    """The verdicts' measure in a game of ``players``: :data:`SCORE` alone, else
    :data:`VALUE`."""
    return SCORE if players == 1 else VALUE


def as_good_moves(measure: Measure, best: tuple[float, int],
                  moves: Sequence[tuple[float, int]], named: int = AS_GOOD_NAMED
                  ) -> tuple[list[int], int]:
    """Which of ``moves`` (mean, visits; most visited first) are as good as ``best``
    (:meth:`Measure.as_good`): the indexes of the first ``named`` of them, and how many more
    there are (the search could not separate them either)."""
    found = [i for i, move in enumerate(moves) if measure.as_good(best, move)]
    return found[:named], max(0, len(found) - named)


def as_good_text(names: Sequence[str], unseparated: int) -> str:
    """The moves named as good as the best, and how many more the search could not separate:
    ``as good: place Forester, place Fisherman; the search could not separate 2 other moves``
    (empty when there are none)."""
    parts = [f"as good: {', '.join(names)}"] if names else []
    if unseparated:
        parts.append(f"the search could not separate {unseparated} other "
                     f"move{'s' if unseparated != 1 else ''}")
    return "; ".join(parts)


def printed_move(state: GameState, text: str, line: Sequence[str] | None = None) -> str:
    """The move ``text`` (notation) of ``state`` in printed names, as the answer it gives
    (:func:`move_steps`: at a how-many question the count its ``line`` makes, the moves from
    ``state`` that begin with it: ``Tanner: 2 hide into 2 leather``); the text itself when
    it does not name a legal move there."""
    return printed_answer(state, text, line)[0]


def printed_answer(state: GameState, text: str, line: Sequence[str] | None = None
                   ) -> tuple[str, int | None]:
    """:func:`printed_move`'s label of the move ``text`` and, at a how-many question, the
    count it answers (:attr:`Step.count_answered`; None for any other move or a text that
    names no legal move)."""
    steps = move_steps(state, text, line)
    return (steps[0].label, steps[0].count_answered) if steps else (text, None)


class Step(NamedTuple):
    """One step of a principal variation as a player reads it: who makes it, its printed
    label and the engine's moves it stands for (notation; several for a count); at a
    how-many question ``count_answered``, the count it answers (the page's count button;
    None for any other move)."""

    player: int
    label: str
    moves: tuple[str, ...]
    count_answered: int | None = None


def _replayed(state: GameState, pv: Sequence[str]) -> tuple[list[int], list[str]]:
    """The action ids of ``pv`` (texts from ``state``) up to the first that does not replay
    or the game's end, and each in notation."""
    s = state.copy()
    ids, texts = [], []
    for text in pv:
        if s.is_terminal():
            break
        try:
            a = s.parse_action(text)
        except ValueError:  # IllegalActionError, or no move at all
            break
        ids.append(a)
        texts.append(s.action_to_string(a))
        s.apply(a)
    return ids, texts


def pv_steps(state: GameState, pv: Sequence[str]) -> list[Step]:
    """The moves of a principal variation (notation texts from ``state``) as a player reads
    them (:class:`Step`: player, printed label, moves); stops at a text that does not replay.
    A repeated conversion, the engine's ``more`` and ``stop``, is one step, its answer to
    the how-many question the game asks there (:func:`arle_ai.text.decisions.answers`):
    ``Tanner: 2 hide into 2 leather``, ``Baker: 1 time``, ``Tanner: none``."""
    ids, texts = _replayed(state, pv)
    out = []
    for answer in decisions.answers(state, ids):
        used, texts = texts[:len(answer.actions)], texts[len(answer.actions):]
        out.append(Step(answer.player, answer.label, tuple(used),
                        answer.count.count if answer.count is not None else None))
    return out


def move_steps(state: GameState, move: str, line: Sequence[str] | None = None) -> list[Step]:
    """A move of ``state`` (notation) and its ``line`` (the moves from ``state`` that begin
    with it, a search's principal variation; none known: the move alone) as a player reads
    them (:func:`pv_steps`): the first step is the move's answer, at a how-many question the
    count the line makes in all (a ``more`` whose line converts twice: ``Tanner: 2 hide into
    2 leather``), the continuation after it. A line that does not begin with ``move`` is not
    its own: the move alone. Empty when ``move`` is not legal in ``state``."""
    moves = list(line) if line and line[0] == move else [move]
    return pv_steps(state, moves)


def pv_text(state: GameState, pv: list[str], players: tuple[str, ...] = ("P0", "P1"),
            limit: int = 4) -> str:
    """A principal variation with who moves: ``P1: Grocer, animal sheep / P0: pass``
    (consecutive moves of one player grouped; at most ``limit`` steps, :func:`pv_steps`: a
    repeated conversion one step). The solo game has one player: the moves alone,
    ``Grocer, animal sheep, pass``."""
    if state.players == 1:
        return ", ".join(step.label for step in pv_steps(state, pv)[:limit])
    groups: list[tuple[int, list[str]]] = []
    for player, label, *_ in pv_steps(state, pv)[:limit]:
        if groups and groups[-1][0] == player:
            groups[-1][1].append(label)
        else:
            groups.append((player, [label]))
    return " / ".join(f"{players[p]}: {', '.join(moves)}" for p, moves in groups)


def turn_end(state: GameState, pv: list[str]) -> GameState:
    """The position after the moves of ``pv`` (notation texts from ``state``) that finish the
    turn of the player to decide: it stops before another player's decision or the same
    player's next worker placement (or where the pv stops replaying)."""
    s = state.copy()
    mover = s.current_player
    for i, text in enumerate(pv):
        if s.is_terminal() or s.current_player != mover or (i and s.pending == "turn"):
            break
        try:
            s.apply(s.parse_action(text))
        except IllegalActionError:
            break
    return s


def same_move(state: GameState, pv_a: list[str], pv_b: list[str]) -> bool:
    """Whether two principal variations from ``state`` make the same move for the player to
    decide: the same first action, or the turns they play reach the identical position (the
    same own sub-decisions in another order, e.g. two Bremen deliveries)."""
    if not pv_a or not pv_b:
        return False
    if pv_a[0] == pv_b[0]:
        return True
    return turn_end(state, pv_a) == turn_end(state, pv_b)
