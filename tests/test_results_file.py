"""The selfplay results file has one reader (arle_ai.play.results): a tournament resuming
its games and the web app's results page read it alike, solo benchmarks included."""

from __future__ import annotations

import json

import pytest

from arle_ai.play.results import ResultsFileError, read_file, read_text
from arle_ai.play.tournament import Tournament


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("results")
    pair, solo = folder / "pair.jsonl", folder / "solo.jsonl"
    Tournament(["random", "greedy"], games=2, seed=3).run(out=pair)
    Tournament(["random"], games=2, seed=3, players=1).run(out=solo)
    return pair, solo


def test_a_file_and_its_text_read_the_same_as_the_tournament_loads_them(files):
    for path, players in zip(files, (2, 1), strict=True):
        read = read_file(path)
        text = read_text(path.read_text())
        assert read.header == text.header and read.players == players
        assert read.games == text.games and sorted(read.games) == [0, 1]
        assert read.kept == path.stat().st_size
        loaded = Tournament(read.agents, 2, seed=3, players=players).load(path)
        assert loaded == {g: value for g, (_, value) in read.games.items()}


def test_blank_lines_a_repeated_game_and_a_cut_off_end(files):
    lines = files[0].read_text().splitlines(keepends=True)
    text = lines[0] + "\n" + lines[1] + lines[1] + lines[2][:-30]
    read = read_text(text)
    assert list(read.games) == [json.loads(lines[1])["meta"]["game"]]
    assert read.games[0][0] == 3  # the line it stands on, blank lines counted
    assert read.kept == len(lines[0]) + 1 + 2 * len(lines[1])
    with pytest.raises(ResultsFileError, match="line 5 is not JSON"):
        read_text(text + "\n")  # a broken line that ends: not an interrupted write


@pytest.mark.parametrize("change, words", [
    (lambda m: m.__setitem__("pairing", [0, 0]), "meta.pairing must be one agent index in 0..0"),
    (lambda m: m.__setitem__("winner", 0), "a solo game has no winner"),
    (lambda m: m.__setitem__("scores", [1, 2]), "meta.scores must be one number of VP"),
    (lambda m: m.pop("start_player"), "meta.start_player is missing"),
])
def test_a_solo_line_is_checked_as_one_seat(files, change, words):
    head, game, *_ = files[1].read_text().splitlines()
    data = json.loads(game)
    change(data["meta"])
    with pytest.raises(ResultsFileError, match=words):
        read_text(f"{head}\n{json.dumps(data)}\n")


def test_the_header_bounds_the_agents():
    head = {"format": "arle-selfplay", "version": 1, "agents": ["random"] * 5}
    assert read_text(json.dumps(head)).agents == ["random"] * 5
    with pytest.raises(ResultsFileError, match="'agents' must be a list of 2..4 agent specs"):
        read_text(json.dumps(head), max_agents=4)
    with pytest.raises(ResultsFileError, match="'players' must be 1"):
        read_text(json.dumps({**head, "players": 3}))


def test_the_results_page_reads_a_tournament_and_a_solo_benchmark(files):
    from arle_ai.web.tournaments import read_results

    summary = read_results(files[0].read_text())
    assert summary["games"] == 2 and summary["header"]["seed"] == 3
    assert summary["players"] == 2 and summary["pairings"]
    # issue 34: a solo benchmark was refused ("the page shows a tournament's pairings"), and
    # before that as 'agents' or 'meta.pairing'; its scores are what arle selfplay prints
    solo = read_results(files[1].read_text())
    assert solo["players"] == 1 and solo["games"] == 2 and "pairings" not in solo
    assert [e["label"] for e in solo["solo"]] == ["random"] and solo["solo"][0]["games"] == 2
    assert [(g["game"], g["agents"], g["winner"]) for g in solo["game_list"]] == [
        (0, ["random"], None), (1, ["random"], None)]
