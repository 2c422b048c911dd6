"""Monte Carlo tree search over the engine's atomic decisions.

UCT (or PUCT with priors from the heuristic evaluation) on a transposition table: nodes are
keyed by the position, so equal positions reached by different move orders share statistics,
and the table is kept between searches (tree reuse). The simulation loop (selection,
expansion, backpropagation) runs in the compiled core on C arrays (``_core.SearchTree``, see
docs/search.md); this module is its Python face: options, budgets, progress, results and
root parallelism. Leaves are valued by a :class:`LeafEvaluator` chosen per search: by default
one compiled rollout of uniformly random moves, truncated after 2 half-years and valued there by
the learned model (:mod:`arle_ai.search.net`); with ``leaf="rollout"`` (or a ``rollout`` or
``horizon`` option alone) the rollout, of random moves or the heuristic policy, is finished by
the static evaluation instead. Values are from the deciding player's view: win 1, loss 0 (the
rules' tie-break leaves no draws), blended with a squashed score margin (see
:mod:`arle_ai.search.heuristics`).

The search is deterministic for a given seed, iteration budget and worker count.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from arle_ai.base import limits
from arle_ai.engine import _core
from arle_ai.search.heuristics import DEFAULT_WEIGHTS, Weights

__all__ = ["MCTS", "SearchResult", "ActionStats", "LEAVES", "ROLLOUTS", "DEFAULT_ROLLOUT",
           "DEFAULT_LEAF", "DEFAULT_NET_HORIZON", "make_evaluator"]

ROLLOUTS = ("random", "heuristic")
# Uniformly random rollouts cost about a quarter of heuristic ones (9.9 vs 40.6 us at horizon
# 2), so a timed search runs about 3x more iterations, and at 0.25 s a move that won 92-0-8
# against the heuristic-rollout search of 26a9462 (docs/search.md, "The default rollout").
DEFAULT_ROLLOUT = "random"
LEAVES = ("rollout", "static", "null", "net")
# The default leaf: a uniformly random rollout of 2 half-years valued by the learned model (the
# shipped weights) instead of the static evaluation. At 0.25 s a move it beat the random-rollout
# search 36-0-6 (SPRT accepted +100 Elo; docs/benchmarks.md, "Learned evaluation").
DEFAULT_LEAF = "net"
DEFAULT_NET_HORIZON = 2
PROGRESS_EVERY = 256
PV_DEPTH = 8
PV_RANKS = 5


@dataclass(frozen=True)
class ActionStats:
    """Search statistics of one root action."""

    action: int
    text: str
    visits: int
    mean_value: float
    mean_margin: float
    prior: float
    pv: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """What a search found: the best action and every root action's statistics, best first."""

    best_action: int
    actions: list[ActionStats]
    iterations: int
    time_taken: float
    player: int

    def best(self) -> ActionStats:
        return self.actions[0]


def make_evaluator(leaf: str = "rollout", rollout: str = DEFAULT_ROLLOUT, horizon: int = 2,
                   weights: Weights = DEFAULT_WEIGHTS,
                   prior_temperature: float = 2.0,
                   net: _core.ValueNet | str | None = None,
                   net_horizon: int | None = None) -> _core.LeafEvaluator:
    """The compiled leaf evaluator for the search options: one rollout ("rollout", with the
    `rollout` policy and `horizon`), the static evaluation ("static"), none ("null": every
    leaf 0.5, which measures the tree code alone), or the learned value model ("net": `net`,
    a ``_core.ValueNet`` or a weights file, default the shipped weights; with `net_horizon`
    h, a rollout of h half-years with the `rollout` policy first, see :mod:`arle_ai.search.net`)."""
    w = weights.as_array()
    if leaf == "net":
        from arle_ai.search.net import load_net

        model = net if isinstance(net, _core.ValueNet) else load_net(net)
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, not {rollout!r}")
        return _core.NetEvaluator(w, model, prior_temperature, net_horizon,
                                  rollout == "heuristic")
    if leaf == "rollout":
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, not {rollout!r}")
        return _core.RolloutEvaluator(w, prior_temperature, rollout == "heuristic", horizon)
    if leaf == "static":
        return _core.StaticEvaluator(w, prior_temperature)
    if leaf == "null":
        return _core.NullEvaluator(w, prior_temperature)
    raise ValueError(f"leaf must be one of {LEAVES}, not {leaf!r}")


