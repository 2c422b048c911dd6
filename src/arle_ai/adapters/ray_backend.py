"""Independent jobs (tournament games, data generation) as Ray tasks, locally or on a cluster.

Install with ``pip install "arle-ai[ray]"``. A *runner* plays a list of jobs and hands each
result to a callback as soon as it is ready, in the order they finish::

    runner = RayRunner(address=None)          # None: start a local Ray for the run
    runner.run(play_game, tasks, finish)

The jobs are plain picklable dicts and ``fn`` a module-level function, so a job played by a Ray
worker gives exactly what it gives in this process: the backend only changes *where* games are
played, never their results, and the caller writes the results (to the same file, resumable the
same way) whichever backend played them.

``address`` is anything ``ray.init`` accepts: ``"auto"`` (a cluster started on this machine by
``ray start --head``), ``"HOST:6379"`` (a cluster's head node) or ``"ray://HOST:10001"`` (Ray
Client). The nodes of a cluster need ``arle-ai`` (and any ``py:`` agent module) installed.

Ray's own output stays in Ray's log files (``/tmp/ray/session_latest/logs`` on each node) unless
``show_logs``: not its workers' prints, not the messages its components send the driver (a dead
node's raylet log, worker-pool warnings), not the INFO lines of a local Ray's processes when
``RAY_LOG_TO_STDERR=1``, and only its errors from its Python logger. A command's output is then
the command's own (its ``--json`` stays JSON).

Joining Ray leaves SIGTERM as the process had it: ``ray.init`` replaces a Python handler with
its own and its core adds a crash report (``*** SIGTERM received ...``, a stack of addresses);
a Python handler set before (say one that ends the command as Ctrl-C does) is put back, and
otherwise Ray's Python handler alone stays (it exits through ``ray.shutdown``). After a run
that started Ray the handler of before the run is back.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["RayRunner", "RayBackendError", "BACKENDS"]

BACKENDS = ("local", "ray")
# Object store of a Ray started here: results are small dicts, so keep the memory modest.
_LOCAL_OBJECT_STORE_BYTES = 100 * 1024 * 1024


class RayBackendError(RuntimeError):
    """Ray is missing, or the cluster could not be reached."""


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayBackendError('the ray backend needs Ray: pip install "arle-ai[ray]"') from None
    return ray


def _call_with_paths(fn: Callable[[Any], Any], job: Any, paths: list[str]) -> Any:
    """Runs on a Ray worker: the driver's import paths first (for ``py:`` agent modules, as
    multiprocessing's spawn does), then ``fn(job)``."""
    for p in reversed(paths):
        if p not in sys.path and os.path.isdir(p):
            sys.path.insert(0, p)
    return fn(job)


