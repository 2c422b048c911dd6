"""Bounds on the numbers a user gives (search budgets, processes, games): one source for the
library's checks and the command line's, so every message states the same bound.

Each bound is far above any sensible use and well below what would exhaust the machine: a
value past it is a typo (an extra digit, ``nan``, ``inf``), and is refused with the bound named.
"""

from __future__ import annotations

import math
import os

__all__ = ["CORES", "MAX_C", "MAX_GAMES", "MAX_ITERATIONS", "MAX_SECONDS", "MAX_WORKERS",
           "check_count", "check_seconds", "check_workers"]

CORES = os.cpu_count() or 1
MAX_WORKERS = 4 * CORES  # processes: more than this many per core only adds switching
MAX_SECONDS = 24 * 3600.0  # a search or move time: a day
MAX_ITERATIONS = 10**9  # search iterations: hours even at the fastest
MAX_GAMES = 10**9  # games of a check run or per pairing of a tournament: years of play
MAX_C = 100.0  # the exploration constant (useful values are about 0.1 .. 3)


def check_seconds(value: object, name: str, maximum: float = MAX_SECONDS) -> float:
    """``value`` as seconds in (0, maximum]; ValueError naming ``name`` and the bound."""
    if (isinstance(value, bool) or not isinstance(value, int | float)
            or not math.isfinite(value) or not 0 < value <= maximum):
        raise ValueError(f"{name} must be a finite number of seconds in (0, {maximum:g}], "
                         f"not {_show(value)}")
    return float(value)


def check_count(value: object, name: str, maximum: int, minimum: int = 1) -> int:
    """``value`` as an integer in minimum..maximum; ValueError naming ``name`` and the bound."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ValueError(f"{name} must be an integer in {minimum}..{maximum}, not {_show(value)}")
    return value


def check_workers(value: object, name: str = "workers") -> int:
    """``value`` as a number of processes in 1..MAX_WORKERS (4 per core of this machine)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > MAX_WORKERS:
        raise ValueError(f"{name} {value} is more than {MAX_WORKERS} processes (4 per core; "
                         f"this machine has {CORES})")
    return check_count(value, name, MAX_WORKERS)


def _show(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int past Python's digit limit
        return "that"
    return text if len(text) <= 30 else text[:30] + "..."
