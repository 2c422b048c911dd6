"""The ``arle`` command: a click group whose commands wrap the ``arle_ai`` library.

Exit codes: 0 on success, 2 on bad input (with a one-line message on stderr, no traceback).
Each command lives in its own module; this one only assembles the group.
"""

from __future__ import annotations

import click

import arle_ai
from arle_cli.common import VARIANTS, format_moves, load_position, make_game, write_text


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arle-ai", prog_name="arle")
def cli() -> None:
    """Rules engine and AI for the board game Fields of Arle."""


@cli.command()
@click.option("--seed", type=int, default=0, show_default=True, help="Seed for the setup draw.")
@click.option(
    "--variant",
    type=click.Choice(VARIANTS),
    default="standard",
    show_default=True,
    help="Building set: drawn by seed, or the rulebook's first-game set.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the position JSON to this file instead of stdout.",
)
def new(seed: int, variant: str, output: str | None) -> None:
    """Write a start position as JSON."""
    state = make_game(seed, variant)
    write_text(state.to_json(), output)


@cli.command()
@click.argument("position", required=False, type=click.Path())
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="With a game record: the position after this many decisions [default: the "
                   "end].")
@click.option("--moves", is_flag=True,
              help="Also list the legal moves, numbered, in notation (what play accepts).")
def show(position: str | None, ply: int | None, moves: bool) -> None:
    """Print POSITION readably: a JSON position file, or a game record (its last position, or
    the one after --ply decisions); no POSITION means the standard opening."""
    state = load_position(position, ply)
    click.echo(arle_ai.describe(state))
    if moves and not state.is_terminal():
        click.echo(f"legal moves of player {state.current_player} ({state.pending}):")
        click.echo(format_moves(state))



def _register() -> None:
    """Add the commands that live in their own modules (skipping any not yet written)."""
    import importlib

    for module, name in [("arle_cli.suggest_cmd", "suggest"), ("arle_cli.play_cmd", "play"),
                         ("arle_cli.selfplay_cmd", "selfplay"),
                         ("arle_cli.analyze_cmd", "analyze"), ("arle_cli.bench_cmd", "bench"),
                         ("arle_cli.check_cmd", "check")]:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        cli.add_command(getattr(mod, name))


_register()

if __name__ == "__main__":
    cli()
