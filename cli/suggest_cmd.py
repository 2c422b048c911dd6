"""``arle suggest``: the best moves for a position, ranked by the search."""

from __future__ import annotations

import click

import arle_ai
from arle_ai import limits
from arle_cli.common import (
    SEED,
    WORKERS,
    Count,
    Seconds,
    check_iterations_per_worker,
    emit_json,
    fail,
    load_position,
    search_bar,
)


def format_report(report: arle_ai.SuggestionReport) -> str:
    """The ranked moves as a table: visits, win rate, mean margin and principal variation."""
    lines = [f"player {report.player} to decide ({report.pending}); "
             f"{report.iterations} iterations in {report.time_taken:.2f} s",
             f"{'#':>3}  {'move':<40} {'visits':>7} {'win%':>6} {'margin':>7}  pv"]
    for m in report.moves:
        pv = " / ".join(m.pv[1:4])
        lines.append(f"{m.rank:>3}  {m.move:<40} {m.visits:>7} {100 * m.win_rate:>5.1f}% "
                     f"{m.mean_margin:>+7.1f}  {pv}")
    return "\n".join(lines)


@click.command()
@click.argument("position", required=False, type=click.Path())
@click.option("--iterations", type=Count(limits.MAX_ITERATIONS), default=None,
              help="Search iterations (default 2000 when no --time is given).")
@click.option("--time", "time_limit", type=Seconds(), default=None,
              help="Search time in seconds instead of an iteration budget.")
@click.option("--workers", type=WORKERS, default=1, show_default=True,
              help="Processes searching in parallel (root parallelism).")
@click.option("--max-memory", "max_memory", type=click.IntRange(min=1, max=16384), default=1024,
              show_default=True, metavar="MIB",
              help="Ceiling on the search tree's memory in MiB (all workers together); "
                   "once reached, the search refines the tree it has without adding nodes.")
@click.option("--top", type=click.IntRange(min=1), default=5, show_default=True,
              help="How many moves to list.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Search seed.")
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="With a game record: the position after this many decisions [default: the "
                   "end].")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")
def suggest(position: str | None, iterations: int | None, time_limit: float | None,
            workers: int, max_memory: int, top: int, seed: int, ply: int | None,
            as_json: bool) -> None:
    """Suggest the best moves for POSITION (a JSON position file, or a game record at its end
    or after --ply decisions; default: the standard opening), with visits, win rate, mean
    score margin and principal variation."""
    if iterations is not None and time_limit is not None:
        fail("give either --iterations or --time, not both")
    state = load_position(position, ply)
    if state.is_terminal():
        fail(f"{position}: the game is over, there is no move to suggest")
    check_iterations_per_worker(state, iterations, workers)
    with search_bar(iterations or (None if time_limit else 2000), time_limit) as progress:
        report = arle_ai.suggest(state, iterations=iterations, time_limit=time_limit,
                                 workers=workers, top=top, seed=seed, progress=progress,
                                 max_memory=max_memory << 20)
    if as_json:
        emit_json(report.to_dict())
    else:
        click.echo(format_report(report))
