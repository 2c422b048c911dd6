"""Robustness of the arle commands around the core: shared options, bad arguments, files that
are not what they should be. Bad input exits 2 with a one-line message naming the problem,
never a traceback, and leaves every file as it was."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from arle_ai._core import MAX_SEED
from arle_ai.datagen import MAX_SEED as DATAGEN_MAX_SEED
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
        assert w in message, message


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
