"""The commands as a terminal shows them (issue 34, item 4): run in a pseudo-terminal, so that
the progress bars are drawn as a person sees them, and read back as the screen ends up
(carriage returns overwrite, escape sequences left out). A bar clears its line before the
next output: nothing is glued to it ("AI thinking: ███ 1.9/2.0 sAI: Forester, ...")."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from terminal import in_terminal as run_in_terminal

from arle_ai.formats.records import GameRecord

ARLE = [sys.executable, "-c", "from arle_cli.main import cli; cli()"]
# a bar's text: its name, then how far it is ("1.4/1.5 s", "3/6 [00:01<00:02]")
BAR = re.compile(r"(AI thinking|hint|searching|analyze):\s.*\d/\d")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")


def in_terminal(args: list[str], answers: list[tuple[str, str]], cwd: Path,
                seconds: float = 120, columns: int = 100) -> list[str]:
    """The screen at the end of ``arle ARGS`` run in a pseudo-terminal ``columns`` wide, each
    answer typed at its prompt (a regular expression); it must end, every answer asked."""
    run = run_in_terminal([*ARLE, *args], answers, cwd, seconds=seconds, columns=columns)
    assert run.returncode is not None, f"arle {' '.join(args)} did not finish: {run.lines[-5:]}"
    assert not run.unasked, f"never asked {run.unasked[0]!r}: {run.lines[-5:]}"
    return run.lines


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


def test_analyze_wraps_its_long_lines_at_the_terminal_width_as_suggest_does(tmp_path):
    # issue 34: arle analyze printed its budget line (157 characters), its mistakes, their
    # why and the players' summaries on one line each, however narrow the terminal
    rec = GameRecord.new(seed=1)
    for _ in range(8):
        rec.push(rec.final_state().legal_actions()[0])
    rec.save(tmp_path / "r.json")
    lines = in_terminal(["analyze", "r.json", "--iterations", "200"], [], tmp_path,
                        columns=80)
    table = lines.index(next(line for line in lines if line.startswith(" ply P HY  played")))
    # the table's moves narrowed to fit, a long name wrapping in its column
    assert len(lines[table]) <= 80, lines[table]
    long = [line for line in lines if len(line) > 80]
    assert not long, long  # the legend's too
    # a wrapped sentence goes on under a hanging indent, nothing cut
    head = lines[table - 2:table]
    assert head[0].startswith("each decision searched for 200 iterations")
    assert head[1].startswith("  ") and " ".join(x.strip() for x in head).endswith(
        "to as many simulations as the engine's choice got)")
    summary = [k for k, line in enumerate(lines) if line.startswith("player 0 (player 0): ")]
    assert len(summary) == 1 and lines[summary[0] + 1].startswith("  "), lines[-6:]
    assert "VP lost per decision, a best move" in " ".join(
        x.strip() for x in lines[summary[0]:summary[0] + 2])


def test_the_legends_of_suggest_and_analyze_wrap_at_the_terminal_width(tmp_path):
    # issue 34: the legends under arle suggest's and arle analyze's tables were fixed lines
    # up to 90 characters, run on past an 80-column terminal's edge
    from arle_ai.text.reading import LEGEND as SUGGEST_LEGEND
    from arle_cli.analyze_cmd import LEGEND as ANALYZE_LEGEND

    def legend(lines: list[str], first: str) -> list[str]:
        start = next(k for k, line in enumerate(lines) if line.startswith(first))
        return lines[start:start + 2 * len(SUGGEST_LEGEND)]

    lines = in_terminal(["suggest", "--iterations", "200"], [], tmp_path, columns=80)
    shown = lines[lines.index("") + 1:]  # the legend, after the table and its why
    assert not [line for line in shown if len(line) > 80], shown
    # every entry whole, its words in order, and its lines after the first indented
    assert " ".join(shown).split() == " ".join(SUGGEST_LEGEND).split(), shown
    value = legend(shown, "value: ")
    assert value[1].startswith("       ") and value[1].strip(), value  # under its text
    rec = GameRecord.new(seed=1)
    for _ in range(6):
        rec.push(rec.final_state().legal_actions()[0])
    rec.save(tmp_path / "r.json")
    lines = in_terminal(["analyze", "r.json", "--iterations", "200"], [], tmp_path,
                        columns=80)
    assert not [line for line in lines if len(line) > 80], lines
    start = next(k for k, line in enumerate(lines) if line.startswith("best: the engine's"))
    end = lines.index("", start)
    assert " ".join(lines[start:end]).split() == " ".join(ANALYZE_LEGEND).split()
