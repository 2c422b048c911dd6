"""The arle commands new, show, suggest, analyze, bench and check: happy paths on real files
and bad input (exit 2 with a one-line message, never a traceback)."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.base.errors import IllegalActionError
from arle_ai.formats.records import GameRecord, Variation, load_record
from arle_ai.play.agents import RandomAgent
from arle_cli.main import cli
from helpers import assert_bad_input


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def broken_copy(record_file, tmp_path, move: int):
    """A copy of the record whose move number ``move`` (0-based) is no move at all."""
    data = json.loads(record_file.read_text())
    data["moves"][move] = "place nowhere"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    return broken


@pytest.fixture
def record_file(tmp_path):
    """A finished random game between two seeded random agents, saved as a record."""
    rec = GameRecord.new(seed=4, players=["random", "random"])
    state = rec.start.copy()
    agent = RandomAgent(seed=4)
    while not state.is_terminal():
        a = agent.select(state)
        state.apply(a)
        rec.actions.append(a)
    path = tmp_path / "game.json"
    rec.save(path)
    return path


# ---- new / show ----


def test_new_writes_a_start_position_that_show_prints(tmp_path):
    path = tmp_path / "start.json"
    assert run("new", "--seed", "5", "--variant", "first-game", "-o", str(path)).exit_code == 0
    state = arle_ai.GameState.from_json(path.read_text())
    assert state == arle_ai.new_game(5, "first-game")
    shown = run("show", str(path))
    assert shown.exit_code == 0
    assert "player 0" in shown.output.lower()


def test_new_to_stdout_is_the_position_json():
    result = run("new", "--seed", "2")
    assert arle_ai.GameState.from_json(result.output) == arle_ai.new_game(2)


def test_show_bad_inputs(tmp_path):
    assert_bad_input(run("show", str(tmp_path / "missing.json")), "no such file")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert_bad_input(run("show", str(bad)), "malformed JSON")
    d = arle_ai.new_game(0).to_dict()
    d["players"][0]["goods"]["grain"] = 99
    impossible = tmp_path / "impossible.json"
    impossible.write_text(json.dumps(d))
    assert_bad_input(run("show", str(impossible)), "invalid position", "grain")
    assert_bad_input(run("new", "--variant", "tiny"), "tiny")


# ---- suggest ----


def test_suggest_on_the_standard_opening():
    result = run("suggest", "--iterations", "300", "--top", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert "300 simulations" in lines[1]
    table = lines[3:lines.index("")]
    assert [ln.split()[0] for ln in table if ln.split()[0].isdigit()] == ["1", "2", "3"]
    assert all(len(ln) <= 80 for ln in table)  # long continuations wrap, nothing is cut
    assert not any(ln.endswith("...") for ln in table)
    assert lines[len(table) + 4].startswith("visits:")


def test_suggest_json_on_a_hand_written_position_is_deterministic(tmp_path):
    d = arle_ai.new_game(1).to_dict()
    d["players"][0]["goods"].update(wood=9, food=12)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(d, indent=1))
    first = run("suggest", str(path), "--iterations", "200", "--seed", "3", "--json")
    second = run("suggest", str(path), "--iterations", "200", "--seed", "3", "--json")
    assert first.exit_code == 0, first.output
    report = json.loads(first.stdout)
    assert report["iterations"] == 200
    assert report["moves"][0]["rank"] == 1
    state = arle_ai.GameState.from_dict(d)
    assert state.is_legal(report["moves"][0]["action"])
    assert json.loads(second.stdout)["moves"] == report["moves"]


def test_suggest_bad_inputs(tmp_path):
    assert_bad_input(run("suggest", "--iterations", "0"), "iterations")
    assert_bad_input(run("suggest", "--time", "-1"), "time")
    assert_bad_input(run("suggest", "--iterations", "10", "--time", "1"), "either")
    assert_bad_input(run("suggest", str(tmp_path / "nope.json")), "no such file")


def test_suggest_refuses_a_finished_game(tmp_path, record_file):
    final = load_record(record_file).final_state()
    path = tmp_path / "over.json"
    path.write_text(final.to_json())
    assert_bad_input(run("suggest", str(path), "--iterations", "10"), "game is over")


# ---- analyze ----


def test_analyze_reviews_every_decision(record_file):
    result = run("analyze", str(record_file), "--iterations", "30", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rec = load_record(record_file)
    forced = sum(len(s.legal_actions()) == 1 for s in list(rec.states())[:-1])
    assert len(data["decisions"]) == len(rec.actions) - forced
    for d in data["decisions"]:
        assert d["value_lost"] >= 0
        assert d["value_lost"] == pytest.approx(max(0.0, d["best_value"] - d["played_value"]))
    for p in ("0", "1"):
        assert 0 <= data["players"][p]["accuracy"] <= 100


def test_analyze_one_player_as_text(record_file):
    result = run("analyze", str(record_file), "--iterations", "20", "--player", "1")
    assert result.exit_code == 0, result.output
    assert "largest mistakes:" in result.output
    assert "player 1 (random): accuracy" in result.output
    assert "player 0 (random)" not in result.output


def test_the_review_counts_best_moves_in_words_that_read_for_few(tmp_path):
    # issue 34: "a best move 12% of 8 decisions" read as though 12% were a number of moves
    from helpers import one_best_in_eight

    path = tmp_path / "eight.json"
    one_best_in_eight(path)
    text = run("analyze", str(path), "--saved")
    assert text.exit_code == 0, text.output
    said = " ".join(line.strip() for line in text.stdout.splitlines())  # wrapped at 80
    assert "VP lost per decision, a best move in 1 of 8 decisions (12%)" in said
    assert "% of 8" not in said
    data = json.loads(run("analyze", str(path), "--saved", "--json").stdout)["players"]["0"]
    # the numbers kept, the count beside them, the sentence as the text and the page say it
    assert data["best_move_rate"] == 0.125 and data["best_moves"] == 1
    assert data["decisions"] == 8
    assert data["summary"].endswith(", a best move in 1 of 8 decisions (12%)")
    assert f"player 0 (player 0): {data['summary']}" in said


def test_analyze_saves_its_review_into_the_record_and_shows_it_again(tmp_path, record_file):
    rec = load_record(record_file)
    del rec.actions[24:]
    rec.meta["event"] = "club night"  # kept, as the lines tried beside the game are
    tried = next(a for a in rec.state_at(5).legal_actions() if a != rec.actions[5])
    rec.variations.append(Variation(None, 5, [tried]))
    path = tmp_path / "short.json"
    rec.save(path)
    result = run("analyze", str(path), "--iterations", "300", "--json", "--save")
    assert result.exit_code == 0, result.output
    fresh = json.loads(result.stdout)
    assert f"review of {len(fresh['decisions'])} decisions" in result.stderr
    saved = load_record(path)  # checked against its moves when read
    assert saved.actions == rec.actions and saved.players == rec.players
    assert saved.meta == rec.meta and saved.variations == rec.variations
    assert [d["ply"] for d in saved.review["decisions"]] == [d["ply"] for d in
                                                             fresh["decisions"]]
    # shown again without a search: the same decisions, marks and accuracies
    again = run("analyze", str(path), "--saved", "--json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout) == fresh
    text = run("analyze", str(path), "--saved")
    assert "each decision searched for 300 iterations" in text.stdout
    assert "player 0 (random): accuracy" in text.stdout
    # --out: a copy with the review, the record left as it was; an existing file kept
    plain = tmp_path / "plain.json"
    rec.save(plain)
    copy = tmp_path / "reviewed.json"
    assert run("analyze", str(plain), "--iterations", "20", "-o", str(copy)).exit_code == 0
    assert load_record(plain).review is None and load_record(copy).review["decisions"]
    assert_bad_input(run("analyze", str(plain), "--iterations", "20", "-o", str(copy)),
                     "exists", "--overwrite")
    assert run("analyze", str(plain), "--iterations", "20", "-o", str(copy),
               "--overwrite").exit_code == 0
    assert_bad_input(run("analyze", str(plain), "--saved"), "holds no review", "--save")
    assert_bad_input(run("analyze", str(path), "--saved", "--time", "1"), "drop --time")
    assert_bad_input(run("analyze", str(plain), "--save", "-o", str(copy)), "--save", "--out")
    pipe = tmp_path / "pipe"  # read from, never written back: refused before any search
    os.mkfifo(pipe)
    assert_bad_input(run("analyze", str(pipe), "--save"), "cannot save the review", "fifo",
                     "--out")


def test_analyze_bad_inputs(tmp_path, record_file):
    assert_bad_input(run("analyze", str(tmp_path / "none.json")), "no such file")
    assert_bad_input(run("analyze", str(record_file), "--player", "2"), "player")
    broken = broken_copy(record_file, tmp_path, move=3)
    assert_bad_input(run("analyze", str(broken)), "invalid game record", "move 4")


# ---- bench / check ----


def test_bench_quick_json():
    result = run("bench", "--quick", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["random_playouts_per_s_c"] > 0
    assert data["c_vs_python_playout_ratio"] > 0  # a speed figure, not a test: bench/ judges it


def test_check_passes_on_clean_games():
    result = run("check", "--games", "3", "--seed", "11")
    assert result.exit_code == 0, result.output
    assert "3 games from seed 11" in result.output


def test_check_reports_a_violation_with_its_seed_and_moves(monkeypatch):
    import arle_ai.engine.testing as testing

    real = testing.check_invariants
    calls = {"n": 0}

    def flaky(state):
        calls["n"] += 1
        if calls["n"] == 4:
            raise testing.InvariantError("players[0].goods.food: negative (-1)")
        real(state)

    monkeypatch.setattr(testing, "check_invariants", flaky)
    result = run("check", "--games", "2", "--seed", "9")
    assert result.exit_code == 1
    assert "seed 9" in result.output
    assert "goods.food: negative" in result.output
    assert "   1. " in result.output and "   3. " in result.output


def test_check_bad_options():
    assert_bad_input(run("check", "--games", "0"), "games")
    assert_bad_input(run("check", "--workers", "x"), "workers")


def test_search_bar_counts_iterations_or_ticks_seconds_and_then_closes():
    import contextlib
    import threading
    from types import SimpleNamespace

    from arle_ai.search.config import Budget
    from arle_cli.common import search_bar

    with search_bar(Budget(iterations=1000)) as progress:
        for done in (256, 512, 1000):
            progress(SimpleNamespace(iterations=done))
    # a time budget: a timer thread ticks the bar while the search runs and has ended when
    # the search has, however it ended (no clock read: the thread itself is watched)
    for failing in (False, True):
        before = set(threading.enumerate())
        with contextlib.suppress(KeyError):
            with search_bar(Budget(seconds=30)) as progress:
                progress(SimpleNamespace(iterations=5))  # a no-op for a time budget
                timers = set(threading.enumerate()) - before
                assert len(timers) == 1 and all(t.is_alive() for t in timers)
                if failing:
                    raise KeyError("the search failed")
        assert not any(t.is_alive() for t in timers)
        assert set(threading.enumerate()) <= before


# ---- game records as positions (show / suggest --ply) ----


def test_show_and_suggest_read_a_record_at_its_end_or_a_ply(record_file):
    rec = load_record(record_file)
    at5 = rec.state_at(5)
    result = run("show", str(record_file), "--ply", "5")
    assert result.exit_code == 0, result.output
    assert result.output.strip() == arle_ai.describe(at5, 80).strip()  # the runner's 80 columns
    end = run("show", str(record_file))
    assert end.output.strip() == arle_ai.describe(rec.final_state(), 80).strip()
    sug = run("suggest", str(record_file), "--ply", "5", "--iterations", "50", "--json")
    assert sug.exit_code == 0, sug.output
    assert json.loads(sug.stdout)["player"] == at5.current_player
    assert_bad_input(run("suggest", str(record_file)), "game is over")


def test_ply_bad_uses_exit_2(tmp_path, record_file):
    n = len(load_record(record_file).actions)
    assert_bad_input(run("show", str(record_file), "--ply", str(n + 1)), f"outside 0..{n}")
    assert_bad_input(run("show", "--ply", "3"), "--ply needs a game record")
    pos = tmp_path / "pos.json"
    pos.write_text(arle_ai.new_game(seed=1).to_json())
    assert_bad_input(run("show", str(pos), "--ply", "0"), "position file")
    broken = broken_copy(record_file, tmp_path, move=2)
    assert_bad_input(run("show", str(broken)), "invalid game record", "move 3")


def test_show_moves_lists_the_legal_moves_as_play_numbers_them(record_file):
    from arle_ai.text import decisions
    from arle_ai.text.answers import parse_choice

    rec = load_record(record_file)
    state = rec.state_at(7)
    result = run("show", str(record_file), "--ply", "7", "--moves")
    assert result.exit_code == 0, result.output
    assert f"legal moves - {decisions.question(state)}" in result.output
    listed = " ".join(result.output.split("legal moves - ")[1].split())
    for o in decisions.menu(state):
        shown = o.label.removeprefix("place ") if state.pending == "turn" else o.label
        assert f"{o.number}. {shown}" in listed
        assert parse_choice(state, shown) == parse_choice(state, str(o.number)) == o.action
    assert "legal moves" not in run("show", str(record_file), "--moves").output  # game over


def test_an_option_may_be_typed_without_its_first_word():
    from arle_ai.text.answers import parse_choice

    state = arle_ai.new_game(seed=2)
    state.apply(state.parse_action("place summer_grocer"))  # the Grocer asks: which good?
    assert state.pending != "turn"
    assert parse_choice(state, "timber") == state.parse_action("good timber")
    assert parse_choice(state, " Sheep ") == state.parse_action("animal sheep")
    with pytest.raises(IllegalActionError):  # not an option of this decision
        parse_choice(state, "wood")
    with pytest.raises(IllegalActionError):
        parse_choice(state, "")


def test_analyze_text_names_moves_as_good_and_has_a_legend():
    from arle_ai.play.analysis import DecisionReview, GameAnalysis
    from arle_cli.analyze_cmd import LEGEND, format_analysis

    def review(ply: int, near: tuple[str, ...], played_value: float, unseparated: int = 0
               ) -> DecisionReview:
        marked = played_value < 0.5
        return DecisionReview(ply=ply, player=0, half_year=1, pending="action",
                              played="pass", best="place colonist" if marked else "pass",
                              played_value=played_value,
                              best_value=0.6, value_lost=0.6 - played_value,
                              played_margin=-3.0, best_margin=1.0,
                              vp_lost=4.0 if marked else 0.0,
                              best_visits=5000, played_visits=5000, near_best=near,
                              unseparated=unseparated)

    analysis = GameAnalysis(decisions=[review(1, ("place fisherman",), 0.2),
                                       review(2, (), 0.59),
                                       review(3, ("place a", "place b", "place c"), 0.3, 4)])
    text = format_analysis(analysis, ["a", "b"], width=200)  # whole lines: no wrapping
    rows = text.splitlines()
    # the budget first, shown with the answer (a time, or here the iterations: none given)
    assert rows[0].startswith("each decision searched for 0 iterations")
    assert rows[2].split()[4:] == ["place", "colonist", "~", "0.400", "4.0", "??"]
    # a move without a mark is named the best and loses nothing: no value or VP lost shown
    assert rows[3].split()[3:] == ["pass", "pass"]
    timed = format_analysis(GameAnalysis(decisions=analysis.decisions, time_limit=1.0),
                            ["a", "b"], width=200)
    assert timed.splitlines()[0] == ("each decision searched for 1 s (a move played other than "
                                     "the engine's choice is searched again, up to 1 s more)")
    assert all(line in rows for line in LEGEND)
    assert ("ply 1 (player 0, half-year 1): played pass, best place colonist (as good: "
            "place fisherman), lost 0.400 (4.0 VP) ??") in text
    # at most 3 named, the others counted
    assert ("ply 3 (player 0, half-year 1): played pass, best place colonist (as good: "
            "place a, place b, place c; the search could not separate 4 other moves), lost "
            "0.300 (4.0 VP) ??") in text
