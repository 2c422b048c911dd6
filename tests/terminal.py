"""Commands as a terminal shows them: run in a pseudo-terminal (their output and progress bars
drawn as a person sees them), answers typed at their prompts, the screen read back at the end
(carriage returns overwrite, escape sequences left out)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import termios
import time
from dataclasses import dataclass
from pathlib import Path

CSI = re.compile(rb"\x1b\[([0-9;?]*)([A-Za-z])")


def screen(raw: bytes) -> list[str]:
    """The lines a terminal shows after ``raw``: ``\\r`` returns to the line's start and what
    follows overwrites it, ``\\n`` goes to the next line (the terminal's own ``\\r\\n`` too);
    of the escape sequences, the cursor's moves up and down (nested progress bars) and the
    erasing of a line are followed, the others (colours, the cursor shown) left out."""
    lines: list[list[str]] = [[]]
    row = col = 0
    text = raw.decode("utf-8", "replace")
    pos = 0
    for m in [*re.finditer(CSI.pattern.decode(), text), None]:
        for ch in text[pos:m.start() if m else len(text)]:
            if ch == "\r":
                col = 0
            elif ch == "\n":
                row, col = row + 1, 0
                while len(lines) <= row:
                    lines.append([])
            else:
                line = lines[row]
                if col < len(line):
                    line[col] = ch
                else:
                    line.extend(" " * (col - len(line)) + ch)
                col += 1
        if m is None:
            break
        pos = m.end()
        arg, kind = m[1], m[2]
        n = int(arg) if arg.isdigit() else 1
        if kind == "A":
            row = max(0, row - n)
        elif kind == "B":
            row += n
            while len(lines) <= row:
                lines.append([])
        elif kind == "K":  # erase: 0 (or none) to the line's end, 1 to the cursor, 2 all
            line = lines[row]
            if arg in ("", "0"):
                del line[col:]
            elif arg == "1":
                line[:col] = " " * min(col, len(line))
            else:
                line.clear()
        elif kind == "G":  # to column n
            col = n - 1
    return ["".join(line).rstrip() for line in lines]


@dataclass
class Run:
    """What a command left on the screen, its exit code, and the answers it never asked for
    (their prompts, in order)."""

    lines: list[str]
    returncode: int | None
    unasked: list[str]


# the end of the output when a command waits for an answer: "You (1-31, help)> ", "[4]> ", "> "
WAITING = re.compile(rb"(?:[)\]]|^)>\Z", re.M)


def in_terminal(argv: list[str], answers: list[tuple[str, str]], cwd: Path,
                env: dict[str, str] | None = None, seconds: float = 120,
                columns: int = 100, idle: float = 5) -> Run:
    """Run ``argv`` with a pseudo-terminal ``columns`` wide for its input and both outputs,
    typing each answer once the output since the previous answer ends with its prompt (a
    regular expression); gives up after ``seconds``, or after ``idle`` seconds waiting at a
    prompt that is not the next answer's (the command killed, ``returncode`` None)."""
    main, side = os.openpty()
    # a terminal of a size (a new one is 0 x 0, where a bar is drawn as nothing)
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {**(os.environ if env is None else env), "COLUMNS": str(columns), "LINES": "40",
           "TERM": "xterm"}
    proc = subprocess.Popen(argv, stdin=side, stdout=side, stderr=side, cwd=cwd, env=env,
                            close_fds=True, start_new_session=True)
    os.close(side)
    out = b""
    since = 0  # where the output after the last answer starts
    todo = list(answers)
    deadline = time.monotonic() + seconds
    ended = False
    quiet_since = time.monotonic()
    try:
        while not ended and time.monotonic() < deadline:
            ready, _, _ = select.select([main], [], [], 0.1)
            if not ready and WAITING.search(out.rstrip()) and (
                    time.monotonic() - quiet_since > idle):
                break  # asked something the answers do not answer
            if ready:
                quiet_since = time.monotonic()
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the command ended: its side of the terminal is closed
                    chunk = b""
                ended = not chunk
                out += chunk
            if todo and re.search(todo[0][0].encode() + rb"\Z", out[since:].rstrip()):
                os.write(main, todo.pop(0)[1].encode() + b"\n")
                since = len(out)  # past the prompt (the terminal echoes the answer)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the command and whatever it started
        code = proc.wait()
        os.close(main)
    return Run(screen(out), code if ended else None, [prompt for prompt, _ in todo])
