"""Every command shown in README.md and docs/cli.md runs and prints what the page shows
(issue 34, item 8).

The commands are read from the pages' ```console blocks (the ``$ `` lines, each followed by
the output shown for it) and ```sh blocks (every line a command); a block of another kind may
hold none. Each command runs in bash, in a pseudo-terminal 80 columns wide (what a person sees,
progress bars included), in a folder of its page's own: a page's commands run in the order
shown, so a command reads what an earlier one wrote. The answers shown after a prompt
(``You (1-31, help)> Woodcutter``) are typed when the prompt appears. The screen must match
the sample line for line, a line ``...`` standing for lines left out, durations (``2.93 s``)
aside. The exceptions are all named here; none is skipped:

- INSTALL: the quick start's install steps, run by .ci/run (a test checks that it runs them);
- SUBSTITUTES: a long command run with a small budget, which its page names in backticks; its
  sample (of the run shown) is held to the substituted run's first line, numbers aside;
- a search on a time budget (``arle suggest`` without ``--iterations``): its first two lines
  compared numbers aside (a machine runs as many simulations as it can, and the ranking differs
  with them), then the search replayed with ``--iterations N``, N the sample's number of
  simulations (the same search), and compared whole;
- NUMBERS_VARY: output made of measurements, compared with every number masked;
- ``arle serve``: started, asked for its page, stopped with Ctrl-C (exit 130).

A command in the pages' text (a code span `arle ...`) names a command of the CLI, and a whole
one (no placeholder such as POSITION or [--ply N]) is one a block runs, or is in RUN_ELSEWHERE.

``python tests/test_doc_commands.py PAGE`` prints what each command of PAGE shows today (the
commands as shown, none substituted): the samples are cut from it.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from terminal import Run, in_terminal

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", "docs/cli.md")
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
SHELL = ("console", "sh")
COLUMNS = 80
# a prompt with the answer typed after it: "You (1-31, help)> Woodcutter", "...[4]> ", "> 3"
PROMPT = re.compile(r"^(?P<prompt>(?:.*[)\]])?>)(?: (?P<answer>.*))?$")
ELLIPSIS = "..."
DURATION = re.compile(r"\d[\d,]*(?:\.\d+)? ?(?:s|ms|us)\b")
# a finished progress bar left on the screen: its bar (as wide as its other text leaves), its
# times and rate ("selfplay: 100%|███| 12/12 [00:07<00:00,  1.58game/s]")
BAR = re.compile(r"%\|[^|]*\|")
BAR_TIMES = re.compile(r"\[[\d:]+<[\d:?]+,[^\]]*\]")
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")

# The quick start's install steps (parts of its commands, split at "&&"), and what .ci/run
# must hold to run each on a clean clone: the README's test command itself, verbatim.
INSTALL = {
    "python3 -m venv .venv": r"python3 -m venv ",
    ". .venv/bin/activate": r"(?m)^(source|\.) \S*bin/activate",
    # the same project; .ci/run installs it with the extras of the test command below
    "python -m pip install .": re.escape('python -m pip install ".['),
    'python -m pip install ".[test,openspiel,pettingzoo,ray]"': re.escape(
        'python -m pip install ".[test,openspiel,pettingzoo,ray]" && python -m pytest -q'),
    "python -m pytest -q": re.escape("&& python -m pytest -q"),
}

# A long command shown -> the command the tests run instead (the page names it in backticks).
SUBSTITUTES: dict[str, str] = {
    "arle serve": "arle serve --port 0",
}

# Commands whose every figure is a measurement: their samples are compared numbers aside.
NUMBERS_VARY = ("arle bench",)

# A whole command in a page's text (`arle show table.json`, not a synopsis such as
# `arle show [POSITION]`) is one that a block of these pages runs, or one run elsewhere: here.
RUN_ELSEWHERE = {
    "arle edit table.json": "tests/test_cli_edit.py types docs/edit-transcript.md's answers",
}
INLINE = re.compile(r"`(arle(?:\s[^`]*)?)`")
# a synopsis: a placeholder in capitals (POSITION, N), options in brackets or alternatives
SYNOPSIS = re.compile(r"\b[A-Z][A-Z_]+\b|[\[\]|]|\.\.\.")


@dataclass(frozen=True)
class Shown:
    """A command as a page shows it, and the output shown under it (none in a ```sh block)."""

    page: str
    line: int
    command: str
    sample: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def answers(self) -> list[tuple[str, str]]:
        """(prompt as a regular expression, answer) for every answer the sample shows."""
        found = (PROMPT.match(line) for line in self.sample)
        return [(re.escape(m["prompt"]), m["answer"] or "") for m in found if m]


def blocks(page: str) -> list[tuple[str, int, list[str]]]:
    """The fenced blocks of PAGE: language, line number of the first line inside, lines."""
    text = (ROOT / page).read_text(encoding="utf-8")
    return [(m[1].strip(), text.count("\n", 0, m.start(2)) + 1, m[2].splitlines())
            for m in FENCE.finditer(text)]


def shown(page: str) -> list[Shown]:
    """The commands of PAGE's ```console and ```sh blocks, in order."""
    out = []
    for lang, first, lines in blocks(page):
        if lang not in SHELL:
            continue
        i = 0
        while i < len(lines):
            line, at = lines[i], first + i
            i += 1
            if lang == "console" and not line.startswith("$ "):
                raise AssertionError(f"{page}:{at}: output before any command: {line!r}")
            if lang == "sh" and (not line.strip() or line.lstrip().startswith("#")):
                continue
            command = line[2:] if lang == "console" else line
            while command.endswith("\\") and i < len(lines):
                command += "\n" + lines[i]
                i += 1
            sample: list[str] = []
            while lang == "console" and i < len(lines) and not lines[i].startswith("$ "):
                sample.append(lines[i])
                i += 1
            out.append(Shown(page, at, command, tuple(sample)))
    return out


ALL = [s for page in PAGES for s in shown(page)]


def parts(command: str) -> list[str]:
    return [p.strip() for p in command.split("&&")]


def runnable(command: str) -> str:
    """The command less its install steps (INSTALL: .ci/run runs those)."""
    return " && ".join(p for p in parts(command) if p not in INSTALL)


# -- comparing a screen with a sample --------------------------------------------------------

def _masked(line: str, numbers: bool) -> str:
    line = DURATION.sub("#s", BAR.sub("%|#|", BAR_TIMES.sub("[#]", line.rstrip())))
    return " ".join(NUMBER.sub("#", line).split()) if numbers else line


def misfit(sample: list[str] | tuple[str, ...], screen: list[str],
           numbers: bool = False) -> str | None:
    """Where SCREEN does not show SAMPLE (None: it does): every line in order, ``...`` for any
    lines (none too), durations aside (with ``numbers``: every number, and spacing)."""
    want = [_masked(s, numbers) for s in sample]
    have = [_masked(s, numbers) for s in screen]
    while want and not want[-1]:
        want.pop()
    while have and not have[-1]:
        have.pop()
    chunks: list[list[str]] = [[]]
    for line in want:
        if line.strip() == ELLIPSIS:
            chunks.append([])
        else:
            chunks[-1].append(line)
    pos = 0
    for k, chunk in enumerate(chunks):
        first, last = k == 0, k == len(chunks) - 1
        if first and last:
            places = [0] if have == chunk else []
        elif first:
            places = [0] if have[:len(chunk)] == chunk else []
        elif last:
            j = len(have) - len(chunk)
            places = [j] if j >= pos and have[j:] == chunk else []
        else:
            places = [j for j in range(pos, len(have) - len(chunk) + 1)
                      if have[j:j + len(chunk)] == chunk][:1]
        if not places:
            return _why_not(chunk, have, pos, anchored_end=last, whole=first and last)
        pos = places[0] + len(chunk)
    return None


def _why_not(chunk: list[str], have: list[str], pos: int, anchored_end: bool,
             whole: bool) -> str:
    """The first line of CHUNK the screen does not show where it should."""
    best, at = 0, pos
    for j in range(pos, len(have) + 1):
        n = 0
        while n < len(chunk) and j + n < len(have) and have[j + n] == chunk[n]:
            n += 1
        if n > best:
            best, at = n, j
    if best == len(chunk):
        return ("the screen goes on after the sample's last line (end the sample with '...'): "
                + repr(have[at + best] if at + best < len(have) else have[-1]))
    got = have[at + best] if at + best < len(have) else "(the end of the screen)"
    return (f"sample line {chunk[best]!r} not shown: the screen has {got!r} there"
            + (" (after the sample's lines before it)" if best else ""))


# -- running ---------------------------------------------------------------------------------

def _arle_script(folder: Path) -> Path:
    """A folder holding ``arle``: the command of the Python running the tests."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / "arle"
    script.write_text("#!/bin/sh\nexec " + shlex.quote(sys.executable) + " -c 'import sys; "
                      "sys.argv[0] = \"arle\"; from arle_cli.entry import main; main()' \"$@\"\n")
    script.chmod(0o755)
    return bin_dir


@dataclass
class Page:
    """One page's commands, run in order in one folder (each once, when first needed)."""

    page: str
    folder: Path
    runs: list[Run] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.work = self.folder / "work"
        self.work.mkdir(exist_ok=True)
        self.env = {**os.environ, "PATH": f"{_arle_script(self.folder)}:{os.environ['PATH']}"}
        self.commands = [s for s in ALL if s.page == self.page]

    def run(self, command: str, answers: list[tuple[str, str]] = ()) -> Run:
        return in_terminal(["bash", "-c", command], list(answers), self.work, env=self.env,
                           seconds=300, columns=COLUMNS)

    def result(self, s: Shown) -> Run:
        """The run of S, after every command shown before it on its page."""
        index = self.commands.index(s)
        while len(self.runs) <= index:
            nxt = self.commands[len(self.runs)]
            self.runs.append(self._run_shown(nxt))
        return self.runs[index]

    def _run_shown(self, s: Shown, substitute: bool = True) -> Run:
        command = runnable(s.command)
        if substitute or command.startswith("arle serve"):  # (never on a fixed port)
            command = SUBSTITUTES.get(command, command)
        if not command:
            return Run([], 0, [])
        if command.startswith("arle serve"):
            return self.serve(command)
        return self.run(command, s.answers)

    def serve(self, command: str) -> Run:
        """Start ``arle serve``, read where it listens, get its page, stop it with Ctrl-C."""
        proc = subprocess.Popen(["bash", "-c", "exec " + command], cwd=self.work, env=self.env,
                                stderr=subprocess.PIPE, text=True)
        lines = []
        try:
            first = proc.stderr.readline() if proc.stderr else ""
            lines.append(first.rstrip("\n"))
            url = re.search(r"http://\S+/", first)
            assert url, f"arle serve said {first!r}"
            with urllib.request.urlopen(url[0], timeout=30) as r:
                assert r.status == 200 and b"Fields of Arle" in r.read()
        finally:
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        lines += err.splitlines()
        return Run(lines, proc.returncode, [])


@pytest.fixture(scope="session")
def pages(tmp_path_factory):
    made: dict[str, Page] = {}

    def page(name: str) -> Page:
        if name not in made:
            made[name] = Page(name, tmp_path_factory.mktemp(Path(name).stem))
        return made[name]
    return page


# -- the tests -------------------------------------------------------------------------------

def test_the_pages_show_commands():
    assert {s.page for s in ALL} == set(PAGES)
    assert [s.command for s in ALL if s.page == "README.md"][:2] == [
        "python3 -m venv .venv && . .venv/bin/activate && python -m pip install . "
        "&& arle suggest",
        'python -m pip install ".[test,openspiel,pettingzoo,ray]" && python -m pytest -q'], (
        "the README opens with its two commands: install and suggest, install and test")


def test_the_readme_starts_a_player_in_a_minute():
    """The README stays a start, not a reference (issue 34): at most 200 lines, the player's
    path (serve, play, suggest, analyze, solo) before the researcher's, the command
    reference in docs/cli.md."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines (at most 200: the rest in docs/)"
    order = [text.index(s) for s in ("arle serve", "arle play", "arle suggest POSITION",
                                     "arle analyze GAME", "--players 1", "## Research")]
    assert order == sorted(order), "the player's path comes first, then the researcher's"
    assert "docs/cli.md" in text


@pytest.mark.parametrize("page", PAGES)
def test_no_command_outside_a_shell_block(page):
    """A command in a block of another kind would escape this test: it is refused."""
    stray = [f"{page}:{first + i}: {line}" for lang, first, lines in blocks(page)
             if lang not in SHELL for i, line in enumerate(lines)
             if re.match(r"\s*(\$ |arle |python -m |pip )", line)]
    assert not stray, f"commands outside ```console/```sh blocks: {stray}"


def test_ci_runs_the_readme_install_and_test_commands():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_code = "\n".join(line for line in ci.splitlines() if not line.lstrip().startswith("#"))
    readme = [s.command for s in ALL if s.page == "README.md"]
    used = {p for command in readme for p in parts(command) if p in INSTALL}
    assert used == set(INSTALL), f"INSTALL steps the README no longer shows: {set(INSTALL) - used}"
    for step, pattern in INSTALL.items():
        assert re.search(pattern, ci_code), f".ci/run does not run {step!r} (/{pattern}/)"
    test_command = readme[1]
    assert test_command in ci_code, (
        f".ci/run does not run the README's test command {test_command!r}")


def test_every_command_is_run_or_substituted_where_its_page_says_so():
    commands = {runnable(s.command) for s in ALL}
    assert not set(SUBSTITUTES) - commands, (
        f"SUBSTITUTES of commands no page shows: {set(SUBSTITUTES) - commands}")
    for s in ALL:
        if runnable(s.command) in SUBSTITUTES:
            text = (ROOT / s.page).read_text(encoding="utf-8")
            assert f"`{SUBSTITUTES[runnable(s.command)]}`" in text, (
                f"{s.name}: the page does not say that the tests run "
                f"{SUBSTITUTES[runnable(s.command)]!r} for {s.command!r}")
        for p in parts(runnable(s.command)) if runnable(s.command) else []:
            assert p and not re.match(r"(python3? -m )?(pip|venv|pytest)\b", p), (
                f"{s.name}: {p!r} is an install or test step the tests do not know (INSTALL)")


def inline_commands(page: str) -> list[str]:
    """The `arle ...` code spans of PAGE's text (outside its blocks), spaces made single."""
    text = FENCE.sub("", (ROOT / page).read_text(encoding="utf-8"))
    return [" ".join(m.split()) for m in INLINE.findall(text)]


@pytest.mark.parametrize("page", PAGES)
def test_commands_in_the_text_are_commands(page):
    """`arle play`, `arle check` in a sentence: a command of today's CLI (a removed or renamed
    one fails here; the options of a synopsis are checked by tests/test_docs.py)."""
    from arle_cli.main import cli

    named = {c.split()[1] for c in inline_commands(page)
             if len(c.split()) > 1 and not SYNOPSIS.fullmatch(c.split()[1])}
    assert named, f"{page} names no arle command in its text"
    assert named <= set(cli.commands), f"{page}: no such command: {named - set(cli.commands)}"


@pytest.mark.parametrize("page", PAGES)
def test_whole_commands_in_the_text_are_run(page):
    run = {runnable(s.command) for s in ALL} | set(SUBSTITUTES.values()) | set(RUN_ELSEWHERE)
    shown = {c for p in PAGES for c in inline_commands(p)}
    assert set(RUN_ELSEWHERE) <= shown, f"RUN_ELSEWHERE no page shows: {set(RUN_ELSEWHERE) - shown}"
    whole = [c for c in inline_commands(page) if len(c.split()) > 2 and not SYNOPSIS.search(c)]
    assert not [c for c in whole if c not in run], (
        f"{page}: commands in the text that no block runs (show them in a ```console block, "
        f"write them as a synopsis, or say in RUN_ELSEWHERE where they run): "
        f"{[c for c in whole if c not in run]}")


