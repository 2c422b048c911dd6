"""Monte Carlo tree search over the engine's atomic decisions.

UCT (or PUCT with priors from the heuristic evaluation) on a transposition table: nodes are
keyed by the position, so equal positions reached by different move orders share statistics,
and the table is kept between searches (tree reuse). Leaves are valued by one rollout in the
compiled core (uniform or heuristic policy, optionally truncated and finished by the static
evaluation). Values are from the deciding player's view: win 1, loss 0 (the rules' tie-break
leaves no draws), blended with a squashed score margin (see :mod:`arle_ai.heuristics`).

The search is deterministic for a given seed, iteration budget and worker count.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from arle_ai import _core
from arle_ai.heuristics import DEFAULT_WEIGHTS, Weights

__all__ = ["MCTS", "SearchResult", "ActionStats"]

_ROLLOUTS = ("heuristic", "random")
PROGRESS_EVERY = 256


class _Node:
    """Statistics of one position: per legal action its visits, value and margin sums."""

    __slots__ = ("actions", "priors", "visits", "value", "margin", "player", "total")

    def __init__(self, actions: list[int], priors: list[float], player: int) -> None:
        self.actions = actions
        self.priors = priors
        self.visits = [0] * len(actions)
        self.value = [0.0] * len(actions)
        self.margin = [0.0] * len(actions)
        self.player = player
        self.total = 0


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


class MCTS:
    """Monte Carlo tree search.

    Args:
        iterations: simulations per search (default 1000 when no time limit is given).
        time_limit: seconds per search (an alternative or additional budget).
        c: exploration constant (UCT: c * sqrt(ln N / n); PUCT: c * P * sqrt(N) / (1 + n)).
        rollout: "heuristic" or "random" playouts in the core.
        horizon: rollouts stop when this many more half-years have begun and are finished by
            the static evaluation; -1 plays to the end. Default 2: at equal time it beat 1 by
            38-22 over 60 games (docs/benchmarks.md).
        puct: use priors from the heuristic evaluation (softmax of the margin after each move).
        prior_temperature: VP scale of that softmax.
        weights: evaluation and rollout weights.
        seed: makes the search deterministic.
        workers: root parallelism across processes (iterations are split between them).
        reuse: keep the transposition table between searches.
        max_nodes: the table is cleared when it grows past this many positions.
    """

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        c: float = 0.9,
        rollout: str = "heuristic",
        horizon: int = 2,
        puct: bool = False,
        prior_temperature: float = 2.0,
        weights: Weights = DEFAULT_WEIGHTS,
        seed: int = 0,
        workers: int = 1,
        reuse: bool = True,
        max_nodes: int = 300_000,
    ) -> None:
        if iterations is None and time_limit is None:
            iterations = 1000
        if iterations is not None and (not isinstance(iterations, int) or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be positive, not {time_limit!r}")
        if rollout not in _ROLLOUTS:
            raise ValueError(f"rollout must be one of {_ROLLOUTS}, not {rollout!r}")
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers must be a positive integer, not {workers!r}")
        if c < 0:
            raise ValueError(f"c must be non-negative, not {c!r}")
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
        self.table: dict[bytes, _Node] = {}
        self._w = weights.as_array()
        self._searches = 0

    # ---- public ----

    def search(self, state: _core.GameState,
               progress: Callable[[int], None] | None = None) -> SearchResult:
        """Search from `state` (not changed) and return the statistics of its actions.

        progress: called with the iterations done so far, every PROGRESS_EVERY iterations
        (single-process searches only; it does not change what the search finds)."""
        if state.is_terminal():
            raise ValueError("the game is over: there is nothing to search")
        start = time.perf_counter()
        self._searches += 1
        if self.workers > 1:
            merged, done = _parallel_search(self, state)
            root = merged
        else:
            done = self._run(state, self.iterations, self.time_limit,
                             self.seed * 1_000_003 + self._searches, progress)
            root = self.table[state.key()]
        return self._result(state, root, done, time.perf_counter() - start)

    def clear(self) -> None:
        """Forget the tree."""
        self.table.clear()

    def node_count(self) -> int:
        return len(self.table)

    def node_stats(self, state: _core.GameState) -> dict[int, tuple[int, float]] | None:
        """Visits and value sum per action of `state`'s node, or None if not in the tree."""
        node = self.table.get(state.key())
        if node is None:
            return None
        return {a: (n, w) for a, n, w in zip(node.actions, node.visits, node.value, strict=True)}

    # ---- the search loop ----

    def _run(self, state: _core.GameState, iterations: int | None, time_limit: float | None,
             seed: int, progress: Callable[[int], None] | None = None) -> int:
        if not self.reuse:
            self.table.clear()
        elif len(self.table) > self.max_nodes:
            self.table.clear()
        rng = random.Random(seed)
        deadline = None if time_limit is None else time.perf_counter() + time_limit
        done = 0
        self._expand(state)
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done % 16 == 0 and time.perf_counter() >= deadline:
                break
            self._simulate(state, rng)
            done += 1
            if progress is not None and done % PROGRESS_EVERY == 0:
                progress(done)
        if progress is not None:
            progress(done)
        return done

    def _expand(self, state: _core.GameState) -> _Node:
        key = state.key()
        node = self.table.get(key)
        if node is None:
            actions = state.legal_actions()
            if self.puct:
                priors = self._priors(state, actions)
            else:
                priors = [1.0 / len(actions)] * len(actions)
            node = _Node(actions, priors, state.current_player)
            self.table[key] = node
        return node

    def _priors(self, state: _core.GameState, actions: list[int]) -> list[float]:
        scores = dict(_core.action_scores(state, self._w))
        t = self.prior_temperature
        best = max(scores.values())
        ex = [math.exp((scores[a] - best) / t) for a in actions]
        z = sum(ex)
        return [e / z for e in ex]

    def _select(self, node: _Node) -> int:
        total = node.total
        best_i = 0
        best = -1.0
        c = self.c
        if self.puct:
            sq = math.sqrt(total + 1)
            for i, n in enumerate(node.visits):
                q = node.value[i] / n if n else 0.5
                u = q + c * node.priors[i] * sq / (1 + n)
                if u > best:
                    best = u
                    best_i = i
            return best_i
        log_total = math.log(total + 1)
        for i, n in enumerate(node.visits):
            if n == 0:
                return i
            u = node.value[i] / n + c * math.sqrt(log_total / n)
            if u > best:
                best = u
                best_i = i
        return best_i

    def _simulate(self, root: _core.GameState, rng: random.Random) -> None:
        state = root.copy()
        path: list[tuple[_Node, int]] = []
        table = self.table
        while True:
            if state.is_terminal():
                scores = state.scores()
                m0 = scores[0] - scores[1]
                win = 1.0 if state.winner() == 0 else 0.0
                blend = self.weights.margin_blend
                v0 = (1 - blend) * win + blend * (0.5 + 0.5 * math.tanh(m0 / self.weights.sigma))
                break
            node = table.get(state.key())
            if node is None:
                self._expand(state)
                v0, m0 = _core.rollout_value(state, self._w, rng.getrandbits(62),
                                             self.rollout == "heuristic", self.horizon)
                break
            i = self._select(node)
            path.append((node, i))
            state.apply(node.actions[i])
            if len(path) > 2000:
                v0, m0 = 0.5, 0.0
                break
        for node, i in path:
            node.total += 1
            node.visits[i] += 1
            if node.player == 0:
                node.value[i] += v0
                node.margin[i] += m0
            else:
                node.value[i] += 1.0 - v0
                node.margin[i] -= m0

    # ---- results ----

    def _principal_variation(self, state: _core.GameState, action: int,
                             depth: int = 8) -> list[str]:
        s = state.copy()
        pv = [s.action_to_string(action)]
        s.apply(action)
        for _ in range(depth - 1):
            if s.is_terminal():
                break
            node = self.table.get(s.key())
            if node is None or node.total == 0:
                break
            i = max(range(len(node.actions)), key=lambda j: (node.visits[j], -node.actions[j]))
            if node.visits[i] == 0:
                break
            pv.append(s.action_to_string(node.actions[i]))
            s.apply(node.actions[i])
        return pv

    def _result(self, state: _core.GameState, root: _Node, done: int,
                elapsed: float) -> SearchResult:
        order = sorted(
            range(len(root.actions)),
            key=lambda i: (-root.visits[i],
                           -(root.value[i] / root.visits[i] if root.visits[i] else 0.0),
                           root.actions[i]))
        stats = []
        for rank, i in enumerate(order):
            n = root.visits[i]
            a = root.actions[i]
            stats.append(ActionStats(
                action=a,
                text=state.action_to_string(a),
                visits=n,
                mean_value=root.value[i] / n if n else 0.0,
                mean_margin=root.margin[i] / n if n else 0.0,
                prior=root.priors[i],
                pv=self._principal_variation(state, a) if rank < 5 and n else [],
            ))
        return SearchResult(best_action=stats[0].action, actions=stats, iterations=done,
                            time_taken=elapsed, player=state.current_player)


