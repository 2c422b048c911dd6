"""The leaf value as a mix of the expected margin and the win probability (issue 33, item 4):
the agent spec's margin_blend and sigma reach the search's value."""

from __future__ import annotations

import math

import pytest

import arle_ai
from arle_ai.play.agents import agent_from_spec
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.net import default_net


def test_the_spec_sets_the_value_mix() -> None:
    agent = agent_from_spec("mcts:iterations=50,margin_blend=0.9,sigma=20", seed=1)
    assert agent.config.weights == DEFAULT_WEIGHTS.with_(margin_blend=0.9, sigma=20.0)
    assert agent_from_spec("mcts:iterations=50").config.weights == DEFAULT_WEIGHTS
    for bad, words in (("mcts:margin_blend=1.5", "must be in 0..1"),
                       ("mcts:margin_blend=nan", "must be in 0..1"),
                       ("mcts:sigma=0", "must be in 0.5..1000"),
                       ("mcts:sigma=x", "bad value 'x' for 'sigma'"),
                       ("greedy:sigma=3", "unknown option 'sigma'")):
        with pytest.raises(ValueError, match=words):
            agent_from_spec(bad)


@pytest.mark.parametrize("blend", [0.0, 0.5, 0.7, 0.9, 1.0])
def test_the_leaf_value_mixes_margin_and_win(blend: float) -> None:
    net = default_net()
    s = arle_ai.new_game(5)
    for _ in range(30):
        s.apply(s.legal_actions()[-1])
    margin, logit = net.state_outputs(s)
    me = s.current_player
    m0 = margin if me == 0 else -margin
    p0 = 1 / (1 + math.exp(-logit)) if me == 0 else 1 / (1 + math.exp(logit))
    value, got_margin = net.value(s, blend, 12.0)
    assert got_margin == pytest.approx(m0)
    assert value == pytest.approx((1 - blend) * p0 + blend * (0.5 + 0.5 * math.tanh(m0 / 12)))


def test_a_search_follows_its_value_mix() -> None:
    s = arle_ai.new_game(2)
    runs = {b: agent_from_spec(f"mcts:iterations=400,margin_blend={b}", seed=3).search.search(s)
            for b in (0.2, 1.0)}
    # the same tree shape is not expected: the values differ, so do the root's statistics
    assert [m.win_rate for m in runs[0.2].moves] != [m.win_rate for m in runs[1.0].moves]
