"""Game analysis: for each decision of a recorded game, the move played, the engine's best
move and the value the played move lost, plus each player's accuracy.

The solo game has nothing to win, and its squashed value is flat at the scores searches
expect: its verdicts are in VP. A solo move is marked by the expected score it lost beyond
noise (``?`` from :data:`~arle_ai.text.reading.SOLO_DOUBTFUL_VP`, 1 VP, ``??`` from
:data:`~arle_ai.text.reading.SOLO_MISTAKE_VP`, 3 VP), and the solo player's accuracy is the
mean over decisions of ``100 * 2 ** (-VP difference / SOLO_ACCURACY_HALVING_VP)``, the VP
difference being the best move's expected score minus the played move's (every decision's,
as a two-player accuracy counts every value lost): 100% for the engine's choice, 50% for a
move half a VP below it, 25% for one a VP below (docs/solo.md, "The solo review").

Values are the search's mean values for the player deciding (0 = sure loss, 1 = sure win;
see :mod:`arle_ai.play.suggest`). The value lost by a move is the value of the engine's choice
minus the played move's value, never below 0. A player's accuracy is 100 × (1 − mean value
lost).

Values saturate: once a game is all but decided every move is worth about 0 (or 1), so a
player who has fallen far behind loses little value whatever they play. The VP lost by a
marked move (the best move's mean final VP margin minus the played move's, never below 0)
does not saturate, so each player's mean VP lost per decision is reported too. A move without
a mark is one of the best and loses no VP (``vp_lost`` 0): the review never says that the
best lost something.

The played move is valued as surely as the engine's choice (the search's most visited move):
when it is another move with fewer simulations, the position after it is searched to as many
simulations as the most visited move got (at most the same time again), as a chess site
evaluates the position after the move played. A move of few simulations in the first search
is valued by the little exploration it got, differently with each seed (0.59 with one seed
and 0.49 searched on, in one position), and its marks flipped with the seed (docs/
benchmarks.md, "Stability of verdicts").

A move the review does not mark is one of the best, and the review names it the best: it is
the most visited move, or within statistical noise of it, or what it lost beyond noise is
under :data:`DOUBTFUL`, a difference the review does not count (as a chess site names a
better move only for an inaccuracy or worse). Only a marked move gets another move named
the best: the most visited one. Values lost are measured against the most visited move
(``best_value``, kept as ``top``).

Other moves are named as good as the best (``near_best``) only when the search measured them
and measured them close to it (:meth:`arle_ai.text.reading.Measure.as_good`: an interval at
most 0.02 either side that overlaps the most visited move's); at most three are named, the
others as good counted (``unseparated``: the search could not separate them either). Which
of two equal moves the search visits most depends on its seed, so the most visited move is
named as good when the played one is named the best.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from arle_ai import engine
from arle_ai.formats.records import REVIEW_FIELDS, GameRecord
from arle_ai.play.why import Why, explain
from arle_ai.search.config import ANALYZE_BUDGET, Budget, SearchConfig, from_keywords
from arle_ai.search.mcts import MCTS
from arle_ai.search.result import SearchResult
from arle_ai.text import decisions
from arle_ai.text.reading import (
    AS_GOOD_NAMED,
    DOUBTFUL,
    EXACT_VISITS,
    MISTAKE,
    VALUE,
    Measure,
    as_good_moves,
    measure_for,
    printed_answer,
    printed_move,
)

__all__ = ["DecisionReview", "GameAnalysis", "analyze_game", "mark", "confident_loss",
           "move_answers", "move_labels",
           "solo_accuracy", "EXACT_VISITS", "DOUBTFUL", "MISTAKE", "SOLO_ACCURACY_HALVING_VP",
           "review_position"]


def mark(lost: float, measure: Measure = VALUE) -> str:
    """The verdict on a move by what it lost beyond noise (value, or VP with
    :data:`~arle_ai.text.reading.SCORE`): ``""``, ``"?"`` or ``"??"``."""
    return measure.mark(lost)


def confident_loss(best_value: float, best_visits: int, played_value: float,
                   played_visits: int, measure: Measure = VALUE) -> float:
    """The value (or score: ``measure``) lost beyond statistical noise: the loss minus
    :data:`~arle_ai.text.reading.NOISE_Z` standard errors of the difference (the lower end of
    its confidence interval), never below 0."""
    return measure.loss_beyond_noise((best_value, best_visits), (played_value, played_visits))


# A solo decision's accuracy halves with every this many VP of expected score it lost: over
# two solo games each of a random, a greedy and the default player reviewed at 1 s a decision,
# it rated them 44-51%, 55-58% and 97% (halving every VP: 55-59%, 63% and 98%; a gentler
# curve, or counting only marked moves, brought the random and the greedy player closer;
# docs/solo.md, "The solo review").
SOLO_ACCURACY_HALVING_VP = 0.5


def solo_accuracy(vp_difference: float) -> float:
    """A solo decision's accuracy (0..100) by the expected score it lost (VP): halved for
    every :data:`SOLO_ACCURACY_HALVING_VP`."""
    return float(100.0 * 2.0 ** (-max(0.0, vp_difference) / SOLO_ACCURACY_HALVING_VP))


@dataclass(frozen=True)
class DecisionReview:
    """One decision: what was played, what the engine prefers, and what it cost."""

    ply: int
    player: int
    half_year: int
    pending: str
    played: str
    best: str
    played_value: float
    best_value: float
    value_lost: float
    played_margin: float
    best_margin: float
    vp_lost: float  # the drop in the mean margin on a marked move; 0 without a mark
    best_visits: int = 0  # simulations behind best_value
    played_visits: int = 0  # simulations behind played_value (exact: EXACT_VISITS)
    # at most 3 other moves as good as the best: measured, and their interval overlapping the
    # most visited move's (arle_ai.text.reading.Measure.as_good), most visited first
    near_best: tuple[str, ...] = ()
    best_pv: tuple[str, ...] = ()  # the best move and the continuation the search expects
    simulations: int = 0  # the search's simulations in this position (the first search)
    # the search's most visited move (what it would play; best_value is its value): `best`
    # unless the played move gets no mark, when `best` is the played move
    top: str = ""
    played_pv: tuple[str, ...] = ()  # the played move and the continuation after it
    # a marked move: why the best is better, by scoring category (arle_ai.play.why.Why's
    # dict: by_category, source, where, text...); None for a move without a mark
    why: dict[str, Any] | None = None
    # other moves as good as the best beyond the ones named in near_best: the search could
    # not separate them
    unseparated: int = 0
    players: int = 2  # the game's players: 1, the solo game, is judged by the score in VP

    @property
    def measure(self) -> Measure:
        """What the verdict compares: the value (two players) or the score in VP (solo)."""
        return measure_for(self.players)

    @property
    def loss_beyond_noise(self) -> float:
        """The value (solo: VP of the expected final score) lost beyond statistical noise
        (:func:`confident_loss`): what sets the mark and ranks the largest mistakes."""
        if self.players == 1:
            return confident_loss(self.best_margin, self.best_visits, self.played_margin,
                                  self.played_visits, self.measure)
        return confident_loss(self.best_value, self.best_visits, self.played_value,
                              self.played_visits)

    @property
    def mark(self) -> str:
        """``""``, ``"?"`` or ``"??"`` by the value lost beyond statistical noise
        (:func:`confident_loss`): ``?`` when the move lost more than 0.01 even at the low end
        of the loss's confidence interval, ``??`` more than 0.05 (solo: 1 and 3 VP). A loss
        that noise could explain gets no mark, and one near a threshold is not pushed over it
        by noise."""
        return self.measure.mark(self.loss_beyond_noise)


@dataclass
class GameAnalysis:
    """Every reviewed decision, the largest mistakes and each player's accuracy."""

    decisions: list[DecisionReview] = field(default_factory=list)
    iterations: int = 0  # per decision (0: a time budget)
    time_limit: float | None = None  # seconds per decision
    players: int = 2  # the game's players: 1 in the solo game (VP lost is score lost)

    def mistakes(self, count: int = 5) -> list[DecisionReview]:
        """The ``count`` marked decisions that lost most value beyond statistical noise (ties:
        the larger loss, then the earlier), so the list agrees with the marks: a loss that
        noise can explain is no mistake, however large, a move without a mark is one of the
        best however little it lost beyond noise, and a ``??`` comes before a ``?``."""
        costly = [d for d in self.decisions if d.mark]
        return sorted(costly, key=lambda d: (-d.loss_beyond_noise, -d.value_lost, d.ply))[:count]

    def accuracy(self, player: int) -> float | None:
        """100 × (1 − mean value lost) over the player's reviewed decisions (None: none); in
        the solo game, the mean of each decision's :func:`solo_accuracy` (by the expected
        score lost, marked or not)."""
        mine = [d for d in self.decisions if d.player == player]
        if not mine:
            return None
        if self.players == 1:  # every decision's VP difference, marked or not
            return sum(solo_accuracy(d.best_margin - d.played_margin) for d in mine) / len(mine)
        return 100.0 * (1.0 - sum(d.value_lost for d in mine) / len(mine))

    def mean_vp_lost(self, player: int) -> float | None:
        """The player's mean VP lost per reviewed decision (None: none reviewed)."""
        lost = [d.vp_lost for d in self.decisions if d.player == player]
        return None if not lost else sum(lost) / len(lost)

    def best_moves(self, player: int) -> int:
        """How many of the player's reviewed decisions played a best move: one without a
        mark (the search's most visited move, one within statistical noise of it, or one that
        lost under 0.01 beyond noise)."""
        return sum(d.played == d.best for d in self.decisions if d.player == player)

    def best_move_rate(self, player: int) -> float | None:
        """Share of the player's reviewed decisions where a best move was played
        (:meth:`best_moves`; None: none reviewed)."""
        mine = sum(d.player == player for d in self.decisions)
        return None if not mine else self.best_moves(player) / mine

    def summary(self, player: int) -> str | None:
        """The player's review in one sentence, as ``arle analyze`` and the browser say it:
        ``accuracy 93.9%, 2.05 VP lost per decision, a best move in 1 of 8 decisions (12%)``
        (the count first: "12% of 8" read as though 12% were a number of moves); None when
        none of the player's decisions was reviewed."""
        mine = sum(d.player == player for d in self.decisions)
        acc, lost, rate = self.accuracy(player), self.mean_vp_lost(player), \
            self.best_move_rate(player)
        if not mine or acc is None or lost is None or rate is None:
            return None
        return (f"accuracy {acc:.1f}%, {lost:.2f} VP lost per decision, a best move in "
                f"{self.best_moves(player)} of {mine} decision{'' if mine == 1 else 's'} "
                f"({100 * rate:.0f}%)")

    def to_dict(self, record: GameRecord | None = None) -> dict[str, Any]:
        """The analysis as JSON data; with the ``record`` analysed, each decision also names
        its moves in printed names (``played_label``, ``best_label``, ``near_best_labels``)
        and, at a how-many question, the counts the played and the best answer
        (``played_count``, ``best_count``; None elsewhere)."""
        states = list(record.states()) if record is not None else None

        def review(d: DecisionReview) -> dict[str, Any]:
            data = _review_dict(d)
            if states is not None and record is not None:
                played, best, near = move_answers(d, states[d.ply - 1],
                                                  record.actions[d.ply - 1:])
                data.update(played_label=played[0], best_label=best[0],
                            near_best_labels=near, played_count=played[1],
                            best_count=best[1])
            return data

        return {
            "iterations": self.iterations,
            "time_limit": self.time_limit,
            "measure": measure_for(self.players).name,  # what marks: "value" or "score" (VP)
            "decisions": [review(d) for d in self.decisions],
            "mistakes": [review(d) for d in self.mistakes()],
            "players": {str(p): {"accuracy": self.accuracy(p),
                                 "mean_vp_lost": self.mean_vp_lost(p),
                                 "best_move_rate": self.best_move_rate(p),
                                 "best_moves": self.best_moves(p),
                                 "decisions": sum(d.player == p for d in self.decisions),
                                 "summary": self.summary(p)}
                        for p in range(self.players)},
        }


    def to_review(self) -> dict[str, Any]:
        """The analysis as a game record's ``review`` (docs/game-record.md): the search budget
        and every reviewed decision's fields; marks and accuracies follow from them."""
        return {"iterations": self.iterations, "time_limit": self.time_limit,
                "decisions": [_stored(d) for d in self.decisions]}

    @classmethod
    def from_review(cls, review: dict[str, Any], players: int = 2) -> GameAnalysis:
        """The analysis kept in a record's ``review`` (checked when the record was read:
        :func:`arle_ai.formats.records.load_record`) of a game of ``players`` (1: solo);
        keys it does not know are left out."""
        known = {f for f in DecisionReview.__dataclass_fields__}
        decisions = []
        for d in review.get("decisions", []):
            fields = {k: v for k, v in d.items() if k in known}
            for key in ("near_best", "best_pv", "played_pv"):
                if key in fields:
                    fields[key] = tuple(fields[key])
            fields["players"] = players
            decisions.append(_as_verdicts_read(DecisionReview(**fields)))
        return cls(decisions=decisions, iterations=int(review.get("iterations") or 0),
                   time_limit=review.get("time_limit"), players=players)


