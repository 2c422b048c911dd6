"""Game analysis: for each decision of a recorded game, the move played, the engine's best
move and the value the played move lost, plus each player's accuracy.

Values are the search's mean values for the player deciding (0 = sure loss, 1 = sure win;
see :mod:`arle_ai.suggest`). The value lost by a move is the best move's value minus the
played move's value, never below 0. A player's accuracy is 100 × (1 − mean value lost).

Values saturate: once a game is all but decided every move is worth about 0 (or 1), so a
player who has fallen far behind loses little value whatever they play. The VP lost by a move
(the best move's mean final VP margin minus the played move's, never below 0) does not
saturate, so each player's mean VP lost per decision is reported too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from arle_ai import _core
from arle_ai.mcts import MCTS
from arle_ai.reading import NOISE_Z, standard_error, within_noise
from arle_ai.records import GameRecord

__all__ = ["DecisionReview", "GameAnalysis", "analyze_game", "mark", "confident_loss",
           "DEFAULT_TIME"]

# A played move with fewer root visits than this is valued by its own search instead.
MIN_VISITS = 10
# Seconds of search per decision by default (a time budget: stable verdicts on any machine
# speed; docs/benchmarks.md, "Stability of verdicts").
DEFAULT_TIME = 1.0
# Value lost (beyond statistical noise: confident_loss) from which a move is marked "?" and
# "??".
DOUBTFUL, MISTAKE = 0.01, 0.05


EXACT_VISITS = 10**9  # a finished game's value is exact


def mark(value_lost: float) -> str:
    """The verdict on a move by the value it lost: ``""``, ``"?"`` or ``"??"``."""
    return "" if value_lost < DOUBTFUL else "?" if value_lost < MISTAKE else "??"


def confident_loss(best_value: float, best_visits: int, played_value: float,
                   played_visits: int) -> float:
    """The value lost beyond statistical noise: the loss minus :data:`NOISE_Z` standard
    errors of the difference (the lower end of its confidence interval), never below 0."""
    spread = math.hypot(standard_error(best_value, best_visits),
                        standard_error(played_value, played_visits))
    return max(0.0, best_value - played_value - NOISE_Z * spread)


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
    vp_lost: float
    best_visits: int = 0  # simulations behind best_value
    played_visits: int = 0  # simulations behind played_value (exact: EXACT_VISITS)
    near_best: tuple[str, ...] = ()  # other moves within statistical noise of the best
    best_pv: tuple[str, ...] = ()  # the best move and the continuation the search expects
    simulations: int = 0  # the search's simulations in this position

    @property
    def loss_beyond_noise(self) -> float:
        """The value lost beyond statistical noise (:func:`confident_loss`): what sets the
        mark and ranks the largest mistakes."""
        return confident_loss(self.best_value, self.best_visits, self.played_value,
                              self.played_visits)

    @property
    def mark(self) -> str:
        """``""``, ``"?"`` or ``"??"`` by the value lost beyond statistical noise
        (:func:`confident_loss`): ``?`` when the move lost more than 0.01 even at the low end
        of the loss's confidence interval, ``??`` more than 0.05. A loss that noise could
        explain gets no mark, and one near a threshold is not pushed over it by noise."""
        return mark(self.loss_beyond_noise)


@dataclass
class GameAnalysis:
    """Every reviewed decision, the largest mistakes and each player's accuracy."""

    decisions: list[DecisionReview] = field(default_factory=list)
    iterations: int = 0  # per decision (0: a time budget)
    time_limit: float | None = None  # seconds per decision

    def mistakes(self, count: int = 5) -> list[DecisionReview]:
        """The ``count`` decisions that lost most value beyond statistical noise (ties: the
        larger loss, then the earlier), so the list agrees with the marks: a loss that noise
        can explain is no mistake, however large, and a ``??`` comes before a ``?``."""
        costly = [d for d in self.decisions if d.loss_beyond_noise > 0]
        return sorted(costly, key=lambda d: (-d.loss_beyond_noise, -d.value_lost, d.ply))[:count]

    def accuracy(self, player: int) -> float | None:
        """100 × (1 − mean value lost) over the player's reviewed decisions (None: none)."""
        lost = [d.value_lost for d in self.decisions if d.player == player]
        return None if not lost else 100.0 * (1.0 - sum(lost) / len(lost))

    def mean_vp_lost(self, player: int) -> float | None:
        """The player's mean VP lost per reviewed decision (None: none reviewed)."""
        lost = [d.vp_lost for d in self.decisions if d.player == player]
        return None if not lost else sum(lost) / len(lost)

    def best_move_rate(self, player: int) -> float | None:
        """Share of the player's reviewed decisions where the engine's best was played."""
        mine = [d for d in self.decisions if d.player == player]
        return None if not mine else sum(d.played == d.best for d in mine) / len(mine)

    def to_dict(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "time_limit": self.time_limit,
            "decisions": [_review_dict(d) for d in self.decisions],
            "mistakes": [_review_dict(d) for d in self.mistakes()],
            "players": {str(p): {"accuracy": self.accuracy(p),
                                 "mean_vp_lost": self.mean_vp_lost(p),
                                 "best_move_rate": self.best_move_rate(p),
                                 "decisions": sum(d.player == p for d in self.decisions)}
                        for p in (0, 1)},
        }


