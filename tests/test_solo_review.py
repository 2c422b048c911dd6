"""The solo review rates (issue 34, item 2): solo decisions marked and rated by the expected
score they lost, in VP, never by the squashed value (0.5 + 0.5 tanh((score - 120) / 40)),
which is flat at the scores searches expect: a random player got "accuracy 100%" and always
passing showed pass as the best move."""

from __future__ import annotations

import json
import math

import pytest
from click.testing import CliRunner

from arle_ai.formats.records import GameRecord
from arle_ai.play.agents import agent_from_spec
from arle_ai.play.analysis import (
    SOLO_ACCURACY_HALVING_VP,
    DecisionReview,
    GameAnalysis,
    analyze_game,
    solo_accuracy,
)
from arle_ai.text.reading import SCORE, SOLO_DOUBTFUL_VP, SOLO_MISTAKE_VP
from arle_cli.main import cli
from helpers import assert_no_traceback


def squashed(score: float) -> float:
    return 0.5 + 0.5 * math.tanh((score - 120) / 40)


def solo_review(best: float, played: float, visits: int = 30000, ply: int = 1
                ) -> DecisionReview:
    """A solo decision whose best and played moves have these expected scores (VP)."""
    return DecisionReview(ply=ply, player=0, half_year=1, pending="turn", played="pass",
                          best="place colonist", played_value=squashed(played),
                          best_value=squashed(best),
                          value_lost=max(0.0, squashed(best) - squashed(played)),
                          played_margin=played, best_margin=best, vp_lost=best - played,
                          best_visits=visits, played_visits=visits, players=1)


def test_a_solo_move_is_marked_by_the_vp_it_lost_beyond_noise():
    lost = solo_review(best=20.0, played=12.0)
    assert lost.value_lost < 0.005  # the squashed values hardly differ...
    assert lost.mark == "??"  # ...but 8 VP is a mistake
    # the noise of a score: 8 VP a simulation over the root of the visits, 0.5 VP between
    # searches; 2 standard errors of the difference at 30,000 visits each: 1.43 VP
    assert lost.loss_beyond_noise == pytest.approx(8.0 - 2 * math.hypot(
        SCORE.error(20.0, 30000), SCORE.error(12.0, 30000)))
    assert SCORE.error(20.0, 30000) == pytest.approx(math.hypot(8 / math.sqrt(30000), 0.5))
    assert solo_review(20.0, 19.0).mark == ""  # within noise
    assert solo_review(20.0, 20.0 - 1.43 - SOLO_DOUBTFUL_VP - 0.1).mark == "?"
    assert solo_review(20.0, 20.0 - 1.43 - SOLO_MISTAKE_VP - 0.1).mark == "??"
    assert solo_review(20.0, 12.0, visits=10).mark == ""  # too few simulations to tell
    # the same numbers in a two-player game are judged by the value: no mark
    two = DecisionReview(**{**lost.__dict__, "players": 2})
    assert two.mark == ""


def test_a_solo_accuracy_halves_with_every_half_vp_lost():
    assert SOLO_ACCURACY_HALVING_VP == 0.5
    assert solo_accuracy(0.0) == 100.0 and solo_accuracy(0.5) == 50.0
    assert solo_accuracy(1.5) == 12.5 and solo_accuracy(-2.0) == 100.0
    analysis = GameAnalysis(decisions=[solo_review(20.0, 20.0, ply=1),
                                       solo_review(20.0, 19.0, ply=2),
                                       solo_review(20.0, 12.0, ply=3)], players=1)
    # every decision's VP difference counts, marked or not (as a two-player accuracy counts
    # every value lost); the VP lost is charged to the marked one only
    assert analysis.accuracy(0) == pytest.approx((100 + 25 + 100 / 2 ** 16) / 3)
    read = GameAnalysis.from_review(analysis.to_review(), players=1)
    assert [d.vp_lost for d in read.decisions] == [0.0, 0.0, 8.0]
    assert read.mean_vp_lost(0) == pytest.approx(8.0 / 3)
    assert analysis.to_dict()["measure"] == "score"
    assert GameAnalysis(decisions=[]).to_dict()["measure"] == "value"


def solo_record(pick, plies: int, seed: int = 7) -> GameRecord:
    rec = GameRecord.new(seed=seed, players=["solo"])
    state = rec.start.copy()
    for _ in range(plies):
        action = pick(state)
        rec.actions.append(action)
        state.apply(action)
    return rec


def test_a_solo_review_rates_a_passer_low_and_the_search_high():
    # always passing: every pass marked, none the best (it showed pass as the best 36 times)
    passer = analyze_game(solo_record(lambda s: s.legal_actions()[0], 16), iterations=3000,
                          seed=0)
    assert [d.played for d in passer.decisions] == ["pass"] * 16
    assert all(d.mark for d in passer.decisions) and passer.best_move_rate(0) == 0.0
    assert passer.accuracy(0) < 25 and passer.mean_vp_lost(0) > 2.0
    # the default search's own moves: no mistake, a high accuracy
    ai = agent_from_spec("mcts:iterations=3000", seed=3)
    searched = analyze_game(solo_record(ai.select, 16), iterations=3000, seed=0)
    assert not any(d.mark == "??" for d in searched.decisions)
    assert searched.accuracy(0) > 90


def test_arle_analyze_shows_a_solo_review_in_vp(tmp_path):
    path = tmp_path / "passer.json"
    solo_record(lambda s: s.legal_actions()[0], 6).save(path)
    result = CliRunner().invoke(cli, ["analyze", str(path), "--iterations", "2000"])
    assert_no_traceback(result)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    at = next(k for k, line in enumerate(lines) if line.lstrip().startswith("ply"))
    header = lines[at]  # under the budget's line, wrapped at the width
    assert header.split() == ["ply", "HY", "played", "best", "score", "VP", "lost"]
    rows = lines[at + 1:at + 7]
    assert all(row.split()[2] == "pass" and row.rstrip().endswith("?") for row in rows)
    assert "?, ??: the played move lost over 1, 3 VP beyond statistical noise" in result.stdout
    assert "value" not in "\n".join(lines[:at + 7])  # no squashed value in the table
    assert "(half-year 1): played pass, best " in result.stdout
    assert "player 0 (solo): accuracy" in result.stdout
    data = json.loads(CliRunner().invoke(cli, ["analyze", str(path), "--iterations", "2000",
                                               "--json"]).stdout)
    assert data["measure"] == "score" and all(d["mark"] for d in data["decisions"])
    assert data["players"]["0"]["accuracy"] < 25
