"""``arle bench``: the benchmark report (throughput of the core and the search)."""

from __future__ import annotations

import sys

import click
from tqdm import tqdm

from arle_ai.play.benchmark import format_report, run_benchmarks
from arle_cli.common import emit_json

STEPS = 6  # progress messages run_benchmarks sends


@click.command()
@click.option("--quick", is_flag=True, help="Fewer repetitions (a rough figure in seconds).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output on stdout.")
def bench(quick: bool, as_json: bool) -> None:
    """Measure state copies, C vs Python playouts, heuristic playouts and MCTS iterations per
    second (default settings, null leaf, tree vs leaf cost per iteration, 1 and 2 workers),
    bytes per tree node and decisions per game, each beside its reference."""
    with tqdm(total=STEPS, desc="bench", unit="step", file=sys.stderr, disable=None,
              leave=False) as bar:
        def progress(message: str) -> None:
            bar.set_postfix_str(message)
            bar.update(1)

        report = run_benchmarks(quick=quick, progress=progress)
    if as_json:
        emit_json(report)
    else:
        click.echo(format_report(report))
