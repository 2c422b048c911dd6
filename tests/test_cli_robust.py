"""Robustness of the arle commands around the core: shared options, bad arguments, files that
are not what they should be. Bad input exits 2 with a one-line message naming the problem,
never a traceback, and leaves every file as it was."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

from arle_ai.base.errors import PositionError
from arle_ai.base.files import MAX_FILE_BYTES
from arle_ai.engine._core import MAX_SEED
from arle_ai.learn.datagen import MAX_SEED as DATAGEN_MAX_SEED
from arle_cli.common import games_bar
from arle_cli.main import cli
from helpers import (
    assert_bad_input,
    assert_no_traceback,
    descendants,
    process_parents,
    wait_for,
)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


SEEDED = [["new"], ["check"], ["train", "data.npz"], ["suggest"], ["analyze", "game.json"],
          ["play"], ["edit", "pos.json"], ["datagen", "-o", "d.npz"],
          ["selfplay", "--agents", "random", "random", "--games", "2"]]


@pytest.mark.parametrize("command", SEEDED, ids=lambda c: c[0])
@pytest.mark.parametrize("seed", ["-1", str(MAX_SEED + 1), "2.5", "ten"])
def test_every_seed_option_is_bounded_and_named(command, seed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*command, "--seed", seed)
    assert_bad_input(result, "--seed")
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_datagen_seed_keeps_its_own_narrower_bound(tmp_path):
    result = run("datagen", "-o", str(tmp_path / "d.npz"), "--seed", str(DATAGEN_MAX_SEED + 1))
    assert_bad_input(result, "--seed", str(DATAGEN_MAX_SEED))


@pytest.mark.parametrize("command", [["new"], ["check"], ["play"], ["datagen", "-o", "d.npz"],
                                     ["selfplay", "--agents", "random", "random"]],
                         ids=lambda c: c[0])
def test_every_variant_option_names_the_choices(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(*command, "--variant", "bogus")
    assert_bad_input(result, "--variant", "standard", "first-game")


def test_games_bar_says_it_resumes_and_counts_from_there(capsys):
    with games_bar("test", "out.jsonl") as bar:
        bar.start(10, 4)
        bar.advance()
        assert (bar.done, bar.total) == (5, 10)
        bar.progress(8, 10)
        assert bar.done == 8
    err = capsys.readouterr().err
    assert "resuming out.jsonl: 4 of 10 games already played, 6 to play" in err
    with games_bar("test", "fresh") as bar:
        bar.progress(0, 3)  # the first call starts the bar; nothing played before
        assert (bar.done, bar.total) == (0, 3)
    assert "resuming" not in capsys.readouterr().err


# ---- bounded reads: only regular files, at most 64 MiB ----


def _odd_files(tmp_path):
    """Paths that name no readable file of a sane size, with what the error says."""
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:  # sparse: 64 MiB + 1 byte without writing them
        fh.truncate(MAX_FILE_BYTES + 1)
    return [("/dev/zero", "(larger|longer) than 64 MiB|is a character device"),
            (str(tmp_path), "is a directory"), (str(huge), "(larger|longer) than 64 MiB"),
            (str(tmp_path / ("x" * 300)), "File name too long"),
            (str(tmp_path / "missing.json"), "no such file")]


def test_library_readers_refuse_odd_files_by_name(tmp_path):
    from arle_ai.formats.position import load_position
    from arle_ai.formats.records import RecordError, load_record
    from arle_ai.learn.train import load_data
    from arle_ai.play.tournament import Tournament, TournamentError

    for path, words in _odd_files(tmp_path):
        with pytest.raises(PositionError, match=words):
            load_position(path)
        with pytest.raises(RecordError, match=words):
            load_record(path)
        if "missing" not in path:  # a missing results file is a tournament not started
            with pytest.raises(TournamentError, match=words):
                Tournament(["random", "random"], 2).load(path)
        if "huge" not in path:  # datagen files may be large; numpy reads them lazily
            with pytest.raises(ValueError, match=words):
                load_data(path)
    fifo = tmp_path / "fifo"  # seeking and appending readers need a regular file
    os.mkfifo(fifo)
    with pytest.raises(TournamentError, match="is a fifo"):
        Tournament(["random", "random"], 2).load(fifo)
    with pytest.raises(ValueError, match="is a fifo"):
        load_data(fifo)
    with pytest.raises(PositionError, match="NUL"):
        load_position("a\x00b.json")


@pytest.mark.parametrize("command", [["show"], ["suggest"], ["analyze"], ["play"], ["edit"],
                                     ["train", "-o", "w.npz"]], ids=lambda c: c[0])
def test_commands_refuse_odd_input_files(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for path, words in _odd_files(tmp_path):
        if command[0] == "edit" and "missing" in path:
            continue  # edit creates a missing FILE
        if command[0] == "train" and "huge" in path:
            continue
        if command[0] == "edit" and path == "/dev/zero":
            words = "is a character device"  # edit writes FILE: refused as an output
        result = run(command[0], path, *command[1:], input="quit\n")
        if command[0] == "edit" and words == "is a directory":
            words = "directory"
        assert_bad_input(result, re.compile(words))


def test_a_results_file_with_an_endless_line_is_refused(tmp_path):
    from arle_ai.play.tournament import Tournament, TournamentError

    t = Tournament(["random", "random"], 2)
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(t.header()) + "\n" + "[" * (MAX_FILE_BYTES + 10) + "\n")
    with pytest.raises(TournamentError, match="line 2 is longer than 64 MiB"):
        t.load(path)


# ---- where the commands write: a regular file or nothing yet, refused before any work ----

WRITERS = [["new", "-o"], ["play", "--ai", "random", "--out"],
           ["selfplay", "--agents", "random", "random", "--games", "2", "--out"],
           ["datagen", "--games", "1", "--iterations", "2", "-o"],
           ["train", "data.npz", "-o"], ["edit"]]


@pytest.mark.parametrize("command", WRITERS, ids=lambda c: c[0])
def test_a_non_regular_or_impossible_out_path_is_refused_up_front(command, tmp_path,
                                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("fifo")
    os.mkdir("adir")
    cases = [("fifo", "is a fifo"), ("/dev/null", "is a character device"),
             ("adir", "directory"), ("x" * 300, "File name too long"),
             ("nodir/x.json", "nodir/x.json: the folder does not exist"),
             ("a\x00b", "NUL character")]
    for path, words in cases:
        result = run(*command, path, input="quit\n")
        assert_bad_input(result, words)
        assert sorted(os.listdir()) == ["adir", "fifo"]  # nothing written anywhere
    assert os.listdir("adir") == []


def test_nul_in_an_input_file_name_is_a_clear_error(tmp_path):
    for command in (["show"], ["suggest"], ["analyze"], ["play"], ["train", "-o", "w"]):
        result = run(command[0], "a\x00b.json", *command[1:])
        assert_bad_input(result, "NUL character")


# ---- py: agents whose code calls sys.exit: a clear error, never a silent exit ----

EXITING = '''
import sys
from arle_ai.play.agents import Agent

class ExitsInSelect(Agent):
    def __init__(self, seed=0):
        pass

    def select(self, state):
        sys.exit(4)

class ExitsInInit(Agent):
    def __init__(self, seed=0):
        sys.exit("bye")
'''


@pytest.fixture
def exiting_agents(tmp_path, monkeypatch):
    (tmp_path / "exiting_agents.py").write_text(EXITING)
    (tmp_path / "exiting_module.py").write_text("import sys\nsys.exit(3)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.parametrize("spec, words", [
    ("py:exiting_module.Agent", "cannot import 'exiting_module': called sys.exit(3)"),
    ("py:exiting_agents.ExitsInInit", "called sys.exit('bye')"),
])
def test_an_agent_calling_sys_exit_while_made_is_named(spec, words, exiting_agents):
    from arle_ai.play.agents import agent_from_spec

    with pytest.raises(ValueError, match=re.escape(words)):
        agent_from_spec(spec)
    result = run("selfplay", "--agents", spec, "random", "--games", "2")
    assert_bad_input(result, words)


def test_an_agent_calling_sys_exit_in_select_is_named(exiting_agents):
    import arle_ai
    from arle_ai.play.agents import AgentError, agent_from_spec, choose_action

    agent = agent_from_spec("py:exiting_agents.ExitsInSelect")
    state = arle_ai.new_game(seed=0)
    before = state.copy()
    with pytest.raises(AgentError, match=re.escape("called sys.exit(4)")):
        choose_action(agent, state)
    assert state == before
    result = run("selfplay", "--agents", "py:exiting_agents.ExitsInSelect", "random",
                 "--games", "2")
    assert_bad_input(result, "called sys.exit(4)")
    result = run("play", "--ai", "py:exiting_agents.ExitsInSelect", "--seat", "1", "--out",
                 "game.json", input="quit\n")
    assert_no_traceback(result)
    assert result.exit_code != 0 and "called sys.exit(4)" in result.output


# ---- numbers that are no numbers; host names that are no host names ----


@pytest.mark.parametrize("option", ["--lr", "--weight-decay", "--val", "--target-blend"])
@pytest.mark.parametrize("value", ["nan", "-nan", "inf", "-inf", "1e309", "-1"])
def test_train_refuses_nan_inf_and_negative_rates(option, value, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("train", "data.npz", "-o", "w.npz", f"{option}={value}")
    assert_bad_input(result, option, re.compile("finite|range"))
    assert os.listdir() == []


@pytest.mark.parametrize("host, words", [
    ("a" * 300, "not a valid host name"), ("a" * 64, "not a valid host name"),
    ("", "--host is empty"), ("  ", "--host is empty"), ("a\x00b", "cannot listen on"),
])
def test_serve_names_a_host_it_cannot_listen_on(host, words):
    result = run("serve", "--host", host, "--port", "0")
    assert_bad_input(result, words)
    assert len(result.output.splitlines()[-1]) < 200  # the 300 characters are cut


# ---- the command table ----


def test_every_command_of_every_command_module_is_registered():
    """A command module's commands are all in the group (none can vanish from 'arle'); a
    module that is missing or fails to import stops the program at start-up, as any import."""
    import importlib
    from pathlib import Path

    import click

    import arle_cli
    from arle_cli.main import COMMANDS

    names = {"analyze", "bench", "check", "datagen", "edit", "info", "list", "new", "play",
             "selfplay", "serve", "show", "suggest", "train", "learn"}
    assert set(cli.commands) == names
    assert len(COMMANDS) == len(names) - 2  # new and show live in main.py
    registered = list(cli.commands.values())
    modules = sorted(Path(arle_cli.__file__).parent.glob("*_cmd.py"))
    assert len(modules) >= 10
    for path in modules:
        module = importlib.import_module(f"arle_cli.{path.stem}")
        for value in vars(module).values():
            if (isinstance(value, click.Command) and value.callback is not None
                    and value.callback.__module__ == module.__name__):
                assert any(value is command for command in registered), (path.name, value.name)


# ---- Ctrl-C: exit 130, one line, nothing lost, no worker tracebacks ----


def _report_sigint(conn):
    import signal

    conn.send(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_workers_started_under_sigint_ignored_leave_ctrl_c_to_the_parent(method):
    import multiprocessing
    import signal

    from arle_ai.base import procs

    ctx = multiprocessing.get_context(method)
    # Ctrl-C handled here whatever started the tests (a shell's background job starts with
    # SIGINT ignored, and a spawned child would inherit that)
    outer = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        for ignored in (True, False):
            parent, child = ctx.Pipe()
            p = ctx.Process(target=_report_sigint, args=(child,))
            if ignored:
                with procs.sigint_ignored():
                    p.start()
            else:
                p.start()
            assert parent.recv() is ignored
            p.join()
            # the handler is back
            assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, outer)


def _interrupt_when(cmd, ready, cwd, timeout=120.0):
    """Run ``cmd`` in its own process group, send SIGINT to the whole group (as Ctrl-C does)
    once ``ready()`` holds, and return (exit code, stderr)."""
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-m", "arle_cli.entry", *cmd], cwd=cwd,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    end = time.monotonic() + timeout
    while not ready() and time.monotonic() < end and p.poll() is None:
        time.sleep(0.05)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=timeout)
    return p.returncode, err.decode()


def test_ctrl_c_in_a_parallel_selfplay_keeps_the_finished_games_and_resumes(tmp_path):
    out = tmp_path / "r.jsonl"

    def two_games_written():
        return out.exists() and out.read_text().count("\n") >= 3  # header + 2 games

    cmd = ["selfplay", "--agents", "mcts:iterations=30", "random", "--games", "200",
           "--workers", "2", "--out", str(out)]
    code, err = _interrupt_when(cmd, two_games_written, tmp_path)
    assert code == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert re.search(r"arle: interrupted: .*r\.jsonl holds the \d+ finished games of 200; "
                     r"the same command resumes", err), err
    lines = out.read_text().splitlines()
    assert all(json.loads(line) for line in lines) and len(lines) >= 3  # whole lines only
    from arle_ai.play.tournament import Tournament

    assert len(Tournament(["mcts:iterations=30", "random"], 200).load(out)) == len(lines) - 1


def test_ctrl_c_while_the_program_imports_is_one_line_and_exit_130(monkeypatch):
    import importlib.abc
    import sys

    from arle_cli import entry

    class Interrupting(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name == "arle_cli.main":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "arle_cli.main")
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    with pytest.raises(SystemExit) as exc:
        entry.main()
    assert exc.value.code == 130


def _prompt_then_ctrl_c(answers):
    """A stand-in for click.prompt: the given answers, then Ctrl-C as click reports it."""
    import click

    queue = list(answers)

    def prompt(*args, **kwargs):
        if queue:
            return queue.pop(0)
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise click.Abort() from None

    return prompt


def test_ctrl_c_at_an_edit_prompt_keeps_the_file_and_the_answers(tmp_path, monkeypatch):
    import arle_ai
    from arle_cli import edit_cmd

    monkeypatch.chdir(tmp_path)
    pos = tmp_path / "pos.json"
    assert run("new", "-o", str(pos)).exit_code == 0
    original = pos.read_text()
    monkeypatch.setattr(edit_cmd.click, "prompt", _prompt_then_ctrl_c(["5", "1"]))
    result = run("edit", str(pos))
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    assert ("arle: interrupted: " + str(pos) + " is unchanged; the answers so far are in "
            + str(tmp_path / "pos.partial.json")) in result.output
    assert pos.read_text() == original
    partial = arle_ai.GameState.from_json((tmp_path / "pos.partial.json").read_text())
    assert (partial.half_year, partial.start_player) == (5, 1)
    # no answer changed anything: nothing written
    monkeypatch.setattr(edit_cmd.click, "prompt", _prompt_then_ctrl_c([]))
    result = run("edit", str(tmp_path / "new.json"))
    assert result.exit_code == 130 and "arle: interrupted: nothing written" in result.output
    assert sorted(os.listdir()) == ["pos.json", "pos.partial.json"]


def test_the_cli_fuzzer_runs_clean_on_the_quick_commands(tmp_path):
    """bench/fuzz_cli.py itself: a short seeded run over the commands that need no search."""
    import subprocess
    import sys
    from pathlib import Path

    fuzzer = Path(__file__).resolve().parent.parent / "bench" / "fuzz_cli.py"
    out = subprocess.run([sys.executable, str(fuzzer), "--runs", "40", "--seed", "3",
                          "--command", "show", "--command", "new", "--command", "info",
                          "--command", "list", "--command", "edit"],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "40 runs" in out.stdout and "0 distinct failures" in out.stdout


# ---- an existing file that is not the command's own is never replaced silently ----


def test_play_datagen_and_train_do_not_replace_a_file_that_is_not_theirs(tmp_path,
                                                                          monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new", "-o", "pos.json").exit_code == 0
    original = (tmp_path / "pos.json").read_bytes()
    for command in (["play", "--ai", "random", "--out", "pos.json"],
                    ["play", "pos.json", "--ai", "random", "--out", "pos.json"],
                    ["datagen", "--games", "1", "--iterations", "2", "-o", "pos.json"],
                    ["train", "missing.npz", "-o", "pos.json"]):
        result = run(*command, input="quit\n")
        assert_bad_input(result, "pos.json exists and is not")
        assert (tmp_path / "pos.json").read_bytes() == original
    assert sorted(os.listdir()) == ["pos.json"]
    # with --overwrite play replaces it
    result = run("play", "--ai", "random", "--out", "pos.json", "--overwrite", input="2\nquit\n")
    assert result.exit_code == 0, result.output
    game = (tmp_path / "pos.json").read_bytes()
    # another game's record is not replaced either (as 'arle new -o' refuses an existing file)
    for command in (["play", "--ai", "random", "--out", "pos.json"],
                    ["play", "--seed", "4", "--ai", "random", "--out", "pos.json"]):
        result = run(*command, input="quit\n")
        assert_bad_input(result, "pos.json already holds a game record", "--overwrite",
                         "arle play pos.json")
        assert (tmp_path / "pos.json").read_bytes() == game
    # ...but the record being resumed is saved back to its own file, --out naming it or not
    for command in (["play", "pos.json", "--ai", "random", "--out", "pos.json"],
                    ["play", "pos.json", "--ai", "random"]):
        result = run(*command, input="quit\n")
        assert result.exit_code == 0, result.output
        assert "saved to pos.json" in result.output
    result = run("play", "--ai", "random", "--out", "pos.json", "--overwrite", input="quit\n")
    assert result.exit_code == 0 and (tmp_path / "pos.json").read_bytes() != game


def test_datagen_writes_its_own_file_again_when_resumed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["datagen", "--games", "1", "--iterations", "2", "-o", "d.npz"]
    assert run(*args).exit_code == 0
    result = run(*args)
    assert result.exit_code == 0 and "wrote d.npz" in result.output, result.output


# ---- JSON that parses but is no position: deep nesting, a wrong type at the top ----


def test_json_nested_past_the_bound_is_refused_by_name():
    from arle_ai.base.jsontext import MAX_DEPTH, parse_json

    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    for n in (MAX_DEPTH + 1, 600, 900):  # 600 and 900 passed json.loads, then recursed
        with pytest.raises(PositionError, match=f"nested more than {MAX_DEPTH} levels"):
            parse_json('{"a": ' + "[" * n + "]" * n + "}")


@pytest.mark.parametrize("change, words", [
    (lambda t: t[:-1] + ', "extra": ' + "[" * 600 + "]" * 600 + "}", "nested more than 100"),
    (lambda t: t[:-1] + ', "players": true}', "players: expected a list of 2 players"),
    (lambda t: t[:-1] + ', "players": 5}', "players: expected a list of 2 players"),
])
def test_positions_of_odd_shape_are_clear_errors(change, words, tmp_path):
    import arle_ai

    d = arle_ai.new_game(seed=0).to_dict()
    del d["players"]
    path = tmp_path / "odd.json"
    path.write_text(change(json.dumps(d)))
    for command in ("show", "suggest", "edit"):
        assert_bad_input(run(command, str(path), input="quit\n"), words)


# ---- results files: values that would break the statistics ----


@pytest.mark.parametrize("change, words", [
    (lambda m: m.__setitem__("scores", [1e200, -1e200]), "meta.scores must be two numbers"),
    (lambda m: m.__setitem__("scores", [1, "x"]), "meta.scores must be two numbers"),
    (lambda m: m.__setitem__("winner", 7), "meta.winner"),
    (lambda m: m.__setitem__("seats", [None, 1]), "seats"),
])
def test_results_lines_with_odd_values_are_refused_by_cli_and_web(change, words, tmp_path):
    from arle_ai.play.tournament import Tournament
    from arle_ai.web.tournaments import TournamentFileError, read_results

    out = tmp_path / "r.jsonl"
    args = ["selfplay", "--agents", "random", "greedy", "--games", "4", "--out", str(out)]
    t = Tournament(["random", "greedy"], 4)
    t.run(out=out)
    lines = out.read_text().splitlines()
    game = json.loads(lines[1])
    change(game["meta"])
    lines[1] = json.dumps(game)
    out.write_text("\n".join(lines[:3]) + "\n")
    before = out.read_bytes()
    assert_bad_input(run(*args), words)
    assert out.read_bytes() == before
    with pytest.raises(TournamentFileError, match=re.escape(words)):
        read_results(out.read_text())


def test_damaged_weights_files_are_named(tmp_path):
    import numpy as np

    from arle_ai.search.net import WEIGHT_ARRAYS, NetError, load_weights

    bad_zip = tmp_path / "badzip.npz"
    bad_zip.write_bytes(b"PK\x03\x04" + bytes(100))  # BadZipFile escaped before
    deep = tmp_path / "deep.npz"
    np.savez(deep, **{k: np.zeros(2) for k in WEIGHT_ARRAYS},
             meta=np.array("[" * 500 + "]" * 500))
    for path, words in ((bad_zip, "not a value-net weights file"),
                        (deep, "nested more than 100")):
        with pytest.raises(NetError, match=words):
            load_weights(path)
        spec = f"mcts:iterations=5,eval=net,net={path}"
        assert_bad_input(run("selfplay", "--agents", spec, "random", "--games", "2"),
                         words)


def test_a_position_can_be_piped_in_through_dev_stdin(tmp_path):
    import subprocess
    import sys

    import arle_ai

    text = arle_ai.new_game(seed=5).to_json()
    out = subprocess.run([sys.executable, "-m", "arle_cli.entry", "show", "/dev/stdin"],
                         input=text, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "seed 5" in out.stdout


def test_ctrl_c_on_serve_with_searches_running_prints_no_traceback(tmp_path):
    """The search processes ignore SIGINT; the server stops them (each printed a traceback)
    and does not wait for open requests to end (a 120 s hint, a 30 s AI move)."""
    import signal
    import subprocess
    import sys
    import threading

    httpx = pytest.importorskip("httpx")
    from arle_cli import serve_cmd

    p = subprocess.Popen([sys.executable, "-m", "arle_cli.entry", "serve", "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    answers: dict[str, object] = {}
    try:
        url = re.search(r"(http://\S+)/", p.stderr.readline().decode()).group(1)
        gid = httpx.post(url + "/api/games", json={"seed": 1}, timeout=30).json()["id"]

        def search(method, path, **kw):
            try:
                reply = httpx.request(method, f"{url}/api/games/{gid}/{path}", timeout=180, **kw)
                answers[path] = reply.status_code, reply.text
            except httpx.HTTPError as exc:  # the server went away: expected
                answers[path] = type(exc).__name__

        asking = [threading.Thread(target=search, args=args[:2], kwargs=args[2], daemon=True)
                  for args in (("GET", "hint", {"params": {"seconds": 120}}),
                               ("POST", "ai", {"json": {"ai": {"kind": "mcts", "seconds": 30}}}))]
        for thread in asking:
            thread.start()

        def searching() -> bool:  # the forkserver's children: one process a search
            below = descendants(p.pid)
            return sum(process_parents().get(q) in below for q in below) >= 2

        wait_for(searching, 120, "the two search processes")
        os.killpg(p.pid, signal.SIGINT)
        _, err = p.communicate(timeout=60)  # a bound for a hang: the searches take 30-120 s
        for thread in asking:
            thread.join(60)
    finally:
        if p.poll() is None:
            p.kill()
    assert "Traceback" not in err.decode(), err.decode()[-2000:]
    assert p.returncode == 130  # as every command on Ctrl-C, with the one line saying so
    assert err.decode().strip().splitlines()[-1] == f"arle: interrupted: {serve_cmd.STOPPED}"
    # the open requests were not waited for: neither search ran to its end
    assert set(answers) == {"hint", "ai"}
    for path, answer in answers.items():
        if isinstance(answer, tuple):
            status, text = answer
            assert status != 200 or '"stopped"' in text, (path, status, text[-300:])


@pytest.mark.parametrize("args, line", [
    (["servex"],
     "arle: error: No such command 'servex'. Did you mean 'serve'? (see 'arle --help')"),
    (["new", "--bogus"], "arle: error: arle new: No such option '--bogus' (see 'arle new --help')"),
])
def test_a_usage_error_names_arle_once_and_the_command_it_is_about(args, line):
    """click's usage errors become one line; 'arle' is named once (the top level's error was
    'arle: error: arle: No such command ...'), a subcommand's by its path."""
    r = run(*args)
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [line]
