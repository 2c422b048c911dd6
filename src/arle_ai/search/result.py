"""What a search found: every root move's statistics, ranked best first (one type for the
search, ``arle_ai.suggest``, the analysis and the web's hint).

``win_rate`` is the search's mean value for the player to move: a win counts 1, a loss 0,
blended with a squashed score margin (``Weights.margin_blend``), so it reads as an estimated
chance to win. In the solo game (``players`` 1) there is nothing to win: ``win_rate`` is the
squashed final score and ``mean_margin`` the mean final score itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from arle_ai import engine

__all__ = ["ActionStats", "SearchResult", "RootStats", "rank_moves"]

# The core's root statistics: (action, visits, mean value, mean margin, prior) per action.
RootStats = list[tuple[int, int, float, float, float]]
PV_RANKS = 5  # the moves, best first, whose principal variation is read


@dataclass(frozen=True)
class ActionStats:
    """One root move with the search's statistics for it: its rank (1 = best), id and
    notation, simulations, mean value (``win_rate``) and VP margin for the player to move,
    prior, and principal variation (the move, then the most visited replies; for the first
    5 ranks)."""

    rank: int
    action: int
    move: str
    visits: int
    win_rate: float
    mean_margin: float
    prior: float
    pv: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """The root moves, best first (most visits, then the higher value, then the lower id),
    and what the search cost."""

    player: int
    pending: str
    moves: list[ActionStats]
    iterations: int
    time_taken: float
    players: int = 2  # 1: the solo game (mean_margin is the mean final score)

    @property
    def best(self) -> ActionStats:
        return self.moves[0]

    @property
    def best_action(self) -> int:
        return self.moves[0].action

    def top(self, count: int | None) -> SearchResult:
        """The result with only the best ``count`` moves (None: all)."""
        return self if count is None else replace(self, moves=self.moves[:count])

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the result."""
        return asdict(self)


def rank_moves(state: engine.GameState, stats: RootStats,
               pv_of: Callable[[int], list[int]], iterations: int, elapsed: float,
               first: int | None = None) -> SearchResult:
    """The result of root statistics ``stats`` of ``state``: the moves ranked, with the
    principal variation ``pv_of(action)`` (action ids from ``state``) of the first ranks.
    ``first``: the move the search chose otherwise than by its visits (sequential halving,
    ``SearchConfig.root_noise="gumbel"``), ranked first."""
    order = sorted(stats, key=lambda t: (t[0] != first, -t[1], -(t[2] if t[1] else 0.0), t[0]))
    moves = []
    for rank, (a, n, q, m, prior) in enumerate(order):
        pv = _pv_text(state, pv_of(a)) if rank < PV_RANKS and n else []
        moves.append(ActionStats(rank=rank + 1, action=a, move=state.action_to_string(a),
                                 visits=n, win_rate=q if n else 0.0,
                                 mean_margin=m if n else 0.0, prior=prior, pv=pv))
    player = state.current_player
    assert player is not None, "searched positions have a decision"
    return SearchResult(player=player, pending=state.pending, moves=moves,
                        iterations=iterations, time_taken=elapsed, players=state.players)


def _pv_text(state: engine.GameState, ids: list[int]) -> list[str]:
    """Action ids played from `state` as notation."""
    s = state.copy()
    out = []
    for a in ids:
        out.append(s.action_to_string(a))
        s.apply(a)
    return out