@pytest.mark.parametrize("s", ALL, ids=[s.name for s in ALL])
def test_shown_command_runs_and_shows_its_sample(s, pages):
    page = pages(s.page)
    run = page.result(s)
    command = runnable(s.command)
    assert run.returncode is not None, f"{s.name}: {command!r} did not end: {run.lines[-8:]}"
    assert not run.unasked, f"{s.name}: {command!r} never asked {run.unasked}: {run.lines[-8:]}"
    expected = 130 if command.startswith("arle serve") else 0
    assert run.returncode == expected, f"{s.name}: {command!r} exit {run.returncode}: " + (
        "\n".join(run.lines[-12:]))
    if not s.sample:
        return
    sims = [m for line in s.sample if (m := re.match(r"(\d+) simulations in ", line))]
    timed = command.startswith("arle suggest") and "--iterations" not in command and bool(sims)
    if command in SUBSTITUTES:  # the sample of the run shown: its first line, numbers aside
        why = misfit([s.sample[0], ELLIPSIS], run.lines, numbers=True)
    elif timed:  # as many simulations as the machine allows: the moves may differ
        why = misfit([*s.sample[:2], ELLIPSIS], run.lines, numbers=True)
    else:
        why = misfit(s.sample, run.lines, numbers=command.startswith(NUMBERS_VARY))
    assert why is None, f"{s.name}: {command!r}: {why}"
    if timed:  # the same search again, to the sample's simulations: the sample exactly
        replay = page.run(f"{command} --iterations {sims[0][1]}")
        budget = re.compile(r"\(budget: [^)]*\)")
        why = misfit([budget.sub("", line) for line in s.sample],
                     [budget.sub("", line) for line in replay.lines])
        assert replay.returncode == 0 and why is None, (
            f"{s.name}: {command!r} replayed to {sims[0][1]} simulations: {why}")


def test_misfit_reads_samples_as_meant():
    screen = ["a", "b 2.93 s", "c", "d"]
    assert misfit(["a", "b 3.00 s", "c", "d"], screen) is None
    assert misfit(["a", "...", "d"], screen) is None
    assert misfit(["...", "c", "..."], screen) is None
    assert misfit(["a", "b 3.00 s", "c"], screen) is not None  # cut short without "..."
    assert misfit(["a", "...", "c", "b"], screen) is not None  # out of order
    assert misfit(["a", "c", "..."], screen) is not None  # a line left out without "..."
    assert misfit(["x 12 y"], ["x  7 y"]) is not None
    assert misfit(["x 12 y"], ["x  7 y"], numbers=True) is None


if __name__ == "__main__":  # what each command of a page shows today, as shown
    with tempfile.TemporaryDirectory() as tmp:
        page = Page(sys.argv[1], Path(tmp))
        for s in page.commands:
            r = page._run_shown(s, substitute=False)
            print(f"$ {runnable(s.command)}\n" + "\n".join(r.lines).rstrip())
            if r.returncode != 0 or r.unasked:
                print(f"[exit {r.returncode}; never asked: {r.unasked}]")
