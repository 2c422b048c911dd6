"""The solo game through the CLI and the library's records: arle new --players 1, show,
suggest, a whole solo game played with arle play (hints on demand, no opponent), analyze
(VP lost per decision), selfplay --players 1 (the solo benchmark and its histogram), and solo
game records round-tripped and refused when impossible."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.formats.records import GameRecord, RecordError, load_record
from arle_ai.play.solo import histogram_svg, solo_summary
from arle_cli.main import cli
from helpers import assert_no_traceback


def arle(*args: str, input: str | None = None):
    result = CliRunner().invoke(cli, list(args), input=input)
    assert_no_traceback(result)
    return result


def bad(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    message = result.output.strip().splitlines()[-1]
    for w in words:
        assert w in message, message


@pytest.fixture(scope="module")
def solo_game(tmp_path_factory):
    """A whole solo game played at the keyboard (always menu option 1, a hint first)."""
    out = tmp_path_factory.mktemp("solo") / "solo.json"
    result = arle("play", "--players", "1", "--seed", "5", "--hint-iterations", "300",
                  "--out", str(out), input="hint\n" + "1\n" * 400)
    return result, out


# ---- new and show ---------------------------------------------------------------------------

def test_arle_new_players_1_writes_a_solo_position(tmp_path):
    out = tmp_path / "s.json"
    result = arle("new", "--players", "1", "--seed", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "the solo game" in result.output
    d = json.loads(out.read_text())
    assert d["setup"]["players"] == 1 and len(d["players"]) == 1 and d["start_player"] == 0
    assert arle_ai.GameState.from_dict(d) == arle_ai.new_game(3, players=1)


def test_arle_new_refuses_a_solo_start_player_other_than_0():
    bad(arle("new", "--players", "1", "--start-player", "1"), "--start-player",
        "the solo player (0) always starts")
    bad(arle("new", "--players", "3"), "--players")


def test_arle_show_prints_a_solo_position(tmp_path):
    out = tmp_path / "s.json"
    out.write_text(arle_ai.new_game(2, players=1).to_json())
    result = arle("show", str(out))
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Fields of Arle (solo) - half-year 1/9" in text
    assert "workers placed: 0/4" in text
    assert "Solo player: -19 VP <- to decide" in text
    assert "Player 1" not in text and "start player" not in text


def test_arle_suggest_ranks_solo_moves_by_score(tmp_path):
    out = tmp_path / "s.json"
    out.write_text(arle_ai.new_game(2, players=1).to_json())
    result = arle("suggest", str(out), "--iterations", "400", "--top", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Your turn:") and lines[0].endswith("(the solo game)")
    assert "  score vs best     continuation" in lines[2]  # over its column
    assert "score: the mean VP the search expects after the move: the final score" in \
        result.output
    assert "P0:" not in result.output and "margin" not in result.output
    # in VP, never a squashed value (issue 34: a solo hint's value column read 0.004): each
    # move's score, and how far it lies from the best's
    assert "value" not in result.output
    data = json.loads(arle("suggest", str(out), "--iterations", "400", "--top", "3",
                           "--json").stdout)
    scores = [m["mean_margin"] for m in data["moves"]]
    rows = [ln for ln in lines[3:] if ln[:3].strip() in ("1", "2", "3")]
    assert f"{scores[0]:.1f}" in rows[0].split()
    for row, score in zip(rows[1:], scores[1:], strict=True):
        assert f"{score:.1f}" in row.split() and f"{score - scores[0]:+.1f}" in row.split()


# ---- play -------------------------------------------------------------------------------------

def test_a_whole_solo_game_is_played_at_the_keyboard_and_saved(solo_game):
    result, out = solo_game
    assert result.exit_code == 0, result.output
    assert "the solo game: you alone" in result.output
    assert "(the solo game)" in result.output           # the hint's report
    rec = load_record(out)
    final = rec.final_state()
    assert final.is_terminal() and final.players == 1
    assert rec.players == ["human"] and rec.setup == {"seed": 5, "variant": "standard",
                                                      "players": 1}
    data = json.loads(out.read_text())
    assert data["result"] == {"scores": final.scores(),
                              "breakdowns": [final.score_breakdown(0)]}
    assert f"game over: final score {final.scores()[0]:g} VP" in result.output
    # always option 1: the first legal action at every decision with a choice
    s = rec.start.copy()
    for a in rec.actions:
        assert a == s.legal_actions()[0]
        s.apply(a)


def test_a_solo_game_has_no_ai_opponent(tmp_path):
    bad(arle("play", "--players", "1", "--ai", "greedy", "--out", str(tmp_path / "g.json")),
        "--ai", "a solo game has no opponent")
    bad(arle("play", "--players", "1", "--seat", "1", "--out", str(tmp_path / "g.json")),
        "--seat", "the solo player is player 0")


def test_a_solo_position_file_is_played_solo(tmp_path):
    pos = tmp_path / "s.json"
    pos.write_text(arle_ai.new_game(4, players=1).to_json())
    out = tmp_path / "g.json"
    result = arle("play", str(pos), "--out", str(out), input="2\nquit\n")
    assert result.exit_code == 0, result.output
    rec = load_record(out)
    assert rec.start.players == 1 and rec.players == ["human"] and len(rec.actions) == 1


# ---- analyze ----------------------------------------------------------------------------------

def test_arle_analyze_reviews_a_solo_game_in_vp_lost(solo_game, tmp_path):
    _, out = solo_game
    rec = load_record(out)
    short = GameRecord.new(5, players=["human"])
    for a in rec.actions[:6]:
        short.push(a)
    path = tmp_path / "short.json"
    short.save(path)
    result = arle("analyze", str(path), "--iterations", "200")
    assert result.exit_code == 0, result.output
    assert "VP lost: on a marked move, the drop in the score the search expects" in \
        result.output
    assert "player 0 (human): accuracy" in result.output
    assert "VP lost per decision" in result.output and "player 1" not in result.output
    data = json.loads(arle("analyze", str(path), "--iterations", "200", "--json").stdout)
    assert list(data["players"]) == ["0"]
    bad(arle("analyze", str(path), "--player", "1"), "--player 1", "solo game")


# ---- the solo benchmark -----------------------------------------------------------------------

def test_selfplay_players_1_is_the_solo_benchmark(tmp_path):
    svg, out = tmp_path / "h.svg", tmp_path / "r.jsonl"
    result = arle("selfplay", "--players", "1", "--agents", "greedy", "random", "--games", "3",
                  "--seed", "2", "--out", str(out), "--histogram", str(svg))
    assert result.exit_code == 0, result.output
    assert "Solo benchmark: 2 agents, 6 solo games" in result.output
    assert result.output.count("mean score") == 2
    lines = out.read_text().splitlines()
    assert json.loads(lines[0])["players"] == 1 and len(lines) == 7
    games = [json.loads(line) for line in lines[1:]]
    # both agents on the same three setups
    setups = {a: sorted(g["meta"]["setup_seed"] for g in games if g["meta"]["seats"] == [a])
              for a in (0, 1)}
    assert setups[0] == setups[1] and len(set(setups[0])) == 3
    for g in games:
        rec = load_record(g)
        assert rec.start.players == 1 and g["meta"]["winner"] is None
        assert g["meta"]["scores"] == rec.final_state().scores()
    root = ET.fromstring(svg.read_text())
    assert root.tag.endswith("svg") and len(root.findall(".//{*}rect")) > 2
    again = arle("selfplay", "--players", "1", "--agents", "greedy", "random", "--games", "3",
                 "--seed", "2", "--out", str(out), "--json")
    summary = json.loads(again.stdout)
    assert [e["games"] for e in summary["solo"]] == [3, 3]      # resumed: nothing replayed


def test_selfplay_solo_options_are_checked():
    bad(arle("selfplay", "--players", "1", "--agents", "random", "--games", "2", "--sprt",
             "0", "10"), "--sprt", "--players 1")
    bad(arle("selfplay", "--agents", "random", "greedy", "--games", "2", "--histogram",
             "h.svg"), "--histogram", "--players 1")


def test_the_solo_summary_and_histogram_hold_exact_figures():
    results = [{"meta": {"game": g, "seats": [0], "agents": ["a"], "setup_index": g,
                         "scores": [s]}}
               for g, s in enumerate([120.0, 125.0, 131.5, 140.0, 118.0])]
    e = solo_summary(results)["solo"][0]
    assert (e["games"], e["mean"], e["median"], e["min"], e["max"]) == (5, 126.9, 125.0,
                                                                      118.0, 140.0)
    assert [(b["low"], b["count"]) for b in e["bins"]] == [(110, 1), (120, 2), (130, 1),
                                                          (140, 1)]
    lo, hi = e["mean_interval"]
    assert lo == pytest.approx(126.9 - 1.96 * e["sd"] / 5 ** 0.5)
    svg = ET.fromstring(histogram_svg(solo_summary(results)))
    assert len([r for r in svg.findall(".//{*}rect") if r.find("{*}title") is not None]) == 4


# ---- records ------------------------------------------------------------------------------------

def test_a_solo_record_round_trips():
    rec = GameRecord.new(6, players=["me"])
    s = rec.final_state()
    while not s.is_terminal():
        rec.push(s.legal_actions()[-1] if s.pending != "turn" else s.legal_actions()[0])
        s = rec.final_state()
    d = rec.to_dict()
    assert d["setup"] == {"seed": 6, "variant": "standard", "players": 1}
    assert "winner" not in d["result"] and len(d["result"]["scores"]) == 1
    again = load_record(json.loads(rec.to_json()))
    assert again.actions == rec.actions and again.final_state() == rec.final_state()
    from_position = GameRecord.from_position(arle_ai.new_game(6, players=1))
    assert from_position.players == ["player 0"]
    assert load_record(from_position.to_dict()).start.players == 1


@pytest.mark.parametrize("change, message", [
    (lambda d: d["result"].update(winner=0), "a solo game has no winner"),
    (lambda d: d["result"].update(scores=[1.0, 2.0]), "expected a list of one number"),
    (lambda d: d.update(players=["a", "b"]), "a list of one name"),
    (lambda d: d["setup"].update(players=3), "setup.players must be 1"),
])
def test_impossible_solo_records_are_refused_by_name(change, message):
    rec = GameRecord.new(1, players=["me"])
    s = rec.final_state()
    while not s.is_terminal():
        rec.push(s.legal_actions()[0])
        s = rec.final_state()
    d = rec.to_dict()
    change(d)
    with pytest.raises(RecordError, match=message):
        load_record(d)
    with pytest.raises(ValueError, match="2 names for a game of 1 player"):
        GameRecord.from_position(arle_ai.new_game(1, players=1), players=["a", "b"])


# ---- edit -------------------------------------------------------------------------------------

def test_arle_edit_asks_the_solo_player_once_and_writes_a_solo_position(tmp_path):
    out = tmp_path / "e.json"
    answers = ("3\nFisherman, Grocer (winter)\nFisherman, Grocer\n2\nstalls 2\n\n\nsheep 2\n"
               "food 7\n" + "\n" * 8)
    result = arle("edit", str(out), "--players", "1", "--seed", "4", input=answers)
    assert result.exit_code == 0, result.output
    assert "start player" not in result.output and "P1" not in result.output
    assert "your home board" in result.output
    # a winter space in summer is the special action, which the solo game lacks (S4)
    assert "no special action in the solo game" in result.output
    d = json.loads(out.read_text())
    assert d["setup"]["players"] == 1 and d["occupied"] == {"fisherman": 0, "summer_grocer": 0}
    assert (d["special_action_by"], d["workers_placed"], d["half_year"]) == (None, 2, 3)
    p = d["players"][0]
    assert (p["home"]["stalls"], p["animals"]["sheep"], p["goods"]["food"]) == (2, 2, 7)
    again = arle("edit", str(out), input="\nP1 Fisherman\nback\n" + "\n" * 16)
    assert "not accepted: a solo game has player 0 only" in again.output
