"""Worker processes and Ctrl-C: the parent alone acts on an interrupt.

Ctrl-C in a terminal sends SIGINT to every process of the foreground group, workers too. A
worker interrupted while it starts (importing) or between games printed a traceback of its
own, several of them over the parent's message. Workers started inside :func:`sigint_ignored`
inherit SIGINT ignored (the one disposition that survives exec, so it holds for spawn and
forkserver as for fork; Python keeps an inherited SIG_IGN); the parent gets the
KeyboardInterrupt and stops them (:func:`stop`), keeping what finished.

Worker processes and a dead parent: a parent killed with SIGKILL (or dying by any signal)
runs no cleanup, and its workers used to play on and then wait forever for work. Each worker
calls :func:`exit_with_parent` first (a pool's initializer), with what the parent gave it
(:func:`parent_watch`): on Linux the kernel kills it when its parent dies (``prctl``
``PR_SET_PDEATHSIG``), and everywhere a watchdog thread ends it within half a second of the
parent's end (its parent process id changes when it is reparented).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["exit_with_parent", "parent_watch", "sigint_ignored", "stop"]


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Ignore SIGINT while the block starts worker processes (they keep ignoring it). Only
    the main thread can change a handler: elsewhere this changes nothing. A Ctrl-C during the
    block itself (the few milliseconds of a process start) is dropped."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def stop(processes: Iterable[Any], timeout: float = 2.0) -> None:
    """Terminate ``processes`` (multiprocessing Process objects; they ignore SIGINT) and wait
    for them, killing one still alive after ``timeout`` seconds."""
    procs = [p for p in processes if p.is_alive()]
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(timeout)
        if p.is_alive():
            p.kill()
            p.join(timeout)


PR_SET_PDEATHSIG = 1  # linux/prctl.h
WATCH_SECONDS = 0.5  # how often the watchdog looks at the parent


def parent_watch() -> tuple[int, bool]:
    """What a worker started now needs for :func:`exit_with_parent`: this process's id, and
    whether this is the main thread (the kernel's death signal follows the thread that started
    the worker, which must not end before the process does)."""
    return os.getpid(), threading.current_thread() is threading.main_thread()


def _death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent (thread) ends; False elsewhere."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's: it exists
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):  # no /proc: kill() said it exists
        return True


def _watch(parent: int, ppid: int) -> None:
    while True:
        time.sleep(WATCH_SECONDS)
        # reparented (the parent is gone), or the process watched is gone
        if os.getppid() != ppid or (parent != ppid and not _alive(parent)):
            os._exit(1)


def _default_termination() -> None:
    """SIGTERM and SIGHUP end this worker as the system's default does, though a forked worker
    inherits its parent's Python handlers (a command that ends on them as on Ctrl-C: a worker
    stopped by ``Pool.terminate`` would print that KeyboardInterrupt's traceback). A signal
    ignored (``nohup``) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        return
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None and callable(signal.getsignal(sig)):
            signal.signal(sig, signal.SIG_DFL)


def exit_with_parent(parent: int, main_thread: bool = True) -> None:
    """Make this worker process end when process ``parent`` ends, however it ends (see the
    module docstring). ``parent`` is usually the worker's parent; it may be a grandparent
    (the web server, whose searches are forked by multiprocessing's forkserver, which lives
    as long as they do). Called first thing in the worker; a parent already gone ends it at
    once."""
    _default_termination()
    if main_thread:
        _death_signal()  # the direct parent's end
    ppid = os.getppid()
    if ppid != parent and not _alive(parent):
        os._exit(1)
    threading.Thread(target=_watch, args=(parent, ppid), name="arle-parent-watch",
                     daemon=True).start()