class RayRunner:
    """Plays jobs as Ray tasks (one CPU each) and streams their results back.

    Args:
        address: the cluster to join (see the module docs); None starts a local Ray for the run
            (or uses the one this process already joined) and shuts it down afterwards.
        max_in_flight: at most this many jobs submitted at once (default: twice the cluster's
            CPUs, so no CPU waits between games while interrupting loses little work).
        num_cpus: CPUs of a local Ray started here (default: all of this machine's).
        show_logs: print Ray's own output in this process (see the module docs); only applies
            to a Ray this runner connects to, not to one this process had already joined.
    """

    def __init__(self, address: str | None = None, max_in_flight: int | None = None,
                 num_cpus: int | None = None, show_logs: bool = False) -> None:
        if max_in_flight is not None and max_in_flight < 1:
            raise ValueError(f"max_in_flight must be a positive integer, not {max_in_flight!r}")
        if num_cpus is not None and num_cpus < 1:
            raise ValueError(f"num_cpus must be a positive integer, not {num_cpus!r}")
        self.address = address
        self.max_in_flight = max_in_flight
        self.num_cpus = num_cpus
        self.show_logs = show_logs
        self._sigterm: Any = _NOT_MAIN  # the SIGTERM handler of before the Ray this joined

    def _connect(self, ray: Any) -> bool:
        """Join or start Ray; True if this call started (so must stop) it."""
        if ray.is_initialized():
            return False
        quiet = not self.show_logs
        level = "error" if quiet else "info"
        self._sigterm = _sigterm_handler()
        try:
            if self.address is None:
                # the processes of a local Ray inherit this one's stderr: with
                # RAY_LOG_TO_STDERR=1 they would write their INFO lines into the command's
                with _environ({"RAY_LOG_TO_STDERR": "0"} if quiet else {}):
                    ray.init(num_cpus=self.num_cpus, include_dashboard=False,
                             object_store_memory=_LOCAL_OBJECT_STORE_BYTES,
                             log_to_driver=not quiet, logging_level=level,
                             configure_logging=True)
            else:
                ray.init(address=self.address, logging_level=level, log_to_driver=not quiet)
        except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
            where = "a local Ray" if self.address is None else f"Ray at {self.address!r}"
            raise RayBackendError(f"cannot start {where}: {exc}") from None
        finally:
            _keep_sigterm(self._sigterm)
        _print_ray_messages(not quiet)
        return True

    def run(self, fn: Callable[[Any], Any], jobs: Iterable[Any],
            finish: Callable[[Any], None]) -> None:
        """Run ``fn(job)`` for every job on Ray; ``finish(result)`` in this process as each ends.

        A job's exception is raised here as itself (not wrapped), after the jobs that finished
        before it were handed to ``finish``; the jobs still running are stopped: with the Ray
        this run started (``ray.shutdown`` ends its jobs' workers), else cancelled.

        A Ray this run started is never sent ``ray.cancel``: a cancel that meets a job's reply
        on its way in aborts this process in Ray's core (``Check failed: it !=
        submissible_tasks_.end() Tried to complete task that was not pending``, with or
        without ``force``; Ray 2.60), so an interrupted command died with a stack trace. On a
        Ray the caller joined the jobs are still cancelled (else they would keep its CPUs
        busy), and that race stays Ray's.
        """
        todo = iter(jobs)  # taken as submitted: a long run materialises nothing up front
        first = next(todo, None)
        if first is None:
            return
        todo = itertools.chain([first], todo)
        ray = _import_ray()
        started = self._connect(ray)
        try:
            remote = ray.remote(num_cpus=1)(_call_with_paths)
            limit = self.max_in_flight or 2 * max(1, int(ray.cluster_resources().get("CPU", 1)))
            paths = [os.path.abspath(p or os.curdir) for p in sys.path]
            fn_ref = ray.put(fn)
            paths_ref = ray.put(paths)
            running: list[Any] = []

            def submit() -> None:
                for job in todo:
                    running.append(remote.remote(fn_ref, job, paths_ref))
                    if len(running) >= limit:
                        return

            submit()
            try:
                while running:
                    ready, _ = ray.wait(running, num_returns=1)
                    for ref in ready:
                        running.remove(ref)
                        finish(_result(ray, ref))
                    submit()
            except BaseException:
                if not started:  # a Ray this run started ends its jobs with it, below
                    for ref in running:
                        ray.cancel(ref, force=True)
                raise
        finally:
            if started:
                ray.shutdown()
                _print_ray_messages(True)
                _restore_sigterm(self._sigterm)


def _result(ray: Any, ref: Any) -> Any:
    """The job's result; its own exception (not Ray's wrapper) if it failed, a RayBackendError
    if Ray lost it (its worker or node died, out of memory, ...: after Ray's own retries)."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayError as exc:
        cause = getattr(exc, "cause", None) if isinstance(exc, ray.exceptions.RayTaskError) \
            else exc
        if isinstance(cause, Exception) and not isinstance(cause, ray.exceptions.RayError):
            raise cause from None
        lost = cause if isinstance(cause, Exception) else exc
        said = [line.strip() for line in str(lost).splitlines() if line.strip()]
        raise RayBackendError(f"Ray lost a job ({type(lost).__name__}): "
                              f"{said[-1] if said else 'no reason given'}") from None


@contextlib.contextmanager
def _environ(values: dict[str, str]) -> Iterator[None]:
    """``os.environ`` with ``values`` set for the block (for the processes started in it)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


_NOT_MAIN = object()  # the handler seen off the main thread, where none can be set


def _sigterm_handler() -> Any:
    """This process's Python-level SIGTERM handler (_NOT_MAIN off the main thread)."""
    if threading.current_thread() is not threading.main_thread():
        return _NOT_MAIN
    return signal.getsignal(signal.SIGTERM)


def _keep_sigterm(before: Any) -> None:
    """After ``ray.init``: the handler of ``before`` if it was a Python one or SIG_IGN, else
    Ray's Python handler set again, which also takes SIGTERM back from Ray core's crash
    report (a C handler installed over Python's)."""
    if before is _NOT_MAIN or before is None:
        return
    now = signal.getsignal(signal.SIGTERM)
    keep = before if callable(before) or before == signal.SIG_IGN else now
    if keep is not None:
        signal.signal(signal.SIGTERM, keep)


def _restore_sigterm(before: Any) -> None:
    """After ``ray.shutdown``: SIGTERM handled as before the run."""
    if before is not _NOT_MAIN and before is not None:
        signal.signal(signal.SIGTERM, before)


def _print_ray_messages(on: bool) -> None:
    """Whether the driver prints what Ray's components send it (``(raylet) ...`` lines: a dead
    raylet's last log lines, worker-pool warnings), which ``log_to_driver`` does not cover.

    Ray has no option for it; its own debugger switches the same module flag off and on."""
    import ray._private.worker as ray_worker

    if hasattr(ray_worker, "_worker_logs_enabled"):
        ray_worker._worker_logs_enabled = on
