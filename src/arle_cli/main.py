"""The ``arle`` command: a click group whose commands wrap the ``arle_ai`` library.

Exit codes: 0 on success, 2 on bad input (with a one-line message on stderr, no traceback).
Each command lives in its own module; this one only assembles the group.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path
from typing import Any

import click

import arle_ai
from arle_ai.engine import rules
from arle_ai.text import decisions, names
from arle_ai.text.display import describe_wide
from arle_cli.analyze_cmd import analyze
from arle_cli.bench_cmd import bench
from arle_cli.check_cmd import check
from arle_cli.common import (
    EXIT_BAD_INPUT,
    IN_FILE,
    OUT_FILE,
    fail,
    game_option,
    interrupted,
    load_game_file,
    make_game,
    players_option,
    seed_option,
    variant_option,
    write_text,
)
from arle_cli.datagen_cmd import datagen
from arle_cli.edit_cmd import edit
from arle_cli.info_cmd import info, list_things
from arle_cli.learn_cmd import learn
from arle_cli.play_cmd import format_menu, play
from arle_cli.selfplay_cmd import selfplay
from arle_cli.serve_cmd import serve
from arle_cli.suggest_cmd import suggest
from arle_cli.train_cmd import train

# click >= 8.2 shows the help for a bare group as this usage error
NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class ArleGroup(click.Group):
    """The command group; click's own usage errors become the one ``arle: error:`` line
    (naming the command and its --help) that every other bad input gives, exit 2."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        if not standalone_mode:
            # click's overloads cannot see through forwarded *args
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        except NO_ARGS_IS_HELP as exc:  # bare 'arle': the help, as click gives it
            click.echo(exc.format_message(), err=True)
            raise SystemExit(EXIT_BAD_INPUT) from None
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "arle"
            named = "" if where == "arle" else f"{where}: "  # 'arle: error:' names arle already
            fail(f"{named}{exc.format_message().rstrip('.')} (see '{where} --help')")
        except click.ClickException as exc:  # e.g. a file option that cannot be opened
            fail(exc.format_message())
        except click.Abort as exc:  # Ctrl-C, or end of input at a prompt
            if isinstance(exc.__cause__ or exc.__context__, KeyboardInterrupt):
                interrupted()
            click.echo("arle: aborted", err=True)
            raise SystemExit(1) from None
        except KeyboardInterrupt:  # click lets one through when it arrives outside a command
            interrupted()
        raise SystemExit(code if isinstance(code, int) else 0)


@click.group(name="arle", cls=ArleGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="arle-ai", prog_name="arle")
def cli() -> None:
    """Rules engine and AI for the board game Fields of Arle."""


@cli.command()
@seed_option("Seed for the setup draw.")
@variant_option("Building set: drawn by seed, or the rulebook's first-game set.")
@players_option("Players: 2, or 1 for the solo game (the same buildings for a seed).")
@click.option("--half-year", type=click.IntRange(1, 9), default=None,
              help="Start at this half-year (1-9, odd = summer) instead of the first.")
@click.option("--start-player", type=click.IntRange(0, 1), default=None,
              help="The start player of that half-year [default: the drawn one].")
@click.option("--pending", "with_pending", is_flag=True,
              help="Also write the engine's decision stack ('pending'); without it the "
                   "position starts at the turn of the player whose worker is next.")
@click.option(
    "-o",
    "--output",
    type=OUT_FILE,
    default=None,
    help="Write the position JSON to this file instead of stdout.",
)
@click.option("--overwrite", is_flag=True, help="Replace the -o file if it exists.")
@click.option("--list-buildings", is_flag=True,
              help="Only list the buildings the seed deals onto the game board, by colour "
                   "(writes no position).")
def new(seed: int, variant: str, players: int, half_year: int | None,
        start_player: int | None, with_pending: bool, output: str | None, overwrite: bool,
        list_buildings: bool) -> None:
    """Write a start position as JSON (edit it by hand or with 'arle edit'; printed names
    are accepted where keys are)."""
    if list_buildings:
        if output is not None:
            fail("--list-buildings writes no position: leave out -o, or --list-buildings")
        click.echo(buildings_dealt(make_game(seed, variant), seed, variant))
        return
    if output is not None and Path(output).exists() and not overwrite:
        fail(f"{output} exists (a position entered there would be lost): choose another "
             f"file, or add --overwrite to replace it")
    if players == 1 and start_player not in (None, 0):
        fail("--start-player: the solo player (0) always starts; leave it out with "
             "--players 1")
    d = make_game(seed, variant, players).to_dict()
    if half_year is not None:
        d["half_year"] = half_year
        d["season"] = "summer" if half_year % 2 else "winter"
    if start_player is not None:
        d["start_player"] = start_player
    d.pop("pending", None)
    state = arle_ai.GameState.from_dict(d)
    if with_pending:
        d = state.to_dict()
    write_text(json.dumps(d, indent=1), output)
    if output is not None:
        who = ("the solo game" if state.players == 1
               else f"start player P{state.start_player}")
        click.echo(f"written to {output} (half-year {state.half_year}, {who}); "
                   f"'arle edit {output}' fills in the rest")


def buildings_dealt(state: arle_ai.GameState, seed: int, variant: str) -> str:
    """The buildings a new game's setup put on the game board, one line per colour of the
    board's building spaces."""
    dealt = state.to_dict()["setup"]["buildings"]
    lines = [f"buildings dealt by seed {seed} ({variant}), by the game board's spaces:"]
    for colour, spaces in rules.BUILDING_COLOUR_SPACES.items():
        these = [names.building(b).replace(" ", "\x00") for b in dealt
                 if rules.BUILDING_SPACE_OF_COLOUR[rules.building(b).colour] == colour]
        lines += [line.replace("\x00", " ") for line in textwrap.wrap(
            f"{colour} ({spaces}): {', '.join(these)}", 80, initial_indent="  ",
            subsequent_indent="      ", break_on_hyphens=False)]  # names whole
    return "\n".join(lines)


@cli.command()
@click.argument("position", required=False, type=IN_FILE)
@click.option("--ply", type=click.IntRange(min=0), default=None,
              help="With a game record: the position after this many decisions [default: the "
                   "end].")
@click.option("--moves", is_flag=True,
              help="Also list the legal moves, numbered as in 'arle play', with printed names "
                   "and what each costs and gains.")
@game_option("to show")
def show(position: str | None, ply: int | None, moves: bool, game: int | None) -> None:
    """Print POSITION readably: a JSON position file, or a game record (its last position, or
    the one after --ply decisions), or a game of a selfplay results file (--game N; without
    it the file's games are listed); no POSITION means the standard opening."""
    state, record = load_game_file(position, ply, game, pick=True)
    if game is not None and record is not None:  # a game of a results file
        click.echo(f"game {game} of {position}: {record.players[0]}"
                   + (f" (P0) against {record.players[1]} (P1)" if len(record.players) > 1
                      else " (solo)") + f", after {len(record.actions)} decisions")
    click.echo(describe_wide(state, shutil.get_terminal_size().columns))
    if moves and not state.is_terminal():
        click.echo(f"legal moves - {decisions.question(state)}")
        click.echo(format_menu(state, shutil.get_terminal_size().columns))


# The commands that live in their own modules (new and show live here), imported above like
# any other module: one that is missing or fails to import stops 'arle' at start-up.
COMMANDS = (suggest, play, selfplay, analyze, bench, check, serve, info, list_things, edit,
            datagen, train, learn)
for _command in COMMANDS:
    cli.add_command(_command)

if __name__ == "__main__":
    cli()