# ---- root parallelism ----

def _worker_search(args: tuple) -> tuple[list[int], list[int], list[float], list[float], int, dict]:
    options, state, iterations, time_limit, seed, keep_tree = args
    mcts = MCTS(**options)
    done = mcts._run(state, iterations, time_limit, seed)
    root = mcts.table[state.key()]
    table = mcts.table if keep_tree else {}
    return root.actions, root.visits, root.value, root.margin, done, table


def _parallel_search(mcts: MCTS, state: _core.GameState) -> tuple[_Node, int]:
    """Independent searches in worker processes; their root statistics are summed."""
    import multiprocessing as mp

    k = mcts.workers
    options = dict(c=mcts.c, rollout=mcts.rollout, horizon=mcts.horizon, puct=mcts.puct,
                   prior_temperature=mcts.prior_temperature, weights=mcts.weights,
                   seed=mcts.seed, workers=1, reuse=False, max_nodes=mcts.max_nodes)
    if mcts.iterations is not None:
        split = [mcts.iterations // k + (1 if i < mcts.iterations % k else 0) for i in range(k)]
    else:
        split = [None] * k
    base = mcts.seed * 1_000_003 + mcts._searches
    jobs = [(options, state, split[i], mcts.time_limit, base * 7919 + i, i == 0)
            for i in range(k)]
    ctx = mp.get_context("fork")
    with ctx.Pool(k) as pool:
        results = pool.map(_worker_search, jobs)
    actions = results[0][0]
    node = _Node(list(actions), [1.0 / len(actions)] * len(actions), state.current_player)
    if mcts.puct:
        node.priors = mcts._priors(state, actions)
    done = 0
    mcts.table.clear()
    for acts, visits, value, margin, n_done, table in results:
        done += n_done
        for i in range(len(acts)):
            node.visits[i] += visits[i]
            node.value[i] += value[i]
            node.margin[i] += margin[i]
        # keep the first worker's subtree for principal variations
        if not mcts.table:
            mcts.table.update(table)
    node.total = sum(node.visits)
    mcts.table[state.key()] = node
    return node, done
