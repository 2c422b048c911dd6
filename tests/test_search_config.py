"""The search's options, budgets and results as values: SearchConfig, Budget, SearchResult."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

import arle_ai
from arle_ai.play.agents import agent_from_spec, mcts_spec
from arle_ai.search import config as search_config
from arle_ai.search.config import (
    PLAY_AI_BUDGET,
    SEARCH_BUDGET,
    Budget,
    SearchConfig,
    from_keywords,
)
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS


@pytest.mark.parametrize("options, words", [
    ({"c": -0.1}, "c must be a number in 0..100"),
    ({"c": True}, "c must be a number"),
    ({"seed": -1}, "seed must be a non-negative integer"),
    ({"seed": 1.5}, "seed must be a non-negative integer"),
    ({"workers": 0}, "workers must be an integer in 1.."),
    ({"max_nodes": 0}, "max_nodes must be an integer in 1.."),
    ({"max_memory": 100}, "max_memory must be 65536.."),
    ({"workers": 4, "max_memory": 200_000}, "max_memory must be 262144.."),
    ({"prior_temperature": 0}, "prior_temperature must be a positive number"),
    ({"prior_temperature": float("nan")}, "prior_temperature must be a positive number"),
    ({"puct": 1}, "puct must be True, False or None"),
    ({"reuse": "yes"}, "reuse must be True or False"),
    ({"weights": (1.0,)}, "weights must be a heuristics.Weights"),
    ({"leaf": "rollout", "horizon": 101}, "horizon must be -1 .* or an integer in 0..100"),
    ({"leaf": "rollout", "rollout": "greedy"}, "rollout must be one of"),
    ({"net": 3}, "net must be a weights file's path"),
])
def test_each_option_is_checked_by_name(options, words):
    with pytest.raises(ValueError, match=words):
        SearchConfig(**options)


def test_a_config_is_a_frozen_value_with_the_leafs_defaults_filled_in():
    config = SearchConfig()
    assert (config.leaf, config.rollout, config.horizon, config.net_horizon) == (
        "net", "random", None, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.c = 2.0  # type: ignore[misc]
    rollout = SearchConfig(leaf="rollout")
    assert (rollout.rollout, rollout.horizon, rollout.net_horizon) == ("random", 2, None)
    assert SearchConfig(leaf="static").rollout is None
    assert SearchConfig(leaf="net", net_horizon=None).rollout is None
    assert pickle.loads(pickle.dumps(rollout)) == rollout
    assert dataclasses.replace(rollout, seed=5) == SearchConfig(leaf="rollout", seed=5)
    assert SearchConfig(weights=DEFAULT_WEIGHTS.with_(sample=4.0)).weights.sample == 4.0


def test_a_budget_is_iterations_seconds_or_both():
    assert str(Budget(iterations=2000)) == "2,000 iterations"
    assert str(Budget(seconds=3)) == "3 s" and Budget(seconds=3).seconds == 3.0
    assert str(Budget(100, 0.5)) == "100 iterations or 0.5 s"
    for bad, words in (({}, "needs iterations or seconds"), ({"iterations": 0}, "iterations"),
                       ({"seconds": float("inf")}, "seconds"), ({"seconds": 0}, "seconds"),
                       ({"iterations": True}, "iterations")):
        with pytest.raises(ValueError, match=words):
            Budget(**bad)
    assert Budget.of(None, None, SEARCH_BUDGET) is SEARCH_BUDGET
    assert Budget.of(None, 2.0, SEARCH_BUDGET) == Budget(seconds=2.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        SEARCH_BUDGET.iterations = 5  # type: ignore[misc]


def test_the_keyword_form_builds_the_same_values():
    config, budget = from_keywords({"iterations": 200, "seed": 1, "leaf": "static"})
    assert config == SearchConfig(leaf="static", seed=1) and budget == Budget(iterations=200)
    assert from_keywords({"time_limit": 0.5})[1] == Budget(seconds=0.5)
    assert from_keywords({})[1] is SEARCH_BUDGET
    with pytest.raises(ValueError, match="time_limit must be"):
        from_keywords({"time_limit": -1})
    with pytest.raises(TypeError, match="unknown search option 'depth'"):
        MCTS(depth=3)
    with pytest.raises(TypeError, match="not both"):
        MCTS(SearchConfig(), iterations=10)
    with pytest.raises(TypeError, match="config must be a SearchConfig"):
        MCTS(200)  # type: ignore[arg-type]
    state = arle_ai.new_game(1)
    keyword = MCTS(iterations=300, seed=2, leaf="rollout", horizon=1).search(state)
    valued = MCTS(SearchConfig(leaf="rollout", horizon=1, seed=2),
                  Budget(iterations=300)).search(state)
    assert keyword.moves == valued.moves


def test_the_progress_callback_can_stop_a_search_and_read_its_statistics():
    state = arle_ai.new_game(4)
    seen = []

    def progress(report):
        result = report.result()
        seen.append((report.iterations, sum(m.visits for m in result.moves)))
        return report.iterations >= 768

    search = MCTS(SearchConfig(seed=3, leaf="rollout"), Budget(seconds=60))
    result = search.search(state, progress=progress)
    # stopped by the callback, not by the minute: exactly the iterations it had seen
    assert result.iterations == 768 and seen == [(256, 256), (512, 512), (768, 768)]
    # an iteration budget ends the search itself; the callback then sees the last count
    seen.clear()
    assert MCTS(SearchConfig(seed=3), Budget(iterations=300)).search(
        state, progress=progress).iterations == 300
    assert [n for n, _ in seen] == [256, 300]


def test_one_result_type_for_the_search_and_suggest():
    state = arle_ai.new_game(0)
    report = arle_ai.suggest(state, iterations=300, seed=1, top=3)
    search = MCTS(iterations=300, seed=1).search(state)
    assert isinstance(report, arle_ai.SearchResult) and report.moves == search.moves[:3]
    assert [m.rank for m in search.moves] == list(range(1, len(search.moves) + 1))
    assert report.best is report.moves[0] and report.best_action == search.best_action
    assert report.pending == state.pending and report.player == 0
    data = report.to_dict()  # the JSON of arle suggest --json
    assert list(data) == ["player", "pending", "moves", "iterations", "time_taken", "players"]
    assert list(data["moves"][0]) == ["rank", "action", "move", "visits", "win_rate",
                                      "mean_margin", "prior", "pv"]


def test_the_named_defaults_are_the_budgets_used():
    assert MCTS().budget is SEARCH_BUDGET
    assert agent_from_spec("mcts").budget is SEARCH_BUDGET
    assert mcts_spec(PLAY_AI_BUDGET) == "mcts:time=2"
    assert agent_from_spec(mcts_spec(PLAY_AI_BUDGET)).budget == PLAY_AI_BUDGET
    assert mcts_spec(Budget(iterations=500)) == "mcts:iterations=500"
    names = [n for n in search_config.__all__ if n.endswith("_BUDGET")]
    assert len(names) == 9
    assert all(isinstance(getattr(search_config, n), Budget) for n in names)


def test_a_parallel_search_is_the_sum_of_its_workers_searches():
    state = arle_ai.new_game(3)
    config = SearchConfig(seed=5, workers=2, leaf="rollout")
    search = MCTS(config, Budget(iterations=401))
    result = search.search(state)
    search.close()
    assert result.iterations == 401 == sum(m.visits for m in result.moves)
    # each worker searched its share with its own seed, and the visits add up
    from arle_ai.search.pool import split_iterations
    from arle_ai.search.tree import TreeSearch

    assert split_iterations(401, 2) == [201, 200]
    base = config.seed * 1_000_003 + 1  # the first search of this MCTS
    visits: dict[int, int] = {}
    for i, share in enumerate(split_iterations(401, 2)):
        alone = TreeSearch(config)
        assert alone.run(state, share, None, base * 7919 + i) == share
        for a, n, *_ in alone.root_stats(state):
            visits[a] = visits.get(a, 0) + n
    assert visits == {m.action: m.visits for m in result.moves}
