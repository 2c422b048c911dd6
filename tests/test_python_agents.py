"""Your own agent in a tournament: the ``py:module.Class[:key=value,...]`` agent spec."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sample_agents import FirstMove

from arle_ai.play.agents import agent_from_spec
from arle_ai.play.tournament import Tournament, TournamentError
from arle_cli.main import cli


def test_a_py_spec_builds_the_class_with_seed_and_literal_options():
    agent = agent_from_spec("py:sample_agents.FirstMove:index=3", seed=9)
    assert isinstance(agent, FirstMove)
    assert (agent.seed, agent.index) == (9, 3)
    assert agent_from_spec("py:sample_agents.FirstMove").index == 0


@pytest.mark.parametrize("spec, words", [
    ("py:nowhere_at_all.Agent", ["cannot import 'nowhere_at_all'"]),
    ("py:sample_agents.Missing", ["not an arle_ai.play.agents.Agent subclass"]),
    ("py:sample_agents.NotAnAgent", ["not an arle_ai.play.agents.Agent subclass"]),
    ("py:FirstMove", ["py:package.module.ClassName"]),
    ("py:sample_agents.FirstMove:index", ["needs key=value"]),
    ("py:sample_agents.FirstMove:depth=2", ["unexpected keyword argument 'depth'"]),
    ("py:sample_agents.Fussy", ["ValueError: no seeds please"]),
    ("py:sample_agents_broken.Anything", ["cannot import", "ZeroDivisionError"]),
])
def test_bad_py_specs_name_the_problem(spec, words):
    with pytest.raises(ValueError) as info:
        agent_from_spec(spec)
    for w in words:
        assert w in str(info.value)


def test_a_py_agent_plays_a_tournament_in_worker_processes():
    t = Tournament(["py:sample_agents.FirstMove:index=1", "random"], 2, seed=2)
    results = t.run(workers=2)
    assert len(results) == 2
    for r in results:
        assert r["result"]["winner"] in (0, 1)
    assert results == Tournament(["py:sample_agents.FirstMove:index=1", "random"], 2,
                                 seed=2).run(workers=1)


@pytest.mark.parametrize("spec, words", [
    ("py:sample_agents.Cheater", ["chose 0, not a legal action", "game 0"]),
    ("py:sample_agents.Crasher", ["game 0:", "failed in decision", "RuntimeError: out of ideas"]),
])
def test_a_misbehaving_agent_stops_the_tournament_with_a_clear_error(spec, words):
    with pytest.raises(TournamentError) as info:
        Tournament([spec, "random"], 2, seed=1).run(workers=1)
    for w in words:
        assert w in str(info.value)


def test_selfplay_cli_takes_py_specs_and_reports_bad_agents():
    runner = CliRunner()
    ok = runner.invoke(cli, ["selfplay", "--agents", "py:sample_agents.FirstMove", "greedy",
                             "--games", "2"])
    assert ok.exit_code == 0, ok.output
    assert "py:sample_agents.FirstMove vs greedy" in ok.output
    bad = runner.invoke(cli, ["selfplay", "--agents", "py:sample_agents.Cheater", "random",
                              "--games", "2"])
    assert bad.exit_code == 2
    assert "not a legal action" in bad.stderr and "Traceback" not in bad.output


def test_the_cli_imports_py_agents_from_the_current_folder(tmp_path, monkeypatch):
    import sys

    (tmp_path / "my_table_agents.py").write_text(
        "from arle_ai.play.agents import Agent\n\n\n"
        "class Last(Agent):\n"
        "    def __init__(self, seed=0):\n"
        "        self.seed = seed\n\n"
        "    def select(self, state):\n"
        "        return state.legal_actions()[-1]\n")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["selfplay", "--agents", "py:my_table_agents.Last",
                                      "random", "--games", "2", "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "py:my_table_agents.Last vs random: 2 games" in result.output


@pytest.mark.parametrize("spec, words", [
    ("py:sample_agents.Cheater", ["the AI 'py:sample_agents.Cheater' chose 0, not a legal"]),
    ("py:sample_agents.Crasher", ["RuntimeError: out of ideas"]),
])
def test_play_against_a_misbehaving_agent_exits_2_and_keeps_the_game(tmp_path, spec, words):
    from arle_ai.formats.records import load_record

    out = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["play", "--ai", spec, "--out", str(out)], input="2\n")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    for w in words:
        assert w in result.stderr
    assert load_record(out).moves() == ["place fisherman"]  # the human's move is kept
