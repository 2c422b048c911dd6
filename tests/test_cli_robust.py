"""Robustness of the arle commands around the core: shared options, bad arguments, files that
are not what they should be. Bad input exits 2 with a one-line message naming the problem,
never a traceback, and leaves every file as it was."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

from arle_ai._core import MAX_SEED
from arle_ai.datagen import MAX_SEED as DATAGEN_MAX_SEED
from arle_ai.errors import PositionError
from arle_ai.files import MAX_FILE_BYTES
from arle_cli.common import games_bar
from arle_cli.main import cli


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def assert_bad_input(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(
        result.exception, SystemExit), result.exception
    message = result.output.strip().splitlines()[-1]
    for w in words:
        assert re.search(w, message), message


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
    """Paths that name no readable regular file of a sane size, with what the error says."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:  # sparse: 64 MiB + 1 byte without writing them
        fh.truncate(MAX_FILE_BYTES + 1)
    return [(str(fifo), "is a fifo"), ("/dev/zero", "is a character device"),
            (str(tmp_path), "is a directory"), (str(huge), "(larger|longer) than 64 MiB"),
            (str(tmp_path / ("x" * 300)), "File name too long"),
            (str(tmp_path / "missing.json"), "no such file")]


def test_library_readers_refuse_odd_files_by_name(tmp_path):
    from arle_ai.position import load_position
    from arle_ai.records import RecordError, load_record
    from arle_ai.tournament import Tournament, TournamentError
    from arle_ai.train import load_data

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
        result = run(command[0], path, *command[1:], input="quit\n")
        if command[0] == "edit" and words == "is a directory":
            words = "directory"
        assert_bad_input(result, words)


def test_a_results_file_with_an_endless_line_is_refused(tmp_path):
    from arle_ai.tournament import Tournament, TournamentError

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
        assert_bad_input(result, re.escape(words))
        assert sorted(os.listdir()) == ["adir", "fifo"]  # nothing written anywhere
    assert os.listdir("adir") == []


def test_nul_in_an_input_file_name_is_a_clear_error(tmp_path):
    for command in (["show"], ["suggest"], ["analyze"], ["play"], ["train", "-o", "w"]):
        result = run(command[0], "a\x00b.json", *command[1:])
        assert_bad_input(result, "NUL character")


# ---- py: agents whose code calls sys.exit: a clear error, never a silent exit ----

EXITING = '''
import sys
from arle_ai.agents import Agent

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
    from arle_ai.agents import agent_from_spec

    with pytest.raises(ValueError, match=re.escape(words)):
        agent_from_spec(spec)
    result = run("selfplay", "--agents", spec, "random", "--games", "2")
    assert_bad_input(result, re.escape(words))


def test_an_agent_calling_sys_exit_in_select_is_named(exiting_agents):
    import arle_ai
    from arle_ai.agents import AgentError, agent_from_spec, choose_action

    agent = agent_from_spec("py:exiting_agents.ExitsInSelect")
    state = arle_ai.new_game(seed=0)
    before = state.copy()
    with pytest.raises(AgentError, match=re.escape("called sys.exit(4)")):
        choose_action(agent, state)
    assert state == before
    result = run("selfplay", "--agents", "py:exiting_agents.ExitsInSelect", "random",
                 "--games", "2")
    assert_bad_input(result, re.escape("called sys.exit(4)"))
    result = run("play", "--ai", "py:exiting_agents.ExitsInSelect", "--seat", "1", "--out",
                 "game.json", input="quit\n")
    assert "Traceback" not in result.output and result.exit_code != 0
    assert "called sys.exit(4)" in result.output


# ---- numbers that are no numbers; host names that are no host names ----


@pytest.mark.parametrize("option", ["--lr", "--weight-decay", "--val", "--target-blend"])
@pytest.mark.parametrize("value", ["nan", "-nan", "inf", "-inf", "1e309", "-1"])
def test_train_refuses_nan_inf_and_negative_rates(option, value, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("train", "data.npz", "-o", "w.npz", f"{option}={value}")
    assert_bad_input(result, re.escape(option), "finite|range")
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


def test_every_command_module_is_registered_and_a_missing_one_fails_loudly():
    import click

    from arle_cli.main import COMMANDS, _register

    names = {"analyze", "bench", "check", "datagen", "edit", "info", "list", "new", "play",
             "selfplay", "serve", "show", "suggest", "train"}
    assert set(cli.commands) == names
    assert len(COMMANDS) == len(names) - 2  # new and show live in main.py
    group = click.Group()
    with pytest.raises(ModuleNotFoundError, match="arle_cli.nothing_cmd"):
        _register(group, [("arle_cli.info_cmd", "info"), ("arle_cli.nothing_cmd", "nothing")])
    with pytest.raises(AttributeError, match="nothing"):
        _register(group, [("arle_cli.info_cmd", "nothing")])