def move_answers(d: DecisionReview, state: engine.GameState, played: Sequence[int]
                 ) -> tuple[tuple[str, int | None], tuple[str, int | None], list[str]]:
    """A reviewed decision's moves in printed names, each the answer it gives
    (:func:`arle_ai.text.decisions.answers`; at a how-many question its count): the move
    played, by the game's moves from ``state`` on (``played``: the record's, from this
    decision); the best, by its line (the played move's words when it is the move played);
    and the moves named as good as the best. The played and the best come with the count
    they answer at a how-many question (None for any other move)."""
    if played and state.action_to_string(played[0]) == d.played:
        answer = decisions.first_answer(state, played)
        played_said = (answer.label, answer.count.count if answer.count is not None else None)
    else:  # not the record reviewed: the move and the search's line after it
        played_said = printed_answer(state, d.played, d.played_pv)
    best = played_said if d.best == d.played else printed_answer(state, d.best, d.best_pv)
    return played_said, best, [played_said[0] if t == d.played else printed_move(state, t)
                               for t in d.near_best]


def move_labels(d: DecisionReview, state: engine.GameState, played: Sequence[int]
                ) -> tuple[str, str, list[str]]:
    """:func:`move_answers` in printed names alone: the move played, the best and the moves
    named as good as the best."""
    played_said, best, near = move_answers(d, state, played)
    return played_said[0], best[0], near


