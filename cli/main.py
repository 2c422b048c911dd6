"""The ``arle`` command: a click group whose commands wrap the ``arle_ai`` library.

Exit codes: 0 on success, 2 on bad input (with a one-line message on stderr, no traceback).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NoReturn

import click

import arle_ai

VARIANTS = ("standard", "first-game")
EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``message`` as one line on stderr and exit with the bad-input code."""
    one_line = " ".join(str(message).split())
    click.echo(f"arle: error: {one_line}", err=True)
    raise SystemExit(EXIT_BAD_INPUT)


def read_text(path: str) -> str:
    """Return the text of the file at ``path``, or fail naming the file and the problem."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        fail(f"{path}: no such file")
    except IsADirectoryError:
        fail(f"{path}: is a directory, not a position file")
    except UnicodeDecodeError as exc:
        fail(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})")
    except OSError as exc:
        fail(f"{path}: cannot read: {exc.strerror or exc}")


def write_text(text: str, path: str | None) -> None:
    """Write ``text``, newline-terminated, to the file at ``path`` (None: to stdout)."""
    if not text.endswith("\n"):
        text += "\n"
    if path is None:
        click.echo(text, nl=False)
        return
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"{path}: cannot write: {exc.strerror or exc}")


def load_position(path: str | None) -> arle_ai.GameState:
    """Load the position in the JSON file at ``path``; no path means the standard opening."""
    if path is None:
        return arle_ai.new_game(seed=0)
    text = read_text(path)
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{path}: malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})")
    try:
        return arle_ai.GameState.from_json(text)
    except ValueError as exc:  # arle_ai.PositionError is a ValueError
        fail(f"{path}: invalid position: {exc}")


def make_game(seed: int, variant: str) -> arle_ai.GameState:
    """Return the start position for ``seed`` and ``variant``, failing cleanly on bad values."""
    try:
        return arle_ai.new_game(seed=seed, variant=variant)
    except ValueError as exc:
        fail(str(exc))


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
def show(position: str | None) -> None:
    """Print POSITION (a JSON position file) readably; no POSITION means the standard opening."""
    state = load_position(position)
    click.echo(arle_ai.describe(state))


if __name__ == "__main__":
    cli()
