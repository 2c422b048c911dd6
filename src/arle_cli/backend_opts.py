"""``--backend`` / ``--address``: where a command that plays many games plays them.

Shared by every command that plays independent games (``selfplay``, data generation): the
backend decides only where games run, never what they give, so the same seed gives the same
results file on either backend.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arle_ai.adapters.ray_backend import BACKENDS, RayRunner
from arle_cli.common import fail

F = TypeVar("F", bound=Callable[..., Any])


def backend_options(command: F) -> F:
    """Add ``--backend``, ``--address`` and ``--ray-logs`` to a click command."""
    command = click.option(
        "--ray-logs", is_flag=True, default=False,
        help="With --backend ray: print Ray's own output here too (its workers' prints, its "
             "components' messages and INFO lines) [default: they stay in Ray's log files, "
             "/tmp/ray/session_latest/logs].")(command)
    command = click.option(
        "--address", default=None, metavar="ADDR",
        help="With --backend ray: the Ray cluster to use ('auto', HOST:6379 or "
             "ray://HOST:10001) [default: start a local Ray for this run].")(command)
    command = click.option(
        "--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
        help="Where games run: local processes (--workers), or Ray tasks (a local Ray, or "
             "the cluster at --address).")(command)
    return command


def make_runner(backend: str, address: str | None, workers: int | None,
                ray_logs: bool = False) -> RayRunner | None:
    """The runner for ``--backend`` (None: the local process pool), failing on bad options.

    With ray, ``--workers`` (if given) is the CPUs of a local Ray started here, or on a
    cluster the most games run at once; by default all CPUs of the machine or cluster."""
    if backend != "ray":
        if address is not None:
            fail("--address needs --backend ray")
        if ray_logs:
            fail("--ray-logs needs --backend ray")
        return None
    try:
        import ray  # noqa: F401
    except ImportError:
        fail('--backend ray needs Ray: pip install "arle-ai[ray]"')
    address = None if address is None else address.strip()
    if address == "":
        fail("--address must name a Ray cluster ('auto', HOST:6379 or ray://HOST:10001)")
    if address is None:
        return RayRunner(num_cpus=workers, show_logs=ray_logs)
    return RayRunner(address=address, max_in_flight=workers, show_logs=ray_logs)
