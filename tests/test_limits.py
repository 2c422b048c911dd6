"""Numeric options are finite, positive and bounded (the bound in the message); long runs
materialise nothing per game up front; one selfplay results file has one writer (issue 14)."""

from __future__ import annotations

import fcntl
import tracemalloc

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.base import limits
from arle_ai.engine import _core
from arle_ai.play.agents import agent_from_spec
from arle_ai.play.tournament import Tournament, TournamentError
from arle_cli.main import cli
from helpers import assert_bad_input


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


MAX_W = str(limits.MAX_WORKERS)


@pytest.mark.parametrize("args, words", [
    (["suggest", "--time", "nan"], ["--time", "nan", "86400"]),
    (["suggest", "--time", "inf"], ["--time", "inf", "86400"]),
    (["suggest", "--time", "-1"], ["--time"]),
    (["suggest", "--time", "1e9"], ["--time", "86400"]),
    (["suggest", "--workers", "1000"], ["--workers", "1000", MAX_W, "core"]),
    (["suggest", "--iterations", str(10**10)], ["--iterations", "1000000000"]),
    (["suggest", "--seed", str(2**63)], ["--seed"]),
    (["check", "--workers", "300"], ["--workers", "300", MAX_W]),
    (["check", "--games", "99999999999999999999"], ["--games", "1000000000"]),
    (["check", "--seed", str(2**63 - 5), "--games", "10"], ["--seed", "last seed"]),
    (["selfplay", "--agents", "random", "random", "--games", "100000000000"],
     ["--games", "1000000000"]),
    (["selfplay", "--agents", "random", "random", "--games", "2", "--workers", "300"],
     ["--workers 300", MAX_W]),
    (["selfplay", "--agents", "mcts:c=nan", "random", "--games", "2"], ["mcts:c=nan", "c must"]),
    (["selfplay", "--agents", "mcts:c=inf", "random", "--games", "2"], ["mcts:c=inf", "0..100"]),
    (["selfplay", "--agents", "mcts:time=inf", "random", "--games", "2"], ["time", "86400"]),
    (["selfplay", "--agents", "mcts:time=nan", "random", "--games", "2"], ["time"]),
    (["selfplay", "--agents", "mcts:workers=1000", "random", "--games", "2"], ["workers"]),
    (["play", "--ai", "mcts:c=nan"], ["c must"]),
    (["play", "--hint-iterations", str(10**12)], ["--hint-iterations"]),
    (["analyze", "x.json", "--iterations", "0"], ["--iterations"]),
    (["new", "--seed", str(2**63)], ["--seed"]),
])
def test_out_of_range_numbers_are_one_line_errors_naming_the_bound(args, words):
    assert_bad_input(run(*args, input="quit\n"), *words)


@pytest.mark.parametrize("options", [{"c": float("nan")}, {"c": float("inf")}, {"c": -1},
                                     {"time_limit": float("inf")}, {"time_limit": float("nan")},
                                     {"time_limit": 0}, {"iterations": 0},
                                     {"iterations": 10**12}, {"workers": 10**6}])
def test_mcts_refuses_options_out_of_range(options):
    with pytest.raises(ValueError):
        arle_ai.MCTS(**options)


@pytest.mark.parametrize("spec", ["mcts:c=nan", "mcts:c=inf", "mcts:time=inf", "mcts:time=nan",
                                  "mcts:iterations=0", "mcts:workers=100000"])
def test_agent_specs_refuse_options_out_of_range(spec):
    with pytest.raises(ValueError, match="mcts:"):
        agent_from_spec(spec)


def test_suggest_refuses_too_few_iterations_per_worker():
    workers = min(4, limits.MAX_WORKERS)
    result = run("suggest", "--iterations", str(4 * workers), "--workers", str(workers))
    assert_bad_input(result, "legal moves", "workers", "iterations")


def test_check_makes_its_games_as_it_plays_them(monkeypatch):
    import arle_cli.check_cmd as check_cmd

    calls = []

    def fake_check(job):
        calls.append(job)
        return {"seed": job[0], "variant": job[1], "error": "stop here", "moves": []}

    monkeypatch.setattr(check_cmd, "check_game", fake_check)
    tracemalloc.start()
    try:
        result = run("check", "--games", "1000000")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.exit_code == 1, result.output
    assert len(calls) == 1
    assert peak < 20_000_000  # a list of a million jobs alone would be about 100 MB


def test_a_long_tournament_is_planned_without_materialising_its_games():
    tracemalloc.start()
    try:
        t = Tournament(["random", "greedy", "random"], 200_000, seed=3)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # 600,000 task dicts would be hundreds of MB
    assert t.total == len(t.tasks) == 600_000
    short = Tournament(["random", "greedy", "random"], 4, seed=3)
    assert t.tasks[0] == short.tasks[0] and t.setups[:2] == list(short.setups)
    last = t.tasks[t.total - 1]
    assert last["game"] == t.total - 1 and last["setup_index"] == 99_999
    with pytest.raises(TournamentError, match=str(limits.MAX_GAMES)):
        Tournament(["random", "greedy"], limits.MAX_GAMES + 2)


# ---- 5. one writer per results file ----


def test_a_second_writer_of_a_results_file_is_refused(tmp_path):
    out = tmp_path / "t.jsonl"
    Tournament(["random", "greedy"], 4, seed=1).run(out=out)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:3]))  # a run stopped after 2 of its 4 games
    before = out.read_bytes()
    with out.open("ab") as holder:  # another run holding the file
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(TournamentError, match="another selfplay run"):
            Tournament(["random", "greedy"], 4, seed=1).run(out=out)
        result = run("selfplay", "--agents", "random", "greedy", "--games", "4", "--seed", "1",
                     "--out", str(out))
        assert_bad_input(result, str(out), "another selfplay run", "--out")
        assert out.read_bytes() == before
    results = Tournament(["random", "greedy"], 4, seed=1).run(out=out)  # released: resumes
    assert len(results) == 4


def test_the_lock_is_released_when_a_run_fails(tmp_path):
    out = tmp_path / "t.jsonl"
    out.write_text("not a results file\n")
    with pytest.raises(TournamentError, match="not JSON"):
        Tournament(["random", "greedy"], 2).run(out=out)
    with out.open("ab") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again


# ---- 7. smaller items ----


def test_a_blank_game_state_is_the_standard_opening():
    assert arle_ai.GameState() == arle_ai.new_game(0)
    report = arle_ai.suggest(arle_ai.GameState(), iterations=50)
    assert report.moves
    assert arle_ai.MCTS(iterations=20).search(arle_ai.GameState()).best_action in \
        arle_ai.new_game(0).legal_actions()


def test_random_playouts_reports_the_exact_mean():
    state = arle_ai.new_game(1)
    n = 7
    mean = _core.random_playouts(state, n, 5)
    assert isinstance(mean, float)
    total = round(mean * n)
    assert mean == pytest.approx(total / n, abs=1e-12)
    means = {_core.random_playouts(state, n, seed) for seed in range(6)}
    assert any(m != int(m) for m in means)  # C integer division gave whole numbers only
