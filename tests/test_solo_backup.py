"""The solo max backup (SearchConfig.solo_backup_max, agent option solo_max): each edge keeps
the best score a simulation through it returned, and a solo tree compares its edges on
(1 - w) x mean + w x best. With w = 0 the search is the one before the option, move for move;
the option is checked by name."""

from __future__ import annotations

import math

import pytest

import arle_ai
from arle_ai.engine import _core
from arle_ai.play.agents import agent_from_spec
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS

W = DEFAULT_WEIGHTS.as_array()


def _root_visits(config: SearchConfig, state: arle_ai.GameState,
                 iterations: int = 400) -> list[tuple[int, int]]:
    search = MCTS(config, Budget(iterations=iterations))
    search.search(state)
    return [(a, v) for a, v, *_ in search._local.root_stats(state)]


def test_without_the_max_the_solo_search_is_the_one_before_it():
    """Root visits of a seeded solo search, as the build before the option (main at f8d4dae)
    gave them: the default w = 0 and an explicit 0 reproduce them, w = 1 does not."""
    s = arle_ai.new_game(7, players=1)
    before = [(1, 18), (2, 24), (3, 36), (4, 29), (5, 32), (6, 24), (7, 26), (8, 27),
              (9, 18), (10, 24), (11, 30), (12, 29), (13, 19), (14, 17), (15, 24), (16, 23)]
    config = SearchConfig(leaf="rollout", rollout="heuristic", seed=5)
    assert config.solo_backup_max == 0.0
    assert _root_visits(config, s) == before
    assert _root_visits(SearchConfig(leaf="rollout", rollout="heuristic", seed=5,
                                     solo_backup_max=0), s) == before
    maxed = _root_visits(SearchConfig(leaf="rollout", rollout="heuristic", seed=5,
                                      solo_backup_max=1.0), s)
    assert maxed != before and sum(v for _, v in maxed) == 400
    assert max(v for _, v in maxed) == 122     # the max backup piles onto one move


def test_the_max_changes_nothing_in_a_two_player_search():
    s = arle_ai.new_game(7)
    base = SearchConfig(leaf="rollout", seed=5)
    assert (_root_visits(SearchConfig(leaf="rollout", seed=5, solo_backup_max=1.0), s, 300)
            == _root_visits(base, s, 300))


def test_an_edge_keeps_the_best_score_any_simulation_through_it_returned():
    """Static leaves and a tree of the root and its children only: a root edge's first
    simulation values its child, each later one a grandchild, so its best score is the
    highest of those static scores and its mean their visit-weighted mean."""
    s = arle_ai.new_game(3, players=1)
    ev = _core.StaticEvaluator(W)
    children = {}
    for a in s.legal_actions():
        t = s.copy()
        t.apply(a)
        children[a] = t
    distinct = len({_core.state_hashes(t) for t in children.values()})
    tree = _core.SearchTree(max_bytes=1 << 24, max_nodes=1 + distinct, solo_max=0.5)
    tree.seed(1)
    tree.ensure_root(s, ev)
    tree.run(s, ev, 3000, -1.0, 0.9, False)
    assert tree.node_count == 1 + distinct and tree.refused > 0
    best = dict(tree.best_margins(s))
    checked = 0
    for a, visits, _, mean, _ in tree.stats(s):
        child = children[a]
        scores = [ev.evaluate(child)[1]]
        total = scores[0]
        n = 1
        for b, v, _, child_mean, _ in tree.stats(child):
            t = child.copy()
            t.apply(b)
            score = ev.evaluate(t)[1]
            if v:
                scores.append(score)
                total += v * score
                n += v
                assert dict(tree.best_margins(child))[b] == pytest.approx(score, abs=1e-4)
                assert child_mean == pytest.approx(score, abs=1e-4)
            else:
                assert dict(tree.best_margins(child))[b] is None
        if distinct == len(children):  # each child reached by one root edge only
            assert visits == n
            assert mean == pytest.approx(total / n, abs=1e-3)
        assert best[a] == pytest.approx(max(scores), abs=1e-4)
        checked += len(scores) > 3
    assert checked >= 5


def test_the_full_max_keeps_choosing_the_edge_of_the_best_score():
    """c = 0 (no exploration), the root alone in the tree, random rollouts: after each root
    edge's first simulation the search takes the edge of the highest score. With the max
    (w = 1) that edge's score never falls, so it takes every later simulation; with the mean
    (w = 0) its mean falls below another edge's and the simulations spread."""
    s = arle_ai.new_game(5, players=1)
    ev = _core.RolloutEvaluator(W, heuristic=False)
    n = len(s.legal_actions())

    def run(w: float) -> tuple[list[tuple[int, int, float, float, float]],
                               dict[int, float | None]]:
        tree = _core.SearchTree(max_bytes=1 << 24, max_nodes=1, solo_max=w)
        tree.seed(4)
        tree.ensure_root(s, ev)
        tree.run(s, ev, n + 200, -1.0, 0.0, False)
        return tree.stats(s), dict(tree.best_margins(s))

    stats, best = run(1.0)
    visits = sorted(v for _, v, *_ in stats)
    assert visits == [1] * (n - 1) + [201]
    top = max(stats, key=lambda e: e[1])[0]
    assert best[top] == max(best.values())
    assert all(best[a] == pytest.approx(mean) for a, v, _, mean, _ in stats if v == 1)
    stats0, _ = run(0.0)
    assert sum(v > 1 for _, v, *_ in stats0) > 1


def test_the_config_and_the_agent_spec_carry_the_weight():
    agent = agent_from_spec("mcts:iterations=50,solo_max=0.25", seed=1)
    assert agent.config.solo_backup_max == 0.25
    assert agent.search._local.tree.solo_max == 0.25
    assert agent_from_spec("mcts:iterations=50").config.solo_backup_max == 0.0
    s = arle_ai.new_game(2, players=1)
    assert agent.select(s) in s.legal_actions()


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, math.inf, True, "0.5", None])
def test_a_bad_weight_is_refused_by_name(bad):
    with pytest.raises(ValueError, match=r"solo_backup_max \(the best score's weight in a solo "
                                         r"edge's score\) must be a number in 0..1"):
        SearchConfig(solo_backup_max=bad)


@pytest.mark.parametrize("bad", [-0.1, 1.5, math.nan, True, "0.5"])
def test_the_tree_refuses_a_bad_weight(bad):
    with pytest.raises(ValueError, match="solo_max must be a number in 0..1"):
        _core.SearchTree(solo_max=bad)


@pytest.mark.parametrize("spec, words", [
    ("mcts:solo_max=1.5", "solo_max=1.5 in 'mcts:solo_max=1.5' must be in 0..1"),
    ("mcts:solo_max=-1", "solo_max=-1.0 in 'mcts:solo_max=-1' must be in 0..1"),
    ("mcts:solo_max=nan", "must be in 0..1"),
    ("mcts:solo_max=lots", "bad value 'lots' for 'solo_max'"),
])
def test_a_bad_spec_option_is_refused_by_name(spec, words):
    with pytest.raises(ValueError, match=words.replace(".", r"\.").replace("(", r"\(")):
        agent_from_spec(spec)
