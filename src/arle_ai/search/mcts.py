"""Monte Carlo tree search over the engine's atomic decisions.

UCT (or PUCT with priors from the heuristic evaluation) on a transposition table: nodes are
keyed by the position, so equal positions reached by different move orders share statistics,
and the table is kept between searches (tree reuse). The simulation loop (selection,
expansion, backpropagation) runs in the compiled core on C arrays (``engine.SearchTree``, see
docs/search.md); :mod:`arle_ai.search.tree` drives it in one process and
:mod:`arle_ai.search.pool` in several (root parallelism). This module is the face: a search
of a :class:`~arle_ai.search.config.SearchConfig` within a
:class:`~arle_ai.search.config.Budget`, returning a
:class:`~arle_ai.search.result.SearchResult`. Leaves are valued by the config's leaf: by
default one compiled rollout of uniformly random moves, truncated after 2 half-years and
valued there by the learned model (:mod:`arle_ai.search.net`). Values are from the deciding
player's view: win 1, loss 0 (the rules' tie-break leaves no draws), blended with a squashed
score margin (see :mod:`arle_ai.search.heuristics`).

The search is deterministic for a given seed, iteration budget and worker count.
"""

from __future__ import annotations

import pickle
import time
from typing import Any

from arle_ai import engine
from arle_ai.search.config import SEARCH_BUDGET, Budget, SearchConfig, from_keywords
from arle_ai.search.pool import WorkerPool
from arle_ai.search.result import ActionStats, RootStats, SearchResult, rank_moves
from arle_ai.search.tree import Progress, SearchProgress, TreeSearch

__all__ = ["MCTS", "SearchResult", "ActionStats", "SearchProgress", "Progress"]


class MCTS:
    """Monte Carlo tree search of ``config`` (default: ``SearchConfig()``, the default
    search), each search within ``budget`` (default :data:`SEARCH_BUDGET`, 1,000
    iterations).

    ``MCTS(iterations=200, seed=1, leaf="rollout")`` is the keyword form: ``iterations`` and
    ``time_limit`` (seconds) make the budget and the other keywords the config
    (:func:`arle_ai.search.config.from_keywords`).

    evaluator: a compiled ``engine.LeafEvaluator`` to use instead of the config's leaf (for
    example a learned evaluation); it must be picklable for ``workers`` > 1.
    """

    def __init__(self, config: SearchConfig | None = None, budget: Budget | None = None, *,
                 evaluator: engine.LeafEvaluator | None = None, **options: Any) -> None:
        if options:
            if config is not None or budget is not None:
                raise TypeError("give MCTS a SearchConfig and a Budget, or keyword options, "
                                "not both")
            config, budget = from_keywords(options)
        config = SearchConfig() if config is None else config
        budget = SEARCH_BUDGET if budget is None else budget
        if not isinstance(config, SearchConfig):
            raise TypeError(f"config must be a SearchConfig, not {config!r}")
        if not isinstance(budget, Budget):
            raise TypeError(f"budget must be a Budget, not {budget!r}")
        if evaluator is not None and not isinstance(evaluator, engine.LeafEvaluator):
            raise ValueError(f"evaluator must be an engine.LeafEvaluator, not {evaluator!r}")
        if evaluator is not None and not engine.is_compiled(evaluator):
            # the search calls the C methods value/priors, which Python cannot override: a
            # Python subclass would silently value every leaf 0.5
            raise ValueError(f"evaluator must be one of the core's evaluators (a subclass "
                             f"compiled in arle_ai.engine._core, docs/search.md), not "
                             f"{type(evaluator).__qualname__} from {type(evaluator).__module__}")
        self.config = config
        self.budget = budget  # a new Budget may be set between searches
        self._local = TreeSearch(config, evaluator)
        self.evaluator = self._local.evaluator
        self.tree = self._local.tree
        self._searches = 0
        self._pool: WorkerPool | None = None
        self._merged: tuple[bytes, RootStats] | None = None

    # ---- public ----

    def search(self, state: engine.GameState, progress: Progress | None = None, *,
               noise: bool = True) -> SearchResult:
        """Search from `state` (not changed) and return the statistics of its actions.

        progress: called with a :class:`SearchProgress` every
        :data:`~arle_ai.search.tree.PROGRESS_EVERY` iterations and at the end; returning
        True stops the search there (single-process searches only; it does not change what
        the search finds).
        noise: False searches this once without the config's ``root_noise`` (plain PUCT: the
        cheap searches of self-play's playout caps)."""
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        if not state.legal_actions():
            raise ValueError("the position has no legal decision (not from new_game/from_dict)")
        start = time.perf_counter()
        self._searches += 1
        seed = self.config.seed * 1_000_003 + self._searches
        if self.config.workers > 1:
            if self._pool is None:
                self._pool = WorkerPool(self.config, self.evaluator)
            stats, pvs, done = self._pool.search(pickle.dumps(state), self.budget, seed)
            self._merged = (state.key(), stats)
            return rank_moves(state, stats, pvs.__getitem__, done, time.perf_counter() - start)
        done = self._local.run(state, self.budget.iterations, self.budget.seconds, seed,
                               progress, noise=noise)
        return self._local.result(state, done, time.perf_counter() - start)

    def clear(self) -> None:
        """Forget the tree."""
        self.tree.clear()
        self._merged = None
        self.close()

    def close(self) -> None:
        """Stop the worker processes of a parallel search (they also end with the program)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def node_count(self) -> int:
        """Positions in the tree (of this process; worker trees are not counted)."""
        return self.tree.node_count

    def node_stats(self, state: engine.GameState) -> dict[int, tuple[int, float]] | None:
        """Visits and value sum per action of `state`'s node, or None if not in the tree.
        (After a parallel search: the merged root of the last search only.)"""
        stats = self.tree.stats(state)
        if stats is None and self._merged is not None and self._merged[0] == state.key():
            stats = self._merged[1]
        if stats is None:
            return None
        return {a: (n, q * n) for a, n, q, _m, _p in stats}

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass
