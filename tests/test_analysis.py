"""arle_ai.analysis: value and VP lost per decision, accuracy, VP lost per decision."""

from __future__ import annotations

import pytest

from arle_ai.agents import GreedyAgent
from arle_ai.analysis import EXACT_VISITS, DecisionReview, analyze_game, confident_loss
from arle_ai.records import GameRecord


def passer_vs_greedy(seed: int = 3) -> GameRecord:
    """Player 0 takes the first legal move (pass, whenever it may); player 1 is greedy."""
    rec = GameRecord.new(seed=seed, players=["passer", "greedy"])
    state = rec.start.copy()
    greedy = GreedyAgent(seed=seed)
    while not state.is_terminal():
        a = state.legal_actions()[0] if state.current_player == 0 else greedy.select(state)
        state.apply(a)
        rec.actions.append(a)
    return rec


@pytest.fixture(scope="module")
def analysis():
    return analyze_game(passer_vs_greedy(), iterations=200, seed=1)


def test_each_review_is_consistent(analysis):
    for d in analysis.decisions:
        assert d.value_lost == pytest.approx(max(0.0, d.best_value - d.played_value))
        assert d.vp_lost == pytest.approx(max(0.0, d.best_margin - d.played_margin))
        if d.played == d.best:
            assert d.value_lost == 0 and d.vp_lost == 0


def test_vp_lost_tells_the_passer_from_the_greedy_player(analysis):
    passer, greedy = analysis.mean_vp_lost(0), analysis.mean_vp_lost(1)
    assert passer > 2 * greedy
    assert passer > 2.0  # passing away a worker costs VP even when the game is lost


def test_passing_every_turn_never_plays_the_engines_best_first_move(analysis):
    first = analysis.decisions[0]
    assert (first.ply, first.player, first.played) == (1, 0, "pass")
    assert first.best != "pass" and first.value_lost > 0.1 and first.vp_lost > 3


def test_the_summary_and_json_carry_vp_lost(analysis):
    data = analysis.to_dict()
    assert data["players"]["0"]["mean_vp_lost"] == pytest.approx(analysis.mean_vp_lost(0))
    assert {"played_margin", "best_margin", "vp_lost"} <= set(data["decisions"][0])


def test_one_player_only_and_bad_arguments():
    rec = passer_vs_greedy(seed=5)
    only = analyze_game(rec, player=1, iterations=30)
    assert only.decisions and {d.player for d in only.decisions} == {1}
    assert only.mean_vp_lost(0) is None and only.accuracy(0) is None
    with pytest.raises(ValueError, match="player"):
        analyze_game(rec, player=2)
    with pytest.raises(ValueError, match="iterations"):
        analyze_game(rec, iterations=0)


def test_the_review_keeps_the_best_moves_continuation_and_simulations(analysis):
    for d in analysis.decisions:
        assert d.best_pv and d.best_pv[0] == d.best and d.simulations == 200


def _random_state(seed: int, plies: int):
    import random

    import arle_ai

    rng, s = random.Random(seed), arle_ai.new_game(seed)
    for _ in range(plies):
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_same_move_is_the_same_action_or_the_same_turn_in_another_order():
    from arle_ai.reading import same_move, turn_end

    s = _random_state(0, 109)  # cutting peat: the boardwalk and a moor, in either order
    assert s.pending == "action:cut"
    one, other = ["cut boardwalk", "cut moor(3)"], ["cut moor(3)", "cut boardwalk"]
    assert turn_end(s, one) == turn_end(s, other) != s
    assert same_move(s, one, other) and same_move(s, one, one[:1])
    assert not same_move(s, one[:1], other[:1])  # one cut each: different positions
    assert not same_move(s, [], one)
    # a turn ends before the other player's decisions
    start = _random_state(0, 0)
    assert turn_end(start, ["place fisherman", "place peat_cutter"]) == turn_end(
        start, ["place fisherman"])


def review(best: tuple[float, int], played: tuple[float, int]) -> DecisionReview:
    """A review whose best and played moves have these (value, visits)."""
    return DecisionReview(ply=1, player=0, half_year=1, pending="action", played="pass",
                          best="place colonist", played_value=played[0], best_value=best[0],
                          value_lost=max(0.0, best[0] - played[0]), played_margin=0.0,
                          best_margin=0.0, vp_lost=0.0, best_visits=best[1],
                          played_visits=played[1])


def test_marks_count_only_the_loss_beyond_statistical_noise():
    # the loss's confidence interval: 2 standard errors of the difference at the Bernoulli
    # bound; 0.5 at 1,000 visits each -> 2 * sqrt(2 * 0.25 / 1000) = 0.0447
    assert confident_loss(0.55, 1000, 0.49, 1000) == pytest.approx(0.06 - 0.0447, abs=1e-4)
    assert review((0.55, 1000), (0.53, 1000)).mark == ""  # 0.02 lost: noise explains it
    # 0.06 lost is over the ?? threshold, but only 0.015 of it is beyond noise: "?"
    assert review((0.55, 1000), (0.49, 1000)).mark == "?"
    # the same loss measured with a hundred times the simulations is a sure "??"
    assert review((0.55, 100_000), (0.49, 100_000)).mark == "??"
    assert review((0.8, 1000), (0.5, 1000)).mark == "??"  # far beyond noise
    # a played move with few simulations gets the benefit of the doubt
    assert review((0.55, 5000), (0.45, 12)).mark == ""
    # a finished game's value is exact: only the best move's noise counts
    exact = review((0.6, 4000), (0.5, EXACT_VISITS))
    assert confident_loss(0.6, 4000, 0.5, EXACT_VISITS) == pytest.approx(
        0.1 - 2 * (0.24 / 4000) ** 0.5, abs=1e-4)
    assert exact.mark == "??"
    # more simulations never lower a mark for the same values
    for best, played in ((0.6, 0.55), (0.6, 0.5), (0.7, 0.6)):
        marks = [review((best, n), (played, n)).mark for n in (100, 1000, 10_000, 100_000)]
        assert marks == sorted(marks, key=len)


def test_the_largest_mistakes_are_ranked_by_the_loss_beyond_noise_as_the_marks_are():
    import dataclasses

    from arle_ai.analysis import GameAnalysis

    reviews = [  # (best, played) as (value, visits); ply k+1
        ((0.70, 10), (0.30, 3)),  # 0.40 lost (the most), all of it within noise: no mark
        ((0.55, 1000), (0.49, 1000)),  # 0.06 lost, 0.015 beyond noise: "?"
        ((0.60, 100_000), (0.52, 100_000)),  # 0.08 lost, 0.076 beyond noise: "??"
        ((0.80, 1000), (0.50, 1000)),  # 0.30 lost, 0.255 beyond noise: "??"
        ((0.55, 1000), (0.53, 1000)),  # 0.02 lost: noise explains it
        ((0.50, 1000), (0.50, 1000)),  # nothing lost
        ((0.60, 100_000), (0.52, 100_000)),  # as ply 3: the earlier first
    ]
    analysis = GameAnalysis(decisions=[
        dataclasses.replace(review(best, played), ply=k + 1)
        for k, (best, played) in enumerate(reviews)])
    assert [d.mark for d in analysis.decisions] == ["", "?", "??", "??", "", "", "??"]
    # by raw value lost, ply 1 (no mark) came first and ply 3's "??" after it
    ranked = analysis.mistakes()
    assert [d.ply for d in ranked] == [4, 3, 7, 2]
    assert [d.mark for d in ranked] == ["??", "??", "??", "?"]
    lost = [d.loss_beyond_noise for d in ranked]
    assert lost == sorted(lost, reverse=True) and min(lost) > 0
    assert [d.ply for d in analysis.mistakes(2)] == [4, 3]
    data = analysis.to_dict()
    assert [m["ply"] for m in data["mistakes"]] == [4, 3, 7, 2]
    assert data["decisions"][1]["loss_beyond_noise"] == pytest.approx(0.06 - 0.0447, abs=1e-4)
    # a loss that noise can explain, however large, is no mistake
    assert GameAnalysis(decisions=[review((0.7, 10), (0.3, 3))]).mistakes() == []
