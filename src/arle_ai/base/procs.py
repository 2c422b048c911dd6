"""Worker processes and Ctrl-C: the parent alone acts on an interrupt.

Ctrl-C in a terminal sends SIGINT to every process of the foreground group, workers too. A
worker interrupted while it starts (importing) or between games printed a traceback of its
own, several of them over the parent's message. Workers started inside :func:`sigint_ignored`
inherit SIGINT ignored (the one disposition that survives exec, so it holds for spawn and
forkserver as for fork; Python keeps an inherited SIG_IGN); the parent gets the
KeyboardInterrupt and stops them (:func:`stop`), keeping what finished.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["sigint_ignored", "stop"]


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
