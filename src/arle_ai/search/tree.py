"""One process's search: the core's tree (``engine.SearchTree``), the leaf evaluator of a
:class:`SearchConfig`, and the simulation loop, one core call per batch of iterations (the
whole budget, or :data:`PROGRESS_EVERY` iterations between progress reports).

:class:`arle_ai.MCTS` runs it in the calling process, and each worker of its pool
(:mod:`arle_ai.search.pool`) runs one; both pass it values (the config, the budget's numbers
and a seed), so neither reaches into the other.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from arle_ai import engine
from arle_ai.search.config import SearchConfig
from arle_ai.search.result import RootStats, SearchResult, rank_moves
from arle_ai.search.root import dirichlet_mix, gumbel_halving

__all__ = ["TreeSearch", "SearchProgress", "Progress", "make_evaluator", "uses_puct",
           "PROGRESS_EVERY", "PV_DEPTH"]

PROGRESS_EVERY = 256  # iterations between progress reports
PV_DEPTH = 8  # moves of a principal variation
TIMED_PLAN = 0.9  # a timed Gumbel search plans this share of the simulations its time allows


def make_evaluator(config: SearchConfig) -> engine.LeafEvaluator:
    """The compiled leaf evaluator of ``config``: one rollout ("rollout", with the `rollout`
    policy and `horizon`), the static evaluation ("static"), none ("null": every leaf 0.5,
    which measures the tree code alone), or the learned value model ("net": the `net` weights
    file, default the shipped weights; with `net_horizon` h, a rollout of h half-years with
    the `rollout` policy first, see :mod:`arle_ai.search.net`; PUCT priors from its policy
    head at `policy_temperature`)."""
    w = config.weights.as_array()
    t = config.prior_temperature
    if config.leaf == "net":
        from arle_ai.search.net import load_net  # numpy and the weights only when used

        assert config.policy_temperature is not None, "SearchConfig sets the net leaf's"
        return engine.NetEvaluator(w, load_net(config.net), t, config.net_horizon,
                                   config.rollout == "heuristic", config.policy_temperature,
                                   _solo_model(config),
                                   solo_heuristic=config.solo_rollout == "heuristic")
    if config.leaf == "rollout":
        assert config.horizon is not None, "SearchConfig sets the rollout leaf's horizon"
        return engine.RolloutEvaluator(w, t, config.rollout == "heuristic", config.horizon)
    if config.leaf == "static":
        return engine.StaticEvaluator(w, t)
    return engine.NullEvaluator(w, t)


def uses_puct(config: SearchConfig, evaluator: engine.LeafEvaluator, players: int = 2) -> bool:
    """Whether the search of a game of `players` selects by PUCT: ``config.puct``, or when it
    is None (the default), whether it has root noise or the evaluator has a policy for that
    game (a learned model with a policy head: the two-player model's, or in the solo game the
    solo model's; the two-player model never gives solo priors, and the heuristic priors
    played the solo game worse: docs/solo.md)."""
    if config.puct is not None:
        return config.puct
    if config.root_noise != "none":  # root exploration works on priors
        return True
    if not isinstance(evaluator, engine.NetEvaluator):
        return False
    if players == 1:
        return evaluator.solo_model is not None and evaluator.solo_model.has_policy
    return evaluator.model.has_policy


def _solo_model(config: SearchConfig) -> engine.ValueNet | None:
    """The model of solo positions: ``solo_net`` (a solo model's file) or the shipped one (None
    when none is shipped: the static evaluation values solo leaves)."""
    from arle_ai.search.net import default_solo_net, load_net

    if config.solo_net is not None:
        return load_net(config.solo_net, players=1)
    return default_solo_net()


class SearchProgress:
    """A search under way, as its progress callback sees it: the iterations done, the seconds
    since the loop began, and :meth:`result` (the statistics so far, built on request)."""

    __slots__ = ("iterations", "elapsed", "_search", "_state")

    def __init__(self, search: TreeSearch, state: engine.GameState, iterations: int,
                 elapsed: float) -> None:
        self.iterations = iterations
        self.elapsed = elapsed
        self._search = search
        self._state = state

    def result(self) -> SearchResult:
        """The root's statistics so far, as the search would return them now."""
        return self._search.result(self._state, self.iterations, self.elapsed)


