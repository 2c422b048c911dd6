"""The commands as a terminal shows them (issue 34, item 4): run in a pseudo-terminal, so that
the progress bars are drawn as a person sees them, and read back as the screen ends up
(carriage returns overwrite, escape sequences left out). A bar clears its line before the
next output: nothing is glued to it ("AI thinking: ███ 1.9/2.0 sAI: Forester, ...")."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from arle_ai.formats.records import GameRecord

ARLE = [sys.executable, "-c", "from arle_cli.main import cli; cli()"]
CSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")
# a bar's text: its name, then how far it is ("1.4/1.5 s", "3/6 [00:01<00:02]")
BAR = re.compile(r"(AI thinking|hint|searching|analyze):\s.*\d/\d")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def screen(raw: bytes) -> list[str]:
    """The lines a terminal shows after ``raw``: ``\\r`` returns to the line's start and what
    follows overwrites it, ``\\n`` starts a new line (the terminal's own ``\\r\\n`` too)."""
    lines: list[list[str]] = [[]]
    col = 0
    for ch in CSI.sub(b"", raw).decode("utf-8", "replace"):
        line = lines[-1]
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append([])
            col = 0
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.extend(" " * (col - len(line)) + ch)
            col += 1
    return ["".join(line).rstrip() for line in lines]


def in_terminal(args: list[str], answers: list[tuple[str, str]], cwd: Path,
                seconds: float = 120) -> list[str]:
    """Run ``arle ARGS`` with a pseudo-terminal for its input and both outputs, typing each
    answer once the output so far ends with its prompt (a regular expression); the screen
    at the end."""
    main, side = os.openpty()
    # a terminal 100 columns wide (a new one is 0 x 0, where a bar is drawn as nothing)
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = {**os.environ, "COLUMNS": "100", "LINES": "40", "TERM": "xterm"}
    proc = subprocess.Popen([*ARLE, *args], stdin=side, stdout=side, stderr=side, cwd=cwd,
                            env=env, close_fds=True)
    os.close(side)
    out = b""
    todo = list(answers)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the command ended: its side of the terminal is closed
                    break
                if not chunk:
                    break
                out += chunk
            if todo and re.search(todo[0][0].encode() + rb"\Z", out.rstrip()):
                os.write(main, todo.pop(0)[1].encode() + b"\n")
                out += b"\n"  # (the terminal echoes it; the screen reads it typed)
        else:
            pytest.fail(f"arle {' '.join(args)} did not finish: {screen(out)[-5:]}")
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(main)
    assert not todo, f"never asked {todo[0][0]!r}: {screen(out)[-5:]}"
    return screen(out)


def glued(lines: list[str]) -> list[str]:
    """The lines where a progress bar was left: its text with anything after it."""
    return [line for line in lines if BAR.search(line)]


PROMPT = r"You \(1-\d+, help\)>"


def test_play_clears_the_hint_and_the_ai_bars_before_the_next_line(tmp_path):
    lines = in_terminal(["play", "--ai", "mcts:time=1.5", "--hint-time", "1.5", "--out",
                         "g.json"],
                        [(PROMPT, "hint"), (PROMPT, "Woodcutter"), (PROMPT, "quit")], tmp_path)
    assert not glued(lines), glued(lines)
    # the hint's report and the AI's move each start their own line
    assert any(line.startswith("Your turn: place a worker") for line in lines), lines
    assert any(line.startswith("You: Woodcutter [+3 wood]") for line in lines), lines
    assert sum(line.startswith("AI: ") for line in lines) == 1, lines


def test_suggest_and_analyze_clear_their_bars(tmp_path):
    lines = in_terminal(["suggest", "--time", "1.3"], [], tmp_path)
    assert not glued(lines), glued(lines)
    assert lines[0].startswith("P0, your turn: place a worker"), lines[:3]
    rec = GameRecord.new(seed=1)
    for _ in range(6):
        rec.push(rec.final_state().legal_actions()[0])
    rec.save(tmp_path / "r.json")
    lines = in_terminal(["analyze", "r.json", "--iterations", "200"], [], tmp_path)
    assert not glued(lines), glued(lines)
    assert any(line.startswith(" ply P HY  played") for line in lines), lines
