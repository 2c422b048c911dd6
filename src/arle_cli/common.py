"""Helpers shared by the ``arle`` commands: clean failures (exit 2), files, positions."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import stat
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import Any, NoReturn, TypeVar

import click
from tqdm import tqdm

import arle_ai
from arle_ai.base import files, limits
from arle_ai.base.errors import PositionError
from arle_ai.base.jsontext import parse_json
from arle_ai.engine import MAX_SEED
from arle_ai.formats.records import FORMAT as RECORD_FORMAT
from arle_ai.formats.records import GameRecord, RecordError, record_from_dict
from arle_ai.play import results
from arle_ai.play.agents import Agent, agent_from_spec
from arle_ai.search.config import Budget
from arle_ai.search.tree import SearchProgress
from arle_ai.text import names

VARIANTS = ("standard", "first-game")
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a Ctrl-C


class Seconds(click.ParamType):
    """A time in seconds: finite, positive, at most limits.MAX_SECONDS (nan, inf refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not (math.isfinite(seconds) and 0 < seconds <= limits.MAX_SECONDS):
            self.fail(f"{value} is not a finite number of seconds in (0, "
                      f"{limits.MAX_SECONDS:g}]", param, ctx)
        return seconds


class FiniteRange(click.FloatRange):
    """A real number in a range, never nan (click's FloatRange lets nan through: every
    comparison with it is false) nor +-inf."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value} is not a finite number", param, ctx)
        return number


class Count(click.IntRange):
    """A whole number in 1..maximum (click names the range when a value is outside it)."""

    def __init__(self, maximum: int, minimum: int = 1) -> None:
        super().__init__(minimum, maximum)


class Workers(click.ParamType):
    """A number of processes in 1..limits.MAX_WORKERS (4 per core of this machine)."""

    name = "integer"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> int:
        n = click.INT.convert(value, param, ctx)
        if n < 1:
            self.fail(f"{n} is not a positive number of processes", param, ctx)
        if n > limits.MAX_WORKERS:
            self.fail(f"{n} is more than {limits.MAX_WORKERS} processes (at most 4 per core; "
                      f"this machine has {limits.CORES})", param, ctx)
        return n


class FilePath(click.Path):
    """A file name: one holding a NUL character is a usage error (click's own Path lets
    os.stat raise). With ``writing``, the name must be one a file can be written at: a
    regular file or nothing yet, in an existing folder, not too long (a directory, fifo or
    device is refused before any work is done, so nothing is lost at the end)."""

    def __init__(self, writing: bool = False) -> None:
        super().__init__(dir_okay=not writing)
        self.writing = writing

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        if isinstance(value, str) and "\0" in value:
            self.fail(f"{value!r}: a file name cannot hold a NUL character", param, ctx)
        path = super().convert(value, param, ctx)
        if self.writing:
            problem = unwritable(os.fsdecode(path))
            if problem:
                self.fail(f"{os.fsdecode(path)}: {problem}", param, ctx)
        return path


def unwritable(path: str) -> str | None:
    """Why no regular file can be written at ``path``, or None."""
    if path == "":
        return "an empty file name"
    try:
        st = os.stat(path)
    except FileNotFoundError:
        folder = os.path.dirname(path) or "."
        if not os.path.isdir(folder):
            return "the folder does not exist"
        return None
    except OSError as exc:
        return exc.strerror or str(exc)
    if not stat.S_ISREG(st.st_mode):
        return f"is {files.kind_of(st.st_mode)}, not a file to write"
    return None


def is_npz_with(path: str, *arrays: str) -> bool:
    """Whether ``path`` is a numpy .npz file holding ``arrays`` (a file a command may write
    again: its own datagen or weights file, not anything else the user keeps under that
    name)."""
    import zipfile

    try:
        files.check_regular(path)
        with zipfile.ZipFile(path) as z:  # the names only: no data is read
            names = set(z.namelist())
    except (ValueError, OSError, EOFError, zipfile.BadZipFile):  # not a zip, unreadable
        return False
    return all(a + ".npy" in names for a in arrays)


IN_FILE = FilePath()
OUT_FILE = FilePath(writing=True)
SEED = click.IntRange(0, MAX_SEED)  # seeds are int64 in positions and records
WORKERS = Workers()

F = TypeVar("F", bound=Callable[..., Any])


def seed_option(help: str, maximum: int = MAX_SEED) -> Callable[[F], F]:
    """The ``--seed`` option (0..maximum, default 0) with a command's own ``help``."""
    return click.option("--seed", type=click.IntRange(0, maximum), default=0,
                        show_default=True, help=help)


def players_option(help: str = "Players: 2, or 1 for the solo game.") -> Callable[[F], F]:
    """The ``--players`` option (1 = the solo game, or 2; default 2)."""
    return click.option("--players", type=click.IntRange(1, 2), default=2, show_default=True,
                        help=help)


def variant_option(help: str = "Building set of every game.") -> Callable[[F], F]:
    """The ``--variant`` option (standard or first-game, default standard)."""
    return click.option("--variant", type=click.Choice(VARIANTS), default="standard",
                        show_default=True, help=help)


class GamesBar:
    """A progress bar of games on stderr, started once the run knows how many games it has
    and how many a previous run of the same OUT already played (then it says it resumes).
    ``done`` and ``total`` count the games whether or not the bar is shown (not on a pipe)."""

    def __init__(self, desc: str, out: str | None) -> None:
        self.desc = desc
        self.out = out
        self.bar: tqdm | None = None
        self.done = self.total = 0

    def start(self, total: int, done: int) -> None:
        if done:
            click.echo(f"arle: resuming {self.out}: {done} of {total} games already played, "
                       f"{total - done} to play", err=True)
        self.total, self.done = total, done
        self.bar = tqdm(total=total, initial=done, unit="game", file=sys.stderr,
                        disable=None, desc=self.desc)

    def progress(self, done: int, total: int) -> None:
        """Games ``done`` of ``total`` (starts the bar on the first call)."""
        if self.bar is None:
            self.start(total, done)
        else:
            self.bar.update(done - self.done)
            self.done = done

    def advance(self) -> None:
        """One more game played."""
        self.progress(self.done + 1, self.total)

    def warn(self, message: str) -> None:
        """A line on stderr above the bar (``arle: warning: ...``)."""
        line = f"arle: warning: {' '.join(message.split())}"
        if self.bar is not None and not self.bar.disable:
            self.bar.write(line, file=sys.stderr)
        else:
            click.echo(line, err=True)


@contextmanager
def games_bar(desc: str, out: str | None) -> Iterator[GamesBar]:
    """A :class:`GamesBar`, closed however the run ends."""
    bar = GamesBar(desc, out)
    try:
        yield bar
    finally:
        if bar.bar is not None:
            bar.bar.close()


def check_iterations_per_worker(state: arle_ai.GameState, iterations: int | None,
                                workers: int) -> None:
    """Fail when ``workers`` processes would share ``iterations`` so thinly that a worker
    cannot try each legal move once (its statistics would leave moves unvisited)."""
    if iterations is None or workers == 1:
        return
    moves = len(state.legal_actions())
    if iterations // workers < moves:
        most = max(1, iterations // moves)
        fail(f"--iterations {iterations} over --workers {workers} gives each worker "
             f"{iterations // workers} iterations, fewer than the {moves} legal moves: use at "
             f"most {most} workers or at least {moves * workers} iterations")


def fail(message: str) -> NoReturn:
    """Print ``message`` as one line on stderr and exit with the bad-input code."""
    one_line = " ".join(str(message).split())
    click.echo(f"arle: error: {one_line}", err=True)
    raise SystemExit(EXIT_BAD_INPUT)


def interrupted(message: str = "") -> NoReturn:
    """Ctrl-C: say what was kept in one line on stderr and exit 130 (no traceback)."""
    try:
        click.echo(f"\narle: interrupted{': ' + message if message else ''}", err=True)
    except OSError:  # the terminal hung up (SIGHUP): nobody is left to read it
        pass
    raise SystemExit(EXIT_INTERRUPTED)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def hangup_as_interrupt() -> Iterator[None]:
    """Within the block SIGHUP (the terminal closed, an SSH connection dropped) and SIGTERM
    (``kill``, a shutdown) end the command as Ctrl-C does: what it keeps on Ctrl-C is kept
    (they used to kill it on the spot). A signal ignored when the command started (``nohup``)
    stays ignored. Only the main thread can set handlers: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old: dict[int, Any] = {}
    for name in ("SIGHUP", "SIGTERM"):
        sig = getattr(signal, name, None)
        if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
            old[sig] = signal.signal(sig, _raise_interrupt)
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def read_text(path: str, what: str = "position file") -> str:
    """Return the text of the file at ``path`` (a regular file of at most
    arle_ai.base.files.MAX_FILE_BYTES), or fail naming the file and the problem."""
    try:
        return files.read_text(path, what=what)
    except ValueError as exc:
        fail(str(exc))


def read_json(path: str, what: str = "position file") -> Any:
    """The JSON value in the file at ``path`` (a leading byte order mark is ignored), or fail
    naming the file and what is malformed (including nesting too deep or numbers too long)."""
    text = read_text(path, what)
    try:
        return parse_json(text)
    except PositionError as exc:
        fail(f"{path}: {exc}")


def write_text(text: str, path: str | None) -> None:
    """Write ``text``, newline-terminated, to the file at ``path`` (None: to stdout),
    atomically: the old file stays whole if the writing fails."""
    if not text.endswith("\n"):
        text += "\n"
    if path is None:
        click.echo(text, nl=False)
        return
    try:
        files.write_text(path, text)
    except OSError as exc:
        fail(f"{path}: cannot write: {exc.strerror or exc}")


def game_option(what: str) -> Callable[[F], F]:
    """The ``--game`` option: which game of a selfplay results file (``what`` it is for)."""
    return click.option("--game", type=click.IntRange(min=0), default=None,
                        help=f"With a selfplay results file (arle selfplay --out): the game "
                             f"{what}, by its index; without --game the file's games are "
                             f"listed.")


def _read_game_file(path: str, what: str) -> tuple[Any, results.Results | None]:
    """The file at ``path``, read once (a pipe cannot be read twice): the JSON value it
    holds, or, for a selfplay results file, None and the file read; fails naming the file
    and the problem (a damaged line of a results file by its number)."""
    text = read_text(path, what)
    if not results.is_results_text(text):
        try:
            return parse_json(text), None
        except PositionError as exc:
            fail(f"{path}: {exc}")
    try:
        return None, results.read_text(text)
    except results.ResultsFileError as exc:
        fail(f"{path}: {exc}")


def format_games(path: str, read: results.Results) -> str:
    """The games of a results file, one line each (its index, the agents on the seats with
    their scores, the winner, the decisions), and how to pick one."""
    entries = read.entries()
    solo = read.players == 1
    width = max([len(a) for e in entries for a in e.agents] + [5])
    head = f"{path}: a selfplay results file of {len(entries)} game" + \
        ("" if len(entries) == 1 else "s") + "; --game N picks one"
    seats = [f"{'agent' if solo else f'P{p}':<{width}}  {'VP':>6}" for p in range(read.players)]
    lines = [head, f"  {'game':>5}  {'  '.join(seats)}{'' if solo else '  winner'}  decisions"]
    for e in entries:
        cells = [f"{a:<{width}}  {v:>6g}" for a, v in zip(e.agents, e.scores, strict=True)]
        won = "" if solo else f"  {'draw' if e.winner is None else f'P{e.winner}':<6}"
        lines.append(f"  {e.game:>5}  {'  '.join(cells)}{won}  {e.decisions:>9}")
    if not entries:
        lines.append("  (no game finished yet)")
    return "\n".join(lines)


def _results_game(path: str, read: results.Results, game: int | None) -> GameRecord:
    """Game ``game`` of the results file ``read`` (from ``path``), or fail naming the games
    there are; without ``game``, the file's games listed and the command ended (exit 0)."""
    if game is None:
        click.echo(format_games(path, read))
        click.get_current_context().exit(0)
    try:
        return read.record(game)
    except results.ResultsFileError as exc:
        fail(f"{path}: {exc}")


def _no_game(path: str | None, game: int | None) -> None:
    """Fail when ``--game`` was given for something that is no results file."""
    if game is not None:
        fail(f"--game picks a game of a selfplay results file, and "
             f"{path or 'the standard opening'} is not one (a game record or a position is "
             f"one game: leave out --game)")


def load_game_file(path: str | None, ply: int | None = None, game: int | None = None,
                   pick: bool = False) -> tuple[arle_ai.GameState, GameRecord | None]:
    """The position in the file at ``path`` and, when the file is a game record, the record
    (cut back to its first ``ply`` decisions when ``ply`` is given; its end otherwise). With
    ``pick`` (a command with --game), a selfplay results file's game ``game`` (without
    ``game`` its games are listed and the command ends). No path means the standard opening.
    Fails naming the file and the problem."""
    if path is None:
        _no_game(path, game)
        if ply is not None:
            fail("--ply needs a game record file")
        return arle_ai.new_game(seed=0), None
    data, read = _read_game_file(path, "position file, game record or results file")
    if read is None:
        _no_game(path, game)
    elif not pick:
        fail(f"{path} is a selfplay results file ({len(read.games)} games), and this command "
             f"takes one game: 'arle show {path}' lists them, 'arle show {path} --game N' "
             f"shows one, and 'arle analyze {path} --game N --out FILE' saves it as a record")
    if read is not None or (isinstance(data, dict) and data.get("format") == RECORD_FORMAT):
        if read is not None:
            record = _results_game(path, read, game)
        else:
            try:
                record = record_from_dict(data)
            except RecordError as exc:
                fail(f"{path}: invalid game record: {exc}")
        if ply is not None:
            cut_record(record, ply, path)
        return record.final_state(), record
    if ply is not None:
        fail(f"{path}: --ply needs a game record, and this is a position file")
    try:
        return arle_ai.GameState.from_dict(names.keys_for_names(data)), None
    except ValueError as exc:  # arle_ai.PositionError is a ValueError
        fail(f"{path}: invalid position: {exc}")


def cut_record(record: GameRecord, ply: int, path: str) -> None:
    """Cut ``record`` (read from ``path``) back to its first ``ply`` decisions, or fail."""
    if not 0 <= ply <= len(record.actions):
        fail(f"--ply {ply} is outside 0..{len(record.actions)}, the decisions of {path}")
    record.cut(ply)


def position_argument(path: str | None, ply: int | None = None) -> arle_ai.GameState:
    """The position a command's POSITION argument names (see :func:`load_game_file`): a
    position file, a game record's position (after ``ply`` decisions), or the standard
    opening when there is none."""
    return load_game_file(path, ply)[0]


def make_game(seed: int, variant: str, players: int = 2) -> arle_ai.GameState:
    """Return the start position for ``seed``, ``variant`` and ``players`` (1: the solo
    game), failing cleanly on bad values."""
    try:
        return arle_ai.new_game(seed=seed, variant=variant, players=players)
    except ValueError as exc:
        fail(str(exc))


def load_record_file(path: str, game: int | None = None) -> GameRecord:
    """Load and replay the game record at ``path``, or game ``game`` of a selfplay results
    file (without ``game`` its games are listed and the command ends); or fail naming the
    problem."""
    data, read = _read_game_file(path, "game record or results file")
    if read is not None:
        return _results_game(path, read, game)
    _no_game(path, game)
    try:
        return record_from_dict(data)
    except RecordError as exc:
        fail(f"{path}: invalid game record: {exc}")


def make_agent(spec: str, seed: int = 0) -> Agent:
    """An agent from a spec such as ``mcts:iterations=2000``, or fail naming the bad part.

    ``py:`` specs import from the current folder too, as ``python -m`` would (the ``arle``
    script's own folder is what Python puts first otherwise); worker processes inherit it."""
    if spec.strip().lower().startswith("py:") and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return agent_from_spec(spec, seed=seed)
    except ValueError as exc:
        fail(str(exc))


MIN_WIDTH = 40  # the narrowest a sentence is wrapped to, however narrow the terminal


def terminal_width(width: int | None = None) -> int:
    """``width``, or else the terminal's columns (``COLUMNS``, or 80 when the output is no
    terminal): the width the commands' text is laid out in."""
    return width or shutil.get_terminal_size().columns


def wrap(text: str, width: int, first: str = "", hang: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` characters (never under :data:`MIN_WIDTH`),
    broken between words only (a word is never cut, a name never broken at its hyphen),
    the first line led by ``first`` and the next by ``hang``: a long sentence of a command's
    output as a terminal shows it (``arle suggest``'s why, ``arle analyze``'s mistakes)."""
    return textwrap.wrap(text, max(MIN_WIDTH, width), initial_indent=first,
                         subsequent_indent=hang, break_on_hyphens=False,
                         break_long_words=False) or [first.rstrip()]


def wrap_legend(lines: Sequence[str], width: int) -> list[str]:
    """A legend under a table (``arle suggest``'s, ``arle analyze``'s: entries written
    ``name: what it means``, a line led by spaces going on with the entry before it) in
    lines of at most ``width`` characters: an entry as written where its lines fit, else
    wrapped as :func:`wrap` wraps a sentence, its next lines under the indent its own went on
    with (an entry of one line as the legend's others go on: under its text after its name,
    ``value: ...`` over ``       ...``, or two spaces in)."""
    entries: list[list[str]] = []  # the lines of each entry
    for line in lines:
        if entries and line.strip() and line[:1].isspace():  # goes on with the entry before
            entries[-1].append(line)
        else:
            entries.append([line])

    def under_name(text: str) -> str:
        return " " * (text.find(": ") + 2)

    def hang(entry: list[str]) -> str:
        return entry[1][:len(entry[1]) - len(entry[1].lstrip())] if len(entry) > 1 else ""

    aligned = all(hang(e) == under_name(e[0]) for e in entries if len(e) > 1)
    out: list[str] = []
    for entry in entries:
        if all(len(line) <= width for line in entry):
            out += entry
            continue
        text = " ".join(line.strip() for line in entry)
        out += wrap(text, width, "", hang(entry) or (under_name(text) if aligned else "  "))
    return out


def emit_json(data: object) -> None:
    """Write ``data`` as JSON on stdout (machine-readable output of ``--json``)."""
    click.echo(json.dumps(data, indent=1))


@contextmanager
def search_bar(budget: Budget, desc: str = "searching"
               ) -> Iterator[Callable[[SearchProgress], None]]:
    """A progress bar on stderr for one search within ``budget``, shown once the search has
    run a second.

    With a time budget it fills with the seconds spent (a timer thread ticks it); otherwise
    it counts iterations through the callback this yields (pass it as ``progress``)."""
    time_limit = budget.seconds
    if time_limit is not None:
        bar = tqdm(total=time_limit, desc=desc, file=sys.stderr, disable=None, leave=False,
                   delay=1, bar_format="{desc}: {bar} {n:.1f}/{total:.1f} s")
        stop = threading.Event()
        start = time.perf_counter()

        def tick() -> None:
            # update(), not n= and refresh(): tqdm clears at close only a bar it knows it
            # printed (update() notes when; refresh() does not), so a bar only refreshed
            # stayed on the line and the next output was glued to it
            while not stop.wait(0.1):
                bar.update(min(time_limit, time.perf_counter() - start) - bar.n)

        ticker = threading.Thread(target=tick, daemon=True)
        ticker.start()
        try:
            yield lambda report: None
        finally:
            stop.set()
            ticker.join()
            bar.close()
        return
    bar = tqdm(total=budget.iterations, desc=desc, unit="it", file=sys.stderr, disable=None,
               leave=False, delay=1)

    def update(report: SearchProgress) -> None:
        bar.update(report.iterations - bar.n)

    try:
        yield update
    finally:
        bar.close()


class WorkBar:
    """Progress through ``total`` pieces of work on stderr: a tqdm bar on a terminal; a line
    every ``every`` seconds (and at the end) elsewhere, so that a long run written to a file
    or a pipe is never silent. ``advance(n)`` counts n more pieces done."""

    def __init__(self, total: int, desc: str, unit: str, every: float = 10.0) -> None:
        self.total, self.desc, self.unit, self.every = total, desc, unit, every
        self.done = 0
        self.start = self.last = time.perf_counter()
        self.bar: tqdm | None = None
        if sys.stderr.isatty():
            self.bar = tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False)

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
            return
        now = time.perf_counter()
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            spent = now - self.start
            left = spent / self.done * (self.total - self.done) if self.done else 0.0
            click.echo(f"{self.desc}: {self.done}/{self.total} {self.unit}s, {spent:.0f} s, "
                       f"about {left:.0f} s left", err=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@contextmanager
def work_bar(total: int, desc: str, unit: str, every: float = 10.0) -> Iterator[WorkBar]:
    """A :class:`WorkBar`, closed however the run ends."""
    bar = WorkBar(total, desc, unit, every)
    try:
        yield bar
    finally:
        bar.close()