# Called every PROGRESS_EVERY iterations and once at the end; True stops the search.
Progress = Callable[[SearchProgress], bool | None]


class TreeSearch:
    """A search tree with its evaluator and loop (``evaluator``: a compiled
    ``engine.LeafEvaluator`` instead of the config's leaf)."""

    def __init__(self, config: SearchConfig,
                 evaluator: engine.LeafEvaluator | None = None) -> None:
        self.config = config
        self.evaluator = evaluator if evaluator is not None else make_evaluator(config)
        self.tree = engine.SearchTree(max_bytes=config.max_memory // config.workers,
                                      max_nodes=config.max_nodes)
        self.puct = uses_puct(config, self.evaluator)
        self.solo_puct = uses_puct(config, self.evaluator, players=1)
        self.chosen: int | None = None  # root_noise="gumbel": the last search's choice
        self._rate: float | None = None  # timed Gumbel searches: simulations a second so far

    def run(self, state: engine.GameState, iterations: int | None, seconds: float | None,
            seed: int, progress: Progress | None = None, noise: bool = True) -> int:
        """Simulations from `state` until `iterations` are done or `seconds` have passed
        (the core's deadline) or `progress` says stop; returns the simulations done. The
        config's root noise (:mod:`arle_ai.search.root`) applies unless `noise` is False."""
        tree, config = self.tree, self.config
        if not config.reuse:
            tree.clear()
        elif tree.bytes_used > tree.max_bytes // 2:
            tree.prune(state)
        tree.seed(seed)
        puct = self.solo_puct if state.players == 1 else self.puct
        tree.ensure_root(state, self.evaluator, puct)
        self.chosen = None
        root_priors = None
        if noise and config.root_noise != "none":
            rng = random.Random(seed)
            if config.root_noise == "gumbel":
                start = time.perf_counter()
                planned = iterations
                if planned is None and self._rate is not None and seconds is not None:
                    # sequential halving needs its budget in simulations: a time budget is
                    # turned into what the searches before it ran in that time (the
                    # deadline stays a hard stop)
                    planned = max(1, int(TIMED_PLAN * self._rate * seconds))
                self.chosen, done = gumbel_halving(
                    tree, state, self.evaluator, config.c, planned, seconds,
                    config.gumbel_k, config.gumbel_scale, rng)
                took = time.perf_counter() - start
                if iterations is None and took > 0:
                    rate = done / took
                    self._rate = rate if self._rate is None else 0.5 * (self._rate + rate)
                if progress is not None:
                    progress(SearchProgress(self, state, done, took))
                return done
            root_priors = dirichlet_mix([p for _, p in self.evaluator.action_priors(state)],
                                        config.noise_alpha, config.noise_fraction, rng)
        start = time.perf_counter()
        budget = iterations if iterations is not None else 1 << 62
        done = 0
        reported = 0
        while done < budget:
            batch = budget - done if progress is None else min(PROGRESS_EVERY, budget - done)
            left = -1.0
            if seconds is not None:
                left = seconds - (time.perf_counter() - start)
                if left <= 0:
                    break
            n = tree.run(state, self.evaluator, batch, left, config.c, puct,
                         root_priors)
            done += n
            if progress is not None and n == batch and done % PROGRESS_EVERY == 0:
                reported = done
                if progress(SearchProgress(self, state, done, time.perf_counter() - start)):
                    break
            if n < batch:
                break
        if progress is not None and reported != done:
            progress(SearchProgress(self, state, done, time.perf_counter() - start))
        return done

    def root_stats(self, state: engine.GameState) -> RootStats:
        """The core's statistics of `state`'s node (which run() searched from)."""
        stats = self.tree.stats(state)
        if stats is None:  # run() searched from this node: never
            raise RuntimeError("the searched position is not in the tree")
        return stats

    def principal_variation(self, state: engine.GameState, action: int) -> list[int]:
        return self.tree.principal_variation(state, action, PV_DEPTH)

    def result(self, state: engine.GameState, iterations: int, elapsed: float) -> SearchResult:
        """The ranked statistics of `state`'s node and their principal variations."""
        return rank_moves(state, self.root_stats(state),
                          lambda a: self.principal_variation(state, a), iterations, elapsed,
                          first=self.chosen)