def _as_verdicts_read(d: DecisionReview) -> DecisionReview:
    """A stored decision as the verdicts read today: no VP lost without a mark, at most
    :data:`~arle_ai.text.reading.AS_GOOD_NAMED` moves named as good, the rest counted, and
    why in today's words, weighed against the VP the search expected (a review written
    before these rules)."""
    named = d.near_best[:AS_GOOD_NAMED]
    why = None if d.why is None else Why.from_dict(
        d.why, d.players, expected=d.best_margin - d.played_margin).to_dict()
    return replace(d, vp_lost=max(0.0, d.best_margin - d.played_margin) if d.mark else 0.0,
                   near_best=named, unseparated=d.unseparated + len(d.near_best) - len(named),
                   why=why)


def _stored(d: DecisionReview) -> dict[str, Any]:
    """A decision as a record stores it (REVIEW_FIELDS; tuples as lists)."""
    data = asdict(d)
    return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()
            if k in REVIEW_FIELDS}


def _review_dict(d: DecisionReview) -> dict[str, Any]:
    data = asdict(d)
    del data["players"]  # the analysis's
    return dict(data, mark=d.mark, loss_beyond_noise=d.loss_beyond_noise)


def _node_value(result: SearchResult, mover: int) -> tuple[float, float, int]:
    """The mover's mean value and VP margin over all the simulations of a search's root
    (the visit-weighted mean of its actions), and their number."""
    visits = sum(a.visits for a in result.moves)
    value = sum(a.visits * a.win_rate for a in result.moves) / visits
    margin = sum(a.visits * a.mean_margin for a in result.moves) / visits
    if result.player == mover:
        return value, margin, visits
    return 1.0 - value, -margin, visits