class MCTS:
    """Monte Carlo tree search.

    Args:
        iterations: simulations per search (default 1000 when no time limit is given).
        time_limit: seconds per search (an alternative or additional budget).
        c: exploration constant (UCT: c * sqrt(ln N / n); PUCT: c * P * sqrt(N) / (1 + n)).
        rollout: "random" (default: uniformly random moves) or "heuristic" (the heuristic
            policy, about 4x the cost a rollout) playouts in the core; also the policy of the
            net leaf's rollout (`net_horizon`). Given without `leaf` (like `horizon`), it
            selects the rollout leaf.
        horizon: rollouts stop when this many more half-years have begun and are finished by
            the static evaluation; -1 plays to the end. Default 2: at equal time it beat 1 by
            38-22 over 60 games (heuristic rollouts then; docs/benchmarks.md).
        puct: use priors from the heuristic evaluation (softmax of the margin after each move).
        prior_temperature: VP scale of that softmax.
        weights: evaluation and rollout weights.
        seed: makes the search deterministic.
        workers: root parallelism: a persistent pool of this many processes, each searching
            its own tree (kept between searches) with its share of the iterations; only the
            root statistics and principal variations come back.
        reuse: keep the tree between searches.
        max_nodes: a ceiling on the tree's positions (None: only max_memory bounds it).
        max_memory: a ceiling in bytes on the tree (nodes, edges and index, all workers
            together). When a search reaches it, no node is added: new leaves are still
            evaluated and backed up, so the existing tree keeps improving. A reused tree over
            half the ceiling is cut to the part the new root reaches before the next search.
        leaf: how a new leaf is valued: "net" (the learned value model, see
            :func:`make_evaluator`), "rollout", "static" or "null". Default (None): "net" with
            `net_horizon` 2 (a random rollout of 2 half-years, then the model), unless
            `rollout` or `horizon` is given, which select "rollout".
        net: with leaf="net": a ``_core.ValueNet`` or a weights file (default: the shipped
            weights).
        net_horizon: with leaf="net": None (the model values the leaf) or h >= 0 (a rollout
            with the `rollout` policy until h more half-years have begun, valued by the model);
            2 when the leaf is the default.
        evaluator: a compiled ``_core.LeafEvaluator`` to use instead of `leaf` (for example a
            learned evaluation); it must be picklable for ``workers`` > 1.
    """

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = 0.9,
        rollout: str | None = None,
        horizon: int | None = None,
        puct: bool = False,
        prior_temperature: float = 2.0,
        weights: Weights = DEFAULT_WEIGHTS,
        seed: int = 0,
        workers: int = 1,
        reuse: bool = True,
        max_nodes: int | None = None,
        max_memory: int = 1 << 30,
        leaf: str | None = None,
        evaluator: _core.LeafEvaluator | None = None,
        net: _core.ValueNet | str | None = None,
        net_horizon: int | None = None,
    ) -> None:
        if leaf is None:  # rollout or horizon alone asks for the rollout leaf
            if rollout is None and horizon is None:
                leaf = DEFAULT_LEAF
                net_horizon = DEFAULT_NET_HORIZON if net_horizon is None else net_horizon
            else:
                leaf = "rollout"
        rollout = DEFAULT_ROLLOUT if rollout is None else rollout
        horizon = 2 if horizon is None else horizon
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None:
            limits.check_count(iterations, "iterations", limits.MAX_ITERATIONS)
        if time_limit is not None:
            limits.check_seconds(time_limit, "time_limit")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, not {rollout!r}")
        limits.check_workers(workers)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            # any size: the tree keeps its low 63 bits (analysis adds the ply to a user seed)
            raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 <= c <= limits.MAX_C:
            raise ValueError(f"c must be a number in 0..{limits.MAX_C:g}, not {c!r}")
        if max_nodes is not None and (not isinstance(max_nodes, int)
                                      or not 1 <= max_nodes <= _core.MAX_TREE_NODES):
            raise ValueError(f"max_nodes must be an integer in 1..{_core.MAX_TREE_NODES}, "
                             f"not {max_nodes!r}")
        if (not isinstance(max_memory, int)
                or not workers << 16 <= max_memory <= _core.MAX_TREE_BYTES):
            raise ValueError(f"max_memory must be {workers << 16}..{_core.MAX_TREE_BYTES} "
                             f"bytes, not {max_memory!r}")
        if evaluator is not None and not isinstance(evaluator, _core.LeafEvaluator):
            raise ValueError(f"evaluator must be a _core.LeafEvaluator, not {evaluator!r}")
        if evaluator is not None and type(evaluator).__module__ != _core.__name__:
            # the search calls the C methods value/priors, which Python cannot override: a
            # Python subclass would silently value every leaf 0.5
            raise ValueError(f"evaluator must be one of the core's evaluators (a subclass "
                             f"compiled in arle_ai.engine._core, docs/search.md), not "
                             f"{type(evaluator).__qualname__} from {type(evaluator).__module__}")
        self.iterations = iterations
        self.time_limit = time_limit
        self.c = c
        self.rollout = rollout
        self.horizon = horizon
        self.puct = puct
        self.prior_temperature = prior_temperature
        self.weights = weights
        self.seed = seed
        self.workers = workers
        self.reuse = reuse
        self.max_nodes = max_nodes
        self.max_memory = max_memory
        self.leaf = leaf
        self.evaluator = evaluator if evaluator is not None else make_evaluator(
            leaf, rollout, horizon, weights, prior_temperature, net, net_horizon)
        self.tree = _core.SearchTree(max_bytes=max_memory // workers, max_nodes=max_nodes)
        self._searches = 0
        self._pool = None
        self._merged: tuple[bytes, list[tuple[int, int, float, float, float]]] | None = None

    # ---- public ----

    def search(self, state: _core.GameState,
               progress: Callable[[int], None] | None = None) -> SearchResult:
        """Search from `state` (not changed) and return the statistics of its actions.

        progress: called with the iterations done so far, every PROGRESS_EVERY iterations
        (single-process searches only; it does not change what the search finds)."""
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        if not state.legal_actions():
            raise ValueError("the position has no legal decision (not from new_game/from_dict)")
        start = time.perf_counter()
        self._searches += 1
        if self.workers > 1:
            from arle_ai.search.pool import parallel_search

            stats, pvs, done = parallel_search(self, state)
            self._merged = (state.key(), stats)
        else:
            done = self._run(state, self.iterations, self.time_limit,
                             self.seed * 1_000_003 + self._searches, progress)
            tree_stats = self.tree.stats(state)
            if tree_stats is None:  # run() searched from this node: never
                raise RuntimeError("the searched position is not in the tree")
            stats, pvs = tree_stats, None
        return self._result(state, stats, pvs, done, time.perf_counter() - start)

    def clear(self) -> None:
        """Forget the tree."""
        self.tree.clear()
        self._merged = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def close(self) -> None:
        """Stop the worker processes of a parallel search (they also end with the program)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def node_count(self) -> int:
        """Positions in the tree (of this process; worker trees are not counted)."""
        return self.tree.node_count

    def node_stats(self, state: _core.GameState) -> dict[int, tuple[int, float]] | None:
        """Visits and value sum per action of `state`'s node, or None if not in the tree.
        (After a parallel search: the merged root of the last search only.)"""
        stats = self.tree.stats(state)
        if stats is None and self._merged is not None and self._merged[0] == state.key():
            stats = self._merged[1]
        if stats is None:
            return None
        return {a: (n, q * n) for a, n, q, _m, _p in stats}

    # ---- the search loop ----

    def _run(self, state: _core.GameState, iterations: int | None, time_limit: float | None,
             seed: int, progress: Callable[[int], None] | None = None) -> int:
        """Simulations from `state` in the core, in batches between progress reports."""
        tree = self.tree
        if not self.reuse:
            tree.clear()
        elif tree.bytes_used > tree.max_bytes // 2:
            tree.prune(state)
        tree.seed(seed)
        tree.ensure_root(state, self.evaluator, self.puct)
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        budget = iterations if iterations is not None else 1 << 62
        done = 0
        reported = 0
        while done < budget:
            batch = budget - done if progress is None else min(PROGRESS_EVERY, budget - done)
            seconds = -1.0
            if deadline is not None:
                seconds = deadline - time.perf_counter()
                if seconds <= 0:
                    break
            n = tree.run(state, self.evaluator, batch, seconds, self.c, self.puct)
            done += n
            if progress is not None and n == batch and done % PROGRESS_EVERY == 0:
                progress(done)
                reported = done
            if n < batch:
                break
        if progress is not None and reported != done:
            progress(done)
        return done

    # ---- results ----

    def _result(self, state: _core.GameState, stats: list[tuple[int, int, float, float, float]],
                pvs: dict[int, list[int]] | None,
                done: int, elapsed: float) -> SearchResult:
        order = sorted(stats, key=lambda t: (-t[1], -(t[2] if t[1] else 0.0), t[0]))
        out = []
        for rank, (a, n, q, m, prior) in enumerate(order):
            pv: list[str] = []
            if rank < PV_RANKS and n:
                ids = pvs[a] if pvs is not None else self.tree.principal_variation(
                    state, a, PV_DEPTH)
                pv = _pv_text(state, ids)
            out.append(ActionStats(action=a, text=state.action_to_string(a), visits=n,
                                   mean_value=q if n else 0.0, mean_margin=m if n else 0.0,
                                   prior=prior, pv=pv))
        player = state.current_player
        assert player is not None, "searched positions have a decision"
        return SearchResult(best_action=out[0].action, actions=out, iterations=done,
                            time_taken=elapsed, player=player)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass


def _pv_text(state: _core.GameState, ids: list[int]) -> list[str]:
    """Action ids played from `state` as notation."""
    s = state.copy()
    out = []
    for a in ids:
        out.append(s.action_to_string(a))
        s.apply(a)
    return out
