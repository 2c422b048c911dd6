"""A tournament's games can be replayed (issue 34, item 5): each game of a selfplay results
file is a game record (arle_ai.play.results: Results.record, Results.entries), which ``arle
show`` and ``arle analyze`` pick with ``--game N`` and list without it (``arle analyze
r.jsonl`` said "malformed JSON: Extra data (line 2, column 1)")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arle_ai.formats.records import load_record
from arle_ai.play.results import ResultsFileError, is_results_text, read_file, read_text
from arle_ai.play.tournament import Tournament
from arle_cli.main import cli
from helpers import assert_bad_input, assert_no_traceback


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    pair, solo = folder / "pair.jsonl", folder / "solo.jsonl"
    Tournament(["random", "greedy"], games=2, seed=4).run(out=pair)
    Tournament(["random", "greedy"], games=2, seed=4, players=1).run(out=solo)
    return pair, solo


def run(*args: str):
    result = CliRunner().invoke(cli, list(args))
    assert_no_traceback(result)
    return result


def test_each_game_is_a_record_with_its_agents_on_the_seats(files):
    read = read_file(files[0])
    entries = read.entries()
    assert [e.game for e in entries] == [0, 1]
    for e in entries:
        value = read.games[e.game][1]
        meta = value["meta"]
        assert e.agents == tuple(read.agents[a] for a in meta["seats"])
        assert e.scores == tuple(meta["scores"]) and e.winner == meta["winner"]
        record = read.record(e.game)
        assert record.players == list(e.agents) and record.meta["agents"] == list(e.agents)
        assert len(record.actions) == e.decisions == len(value["moves"])
        assert record.final_state().is_terminal()
        assert record.final_state().scores() == list(e.scores)
    # the games were played with the seats swapped
    assert entries[0].agents == tuple(reversed(entries[1].agents))
    solo = read_file(files[1])
    assert [e.agents for e in solo.entries()] == [("random",), ("random",), ("greedy",),
                                                  ("greedy",)]
    assert solo.record(2).players == ["greedy"]


def test_a_game_that_is_not_there_or_does_not_replay_is_named(files):
    read = read_file(files[0])
    with pytest.raises(ResultsFileError, match=r"there is no game 5 in the file: its games "
                                               r"are 0\.\.1"):
        read.record(5)
    lines = files[0].read_text().splitlines(keepends=True)
    game = json.loads(lines[1])
    game["moves"][3] = "build nothing"
    damaged = read_text(lines[0] + json.dumps(game) + "\n")
    with pytest.raises(ResultsFileError, match=r"^line 2: game 0's record: "):
        damaged.record(0)


def test_a_results_file_is_told_from_a_record_or_a_position(files, tmp_path):
    assert is_results_text(files[0].read_text())
    assert is_results_text("\ufeff" + files[1].read_text())
    rec = read_file(files[0]).record(0)
    rec.save(tmp_path / "g.json")
    assert not is_results_text((tmp_path / "g.json").read_text())
    assert not is_results_text(json.dumps(rec.to_dict()))  # a record on one line
    assert not is_results_text("") and not is_results_text("[1, 2]\n")


def test_show_and_analyze_list_the_games_without_game(files):
    path = str(files[0])
    for command in ("show", "analyze"):
        result = run(command, path)
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert lines[0] == f"{path}: a selfplay results file of 2 games; --game N picks one"
        assert lines[1].split() == ["game", "P0", "VP", "P1", "VP", "winner", "decisions"]
        for e, line in zip(read_file(path).entries(), lines[2:], strict=True):
            cells = line.split()
            assert cells[0] == str(e.game) and cells[1] == e.agents[0]
            assert cells[3] == e.agents[1] and cells[5] == f"P{e.winner}"
    solo = run("show", str(files[1]))
    assert solo.output.splitlines()[1].split() == ["game", "agent", "VP", "decisions"]


def test_show_and_analyze_take_a_game_of_a_results_file(files, tmp_path):
    path = str(files[0])
    read = read_file(path)
    e = read.entries()[1]
    shown = run("show", path, "--game", "1")
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith(f"game 1 of {path}: {e.agents[0]} (P0) against "
                                   f"{e.agents[1]} (P1), after {e.decisions} decisions")
    assert "GAME OVER" in shown.output
    early = run("show", path, "--game", "1", "--ply", "4", "--moves")
    assert "after 4 decisions" in early.output and "legal moves - " in early.output
    out = tmp_path / "reviewed.json"
    reviewed = run("analyze", path, "--game", "0", "--iterations", "20", "--player", "0",
                   "--out", str(out))
    assert reviewed.exit_code == 0, reviewed.output
    first = read.entries()[0]
    assert f"player 0 ({first.agents[0]}): accuracy" in reviewed.output
    saved = load_record(out)  # the game with its review, its seats named by the agents
    assert saved.players == list(first.agents) and saved.review["decisions"]
    as_json = json.loads(run("analyze", path, "--game", "0", "--iterations", "10", "--player",
                             "1", "--json").stdout)
    assert as_json["decisions"] and all(d["player"] == 1 for d in as_json["decisions"])


def test_show_and_analyze_take_a_game_of_a_solo_benchmark(files, tmp_path):
    # issue 34: a solo results file's games, as the page opens them
    path = str(files[1])
    e = read_file(path).entries()[2]
    shown = run("show", path, "--game", "2")
    assert shown.exit_code == 0, shown.output
    assert shown.output.startswith(f"game 2 of {path}: {e.agents[0]} (solo), after "
                                   f"{e.decisions} decisions")
    assert f"final score: {e.scores[0]:g} VP" in shown.output
    out = tmp_path / "solo-reviewed.json"
    reviewed = run("analyze", path, "--game", "2", "--iterations", "20", "--out", str(out))
    assert reviewed.exit_code == 0, reviewed.output
    said = " ".join(line.strip() for line in reviewed.output.splitlines())
    assert f"player 0 ({e.agents[0]}): accuracy" in said
    saved = load_record(out)
    assert saved.players == [e.agents[0]] and saved.start.players == 1
    assert saved.review["decisions"]
    as_json = json.loads(run("analyze", path, "--game", "2", "--iterations", "10",
                             "--json").stdout)
    assert as_json["measure"] == "score" and list(as_json["players"]) == ["0"]


def test_a_game_that_is_not_there_and_game_without_a_results_file_are_refused(files,
                                                                               tmp_path):
    path = str(files[0])
    before = files[0].read_bytes()
    assert_bad_input(run("show", path, "--game", "7"), "there is no game 7",
                     "its games are 0..1")
    assert_bad_input(run("analyze", path, "--game", "0", "--save"),
                     "selfplay results file", "--out")
    assert_bad_input(run("analyze", path, "--game", "0", "--saved"), "keeps no review")
    assert files[0].read_bytes() == before  # the results file is never written
    read_file(path).record(0).save(tmp_path / "g.json")
    assert_bad_input(run("show", str(tmp_path / "g.json"), "--game", "0"),
                     "not one", "leave out --game")
    assert_bad_input(run("show", "--game", "0"), "--game", "standard opening")
    for command in ("play", "suggest"):  # one game: the file is named, its games are not
        assert_bad_input(run(command, path), "is a selfplay results file (2 games)",
                         f"'arle show {path} --game N'")
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text(files[0].read_text().replace('"seats"', '"sits"', 1))
    assert_bad_input(run("show", str(damaged), "--game", "0"), "line 2", "meta.seats")
