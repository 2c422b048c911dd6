"""Searches of the web app, each in its own child process.

A search holds the GIL for as long as it runs, so running it in the server process would
stall every other tab's requests; in a child process it only shares the CPU. Each child gets
an address-space limit (memory) and the parent kills it at its deadline or as soon as the
page that asked for it goes away. Children are forked from a forkserver that imported the
engine once, so a search starts in milliseconds.

Messages come back through a pipe as ``(kind, payload)`` tuples: ``update`` (a hint's
statistics so far), ``progress``, ``done`` (the final payload) or ``error`` (a message). A job
stopped by the server (:meth:`Job.stop`) ends with ``stopped`` and the reason it was given.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import resource
import signal
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any

from arle_ai import engine
from arle_ai.base import procs
from arle_ai.formats.records import GameRecord
from arle_ai.play.agents import MCTSAgent, agent_from_spec, choose_action
from arle_ai.play.analysis import analyze_game
from arle_ai.play.why import explain_ranking
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.mcts import MCTS
from arle_ai.search.result import SearchResult
from arle_ai.search.tree import SearchProgress
from arle_ai.text.reading import as_good_moves, measure_for, move_steps

__all__ = ["Job", "JobError", "JobStopped", "hint_payload", "move_payload", "start_job"]

MEMORY_LIMIT = 1536 * 2**20  # bytes of address space per search process
HINT_MEMORY = 512 * 2**20  # bytes of a hint's search tree (MCTS max_memory)
MAX_NODES = 2_000_000  # a hint stops once its tree holds this many positions
UPDATE_SECONDS = 0.2  # a hint reports its statistics this often (5 updates a second)
PV_SHOWN = 5  # root moves whose principal variation is reported

_context: Any = None


class JobError(RuntimeError):
    """A search process that failed (reported to the page as a 4xx/stream error)."""


class JobStopped(JobError):
    """A search the server stopped on purpose (the position changed, a newer search of the
    same kind replaced it, or the page asked); the message says why."""


def _mp() -> Any:
    """The forkserver context, its server preloading the engine (created on first use)."""
    global _context
    if _context is None:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["arle_ai", "arle_ai.search.mcts", "arle_ai.play.analysis",
                                    "arle_ai.play.agents", "arle_ai.web.jobs"])
        _context = ctx
    return _context


def _limit_memory() -> None:
    try:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    except (ValueError, OSError):  # pragma: no cover - a platform without the limit
        pass


def pv_with_players(state: engine.GameState, move: str, pv: list[str]
                    ) -> list[dict[str, Any]]:
    """A root move's line as ``{"player", "label", "moves", "count"}`` steps, as a player
    reads it (:func:`arle_ai.text.reading.move_steps`, as ``arle suggest`` prints it): the
    move's answer first (the hint's row names it: at a how-many question the count its line
    makes), then the continuation, a repeated conversion one step, its count (``count``: the
    number, None for any other move)."""
    return [{"player": step.player, "label": step.label, "moves": list(step.moves),
             "count": step.count_answered} for step in move_steps(state, move, pv)]


def hint_payload(state: engine.GameState, result: SearchResult, total: int,
                 elapsed: float, nodes: int, cpu: float = 0.0) -> dict[str, Any]:
    """A hint update: the search totals (``cpu``: the search process's CPU seconds) and
    every root move's statistics, best first."""
    moves = []
    near: set[int] = set()
    if result.moves:  # as `arle suggest` marks them "~": at most 3 as good as the best
        top = result.moves[0]
        measure = measure_for(result.players)  # the solo game: by the score in VP
        named, _ = as_good_moves(measure, (measure.mean(top), top.visits),
                                 [(measure.mean(st), st.visits) for st in result.moves[1:]])
        near = {i + 1 for i in named}
    for rank, st in enumerate(result.moves):
        line = pv_with_players(state, st.move, st.pv if rank < PV_SHOWN else [])
        moves.append({
            "action": st.action, "move": st.move, "visits": st.visits,
            "value": st.win_rate, "margin": st.mean_margin,
            "near_best": rank in near,
            # the move as the answer it gives (a count: what its line converts in all; a
            # stop: 0), and that count, the page's count button (None: no count asked)
            "label": line[0]["label"] if line else st.move,
            "count": line[0]["count"] if line else None,
            "pv": line if rank < PV_SHOWN and st.pv else [],
        })
    return {"player": result.player, "iterations": total, "seconds": elapsed,
            "iterations_per_second": total / elapsed if elapsed > 0 else 0.0,
            "cpu_seconds": cpu,
            "nodes": nodes, "moves": moves}


def _hint_main(conn: Any, state: engine.GameState, budget: Budget, seed: int,
               max_nodes: int = MAX_NODES) -> None:
    """Search ``state`` within ``budget`` as one search, sending the statistics so far every
    :data:`UPDATE_SECONDS` (from the search's progress callback) and at the end, and stop
    early once the tree holds ``max_nodes`` positions (the memory bound). ``done`` says why
    it ended: ``time``, ``iterations`` (a budget's simulations all run) or ``memory``."""
    _limit_memory()
    try:
        search = MCTS(SearchConfig(seed=seed, max_memory=HINT_MEMORY), budget)
        start, cpu_start = time.perf_counter(), time.process_time()
        sent = [0, 0.0]  # iterations and seconds of the last update sent
        reason = "time"

        def send(result: SearchResult, iterations: int, elapsed: float) -> None:
            # the raw statistics: the server adds who moves along each pv (hint_payload),
            # so this process spends its time searching
            conn.send(("update", (result, iterations, elapsed, search.node_count(),
                                  time.process_time() - cpu_start)))
            sent[:] = [iterations, elapsed]

        def progress(report: SearchProgress) -> bool:
            nonlocal reason
            full = search.node_count() >= max_nodes
            if full or report.elapsed - sent[1] >= UPDATE_SECONDS:
                send(report.result(), report.iterations, report.elapsed)
            if full:
                reason = "memory"
            return full

        result = search.search(state, progress=progress)
        if reason == "time" and budget.iterations is not None and (
                result.iterations >= budget.iterations):
            reason = "iterations"  # all the simulations asked for
        if result.iterations != sent[0]:
            send(result, result.iterations, result.time_taken)
        seconds = time.perf_counter() - start
        why = explain_ranking(state, result, seed=seed)  # the best move against the second
        conn.send(("done", {"reason": reason, "iterations": result.iterations,
                            "seconds": seconds, "why": why.to_dict() if why else None}))
    except MemoryError:
        conn.send(("error", "the search ran out of its memory allowance and was stopped"))
    finally:
        conn.close()


def move_payload(agent: Any, action: int, seconds: float) -> dict[str, Any]:
    """The AI's move as the server is told it: the action, its seconds and, for a search,
    what the search expected of it for the mover (its root statistics of that move: the
    mean value and the mean final VP margin, the score in the solo game), so the page can
    show the expected lead with no search of its own."""
    out: dict[str, Any] = {"action": action, "seconds": seconds}
    result = agent.last_result if isinstance(agent, MCTSAgent) else None
    chosen = [m for m in result.moves if m.action == action and m.visits] if result else []
    if chosen:
        out.update(value=chosen[0].win_rate, margin=chosen[0].mean_margin,
                   visits=chosen[0].visits)
    return out


def _move_main(conn: Any, state: engine.GameState, spec: str, seed: int) -> None:
    """Choose the agent's move in ``state`` and send it (:func:`move_payload`)."""
    _limit_memory()
    try:
        agent = agent_from_spec(spec, seed=seed)
        start = time.perf_counter()
        action = choose_action(agent, state, spec)
        conn.send(("done", move_payload(agent, action, time.perf_counter() - start)))
    except (ValueError, MemoryError) as exc:
        conn.send(("error", f"the AI ({spec}) failed: {exc}"))
    finally:
        conn.close()


def _analysis_main(conn: Any, record: GameRecord, budget: Budget, seed: int) -> None:
    """Analyse ``record`` (arle_ai.play.analysis), sending progress after each position."""
    _limit_memory()
    try:
        def progress(done: int, total: int) -> None:
            conn.send(("progress", {"done": done, "total": total}))

        analysis = analyze_game(record, budget=budget, config=SearchConfig(seed=seed),
                                progress=progress)
        conn.send(("done", analysis.to_dict(record)))  # with printed names
    except (ValueError, MemoryError) as exc:
        conn.send(("error", f"analysis failed: {exc}"))
    finally:
        conn.close()


TARGETS: dict[str, Callable[..., None]] = {
    "hint": _hint_main, "move": _move_main, "analysis": _analysis_main}


def _child_main(kind: str, server: int, *args: Any) -> None:
    """A search process: Ctrl-C on ``arle serve`` reaches the whole process group, and the
    server stops its searches itself (stop_all); a search interrupted printed a traceback.
    It ends with the server ``server`` (its parent is multiprocessing's forkserver, which
    lives as long as its children do): a server killed with SIGKILL left its searches
    running to their time limits."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    procs.exit_with_parent(server)
    TARGETS[kind](*args)


class Job:
    """One child process and the receiving end of its pipe."""

    def __init__(self, kind: str, args: tuple[Any, ...], deadline: float) -> None:
        ctx = _mp()
        self.kind = kind
        self.recv_end, send_end = ctx.Pipe(duplex=False)
        self.process = ctx.Process(target=_child_main,
                                   args=(kind, os.getpid(), send_end, *args),
                                   daemon=True)
        self.process.start()
        send_end.close()
        self.deadline = time.monotonic() + deadline
        self.finished = False
        self.stop_reason = "the search was stopped"

    def stop(self, reason: str | None = None) -> None:
        """Kill the process (if still running) and release its pipe; idempotent. ``reason``
        (e.g. "the position changed") is what a reader of the job is told."""
        if self.finished:
            return
        self.finished = True
        if reason is not None:
            self.stop_reason = reason
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=2)
        self.recv_end.close()

    @property
    def running(self) -> bool:
        return not self.finished and self.process.is_alive()

    def _read(self) -> tuple[str, Any]:
        kind, payload = self.recv_end.recv()  # the children send (kind, payload) tuples
        return str(kind), payload

    def _receive(self) -> tuple[str, Any] | None:
        """The next message if one is waiting, None if not; ('error', ...) when the process
        is gone without its last word."""
        if self.finished:
            return "stopped", self.stop_reason
        try:
            if self.recv_end.poll():
                return self._read()
        except (EOFError, OSError):
            return "error", "the search process ended unexpectedly"
        if time.monotonic() > self.deadline:
            return "error", "the search passed its time limit and was stopped"
        if not self.process.is_alive():
            try:
                if self.recv_end.poll():
                    return self._read()
            except (EOFError, OSError):
                pass
            return "error", "the search process ended unexpectedly"
        return None

    async def messages(self, poll: float = 0.02) -> AsyncGenerator[tuple[str, Any], None]:
        """The child's messages until it is done, fails, dies, passes its deadline or is
        stopped. The caller stops the job (:meth:`stop`) however the iteration ends."""
        while True:
            message = self._receive()
            if message is None:
                await asyncio.sleep(poll)
                continue
            yield message
            if message[0] in ("done", "error", "stopped"):
                return

    async def result(self, gone: Callable[[], Awaitable[bool]] | None = None) -> Any:
        """The ``done`` payload (JobError with the child's message otherwise); stops the job,
        also as soon as ``gone()`` says the page that asked has gone away."""
        try:
            while True:
                message = self._receive()
                if message is None:
                    if gone is not None and await gone():
                        raise JobError("the search was stopped: the page went away")
                    await asyncio.sleep(0.02)
                    continue
                kind, payload = message
                if kind == "done":
                    return payload
                if kind == "stopped":
                    raise JobStopped(payload)
                if kind == "error":
                    raise JobError(payload)
        finally:
            self.stop()


def start_job(kind: str, args: tuple[Any, ...], deadline: float) -> Job:
    """Start a ``hint``, ``move`` or ``analysis`` process; ``deadline`` seconds at most."""
    return Job(kind, args, deadline)
