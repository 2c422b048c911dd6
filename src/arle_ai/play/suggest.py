"""Best-move suggestion: one call that answers "what should I do here?".

It runs :class:`arle_ai.MCTS` from the position and returns its
:class:`~arle_ai.search.result.SearchResult`: the moves ranked by visits, each with its
statistics (``win_rate``: the search's mean value for the player to move, which reads as an
estimated chance to win).
"""

from __future__ import annotations

from typing import Any

from arle_ai import engine
from arle_ai.search.config import LIBRARY_SUGGEST_BUDGET, Budget, SearchConfig, from_keywords
from arle_ai.search.mcts import MCTS
from arle_ai.search.result import SearchResult
from arle_ai.search.tree import Progress

__all__ = ["suggest"]


def suggest(state: engine.GameState, budget: Budget | None = None,
            config: SearchConfig | None = None, top: int | None = None,
            progress: Progress | None = None, **options: Any) -> SearchResult:
    """Search ``state`` (left unchanged) within ``budget`` (default
    :data:`~arle_ai.search.config.LIBRARY_SUGGEST_BUDGET`, 2,000 iterations) with ``config``
    and return its moves ranked best first. ``top`` keeps only the best ``top`` moves.
    ``progress`` is called as the search goes (see :meth:`arle_ai.MCTS.search`). The keyword
    form (``iterations=``, ``time_limit=``, ``seed=``, ``workers=``, any
    :class:`~arle_ai.search.config.SearchConfig` field) stands for ``budget`` and ``config``.
    Raises ValueError for a finished game or a bad budget.

    >>> import arle_ai
    >>> report = arle_ai.suggest(arle_ai.new_game(seed=0), iterations=200, seed=1)
    >>> report.best.move in [m.move for m in report.moves]
    True
    """
    if not isinstance(state, engine.GameState):
        raise TypeError(f"suggest needs a GameState, not {type(state).__name__}")
    if state.is_terminal():
        raise ValueError("the game is over: there is no move to suggest")
    if top is not None and (not isinstance(top, int) or top < 1):
        raise ValueError(f"top must be a positive integer, not {top!r}")
    if options:
        if budget is not None or config is not None:
            raise TypeError("give suggest a budget and a config, or keyword options, not both")
        config, budget = from_keywords(options, LIBRARY_SUGGEST_BUDGET)
    search = MCTS(config, LIBRARY_SUGGEST_BUDGET if budget is None else budget)
    try:
        return search.search(state, progress=progress).top(top)
    finally:
        search.close()