def _review_dict(d: DecisionReview) -> dict[str, Any]:
    return dict(asdict(d), mark=d.mark, loss_beyond_noise=d.loss_beyond_noise)


def _value_after(state: _core.GameState, action: int, mover: int,
                 search: MCTS) -> tuple[float, float, int]:
    """The mover's value and VP margin of ``action``, and the simulations behind them, from a
    search of the position after it."""
    after = state.copy()
    after.apply(action)
    if after.is_terminal():
        value0, margin0 = _core.final_value(after, search.weights.as_array())
        if mover == 0:
            return value0, margin0, EXACT_VISITS
        return 1.0 - value0, -margin0, EXACT_VISITS
    result = search.search(after)
    best = result.actions[0]
    if result.player == mover:
        return best.mean_value, best.mean_margin, best.visits
    return 1.0 - best.mean_value, -best.mean_margin, best.visits


def analyze_game(
    record: GameRecord,
    player: int | None = None,
    iterations: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    time_limit: float | None = None,
    **search_options: Any,
) -> GameAnalysis:
    """Review every decision of ``record`` (only ``player``'s when given) that had more than
    one legal action, each with a search of ``iterations`` or ``time_limit`` seconds (neither:
    :data:`DEFAULT_TIME` seconds). ``progress(done, total)`` is called after each position."""
    if player not in (None, 0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
        raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
    if iterations is None and time_limit is None:
        time_limit = DEFAULT_TIME
    states = list(record.states())
    total = len(record.actions)
    analysis = GameAnalysis(iterations=iterations or 0, time_limit=time_limit)
    for ply, action in enumerate(record.actions):
        state = states[ply]
        mover = state.current_player
        assert mover is not None, "a recorded action is played in a position with a decision"
        if (player is None or mover == player) and len(state.legal_actions()) > 1:
            search = MCTS(iterations=iterations, time_limit=time_limit, seed=seed + ply,
                          reuse=False, **search_options)
            result = search.search(state)
            best = result.actions[0]
            played = next((a for a in result.actions if a.action == action), None)
            if action == best.action:
                played_value, played_margin = best.mean_value, best.mean_margin
                played_visits = best.visits
            elif played is not None and played.visits >= MIN_VISITS:
                played_value, played_margin = played.mean_value, played.mean_margin
                played_visits = played.visits
            else:
                played_value, played_margin, played_visits = _value_after(state, action, mover,
                                                                          search)
            analysis.decisions.append(DecisionReview(
                ply=ply + 1, player=mover, half_year=state.half_year, pending=state.pending,
                played=state.action_to_string(action), best=best.text,
                played_value=played_value, best_value=best.mean_value,
                value_lost=max(0.0, best.mean_value - played_value),
                played_margin=played_margin, best_margin=best.mean_margin,
                vp_lost=max(0.0, best.mean_margin - played_margin),
                best_visits=best.visits, played_visits=played_visits,
                near_best=tuple(a.text for a in result.actions[1:] if within_noise(
                    best.mean_value, best.visits, a.mean_value, a.visits)),
                best_pv=tuple(best.pv), simulations=result.iterations))
        if progress is not None:
            progress(ply + 1, total)
    return analysis