def _value_after(state: engine.GameState, action: int, mover: int, search: MCTS
                 ) -> tuple[float, float, int, list[str]]:
    """The mover's value and VP margin of ``action``, the simulations behind them and the
    continuation the search expects after it, from ``search`` of the position after it: the
    mean over all its simulations, the estimate the first search gives its moves."""
    after = state.copy()
    after.apply(action)
    if after.is_terminal():
        value0, margin0 = engine.final_value(after, search.config.weights.as_array())
        if mover == 0:
            return value0, margin0, EXACT_VISITS, []
        return 1.0 - value0, -margin0, EXACT_VISITS, []
    result = search.search(after)
    value, margin, visits = _node_value(result, mover)
    return value, margin, visits, list(result.best.pv)


def analyze_game(
    record: GameRecord,
    player: int | None = None,
    budget: Budget | None = None,
    config: SearchConfig | None = None,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> GameAnalysis:
    """Review every decision of ``record`` (only ``player``'s when given) that had more than
    one legal action, each with a search of ``config`` within ``budget`` (default
    :data:`~arle_ai.search.config.ANALYZE_BUDGET`, 1 s); the keyword form (``iterations=``,
    ``time_limit=``, ``seed=``, ...: see :func:`~arle_ai.search.config.from_keywords`) stands
    for both. ``progress(done, total)`` is called after each position."""
    if player not in (None, 0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    if player == 1 and record.start.players == 1:
        raise ValueError("player must be 0 in a solo game (one player)")
    config, budget = _setup(budget, config, options)
    states = list(record.states())
    total = len(record.actions)
    analysis = GameAnalysis(iterations=budget.iterations or 0, time_limit=budget.seconds,
                            players=record.start.players)
    for ply, action in enumerate(record.actions):
        state = states[ply]
        mover = state.current_player
        assert mover is not None, "a recorded action is played in a position with a decision"
        if (player is None or mover == player) and len(state.legal_actions()) > 1:
            review, _ = review_position(state, action, budget, config, ply)
            analysis.decisions.append(review)
        if progress is not None:
            progress(ply + 1, total)
    return analysis


def _setup(budget: Budget | None, config: SearchConfig | None, options: dict[str, Any]
           ) -> tuple[SearchConfig, Budget]:
    """The config and budget of an analysis: given, or of the keyword form."""
    if options:
        if budget is not None or config is not None:
            raise TypeError("give a budget and a config, or keyword options, not both")
        return from_keywords(options, ANALYZE_BUDGET)
    return (SearchConfig() if config is None else config,
            ANALYZE_BUDGET if budget is None else budget)


def review_position(state: engine.GameState, action: int, budget: Budget | None = None,
                    config: SearchConfig | None = None, ply: int = 0, **options: Any
                    ) -> tuple[DecisionReview, SearchResult]:
    """The review of ``action`` played in ``state`` (the ``ply``-th decision of its game, which
    sets the seeds as :func:`analyze_game` does) and the first search's result there."""
    config, budget = _setup(budget, config, options)
    search = MCTS(replace(config, seed=config.seed + ply, reuse=False), budget)
    result = search.search(state)
    return _review(state, ply, action, result, config, budget), result


def _review(state: engine.GameState, ply: int, action: int, result: SearchResult,
            config: SearchConfig, budget: Budget) -> DecisionReview:
    """The review of ``action`` played in ``state`` from the search ``result`` there: the
    played move searched on from the position after it to as many simulations as the most
    visited move got (:func:`_value_after`) when it had fewer, and named the best when it
    then gets no mark."""
    mover = result.player
    top = result.best
    played = next(a for a in result.moves if a.action == action)
    if played.visits >= top.visits:  # the most visited move, or as often as it
        played_value, played_margin, played_visits = (played.win_rate, played.mean_margin,
                                                      played.visits)
        played_pv = list(played.pv) or [played.move]  # continuations: the first 5 ranks
    else:
        # at most the first search's time again (a loaded machine then gives fewer)
        more = MCTS(replace(config, seed=(config.seed + ply) * 2 + 1, reuse=False),
                    Budget(iterations=max(1, top.visits), seconds=budget.seconds))
        played_value, played_margin, played_visits, after_pv = _value_after(
            state, action, mover, more)
        played_pv = [played.move, *after_pv]
    # the verdict: by the value, or in the solo game by the score in VP
    measure = measure_for(result.players)
    played_mean = played_margin if result.players == 1 else played_value
    unmarked = action == top.action or measure.mark(measure.loss_beyond_noise(
        (measure.mean(top), top.visits), (played_mean, played_visits))) == ""
    best, best_pv = (played, played_pv) if unmarked else (top, list(top.pv))
    # as good as the best: measured and overlapping the most visited move (itself included
    # when the played move is named the best), at most AS_GOOD_NAMED of them named
    others = [a for a in result.moves if a is not best and a is not played]
    named, unseparated = as_good_moves(measure, (measure.mean(top), top.visits),
                                       [(measure.mean(a), a.visits) for a in others])
    # a marked move: why the best is better, by scoring category, from the two lines
    why = None if unmarked else explain(state, list(top.pv) or [top.move], played_pv,
                                        seed=config.seed + ply,
                                        expected=top.mean_margin - played_margin).to_dict()
    return DecisionReview(
        ply=ply + 1, player=mover, half_year=state.half_year, pending=state.pending,
        played=played.move, best=best.move,
        played_value=played_value, best_value=top.win_rate,
        value_lost=max(0.0, top.win_rate - played_value),
        played_margin=played_margin, best_margin=top.mean_margin,
        vp_lost=0.0 if unmarked else max(0.0, top.mean_margin - played_margin),
        best_visits=top.visits, played_visits=played_visits,
        near_best=tuple(others[i].move for i in named), best_pv=tuple(best_pv),
        simulations=result.iterations, top=top.move, played_pv=tuple(played_pv), why=why,
        unseparated=unseparated, players=result.players)
