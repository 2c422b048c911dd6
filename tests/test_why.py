"""Why one move is better, in the game's terms: the mover's lead by scoring category after two
lines (arle_ai.play.why), in the library, arle suggest / hint / analyze and --json."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.engine import _core
from arle_ai.formats.records import GameRecord, RecordError, record_from_dict
from arle_ai.play.analysis import GameAnalysis, analyze_game
from arle_ai.play.why import CONTINUATIONS, explain, explain_ranking, line_end
from arle_cli.main import cli

CATTLE = ["place cattle_trader (special)", "animal cattle"]


def test_a_move_that_takes_animals_leads_in_animals():
    s = arle_ai.new_game(seed=0)
    why = explain(s, CATTLE, ["pass"], source="lines")
    assert set(why.by_category) == set(_core.SCORE_CATEGORIES)
    assert why.by_category["animals"] > 0
    assert why.source == "lines" and why.where == "the start of half-year 2"
    assert (why.better, why.other, why.player) == (CATTLE[0], "pass", 0)
    assert why.better_label == "place Cattle Trader (special)" and why.other_label == "pass"
    assert why.total == pytest.approx(sum(why.by_category.values()))
    assert why.largest()[0][0] in why.by_category
    text = why.sentence()
    assert text.startswith("why place Cattle Trader (special) rather than pass: ")
    assert "animals" in text and "(the lead in VP at the start of half-year 2" in text
    assert why.to_dict()["text"] == why.text()


def test_a_better_move_whose_gain_comes_after_the_lines_meet_says_so():
    from arle_ai.play.why import Why

    why = Why("place colonist", "pass", 0, {"barn": -1.0, "animals": 0.2}, "lines",
              "the start of half-year 2")
    assert why.text() == ("-1 barn (the lead in VP at the start of half-year 2, by category; "
                          "the better move's gain comes later)")
    ahead = Why("place colonist", "pass", 0, {"barn": 2.0}, "lines", "the start of half-year 2")
    assert ahead.text() == "+2 barn (the lead in VP at the start of half-year 2, by category)"


def test_the_same_line_against_itself_differs_in_nothing():
    s = arle_ai.new_game(seed=4)
    why = explain(s, CATTLE, CATTLE, source="lines")
    assert all(v == 0 for v in why.by_category.values())
    assert why.text().startswith("no category differs by half a VP or more")


def test_the_lines_meet_at_the_start_of_the_next_half_year():
    s = arle_ai.new_game(seed=0)
    for seed in range(3):
        end = line_end(s, [*CATTLE, "not a move", "pass"], seed)
        assert end.half_year == 2  # played on at random past where the line stops replaying
    # an explanation averages CONTINUATIONS continuations and is repeatable
    assert explain(s, CATTLE, ["pass"], source="lines") == explain(s, CATTLE, ["pass"],
                                                                    source="lines")
    assert CONTINUATIONS >= 16


def test_bad_lines_and_finished_games_are_refused():
    s = arle_ai.new_game(seed=0)
    with pytest.raises(arle_ai.IllegalActionError):
        explain(s, ["place the moon"], ["pass"])
    with pytest.raises(ValueError, match="each line needs its move"):
        explain(s, [], ["pass"])
    with pytest.raises(ValueError, match="source must be one of"):
        explain(s, CATTLE, ["pass"], source="dice")
    over = s.copy()
    rng = random.Random(0)
    while not over.is_terminal():
        over.apply(rng.choice(over.legal_actions()))
    with pytest.raises(ValueError, match="the game is over"):
        explain(over, ["pass"], ["pass"])


def test_the_ranking_explains_the_best_move_against_the_second():
    s = arle_ai.new_game(seed=5)
    result = arle_ai.suggest(s, iterations=400, seed=0)
    why = explain_ranking(s, result)
    assert why is not None and (why.better, why.other) == (result.moves[0].move,
                                                           result.moves[1].move)
    assert explain_ranking(s, result.top(1)) is None


def test_suggest_prints_why_and_json_holds_it():
    text = CliRunner().invoke(cli, ["suggest", "--iterations", "400", "--top", "3"])
    assert text.exit_code == 0, text.output
    assert "\nwhy place " in text.output and " rather than place " in text.output
    data = json.loads(CliRunner().invoke(cli, ["suggest", "--iterations", "400",
                                               "--json"]).output)
    assert set(data["why"]["by_category"]) == set(_core.SCORE_CATEGORIES)
    assert data["why"]["better"] == data["moves"][0]["move"]


def test_the_review_says_why_for_a_marked_move_and_the_record_keeps_it(tmp_path):
    rng = random.Random(1)
    rec = GameRecord.new(seed=3)
    for _ in range(12):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    analysis = analyze_game(rec, iterations=2000)
    marked = [d for d in analysis.decisions if d.mark]
    assert marked, "random moves: some are marked"
    for d in analysis.decisions:
        assert (d.why is None) == (not d.mark)
        assert d.played_pv[0] == d.played
    for d in marked:
        assert d.why is not None
        assert (d.why["better"], d.why["other"]) == (d.top, d.played)
        assert set(d.why["by_category"]) == set(_core.SCORE_CATEGORIES)
    data = analysis.to_dict(rec)
    assert data["mistakes"][0]["why"]["text"]
    rec.review = analysis.to_review()
    again = record_from_dict(json.loads(rec.to_json()))
    assert GameAnalysis.from_review(again.review).decisions == analysis.decisions
    broken = json.loads(rec.to_json())
    first = next(d for d in broken["review"]["decisions"] if d.get("why"))
    first["why"]["by_category"]["luck"] = 3
    with pytest.raises(RecordError, match=r"\.why must be null or an object"):
        record_from_dict(broken)
    path = tmp_path / "g.json"
    rec.review = None
    rec.save(path)
    out = CliRunner().invoke(cli, ["analyze", str(path), "--iterations", "2000"])
    assert out.exit_code == 0, out.output
    assert "    why: " in out.output  # under a mistake


def test_a_solo_explanation_speaks_of_the_players_own_vp():
    # issue 34: the solo review called the player's own VP "the lead"
    s = arle_ai.new_game(seed=4, players=1)
    why = explain(s, ["place woodcutter"], ["pass"])
    assert why.players == 1 and why.source == "lines"
    assert "your VP at the start of half-year 2" in why.text()
    assert "lead" not in why.text()


def test_no_category_differing_is_never_said_alone_beside_the_gap_the_search_expects():
    # issue 34: "why: no category differs by half a VP" stood next to a 7-VP gap: the lines
    # are compared at the start of the next half-year, the search values the moves further on
    from arle_ai.play.why import Why

    level = {"barn": 0.2, "animals": -0.1}
    solo = Why("place cattle_trader", "place potter", 0, level, "lines",
               "the start of half-year 3", players=1, expected=9.4)
    assert solo.text() == ("no category differs by half a VP or more yet (your VP at the start "
                           "of half-year 3): the 9.4 VP the search expects come later")
    part = Why("place colonist", "pass", 0, {"barn": 1.0}, "lines", "the start of half-year 2",
               expected=3.8)
    assert part.text() == ("+1 barn (the lead in VP at the start of half-year 2, by category; "
                           "the rest of the 3.8 VP the search expects comes later)")
    behind = Why("place colonist", "pass", 0, {"barn": -2.0}, "lines",
                 "the start of half-year 2", expected=4.2)
    assert behind.text().endswith("by category; the 4.2 VP the search expects come later)")
    ended = Why("pass", "stop", 0, level, "lines", "the game's end", expected=7.0)
    assert ended.text() == ("no category differs by half a VP or more (the lead in VP at the "
                            "game's end): the search expects 7.0 VP")
    model = Why("pass", "stop", 0, level, "model", "the game's end", expected=7.0)
    assert model.text().endswith("(the final lead the model expects): the search expects 7.0 VP")
    # the categories account for the search's gap, or the search expects next to nothing
    whole = Why("place colonist", "pass", 0, {"barn": 3.0}, "lines",
                "the start of half-year 2", expected=3.2)
    assert whole.text() == "+3 barn (the lead in VP at the start of half-year 2, by category)"
    close = Why("place colonist", "pass", 0, level, "lines", "the start of half-year 2",
                expected=0.3)
    assert close.text() == ("no category differs by half a VP or more (the lead in VP at the "
                            "start of half-year 2)")
    assert solo.to_dict()["expected"] == 9.4


def test_the_hint_and_the_review_weigh_why_against_the_gap_the_search_expects():
    s = arle_ai.new_game(seed=5)
    result = arle_ai.suggest(s, iterations=400, seed=0)
    why = explain_ranking(s, result)
    assert why is not None
    assert why.expected == pytest.approx(result.moves[0].mean_margin - result.moves[1].mean_margin)
    rng = random.Random(1)
    rec = GameRecord.new(seed=3)
    for _ in range(8):
        rec.push(rng.choice(rec.final_state().legal_actions()))
    analysis = analyze_game(rec, iterations=1500)
    marked = [d for d in analysis.decisions if d.why is not None]
    assert marked
    for d in marked:
        assert d.why["expected"] == pytest.approx(d.best_margin - d.played_margin)


def test_a_stored_why_reads_in_todays_words(tmp_path):
    # a review saved before: the misleading sentence stored, no gap; or no text at all (a
    # record written by hand): the text is made again from the categories and the margins
    s = arle_ai.new_game(seed=5, players=1)
    rec = GameRecord.from_position(s)
    moves = [s.action_to_string(a) for a in s.legal_actions()]
    rec.push(s.parse_action(moves[1]))
    stored = {"better": moves[0], "other": moves[1], "player": 0, "source": "lines",
              "by_category": {"barn": 0.25}, "where": "the start of half-year 2",
              "text": "no category differs by half a VP or more (your VP at the start of "
                      "half-year 2)"}
    decision = {"ply": 1, "player": 0, "half_year": 1, "pending": s.pending,
                "played": moves[1], "best": moves[0], "played_value": 0.001,
                "best_value": 0.004, "value_lost": 0.003, "played_margin": 3.0,
                "best_margin": 10.0, "vp_lost": 7.0, "best_visits": 40000,
                "played_visits": 40000, "why": stored}
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": [decision]}
    rec = record_from_dict(json.loads(rec.to_json()))
    d = GameAnalysis.from_review(rec.review, players=1).decisions[0]
    assert d.mark == "??" and d.why is not None
    assert d.why["text"] == ("no category differs by half a VP or more yet (your VP at the "
                             "start of half-year 2): the 7.0 VP the search expects come later")
    del decision["why"]["text"]
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": [decision]}
    path = tmp_path / "solo.json"
    rec.save(path)
    out = CliRunner().invoke(cli, ["analyze", str(path), "--saved"])
    assert out.exit_code == 0, out.output
    assert "the 7.0 VP the search expects come later" in out.output
