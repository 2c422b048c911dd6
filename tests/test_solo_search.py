"""The search and the learned model in the solo game: the value is the player's own final
score, squashed (no win, no margin over an opponent); the static evaluation, rollouts and
features handle solo positions; datagen and training make a solo model, which says so in its
meta and values solo positions only."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import arle_ai
from arle_ai.engine import _core
from arle_ai.learn.datagen import DatagenConfig, generate, position_from_row
from arle_ai.learn.train import TrainConfig, data_players, train_files
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS
from arle_ai.search.net import NetError, load_net, load_weights, model_players

W = DEFAULT_WEIGHTS


def _finished_solo(seed: int) -> arle_ai.GameState:
    s = arle_ai.new_game(seed, players=1)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    return s


def test_a_finished_solo_game_is_valued_by_its_squashed_score():
    s = _finished_solo(3)
    score = s.scores()[0]
    values, m = _core.final_values(s, W.as_array())
    assert m == score and len(values) == 1
    assert values[0] == pytest.approx(0.5 + 0.5 * math.tanh((score - W.solo_center)
                                                            / W.solo_sigma))
    higher = W.with_(solo_center=score - 10.0)
    assert _core.final_value(s, higher.as_array())[0] > values[0]  # more VP, more value


def test_the_static_evaluation_and_rollouts_value_the_players_own_score():
    s = arle_ai.new_game(4, players=1)
    (own,) = _core.evaluate(s, W.as_array())
    v, m = _core.StaticEvaluator(W.as_array()).evaluate(s)
    assert m == pytest.approx(own)       # the "margin" of a solo position is the own estimate
    assert v == pytest.approx(0.5 + 0.5 * math.tanh((own - W.solo_center) / W.solo_sigma))
    v, m = _core.rollout_value(s, W.as_array(), seed=1, horizon=-1)
    assert 0.0 <= v <= 1.0 and m > -200    # played to the end: a final score
    scores = dict(_core.action_scores(s, W.as_array()))
    assert set(scores) == set(s.legal_actions())


def test_solo_features_have_an_empty_opponent_block():
    s = arle_ai.new_game(4, players=1)
    f = dict(zip(_core.FEATURE_NAMES, s.features(), strict=True))
    assert all(v == 0 for k, v in f.items() if k.startswith("opp."))
    assert f["me.workers_left"] == 4 and f["me_start_player"] == 1
    two = dict(zip(_core.FEATURE_NAMES, arle_ai.new_game(4).features(0), strict=True))
    assert two["opp.score.total"] == -19       # a real opponent is never all 0
    with pytest.raises(ValueError, match="player must be 0 or None in the solo game"):
        s.features(1)


def test_a_solo_search_ranks_moves_by_the_expected_score():
    s = arle_ai.new_game(2, players=1)
    r = MCTS(SearchConfig(leaf="rollout", seed=1), Budget(iterations=600)).search(s)
    assert r.players == 1 and r.player == 0
    best = r.moves[0]
    assert best.visits == max(m.visits for m in r.moves)
    # the tree selects on the mean scores (normalised over the search's range), so the move
    # searched most is the one of the highest mean score; its value is a squashed score
    visited = [m for m in r.moves if m.visits > 20]
    assert len(visited) > 3
    assert best.mean_margin == max(m.mean_margin for m in visited)
    assert all(0.0 < m.win_rate < 1.0 for m in r.moves if m.visits)


def test_a_seeded_solo_search_is_pinned():
    """Root visits of a seeded solo search with heuristic rollouts, unchanged since f8d4dae
    (the solo max backup, tried and removed, kept them at its default): a change to how a
    solo tree selects or backs up shows here."""
    s = arle_ai.new_game(7, players=1)
    r = MCTS(SearchConfig(leaf="rollout", rollout="heuristic", seed=5),
             Budget(iterations=400)).search(s)
    assert sorted((m.action, m.visits) for m in r.moves) == [
        (1, 18), (2, 24), (3, 36), (4, 29), (5, 32), (6, 24), (7, 26), (8, 27),
        (9, 18), (10, 24), (11, 30), (12, 29), (13, 19), (14, 17), (15, 24), (16, 23)]


def test_a_solo_edge_keeps_the_mean_of_the_scores_its_simulations_returned():
    """Static leaves and a tree of the root and its children only: a root edge's first
    simulation values its child, each later one a grandchild, so its mean score is the
    visit-weighted mean of those static scores, and a child's edge's mean is the score of
    the grandchild it leads to."""
    s = arle_ai.new_game(3, players=1)
    ev = _core.StaticEvaluator(W.as_array())
    children = {}
    for a in s.legal_actions():
        t = s.copy()
        t.apply(a)
        children[a] = t
    distinct = len({_core.state_hashes(t) for t in children.values()})
    assert distinct == len(children)      # each child reached by one root edge only
    tree = _core.SearchTree(max_bytes=1 << 24, max_nodes=1 + distinct)
    tree.seed(1)
    tree.ensure_root(s, ev)
    tree.run(s, ev, 3000, -1.0, 0.9, False)
    assert tree.node_count == 1 + distinct and tree.refused > 0
    checked = 0
    for a, visits, _, mean, _ in tree.stats(s):
        child = children[a]
        total, n, scored = ev.evaluate(child)[1], 1, 0
        for b, v, _, child_mean, _ in tree.stats(child):
            if v:
                t = child.copy()
                t.apply(b)
                score = ev.evaluate(t)[1]
                assert child_mean == pytest.approx(score, abs=1e-4)
                total += v * score
                n += v
                scored += 1
        assert visits == n
        assert mean == pytest.approx(total / n, abs=1e-3)
        checked += scored > 2
    assert checked >= 5


def test_the_removed_max_backup_option_is_refused_by_name():
    """solo_max (the max backup of becaa31, removed: it lost, docs/solo.md) is no option
    any more: a spec or config that still names it is refused, not ignored."""
    from arle_ai.play.agents import agent_from_spec

    with pytest.raises(ValueError, match="unknown option 'solo_max' for agent 'mcts'"):
        agent_from_spec("mcts:iterations=50,solo_max=0.25")
    with pytest.raises(TypeError, match="unknown search option 'solo_backup_max'"):
        MCTS(solo_backup_max=0.25)


@pytest.fixture(scope="module")
def solo_data(tmp_path_factory):
    out = tmp_path_factory.mktemp("solo") / "solo.npz"
    data = generate(out, DatagenConfig(games=3, seed=7, iterations=10, explore=2, players=1))
    return out, data


def test_datagen_of_solo_games_keeps_the_score_as_the_margin(solo_data):
    _, data = solo_data
    assert (data["winner"] == -1).all() and (data["player"] == 0).all()
    for g in np.unique(data["game"]):
        rows = np.flatnonzero(data["game"] == g)
        final = position_from_row(data["positions"][rows[-1]])
        assert final.players == 1
        score = data["margin"][rows[0]]
        assert (data["margin"][rows] == score).all()
        assert (data["final_vp"][rows] == [score, 0.0]).all()
    assert data_players(data) == 1


def test_a_solo_model_is_trained_marked_and_used_for_solo_positions_only(solo_data, tmp_path):
    path, _ = solo_data
    weights = tmp_path / "solo_net.npz"
    train_files([path], weights, TrainConfig(epochs=2, hidden=8, seed=0, val_fraction=0.34))
    arrays, meta = load_weights(weights)
    assert model_players(meta) == 1
    solo_model = load_net(weights, players=1)
    with pytest.raises(NetError, match="a solo model .trained on solo games., where a "
                                       "two-player model is needed"):
        load_net(weights)
    with pytest.raises(NetError, match="a two-player model, where a solo model"):
        load_net(_two_player_weights(), players=1)
    # the solo model's margin output is the predicted final score, squashed for the value
    s = arle_ai.new_game(9, players=1)
    ev = _core.NetEvaluator(W.as_array(), load_net(), horizon=None, solo_model=solo_model)
    v, m = ev.evaluate(s)
    predicted = solo_model.state_outputs(s)[0]
    assert m == pytest.approx(predicted)
    assert v == pytest.approx(0.5 + 0.5 * math.tanh((predicted - W.solo_center) / W.solo_sigma))
    # a search with solo_net uses it (and refuses a two-player file there)
    r = MCTS(SearchConfig(solo_net=weights, net_horizon=None, seed=1),
             Budget(iterations=50)).search(s)
    assert r.players == 1
    with pytest.raises(ValueError, match="solo_net .a weights file. is an option of "
                                         "leaf='net'"):
        SearchConfig(leaf="rollout", solo_net=weights)


def _two_player_weights():
    from arle_ai.search.net import default_weights_path

    return default_weights_path()


def test_training_refuses_a_mix_of_solo_and_two_player_games():
    data = {"winner": np.array([-1, 0, 1], dtype=np.int8)}
    with pytest.raises(ValueError, match="mixes solo games and two-player games"):
        data_players(data)
    assert data_players({"winner": np.array([0, 1], dtype=np.int8)}) == 2


def test_the_final_vp_by_category_of_solo_games_is_rebuilt_for_the_aux_head(solo_data):
    from arle_ai.learn.train import final_breakdowns

    _, data = solo_data
    by_seat, known = final_breakdowns(data)
    # games 0 and 2 are found (was: none, scores differ in length); game 1 ends by one of two
    # moves that both score 55 with other categories, so it is left out, as documented
    assert [bool(known[data["game"] == g].all()) for g in (0, 1, 2)] == [True, False, True]
    assert not known[data["game"] == 1].any()
    assert (by_seat[:, 1] == 0).all()  # the absent seat scores nothing
    assert np.allclose(by_seat[known, 0].sum(axis=1), data["margin"][known])  # they add up


def test_arle_datagen_and_train_make_a_solo_model_through_the_cli(tmp_path):
    from click.testing import CliRunner

    from arle_cli.main import cli

    data, weights = tmp_path / "d.npz", tmp_path / "w.npz"
    r = CliRunner().invoke(cli, ["datagen", "-o", str(data), "--games", "2", "--players", "1",
                                 "--iterations", "8", "--explore", "1", "--seed", "3"])
    assert r.exit_code == 0, r.output
    meta = json.loads(str(np.load(data)["meta"]))
    assert meta["players"] == 1
    r = CliRunner().invoke(cli, ["train", str(data), "-o", str(weights), "--epochs", "1",
                                 "--hidden", "4", "--val", "0.5"])
    assert r.exit_code == 0, r.output
    # a solo game has no winner: the epoch line gives the score's error, no win accuracy
    assert "epoch   1" in r.output and "score MAE" in r.output
    assert "win accuracy" not in r.output and "margin MAE" not in r.output
    assert "score MAE  score RMSE" in r.output and "the final score within" in r.output
    assert model_players(load_weights(weights)[1]) == 1
    # the agent option solo_net plays a solo position with it; a two-player file is refused
    from arle_ai.play.agents import agent_from_spec

    agent = agent_from_spec(f"mcts:iterations=20,solo_net={weights}", seed=1)
    s = arle_ai.new_game(6, players=1)
    assert agent.select(s) in s.legal_actions()
    r = CliRunner().invoke(cli, ["datagen", "-o", str(tmp_path / "x.npz"), "--games", "1",
                                 "--players", "3"])
    assert r.exit_code == 2 and "--players" in r.output


def test_datagen_of_solo_games_searches_with_the_solo_model_it_is_given(solo_data, tmp_path):
    """datagen --players 1 --leaf net --net FILE: FILE values the solo positions (it was
    loaded as the two-player model, which a solo game never asks, and recorded in the data's
    meta all the same); a two-player model is refused by name before any game."""
    from click.testing import CliRunner

    from arle_ai.learn.datagen import parts_dir, play_game
    from arle_ai.search.net import default_solo_weights_path, weights_digest
    from arle_cli.main import cli
    from helpers import assert_bad_input

    path, _ = solo_data
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    train_files([path], a, TrainConfig(epochs=1, hidden=8, seed=0, val_fraction=0.34))
    train_files([path], b, TrainConfig(epochs=1, hidden=8, seed=1, val_fraction=0.34))
    settings = dict(games=1, seed=5, iterations=24, explore=2, players=1, leaf="net")
    by_a = play_game(DatagenConfig(**settings, net=str(a)), 0)
    by_b = play_game(DatagenConfig(**settings, net=str(b)), 0)
    assert by_a["visit_count"].tolist() != by_b["visit_count"].tolist()  # the model searched
    assert by_a["visit_count"].tolist() == \
        play_game(DatagenConfig(**settings, net=str(a)), 0)["visit_count"].tolist()
    data = generate(tmp_path / "d.npz", DatagenConfig(**settings, net=str(a)))
    meta = json.loads(str(data["meta"]))
    assert meta["search"]["net_digest"] == weights_digest(a) and meta["net"] == "a.npz"
    two = _two_player_weights()
    with pytest.raises(NetError, match="a two-player model, where a solo model"):
        generate(tmp_path / "x.npz", DatagenConfig(**settings, net=str(two)))
    assert not parts_dir(tmp_path / "x.npz").exists()
    command = ["datagen", "--games", "1", "--players", "1", "--iterations", "8", "--explore",
               "1", "--leaf", "net"]
    r = CliRunner().invoke(cli, [*command, "-o", str(tmp_path / "y.npz"), "--net", str(two)])
    assert_bad_input(r, two.name, "a two-player model, where a solo model")
    r = CliRunner().invoke(cli, [*command, "-o", str(tmp_path / "y.npz"), "--net", str(a)])
    assert r.exit_code == 0, r.output
    if not default_solo_weights_path().exists():  # no solo model shipped: one must be named
        r = CliRunner().invoke(cli, [*command, "-o", str(tmp_path / "z.npz")])
        assert_bad_input(r, "no solo model is shipped")
    # and a solo model in two-player games is refused the same way
    with pytest.raises(NetError, match="a solo model .trained on solo games., where a "
                                       "two-player model is needed"):
        generate(tmp_path / "w.npz", DatagenConfig(**{**settings, "players": 2}, net=str(a)))


def test_solo_rollouts_take_the_heuristic_policy_by_default():
    """Without a solo model, the default search rolls a solo leaf out with the heuristic
    policy (it scored 6 VP a game more than random moves, docs/solo.md): move for move the
    rollout leaf's heuristic search; solo_rollout="random" is the random rollout's; a
    two-player search is the same with either."""
    s = arle_ai.new_game(5, players=1)

    def visits(config: SearchConfig, state: arle_ai.GameState) -> list[tuple[int, int]]:
        r = MCTS(config, Budget(iterations=300)).search(state)
        return [(m.action, m.visits) for m in r.moves]

    assert SearchConfig().solo_rollout == "heuristic"
    heuristic = SearchConfig(leaf="rollout", rollout="heuristic", horizon=2, seed=3)
    random_ = SearchConfig(leaf="rollout", rollout="random", horizon=2, seed=3)
    assert visits(SearchConfig(seed=3), s) == visits(heuristic, s)
    assert visits(SearchConfig(seed=3, solo_rollout="random"), s) == visits(random_, s)
    assert visits(heuristic, s) != visits(random_, s)
    two = arle_ai.new_game(5)
    assert visits(SearchConfig(seed=3), two) == visits(SearchConfig(seed=3,
                                                                   solo_rollout="random"), two)
    with pytest.raises(ValueError, match="solo_rollout must be one of"):
        SearchConfig(solo_rollout="greedy")
    with pytest.raises(ValueError, match="solo_rollout is an option of leaf='net'"):
        SearchConfig(leaf="rollout", solo_rollout="random")
    assert SearchConfig(leaf="static").solo_rollout is None
    assert SearchConfig(solo_rollout=None).solo_rollout == "heuristic"  # None: the default


def test_a_solo_search_takes_puct_only_from_a_solo_models_policy(solo_data, tmp_path):
    from arle_ai.search.tree import make_evaluator, uses_puct

    config = SearchConfig(seed=3)
    ev = make_evaluator(config)
    assert ev.model.has_policy and ev.solo_model is None  # the shipped weights: a policy head
    assert uses_puct(config, ev) and not uses_puct(config, ev, players=1)
    # so a solo search is the UCT search, move for move (the heuristic priors played worse)
    s = arle_ai.new_game(5, players=1)
    default = MCTS(config, Budget(iterations=300)).search(s)
    uct = MCTS(SearchConfig(seed=3, puct=False), Budget(iterations=300)).search(s)
    assert [(m.action, m.visits) for m in default.moves] == [(m.action, m.visits)
                                                             for m in uct.moves]
    assert uses_puct(SearchConfig(puct=True), ev, players=1)  # asked for: PUCT
    # a solo model with a policy head gives solo searches PUCT
    path, _ = solo_data
    weights = tmp_path / "solo_net.npz"
    train_files([path], weights, TrainConfig(epochs=1, hidden=8, seed=0, val_fraction=0.34))
    with_solo = SearchConfig(solo_net=weights)
    ev = make_evaluator(with_solo)
    assert ev.solo_model is not None and ev.solo_model.has_policy
    assert uses_puct(with_solo, ev, players=1)
