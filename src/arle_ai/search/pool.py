"""Root parallelism for :class:`arle_ai.MCTS`: a persistent pool of worker processes.

Each worker owns one single-process search (:class:`arle_ai.search.tree.TreeSearch`: its own
tree, kept between searches when the search reuses trees) built from the search's config and
evaluator, and is sent the position's bytes with its share of the budget and its own seed.
Only the root statistics and the principal variations of the root actions come back; the
parent sums the statistics. Worker ``i`` always gets task ``i``, so a parallel search is
deterministic for a given seed, budget and worker count.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import weakref
from multiprocessing.connection import Connection
from typing import Any

from arle_ai import engine
from arle_ai.base import procs
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.result import RootStats
from arle_ai.search.tree import TreeSearch

__all__ = ["WorkerPool", "split_iterations"]


def _worker_main(conn: Connection, config: SearchConfig, evaluator: engine.LeafEvaluator,
                 watch: tuple[int, bool]) -> None:
    """One worker: search each position it is sent with its own persistent tree; it ends
    with its parent, however that ends (procs.exit_with_parent)."""
    procs.exit_with_parent(*watch)
    search = TreeSearch(config, evaluator)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        position, iterations, seconds, seed = job
        try:
            state = pickle.loads(position)
            done = search.run(state, iterations, seconds, seed)
            stats = search.root_stats(state)
            pvs = {a: search.principal_variation(state, a) for a, n, *_ in stats if n}
            conn.send(("ok", stats, pvs, done))
        except Exception as exc:  # reported to the parent, which raises it
            conn.send(("error", f"{type(exc).__name__}: {exc}", None, 0))


def split_iterations(iterations: int | None, k: int) -> list[int | None]:
    """Each of `k` workers' share of `iterations` (the first ones get the remainder)."""
    if iterations is None:
        return [None] * k
    return [iterations // k + (1 if i < iterations % k else 0) for i in range(k)]


class WorkerPool:
    """``config.workers`` worker processes (fork), each with a pipe and its own tree of
    ``config`` valued by ``evaluator``; they end with close() or the parent."""

    def __init__(self, config: SearchConfig, evaluator: engine.LeafEvaluator) -> None:
        ctx = mp.get_context("fork")
        self.conns: list[Connection] = []
        self.procs: list[Any] = []
        for _ in range(config.workers):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_worker_main,
                               args=(child, config, evaluator, procs.parent_watch()),
                               daemon=True)
            with procs.sigint_ignored():  # Ctrl-C is the parent's; it ends the workers
                proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        self._finalizer = weakref.finalize(self, _shutdown, self.conns, self.procs)

    def search(self, position: bytes, budget: Budget, seed: int
               ) -> tuple[RootStats, dict[int, list[int]], int]:
        """Search the pickled `position` in every worker, each with its share of `budget`
        and seed ``seed * 7919 + i``; returns the summed root statistics, a principal
        variation per visited action (from the worker that visited it most) and the
        iterations done."""
        shares = split_iterations(budget.iterations, len(self.conns))
        replies = self._run([(position, shares[i], budget.seconds, seed * 7919 + i)
                             for i in range(len(self.conns))])
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
                   margin[a] / visits[a] if visits[a] else 0.0, prior[a])
                  for a in sorted(visits)]
        return merged, {a: pv for a, (_n, pv) in best_pv.items()}, done

    def _run(self, jobs: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
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
