"""The search fit for learning (issue 25, item 2): root exploration (Dirichlet noise, Gumbel-Top-k
with sequential halving), the improved-policy targets, the move temperature and playout-cap
randomization of self-play data, and training on the positions that carry a target."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import arle_ai
from arle_ai.engine import _core
from arle_ai.learn.datagen import DatagenConfig, play_game
from arle_ai.learn.train import TrainConfig, policy_targets, train
from arle_ai.play.agents import agent_from_spec
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS
from arle_ai.search.root import (
    C_VISIT,
    completed_q_policy,
    dirichlet_mix,
    gumbel_halving,
    visit_policy,
)


def middle_game(seed: int = 3, moves: int = 12) -> arle_ai.GameState:
    """A position after `moves` random moves, then to the next one with 8 choices or more."""
    s = arle_ai.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        s.apply(rng.choice(s.legal_actions()))
    while len(s.legal_actions()) < 8:
        s.apply(rng.choice(s.legal_actions()))
    return s


def evaluator() -> _core.LeafEvaluator:
    return _core.StaticEvaluator(DEFAULT_WEIGHTS.as_array(), 2.0)


# ---- the core: a root's priors for one run, a forced root edge ----

def test_a_forced_root_edge_takes_every_simulation_and_priors_stay() -> None:
    s, ev = middle_game(), evaluator()
    tree = _core.SearchTree()
    tree.ensure_root(s, ev, True)
    before = tree.stats(s)
    assert before is not None and len(before) > 3
    assert tree.run(s, ev, 40, -1.0, 0.9, True, root_edge=2) == 40
    after = tree.stats(s)
    assert after is not None
    assert [n for _, n, *_ in after] == [40 if i == 2 else 0 for i in range(len(after))]
    assert [p for *_, p in after] == [p for *_, p in before]
    # the next run is free again
    tree.run(s, ev, 40, -1.0, 0.9, True)
    assert sum(1 for _, n, *_ in tree.stats(s) or [] if n) > 1
    for bad, words in ((len(after), "outside"), (-2, "edge index or -1")):
        with pytest.raises(ValueError, match=words):
            tree.run(s, ev, 1, -1.0, 0.9, True, root_edge=bad)


def test_root_priors_replace_the_stored_ones_for_one_run() -> None:
    s, ev = middle_game(), evaluator()
    tree = _core.SearchTree()
    tree.ensure_root(s, ev, True)
    n = len(tree.stats(s) or [])
    one_hot = [1.0 if i == n - 1 else 0.0 for i in range(n)]
    tree.run(s, ev, 200, -1.0, 3.0, True, root_priors=one_hot)
    visits = [v for _, v, *_ in tree.stats(s) or []]
    assert visits[n - 1] == max(visits) and visits[n - 1] > 100
    for bad, words in (([0.5] * (n + 1), "has"), ([2.0] + [0.0] * (n - 1), "not a prior"),
                       ([math.nan] * n, "not a prior")):
        with pytest.raises(ValueError, match=words):
            tree.run(s, ev, 1, -1.0, 0.9, True, root_priors=bad)


def test_action_priors_are_what_a_new_node_stores() -> None:
    s, ev = middle_game(), evaluator()
    priors = ev.action_priors(s)
    assert [a for a, _ in priors] == s.legal_actions()
    assert abs(sum(p for _, p in priors) - 1) < 1e-5 and min(p for _, p in priors) > 0
    tree = _core.SearchTree()
    tree.ensure_root(s, ev, True)
    stored = [p for *_, p in tree.stats(s) or []]
    assert np.allclose(stored, [p for _, p in priors], atol=1 / 65535)


# ---- the targets and the noise ----

def test_completed_q_policy_by_hand() -> None:
    priors = [0.5, 0.3, 0.2]
    assert completed_q_policy([0, 0, 0], [0, 0, 0], priors) == pytest.approx(priors)
    # visited: moves 0 and 1 (values 0.5 and 0.7); move 2's q is their prior-weighted mean
    v_mix = (0.5 * 0.5 + 0.3 * 0.7) / 0.8
    scale = C_VISIT + 4
    z = [math.log(0.5) + scale * 0.5, math.log(0.3) + scale * 0.7,
         math.log(0.2) + scale * v_mix]
    want = [math.exp(v - max(z)) for v in z]
    want = [v / sum(want) for v in want]
    got = completed_q_policy([4, 2, 0], [0.5, 0.7, 0.0], priors)
    assert got == pytest.approx(want, rel=1e-12)
    assert got[1] > 0.99  # 0.2 better in value outweighs the priors at this scale
    assert visit_policy([3, 1, 0]) == [0.75, 0.25, 0.0]


def test_dirichlet_mix_is_a_distribution_near_the_priors() -> None:
    priors = [0.6, 0.3, 0.1]
    rng = random.Random(1)
    mixed = dirichlet_mix(priors, 10.0, 0.25, rng)
    assert sum(mixed) == pytest.approx(1)
    assert all(m >= 0.75 * p for m, p in zip(mixed, priors, strict=True))
    assert dirichlet_mix(priors, 10.0, 0.0, rng) == pytest.approx(priors)
    assert mixed == dirichlet_mix(priors, 10.0, 0.25, random.Random(1))


# ---- the search options ----

def result_rows(r: arle_ai.SearchResult) -> list[tuple[int, int]]:
    return [(m.action, m.visits) for m in r.moves]


@pytest.mark.parametrize("noise", ["dirichlet", "gumbel"])
def test_root_noise_is_deterministic_for_a_seed_and_spends_the_budget(noise: str) -> None:
    s = middle_game()
    config = SearchConfig(leaf="static", puct=True, root_noise=noise, seed=4)
    a = MCTS(config, Budget(iterations=300)).search(s)
    b = MCTS(config, Budget(iterations=300)).search(s)
    assert result_rows(a) == result_rows(b) and a.iterations == 300
    assert sum(m.visits for m in a.moves) == 300
    other = MCTS(SearchConfig(leaf="static", puct=True, root_noise=noise, seed=5),
                 Budget(iterations=300)).search(s)
    plain = MCTS(SearchConfig(leaf="static", puct=True, seed=4),
                 Budget(iterations=300)).search(s)
    assert result_rows(other) != result_rows(a) != result_rows(plain)
    # noise=False: this search is plain PUCT
    quiet = MCTS(config, Budget(iterations=300)).search(s, noise=False)
    assert result_rows(quiet) == result_rows(plain)


def test_sequential_halving_splits_the_budget_among_the_sampled_moves() -> None:
    s, ev = middle_game(), evaluator()
    tree = _core.SearchTree()
    tree.ensure_root(s, ev, True)
    chosen, done = gumbel_halving(tree, s, ev, 0.9, 256, None, 8, 1.0, random.Random(7))
    assert done == 256
    visits = {a: n for a, n, *_ in tree.stats(s) or []}
    counts = sorted((n for n in visits.values() if n), reverse=True)
    # 8 moves, 3 rounds: 256 // 24 = 10 each, 4 moves 256 // 12 = 21 more, then the last two
    # share what is left: 256 - 80 - 84 = 92, 46 more each
    assert counts == [10 + 21 + 46] * 2 + [10 + 21] * 2 + [10] * 4
    assert visits[chosen] == 77
    tree.clear()
    tree.ensure_root(s, ev, True)
    chosen, done = gumbel_halving(tree, s, ev, 0.9, 255, None, 8, 1.0, random.Random(7))
    assert done == 255  # the remainder of a split: 45 + 46
    # one sampled move takes the whole budget
    tree.clear()
    tree.ensure_root(s, ev, True)
    chosen, done = gumbel_halving(tree, s, ev, 0.9, 50, None, 1, 0.0, random.Random(7))
    prior = dict(ev.action_priors(s))
    assert chosen == max(prior, key=lambda a: (prior[a], -a)) and done == 50


def test_the_gumbel_choice_is_ranked_first() -> None:
    s = middle_game(seed=8)
    config = SearchConfig(leaf="static", puct=True, root_noise="gumbel", gumbel_k=4, seed=2)
    mcts = MCTS(config, Budget(iterations=64))
    r = mcts.search(s)
    assert r.best_action == mcts._local.chosen and r.moves[0].rank == 1


def test_root_options_are_checked_by_name() -> None:
    bad = [({"root_noise": "gumbel", "puct": False}, "needs PUCT"),
           ({"root_noise": "bogus", "puct": True}, "root_noise must be one of"),
           ({"root_noise": "dirichlet", "puct": True, "gumbel_k": 4}, "root_noise='gumbel'"),
           ({"puct": True, "noise_alpha": 3.0}, "root_noise='dirichlet'"),
           ({"root_noise": "gumbel", "puct": True, "workers": 2}, "one process"),
           ({"root_noise": "dirichlet", "puct": True, "noise_fraction": 2.0}, "0..1"),
           ({"root_noise": "gumbel", "puct": True, "gumbel_k": 0}, "gumbel_k")]
    for options, words in bad:
        with pytest.raises(ValueError, match=words):
            SearchConfig(**options)
    agent = agent_from_spec("mcts:iterations=30,eval=static,root=gumbel,gumbel_k=4")
    assert agent.search.config.root_noise == "gumbel" and agent.search.config.gumbel_k == 4
    assert agent.search._local.puct  # root noise makes the search PUCT


# ---- self-play data ----

SMALL = {"games": 1, "seed": 5, "iterations": 24, "explore": 6, "leaf": "net"}


def test_playout_caps_mark_the_positions_with_a_target() -> None:
    d = play_game(DatagenConfig(**SMALL, puct=True, full_share=0.3, cheap_iterations=6), 0)
    mask = d["policy_mask"]
    assert set(np.unique(mask)) == {0, 1} and 0.15 < mask.mean() < 0.45
    ptr, prob = d["policy_ptr"], d["policy_prob"]
    sums = np.add.reduceat(prob.astype(np.float64), ptr[:-1])
    assert np.allclose(sums, 1, atol=1e-5)
    # a visit-share target is the visits
    assert np.array_equal(d["policy_ptr"], d["visit_ptr"])
    assert np.array_equal(d["policy_action"], d["visit_action"])


def test_a_gumbel_target_covers_every_legal_move() -> None:
    d = play_game(DatagenConfig(**SMALL, puct=True, root_noise="gumbel"), 0)
    from arle_ai.learn.datagen import position_from_row

    ptr = d["policy_ptr"]
    for i in range(0, len(d["player"]), 17):
        s = position_from_row(d["positions"][i])
        acts = d["policy_action"][ptr[i]:ptr[i + 1]].tolist()
        assert acts == sorted(s.legal_actions())
        assert abs(float(d["policy_prob"][ptr[i]:ptr[i + 1]].sum()) - 1) < 1e-5
    assert d["policy_mask"].all()


def test_defaults_play_the_games_of_before_and_temperature_changes_them() -> None:
    base = DatagenConfig(**SMALL)
    a = play_game(base, 0)
    # the targets of a run without the new settings are its visit shares, on every position
    assert a["policy_mask"].all() and np.array_equal(a["policy_ptr"], a["visit_ptr"])
    b = play_game(DatagenConfig(**SMALL, temperature=0.25), 0)
    assert not np.array_equal(a["visit_count"], b["visit_count"])
    with pytest.raises(ValueError, match="cheap_iterations"):
        DatagenConfig(**SMALL, full_share=0.5)
    with pytest.raises(ValueError, match="cheap_iterations is for"):
        DatagenConfig(**SMALL, cheap_iterations=5)
    with pytest.raises(ValueError, match="temperature"):
        DatagenConfig(**SMALL, temperature=0)
    with pytest.raises(ValueError, match="needs PUCT"):
        DatagenConfig(**SMALL, root_noise="dirichlet", puct=False)


def test_training_ignores_the_policy_of_positions_without_a_target() -> None:
    cfg = DatagenConfig(**{**SMALL, "games": 1}, puct=True, full_share=0.5, cheap_iterations=6)
    games = [play_game(cfg, g) for g in range(2)]
    data = {k: np.concatenate([g[k] for g in games]) for k in games[0]
            if k not in ("visit_ptr", "policy_ptr")}
    for ptr in ("visit_ptr", "policy_ptr"):
        data[ptr] = np.concatenate([games[0][ptr], games[1][ptr][1:] + games[0][ptr][-1]])
    config = TrainConfig(hidden=8, epochs=2, aux_weight=0.0)
    weights, report = train(data, config)
    # other targets on the positions without one change nothing
    rng = np.random.default_rng(0)
    other = dict(data)
    prob = data["policy_prob"].copy()
    rows = np.repeat(np.arange(len(data["player"])), np.diff(data["policy_ptr"]))
    free = data["policy_mask"][rows] == 0
    prob[free] = rng.uniform(0.01, 1.0, int(free.sum()))
    other["policy_prob"] = prob
    weights2, report2 = train(other, config)
    for k in weights:
        assert np.array_equal(weights[k], weights2[k]), k
    # and with every position targeted they do
    other["policy_mask"] = np.ones_like(data["policy_mask"])
    weights3, _ = train(other, config)
    assert not np.array_equal(weights["wp"], weights3["wp"])
    legal, shares = policy_targets(data)
    assert legal.shape[0] == len(data["player"]) and len(shares) == len(data["policy_prob"])


def test_datagen_cli_takes_the_search_options(tmp_path) -> None:
    from click.testing import CliRunner

    from arle_cli.main import cli

    def run(*args: str):  # noqa: ANN202
        return CliRunner().invoke(cli, ["datagen", "-o", str(tmp_path / "d.npz"), "--games",
                                        "2", "--iterations", "10", *args],
                                  catch_exceptions=False)

    bad = run("--root-noise", "gumbel", "--no-puct")
    assert bad.exit_code == 2 and "needs PUCT" in bad.stderr
    assert run("--full-share", "0.5").exit_code == 2
    good = run("--leaf", "net", "--puct", "--root-noise", "dirichlet", "--temperature", "0.5",
               "--full-share", "0.5", "--cheap-iterations", "4", "--c", "1.1")
    assert good.exit_code == 0, good.output
    with np.load(tmp_path / "d.npz") as z:
        meta = __import__("json").loads(str(z["meta"]))
        assert (meta["puct"], meta["root_noise"], meta["full_share"], meta["c"]) == \
            (True, "dirichlet", 0.5, 1.1)
        assert meta["search"]["root_noise"] == "dirichlet"
        assert 0 < z["policy_mask"].mean() < 1
