"""Best-move suggestion: one call that answers "what should I do here?".

It runs :class:`arle_ai.MCTS` from the position and returns the moves ranked by visits, each
with its statistics. ``win_rate`` is the search's mean value for the player to move: a win
counts 1, a loss 0, blended with a squashed score margin (``Weights.margin_blend``), so it
reads as an estimated chance to win.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from arle_ai.engine import _core
from arle_ai.search.mcts import MCTS

__all__ = ["Suggestion", "SuggestionReport", "suggest"]


@dataclass(frozen=True)
class Suggestion:
    """One candidate move with the search's statistics for it."""

    rank: int
    action: int
    move: str
    visits: int
    win_rate: float
    mean_margin: float
    prior: float
    pv: list[str]


@dataclass(frozen=True)
class SuggestionReport:
    """The ranked moves (best first) and what the search cost."""

    player: int
    pending: str
    moves: list[Suggestion]
    iterations: int
    time_taken: float

    @property
    def best(self) -> Suggestion:
        return self.moves[0]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the report."""
        return asdict(self)


def suggest(
    state: _core.GameState,
    iterations: int | None = None,
    time_limit: float | None = None,
    workers: int = 1,
    top: int | None = None,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    **search_options: Any,
) -> SuggestionReport:
    """Search ``state`` (left unchanged) and return its moves ranked best first.

    With neither ``iterations`` nor ``time_limit`` the search runs 2000 iterations. ``top``
    keeps only the best ``top`` moves. ``progress`` is called with the iterations done so far
    (see :meth:`arle_ai.MCTS.search`). Other keyword options go to :class:`arle_ai.MCTS`.
    Raises ValueError for a finished game or a bad budget.

    >>> import arle_ai
    >>> report = arle_ai.suggest(arle_ai.new_game(seed=0), iterations=200, seed=1)
    >>> report.best.move in [m.move for m in report.moves]
    True
    """
    if not isinstance(state, _core.GameState):
        raise TypeError(f"suggest needs a GameState, not {type(state).__name__}")
    if state.is_terminal():
        raise ValueError("the game is over: there is no move to suggest")
    if top is not None and (not isinstance(top, int) or top < 1):
        raise ValueError(f"top must be a positive integer, not {top!r}")
    if iterations is None and time_limit is None:
        iterations = 2000
    search = MCTS(iterations=iterations, time_limit=time_limit, workers=workers, seed=seed,
                  **search_options)
    result = search.search(state, progress=progress)
    ranked = result.actions if top is None else result.actions[:top]
    moves = [
        Suggestion(rank=i + 1, action=s.action, move=s.text, visits=s.visits,
                   win_rate=s.mean_value, mean_margin=s.mean_margin, prior=s.prior,
                   pv=list(s.pv))
        for i, s in enumerate(ranked)
    ]
    return SuggestionReport(player=result.player, pending=state.pending, moves=moves,
                            iterations=result.iterations, time_taken=result.time_taken)
