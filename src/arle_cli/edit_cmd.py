"""``arle edit FILE``: enter a position from the table by answering questions.

The questions, their checks and their messages are the library's
(:mod:`arle_ai.formats.entry`, which the browser's editor uses too); this command prompts and
prints: each question with what is there now, ``not accepted:`` and the reason when an answer
does not fit (asked again), the notes of an accepted one. Enter keeps what is there, ``back``
returns to the previous question (the answers given stay). The file is written without a
``pending`` block, so the position starts at the turn of the player whose worker is next;
stopped before the last question, FILE stays as it was and the answers so far are written
next to it.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import textwrap
from pathlib import Path
from typing import Any, NoReturn

import click

import arle_ai
from arle_ai.formats.entry import Entry
from arle_ai.text.display import describe_wide
from arle_cli.common import (
    OUT_FILE,
    fail,
    hangup_as_interrupt,
    interrupted,
    players_option,
    read_json,
    seed_option,
    write_text,
)

WIDTH = 80  # every line of the dialogue fits an 80-column terminal, words whole
NB = "\x00"  # a space that wrapping keeps (inside a quoted example)


def _lines(text: str, first: str = "", rest: str = "", width: int = WIDTH) -> str:
    """``text`` wrapped at whole words into lines of at most ``width`` characters; a quoted
    example (``'food 7 timber 2'``) is kept on one line."""
    text = re.sub(r"(?<!\w)'[^']*'(?!\w)", lambda m: m.group(0).replace(" ", NB),
                  " ".join(text.split()))  # an apostrophe (Potter's Inn) opens no quote
    return "\n".join(textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                                    break_long_words=False, break_on_hyphens=False)
                      ).replace(NB, " ")


def _question(question: str, shown: str) -> str:
    """The prompt: the question and what is there now; the answer is typed after ``> ``, on
    the same line when the question is short, else on a line of its own."""
    items = ", ".join(item.replace(" ", NB) for item in shown.split(", "))  # 'Ovens 1' whole
    text = _lines(question, rest="  ") + "\n" + _lines(f"now: {items}", "  ", "    ")
    short = f"{question} [{shown}]"
    return short if len(short) <= WIDTH - 30 else text + "\n"


INTRO = ("Enter keeps what is there now; 'back' returns to the previous question (the answers "
         "given stay); each answer is checked at once.")


def _edit(entry: Entry) -> None:
    """Ask the entry's questions until the last is answered."""
    click.echo(_lines(INTRO))
    while not entry.done:
        q = entry.question
        reply = entry.reply(click.prompt(_question(q.text, entry.shown()), default="",
                                         show_default=False, prompt_suffix="> "))
        if reply.outcome == "first":
            click.echo("  this is the first question")
        elif reply.outcome == "refused":
            click.echo(_lines(f"not accepted: {reply.message}", first="  ", rest="    "))
        for note in reply.notes:
            click.echo(_lines(f"note: {note}", first="  ", rest="    "))


def _write(d: dict[str, Any], path: str) -> arle_ai.GameState:
    """Write the position ``d`` (checked by every answer) to ``path`` without its pending
    block; return it as a state."""
    state = arle_ai.GameState.from_dict(d)
    out = state.to_dict()
    out.pop("pending", None)
    write_text(json.dumps(out, indent=1), path)
    return state


def _stopped(file: str, before: dict[str, Any], d: dict[str, Any], ctrl_c: bool) -> NoReturn:
    """Stopped before the last question: FILE stays as it was; answers already given that
    changed the position are written next to it, so nothing typed is lost."""
    if d == before:
        kept = f"nothing changed, {file} is as it was" if Path(file).exists() else (
            "nothing written")
    else:
        p = Path(file)
        partial = p.with_name(f"{p.stem}.partial{p.suffix or '.json'}")
        n = 2
        while partial.exists():
            partial = p.with_name(f"{p.stem}.partial-{n}{p.suffix or '.json'}")
            n += 1
        _write(d, str(partial))
        kept = (f"{file} is unchanged; the answers so far are in {partial} (go on with "
                f"'arle edit {partial}')")
    if ctrl_c:
        interrupted(kept)
    fail(f"input ended before the last question: {kept}")


@click.command()
@click.argument("file", type=OUT_FILE)
@seed_option("Setup seed of a new position when FILE does not exist yet.")
@players_option("Players of a new position when FILE does not exist yet: 2, or 1 for the "
                "solo game (a FILE says its own).")
def edit(file: str, seed: int, players: int) -> None:
    """Enter or change the position in FILE by answering questions (printed names or keys;
    Enter keeps a value). FILE is created from a new game when it does not exist."""
    if Path(file).exists():
        try:
            entry = Entry(read_json(file))
        except ValueError as exc:
            fail(f"{file}: invalid position: {exc}")
    else:
        entry = Entry(arle_ai.new_game(seed=seed, players=players).to_dict())
    before = copy.deepcopy(entry.position)
    try:
        with hangup_as_interrupt():  # a closed terminal keeps the answers as Ctrl-C does
            _edit(entry)
    except (click.Abort, KeyboardInterrupt) as exc:  # click.prompt: Ctrl-C or end of input
        ctrl_c = isinstance(exc, KeyboardInterrupt) or isinstance(exc.__context__,
                                                                  KeyboardInterrupt)
        _stopped(file, before, entry.position, ctrl_c)
    state = _write(entry.position, file)
    click.echo(f"written to {file}:")
    click.echo(describe_wide(state, shutil.get_terminal_size().columns))
