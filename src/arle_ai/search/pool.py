"""Root parallelism for :class:`arle_ai.MCTS`: a persistent pool of worker processes.

Each worker owns one single-process search (its own tree, kept between searches when the
search reuses trees) and is sent the same position with its share of the iterations and its
own seed. Only the root statistics and the principal variations of the root actions come
back; the parent sums the statistics. Worker ``i`` always gets task ``i``, so a parallel
search is deterministic for a given seed, budget and worker count.
"""

from __future__ import annotations

import multiprocessing as mp
import weakref
from multiprocessing.connection import Connection
from typing import Any

from arle_ai.base import procs
from arle_ai.engine import _core

__all__ = ["WorkerPool", "parallel_search"]

RootStats = list[tuple[int, int, float, float, float]]


def _worker_main(conn: Connection, options: dict[str, Any]) -> None:
    """One worker: search each position it is sent with its own persistent tree."""
    from arle_ai.search.mcts import MCTS, PV_DEPTH

    search = MCTS(**options)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        state, iterations, time_limit, seed = job
        try:
            done = search._run(state, iterations, time_limit, seed)
            stats = search.tree.stats(state)
            if stats is None:
                raise RuntimeError("the searched position is not in the tree")
            pvs = {a: search.tree.principal_variation(state, a, PV_DEPTH)
                   for a, n, *_ in stats if n}
            conn.send(("ok", stats, pvs, done))
        except Exception as exc:  # reported to the parent, which raises it
            conn.send(("error", f"{type(exc).__name__}: {exc}", None, 0))


class WorkerPool:
    """`k` worker processes (fork), each with a pipe; they end with close() or the parent."""

    def __init__(self, k: int, options: dict[str, Any]) -> None:
        ctx = mp.get_context("fork")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for _ in range(k):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, args=(child, options), daemon=True)
            with procs.sigint_ignored():  # Ctrl-C is the parent's; it ends the workers
                proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        self._finalizer = weakref.finalize(self, _shutdown, self.conns, self.procs)

    def run(self, jobs: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        for conn, job in zip(self.conns, jobs, strict=True):
            conn.send(job)
        replies = [conn.recv() for conn in self.conns]
        for status, message, *_ in replies:
            if status != "ok":
                raise RuntimeError(f"a search worker failed: {message}")
        return replies

    def close(self) -> None:
        self._finalizer()


def _shutdown(conns: list[Connection], procs: list[Any]) -> None:
    for conn in conns:
        try:
            conn.send(None)
            conn.close()
        except (OSError, ValueError):
            pass
    for proc in procs:
        proc.join(timeout=2)
        if proc.is_alive():
            proc.kill()


def parallel_search(mcts: Any, state: _core.GameState
                    ) -> tuple[RootStats, dict[int, list[int]], int]:
    """Run `mcts`'s search in its worker pool (started on first use); returns the summed root
    statistics, a principal variation per visited action (from the worker that visited it
    most) and the iterations done."""
    k = mcts.workers
    if mcts._pool is None:
        options = dict(c=mcts.c, rollout=mcts.rollout, horizon=mcts.horizon, puct=mcts.puct,
                       prior_temperature=mcts.prior_temperature, weights=mcts.weights,
                       seed=mcts.seed, workers=1, reuse=mcts.reuse, max_nodes=mcts.max_nodes,
                       max_memory=mcts.max_memory // k, leaf=mcts.leaf,
                       evaluator=mcts.evaluator)
        mcts._pool = WorkerPool(k, options)
    if mcts.iterations is not None:
        split = [mcts.iterations // k + (1 if i < mcts.iterations % k else 0) for i in range(k)]
    else:
        split = [None] * k
    base = mcts.seed * 1_000_003 + mcts._searches
    jobs = [(state, split[i], mcts.time_limit, base * 7919 + i) for i in range(k)]
    replies = mcts._pool.run(jobs)
    visits: dict[int, int] = {}
    value: dict[int, float] = {}
    margin: dict[int, float] = {}
    prior: dict[int, float] = {}
    best_pv: dict[int, tuple[int, list[int]]] = {}
    done = 0
    for _status, stats, pvs, n_done in replies:
        done += n_done
        for a, n, q, m, p in stats:
            visits[a] = visits.get(a, 0) + n
            value[a] = value.get(a, 0.0) + q * n
            margin[a] = margin.get(a, 0.0) + m * n
            prior[a] = p
            if n and (a not in best_pv or n > best_pv[a][0]):
                best_pv[a] = (n, pvs[a])
    merged = [(a, visits[a], value[a] / visits[a] if visits[a] else 0.0,
               margin[a] / visits[a] if visits[a] else 0.0, prior[a]) for a in sorted(visits)]
    return merged, {a: pv for a, (_n, pv) in best_pv.items()}, done
