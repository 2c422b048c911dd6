"""The learned evaluation: self-play data, training, inference in the core, the search seam."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from click.testing import CliRunner

import arle_ai
from arle_ai.base.npzfile import write_npz
from arle_ai.engine import _core
from arle_ai.learn import datagen
from arle_ai.learn.datagen import (
    DatagenConfig,
    generate,
    parts_dir,
    position_from_row,
    visit_distribution,
)
from arle_ai.learn.train import (
    TrainConfig,
    ignored_slots,
    load_data,
    load_datasets,
    split_by_source,
    split_games,
    train,
)
from arle_ai.play.agents import agent_from_spec
from arle_ai.play.tournament import Tournament
from arle_ai.search.config import SearchConfig
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS
from arle_ai.search.net import (
    WEIGHT_ARRAYS,
    NetError,
    default_net,
    default_weights_path,
    load_net,
    load_weights,
    reference_outputs,
    save_weights,
    weights_digest,
)
from arle_cli.main import cli

TINY = DatagenConfig(games=2, seed=5, iterations=12, explore=4)


def random_arrays(hidden: int = 24, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    f = _core.NUM_FEATURES
    return {"mean": rng.normal(0, 2, f), "inv_std": rng.uniform(0.05, 2, f),
            "w0": rng.normal(0, 0.1, (2, f)), "w1": rng.normal(0, 0.2, (hidden, f)),
            "b1": rng.normal(0, 0.5, hidden),
            "w2": rng.normal(0, 1, (2, hidden)), "b2": rng.normal(0, 1, 2)}


def random_positions(n: int, seed: int = 0) -> list[arle_ai.GameState]:
    """n positions from seeded random games (every decision kept, the end included)."""
    rng = np.random.default_rng(seed)
    out: list[arle_ai.GameState] = []
    game = 0
    while len(out) < n:
        s = arle_ai.new_game(seed * 1000 + game)
        game += 1
        while not s.is_terminal() and len(out) < n:
            out.append(s.copy())
            acts = s.legal_actions()
            s.apply(acts[int(rng.integers(len(acts)))])
        if len(out) < n:
            out.append(s.copy())
    return out


# ---- datagen ----

@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, np.ndarray]]:
    out = tmp_path_factory.mktemp("dg") / "d.npz"
    return str(out), generate(out, TINY)


def test_datagen_targets_are_consistent(tiny_data: tuple[str, dict[str, np.ndarray]]) -> None:
    path, data = tiny_data
    n = len(data["player"])
    assert n > 100 and data["features"].shape == (n, _core.NUM_FEATURES)
    assert set(np.unique(data["game"])) == {0, 1}
    for i in range(0, n, 37):
        s = position_from_row(data["positions"][i])
        assert s.current_player == data["player"][i] and s.half_year == data["half_year"][i]
        assert np.array_equal(s.features(), data["features"][i])
        dist = visit_distribution(data, i)
        assert abs(sum(dist.values()) - 1) < 1e-9 and set(dist) <= set(s.legal_actions())
        a, b = data["final_vp"][i]
        assert data["margin"][i] == (a - b if data["player"][i] == 0 else b - a)
        assert data["winner"][i] == (0 if a > b else 1 if b > a else data["winner"][i])
    assert np.all((data["root_value"] >= 0) & (data["root_value"] <= 1))
    assert np.all(np.abs(data["root_margin"]) < 200) and np.std(data["root_margin"]) > 0
    # the search's view agrees with the outcome more often than not
    won = data["winner"] == data["player"]
    assert np.mean((data["root_value"] > 0.5) == won) > 0.5
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        assert meta["positions"] == n and meta["seed"] == TINY.seed
        assert meta["format"] == "arle-selfplay-data/2" and meta["search"]["leaf"] == "rollout"
        assert np.array_equal(z["visit_ptr"], data["visit_ptr"])


def test_datagen_reproducible_resumable_and_independent_of_workers(
        tmp_path, tiny_data: tuple[str, dict[str, np.ndarray]]) -> None:
    _, first = tiny_data
    out = tmp_path / "again.npz"
    again = generate(out, TINY, workers=2)
    for k in first:
        assert np.array_equal(first[k], again[k]), k
    # interrupted: one game's file lost; a run started again plays only that game
    (parts_dir(out) / "game-000001.npz").unlink()
    calls = []
    resumed = generate(out, TINY, progress=lambda d, t: calls.append((d, t)))
    assert calls[0] == (1, 2) and calls[-1] == (2, 2)
    for k in first:
        assert np.array_equal(first[k], resumed[k]), k
    with pytest.raises(ValueError, match="other settings"):
        generate(out, DatagenConfig(games=2, seed=5, iterations=13, explore=4))


def test_datagen_pins_the_heuristic_policy_of_its_data(
        tiny_data: tuple[str, dict[str, np.ndarray]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The rollouts' candidates per decision are pinned (4, the shipped data's), not the
    Weights default (2 since 2026-12-04): a seed gives the same games whatever that default."""
    path, data = tiny_data
    assert datagen.SEARCH_SAMPLE == 4.0 and DEFAULT_WEIGHTS.sample == 2.0
    with np.load(path) as z:
        assert json.loads(str(z["meta"]))["search"]["sample"] == 4.0
    game0 = data["game"] == 0
    pinned = datagen.play_game(TINY, 0)
    assert np.array_equal(pinned["visit_count"], data["visit_count"][
        data["visit_ptr"][0]:data["visit_ptr"][int(game0.sum())]])
    monkeypatch.setattr(datagen, "SEARCH_SAMPLE", DEFAULT_WEIGHTS.sample)
    other = datagen.play_game(TINY, 0)
    assert not (len(other["visit_count"]) == len(pinned["visit_count"])
                and np.array_equal(other["visit_count"], pinned["visit_count"]))


def test_datagen_refuses_to_resume_a_format_1_run(tmp_path) -> None:
    out = tmp_path / "old.npz"
    parts_dir(out).mkdir()
    stamp = {"seed": 5, "iterations": 12, "explore": 4, "variant": "standard"}
    (parts_dir(out) / "config.json").write_text(json.dumps(stamp))
    with pytest.raises(ValueError, match="data format 'arle-selfplay-data/1'"):
        generate(out, TINY)


def test_datagen_with_the_net_leaf_records_its_weights(
        tmp_path, tiny_data: tuple[str, dict[str, np.ndarray]]) -> None:
    """leaf='net' searches as the default agent (a random rollout of 2 half-years, then the
    model), with the shipped weights or a given file, whose digest the run records and keeps."""
    config = DatagenConfig(games=2, seed=5, iterations=12, explore=4, leaf="net")
    out = tmp_path / "net.npz"
    data = generate(out, config)
    assert len(data["player"]) > 100
    with np.load(out) as z:
        meta = json.loads(str(z["meta"]))
    assert meta["leaf"] == "net" and meta["search"]["leaf"] == "net"
    assert meta["search"]["net_horizon"] == 2 and meta["search"]["rollout"] == "random"
    assert meta["search"]["net_digest"] == weights_digest() == weights_digest(
        default_weights_path())
    # reproducible game by game, and not the heuristic-rollout run's games
    game0 = datagen.play_game(config, 0)
    n0 = int((data["game"] == 0).sum())
    assert np.array_equal(game0["visit_count"], data["visit_count"][:data["visit_ptr"][n0]])
    _, heuristic = tiny_data
    assert not np.array_equal(data["root_value"][:20], heuristic["root_value"][:20])
    # the shipped weights named by their file are the same model: the same games
    named = DatagenConfig(games=2, seed=5, iterations=12, explore=4, leaf="net",
                          net=str(default_weights_path()))
    for k, v in datagen.play_game(named, 0).items():
        assert np.array_equal(v, game0[k]), k
    # other weights are other settings: a resume with them is refused
    other = tmp_path / "other.npz"
    save_weights(other, random_arrays(hidden=8))
    assert weights_digest(other) != weights_digest()
    with pytest.raises(ValueError, match="other settings"):
        generate(out, DatagenConfig(games=2, seed=5, iterations=12, explore=4, leaf="net",
                                    net=str(other)))
    played = datagen.play_game(DatagenConfig(games=1, seed=5, iterations=12, explore=4,
                                             leaf="net", net=str(other)), 0)
    assert not (len(played["visit_count"]) == len(game0["visit_count"])
                and np.array_equal(played["visit_count"], game0["visit_count"]))


def test_datagen_resumes_a_run_from_before_the_leaf_option(tmp_path) -> None:
    out = tmp_path / "old.npz"
    parts_dir(out).mkdir()
    stamp = {"seed": 5, "iterations": 12, "explore": 4, "variant": "standard",
             "format": "arle-selfplay-data/2"}
    (parts_dir(out) / "config.json").write_text(json.dumps(stamp))
    small = DatagenConfig(games=1, seed=5, iterations=12, explore=4)
    assert len(generate(out, small)["player"]) > 50
    with pytest.raises(ValueError, match="other settings"):
        generate(out, DatagenConfig(games=1, seed=5, iterations=12, explore=4, leaf="net"))


def test_write_npz_is_atomic(tmp_path) -> None:
    path = tmp_path / "a.npz"
    write_npz(path, {"x": np.arange(3)})
    with np.load(path) as z:
        assert z["x"].tolist() == [0, 1, 2]

    class Broken:
        def __array__(self, *args: object, **kwargs: object) -> np.ndarray:
            raise RuntimeError("interrupted")

    # a write that fails half-way leaves the old file whole and no temporary file
    with pytest.raises(RuntimeError, match="interrupted"):
        write_npz(path, {"x": np.arange(4), "y": Broken()})  # type: ignore[dict-item]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.npz"]
    with np.load(path) as z:
        assert z["x"].tolist() == [0, 1, 2]


def test_datagen_config_checks() -> None:
    with pytest.raises(ValueError, match="games"):
        DatagenConfig(games=0)
    with pytest.raises(ValueError, match="iterations"):
        DatagenConfig(iterations=-1)
    with pytest.raises(ValueError, match="variant"):
        DatagenConfig(variant="expert")
    with pytest.raises(ValueError, match="leaf must be one of"):
        DatagenConfig(leaf="rollout")
    with pytest.raises(ValueError, match="for leaf='net' or 'model' only"):
        DatagenConfig(net="w.npz")


# ---- training ----

def test_training_learns_a_known_linear_target() -> None:
    rng = np.random.default_rng(1)
    n, f = 3000, _core.NUM_FEATURES
    used = [3, 40, 77, 120, 250, 251, 300, 401]      # the other features stay 0
    x = np.zeros((n, f), dtype=np.float32)
    x[:, used] = rng.normal(2, 3, (n, len(used)))
    coef = np.zeros(f)
    coef[[3, 40, 250]] = [1.5, -1.0, 0.5]
    margin = (x @ coef + 1.0).astype(np.float32)
    player = rng.integers(0, 2, n).astype(np.int8)
    winner = np.where(margin > 0, player, 1 - player).astype(np.int8)
    data = {"features": x, "margin": margin, "player": player, "winner": winner,
            "game": np.arange(n) // 30, "half_year": (np.arange(n) % 9 + 1).astype(np.int8)}
    arrays, report = train(data, TrainConfig(hidden=16, epochs=20, lr=3e-3, margin_scale=5.0))
    assert report.val_margin_mae < 0.15 * np.std(margin)
    # the learned slope of each feature is the target's
    net = _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS))
    base = net.outputs(x[:300])[:, 0]
    for j, want in ((3, 1.5), (40, -1.0), (250, 0.5), (77, 0.0), (401, 0.0)):
        step = x[:300].copy()
        step[:, j] += 1.0
        slope = float(np.mean(net.outputs(step)[:, 0] - base))
        assert abs(slope - want) < 0.25, (j, slope)
    assert report.val_win_accuracy > 0.95
    assert report.epochs[-1]["train_loss"] < report.epochs[0]["train_loss"]
    assert [r["half_year"] for r in report.by_half_year] == list(range(1, 10))
    # the core model of the trained arrays predicts as the numpy reference
    assert np.allclose(net.outputs(x[:50]), reference_outputs(arrays, x[:50]), atol=1e-6)


def linear_data(n: int = 3000) -> dict[str, np.ndarray]:
    """Positions whose final margin is noise and whose search margin and value follow a known
    linear function of features 3, 40 and 250."""
    rng = np.random.default_rng(2)
    f = _core.NUM_FEATURES
    x = np.zeros((n, f), dtype=np.float32)
    x[:, [3, 40, 77, 250, 401]] = rng.normal(2, 3, (n, 5))
    root = x[:, 3] * 1.5 - x[:, 40] + 0.5 * x[:, 250] + 1.0
    player = rng.integers(0, 2, n).astype(np.int8)
    noise = rng.normal(0, 10, n).astype(np.float32)
    return {"features": x, "margin": noise, "player": player,
            "winner": np.where(noise > 0, player, 1 - player).astype(np.int8),
            "root_margin": root.astype(np.float32),
            "root_value": (1 / (1 + np.exp(-root / 3))).astype(np.float32),
            "game": np.arange(n) // 30, "half_year": (np.arange(n) % 9 + 1).astype(np.int8)}


def test_target_blend_learns_the_search_values() -> None:
    data = linear_data()
    config = TrainConfig(hidden=8, epochs=10, lr=0.02, margin_scale=5.0, target_blend=1.0)
    arrays, _ = train(data, config)
    net = _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS))
    x = data["features"][:300]
    base = net.outputs(x)
    step = x.copy()
    step[:, 3] += 1.0
    up = net.outputs(step)
    assert abs(float(np.mean(up[:, 0] - base[:, 0])) - 1.5) < 0.25
    # the win logit follows the root value's logit, root / 3
    assert abs(float(np.mean(up[:, 1] - base[:, 1])) - 0.5) < 0.2
    # without the blend the targets are noise: no slope is learned
    arrays0, _ = train(data, TrainConfig(hidden=8, epochs=10, lr=0.02, margin_scale=5.0))
    net0 = _core.ValueNet(*(arrays0[k] for k in WEIGHT_ARRAYS))
    assert abs(float(np.mean(net0.outputs(step)[:, 0] - net0.outputs(x)[:, 0]))) < 0.3
    # format-1 data (no root values) trains on the outcome only
    old = {k: v for k, v in data.items() if not k.startswith("root_")}
    with pytest.raises(ValueError, match="format-1"):
        train(old, config)
    with pytest.raises(ValueError, match="target_blend"):
        TrainConfig(target_blend=1.5)


def test_ignored_features_do_not_matter() -> None:
    data = linear_data(900)
    mask = ignored_slots(("in_play.", "available."))
    assert mask.sum() == sum(n.split(".")[0] in ("in_play", "available")
                             for n in _core.FEATURE_NAMES) > 0
    used = np.flatnonzero(mask)[:3]
    data["features"][:, used] = np.random.default_rng(3).normal(0, 1, (900, 3))
    arrays, _ = train(data, TrainConfig(hidden=8, epochs=2, target_blend=0.5,
                                        ignore=("in_play.", "available.")))
    assert not arrays["inv_std"][mask].any() and not arrays["mean"][mask].any()
    net = _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS))
    x = data["features"][:50]
    moved = x.copy()
    moved[:, mask] += 5.0
    assert np.array_equal(net.outputs(x), net.outputs(moved))
    with pytest.raises(ValueError, match="no feature name starts with 'nope'"):
        TrainConfig(ignore=("nope",))


def test_format_1_data_loads(tmp_path) -> None:
    data = linear_data(60)
    path = tmp_path / "old.npz"
    write_npz(path, {k: v for k, v in data.items() if not k.startswith("root_")})
    loaded = load_data(path)
    assert "root_value" not in loaded and len(loaded["player"]) == 60
    train(loaded, TrainConfig(hidden=4, epochs=1))


def test_a_datagen_file_with_arrays_of_other_lengths_is_refused(tmp_path) -> None:
    data = linear_data(60)
    data["game"] = data["game"][:30]  # 30 game ids for 60 positions
    write_npz(tmp_path / "bad.npz", data)
    with pytest.raises(ValueError, match=r"bad.npz: not a datagen file \(game has shape "
                                         r"\(30,\), the features 60 rows\)"):
        load_data(tmp_path / "bad.npz")
    # an empty file among several adds nothing (it used to fail in numpy's min)
    empty = {k: v[:0] for k, v in linear_data(60).items()}
    write_npz(tmp_path / "empty.npz", empty)
    write_npz(tmp_path / "good.npz", linear_data(60))
    both = load_datasets([str(tmp_path / "empty.npz"), str(tmp_path / "good.npz")])
    assert len(both["player"]) == 60 and both["source"].tolist() == [1] * 60


def test_several_data_files_train_together_each_holding_out_its_own_games(tmp_path) -> None:
    a, b = linear_data(600), linear_data(900)
    b["game"] = b["game"] + 7  # overlapping ids in the two files are told apart
    write_npz(tmp_path / "a.npz", a)
    write_npz(tmp_path / "b.npz", {k: v for k, v in b.items() if not k.startswith("root_")})
    both = load_datasets([str(tmp_path / "a.npz"), str(tmp_path / "b.npz")])
    assert len(both["player"]) == 1500 and "root_value" not in both  # not in every file
    assert both["source"].tolist() == [0] * 600 + [1] * 900
    assert len(np.unique(both["game"])) == len(np.unique(a["game"])) + len(np.unique(b["game"]))
    val = split_by_source(both, 0.1, 0)
    assert np.array_equal(val[:600], split_games(a["game"], 0.1, 0))
    assert np.array_equal(val[600:], split_games(b["game"], 0.1, 0))
    one = load_datasets([str(tmp_path / "a.npz")])
    assert "source" not in one and np.array_equal(split_by_source(one, 0.1, 0),
                                                  split_games(a["game"], 0.1, 0))
    _, report = train(both, TrainConfig(hidden=4, epochs=1))
    assert report.val_positions == int(val.sum())
    with pytest.raises(ValueError, match="format-1"):
        train(both, TrainConfig(hidden=4, epochs=1, target_blend=0.5))
    with pytest.raises(ValueError, match="no datagen file"):
        load_datasets([])


def test_training_needs_two_games() -> None:
    data = {"features": np.zeros((4, _core.NUM_FEATURES), np.float32),
            "margin": np.zeros(4, np.float32), "player": np.zeros(4, np.int8),
            "winner": np.zeros(4, np.int8), "game": np.zeros(4, np.int32),
            "half_year": np.ones(4, np.int8)}
    with pytest.raises(ValueError, match="2 games"):
        train(data, TrainConfig(epochs=1))


# ---- inference in the core ----

def test_core_inference_equals_the_numpy_reference() -> None:
    arrays = random_arrays()
    net = _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS))
    states = random_positions(1000, seed=3)
    feats = np.array([s.features() for s in states])
    ref = reference_outputs(arrays, feats)
    core = np.array([net.state_outputs(s) for s in states])
    assert np.max(np.abs(core - ref)) < 1e-5
    assert np.max(np.abs(net.outputs(feats) - ref)) < 1e-5
    # the evaluator's value: player 0's view of the model's outputs
    w = DEFAULT_WEIGHTS
    ev = _core.NetEvaluator(w.as_array(), net)
    for s, (m, z) in list(zip(states, ref, strict=True))[:200]:
        if s.is_terminal():
            continue
        p = 1 / (1 + np.exp(-z))
        if s.current_player == 1:
            m, p = -m, 1 - p
        v = (1 - w.margin_blend) * p + w.margin_blend * (0.5 + 0.5 * np.tanh(m / w.sigma))
        value, margin = ev.evaluate(s)
        assert abs(margin - m) < 1e-5 and abs(value - v) < 1e-6


def test_value_net_checks_its_arrays() -> None:
    arrays = random_arrays()
    with pytest.raises(ValueError, match="w1 must have shape"):
        _core.ValueNet(arrays["mean"], arrays["inv_std"], arrays["w0"], arrays["w1"][:, :5],
                       arrays["b1"], arrays["w2"], arrays["b2"])
    bad = dict(arrays, b2=np.array([np.nan, 0.0]))
    with pytest.raises(ValueError, match="not finite"):
        _core.ValueNet(*(bad[k] for k in WEIGHT_ARRAYS))


def test_weights_file_round_trip_and_errors(tmp_path) -> None:
    arrays = random_arrays()
    path = tmp_path / "w.npz"
    save_weights(path, arrays, {"note": "test"})
    loaded, meta = load_weights(path)
    assert meta["note"] == "test" and meta["num_features"] == _core.NUM_FEATURES
    s = arle_ai.new_game(2)
    expect = reference_outputs({k: v.astype(np.float32) for k, v in arrays.items()},
                               s.features())[0]
    assert np.allclose(load_net(path).state_outputs(s), expect, atol=1e-5)
    with pytest.raises(NetError, match="no such"):
        load_net(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(NetError, match="not a value-net"):
        load_net(tmp_path / "junk.npz")
    with np.load(path) as z:
        parts = {k: z[k] for k in z.files}
    meta = json.loads(str(parts["meta"]))
    meta["features_digest"] = "0000"
    parts["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "other.npz", **parts)
    with pytest.raises(NetError, match="other features"):
        load_net(tmp_path / "other.npz")


# ---- the search with the learned evaluator ----

@pytest.mark.parametrize("net_horizon", [None, 1])
def test_search_with_the_net_is_deterministic_and_legal(net_horizon: int | None) -> None:
    net = default_net()
    s = random_positions(40, seed=9)[-1]
    runs = [MCTS(iterations=400, seed=4, leaf="net", net_horizon=net_horizon)
            .search(s) for _ in range(2)]
    assert [(a.action, a.visits, a.win_rate) for a in runs[0].moves] == \
        [(a.action, a.visits, a.win_rate) for a in runs[1].moves]
    assert runs[0].best_action in s.legal_actions()
    assert sum(a.visits for a in runs[0].moves) == 400
    for heuristic in (True, False):
        ev = pickle.loads(pickle.dumps(_core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), net,
                                                          2.0, net_horizon, heuristic)))
        assert ev.heuristic == heuristic
        assert ev.evaluate(s, 1) == _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), net, 2.0,
                                                       net_horizon, heuristic).evaluate(s, 1)


def test_net_horizon_rollouts_follow_the_rollout_policy() -> None:
    """The rollout before the model plays the heuristic policy or uniformly random moves: over
    many seeds the two give different values, each deterministic for its seed."""
    net = default_net()
    s = random_positions(30, seed=3)[-1]
    w = DEFAULT_WEIGHTS.as_array()
    values = {h: [_core.NetEvaluator(w, net, 2.0, 1, h).evaluate(s, seed)[0] for seed in range(8)]
              for h in (True, False)}
    assert values[True] != values[False]
    assert values[False] == [_core.NetEvaluator(w, net, 2.0, 1, False).evaluate(s, seed)[0]
                             for seed in range(8)]


def test_the_default_leaf_is_the_net_after_a_random_rollout() -> None:
    assert MCTS().evaluator.kind == "random rollout + net" and MCTS().config.leaf == "net"
    assert MCTS().evaluator.rollout_horizon == 2
    assert MCTS(leaf="net").config == SearchConfig() == MCTS().config
    assert agent_from_spec("mcts:time=0.25").search.evaluator.kind == "random rollout + net"
    # the leaf is never switched by another option: a rollout option without leaf= is refused
    # by name (it used to select the rollout leaf silently)
    for option in ({"rollout": "random"}, {"rollout": "heuristic"}, {"horizon": 1}):
        with pytest.raises(ValueError, match=f"{next(iter(option))}=.* needs leaf="):
            MCTS(**option)
    assert MCTS(leaf="rollout", rollout="heuristic").evaluator.kind == "heuristic rollout"
    assert MCTS(leaf="net", rollout="heuristic").evaluator.kind == "heuristic rollout + net"
    assert MCTS(leaf="net", net_horizon=None).evaluator.kind == "net"
    assert MCTS(net_horizon=0).evaluator.rollout_horizon == 0
    # what users type in agent specs keeps its documented meaning, mapped explicitly
    assert agent_from_spec("mcts:rollout=heuristic").search.evaluator.kind == \
        "heuristic rollout"
    assert agent_from_spec("mcts:horizon=1").config == SearchConfig(leaf="rollout", horizon=1)
    assert agent_from_spec("mcts:eval=net").search.evaluator.kind == "net"


@pytest.mark.parametrize("options, words", [
    ({"leaf": "net", "horizon": 2}, "horizon is an option of leaf='rollout', not of leaf='net'"),
    ({"leaf": "static", "horizon": 1}, "horizon is an option of leaf='rollout'"),
    ({"leaf": "static", "rollout": "random"}, "rollout is the policy of a rollout"),
    ({"leaf": "net", "net_horizon": None, "rollout": "heuristic"}, "without net_horizon"),
    ({"leaf": "rollout", "net_horizon": 1}, "net_horizon is an option of leaf='net'"),
    ({"leaf": "null", "net": "w.npz"}, "net .* is an option of leaf='net'"),
    ({"leaf": "tree"}, "leaf must be one of"),
    ({"leaf": "net", "net_horizon": -1}, "net_horizon must be None"),
])
def test_options_of_another_leaf_are_refused_by_name(options, words) -> None:
    with pytest.raises(ValueError, match=words):
        SearchConfig(**options)


@pytest.mark.parametrize("spec, words", [
    ("mcts:eval=net,horizon=2", "horizon is an option of leaf='rollout'"),
    ("mcts:eval=static,rollout=heuristic", "rollout is the policy of a rollout"),
    ("mcts:eval=net,rollout=heuristic", "without net_horizon"),  # eval=net: the model alone
    ("mcts:horizon=1,net_horizon=1", "net_horizon is an option of leaf='net'"),
])
def test_agent_specs_refuse_options_of_another_leaf(spec, words) -> None:
    with pytest.raises(ValueError, match=f"{spec}.*{words}"):
        agent_from_spec(spec)


def test_agent_specs_select_the_evaluator(tmp_path) -> None:
    agent = agent_from_spec("mcts:iterations=50,eval=net", seed=1)
    assert agent.search.evaluator.kind == "net"
    agent = agent_from_spec("mcts:iterations=50,eval=net,net_horizon=0", seed=1)
    assert agent.search.evaluator.kind == "random rollout + net"    # the default rollout
    agent = agent_from_spec("mcts:iterations=50,eval=net,net_horizon=0,rollout=heuristic")
    assert agent.search.evaluator.kind == "heuristic rollout + net"
    with pytest.raises(ValueError, match="rollout must be one of"):
        MCTS(leaf="net", rollout="greedy")
    assert agent_from_spec("mcts:eval=static").search.evaluator.kind == "static"
    with pytest.raises(ValueError, match="bad value 'nett' for 'eval'"):
        agent_from_spec("mcts:eval=nett")
    with pytest.raises(ValueError, match="no such weights file"):
        agent_from_spec(f"mcts:eval=net,net={tmp_path / 'none.npz'}")


def test_smoke_match_with_the_learned_evaluator() -> None:
    t = Tournament(["mcts:iterations=40,eval=net", "mcts:iterations=40"], 2, seed=7)
    results = t.run()
    assert len(results) == 2
    for r in results:
        scores = r["meta"]["scores"]
        assert len(scores) == 2 and r["meta"]["winner_agent"] in (0, 1)


# ---- the commands ----

def netdata_for_train(tmp_path, data) -> str:
    """A second datagen file: a copy of `data` (its games count again, told apart)."""
    copy = tmp_path / "copy.npz"
    copy.write_bytes(data.read_bytes())
    return str(copy)


def test_cli_datagen_and_train(tmp_path) -> None:
    runner = CliRunner()
    data = tmp_path / "d.npz"
    res = runner.invoke(cli, ["datagen", "-o", str(data), "--games", "2", "--iterations", "8",
                              "--seed", "3"])
    assert res.exit_code == 0, res.output
    assert "positions from 2 games" in res.output
    res = runner.invoke(cli, ["datagen", "-o", str(data), "--games", "2", "--iterations", "9",
                              "--seed", "3"])
    assert res.exit_code == 2 and "other settings" in res.output
    weights = tmp_path / "w.npz"
    res = runner.invoke(cli, ["train", str(data), "-o", str(weights), "--epochs", "2",
                              "--hidden", "8", "--val", "0.5"])
    assert res.exit_code == 0, res.output
    assert "epoch   2" in res.output and "half-year" in res.output
    load_net(weights)
    res = runner.invoke(cli, ["train", str(data), "-o", str(weights), "--epochs", "1",
                              "--hidden", "8", "--val", "0.5", "--target-blend", "0.5",
                              "--ignore", "in_play.", "--ignore", "available."])
    assert res.exit_code == 0, res.output
    assert "ignoring 62 feature slots (in_play.*, available.*)" in res.output
    _, meta = load_weights(weights)
    assert meta["config"]["target_blend"] == 0.5
    assert meta["config"]["ignore"] == ["in_play.", "available."]
    res = runner.invoke(cli, ["train", str(data), str(netdata_for_train(tmp_path, data)), "-o",
                              str(weights), "--epochs", "1", "--hidden", "8", "--val", "0.5"])
    assert res.exit_code == 0, res.output
    assert "positions from 4 games" in res.output
    assert load_weights(weights)[1]["data"] == [str(data), str(tmp_path / "copy.npz")]
    res = runner.invoke(cli, ["train", str(data), "-o", str(weights), "--ignore", "inplay"])
    assert res.exit_code == 2 and "no feature name starts with 'inplay'" in res.output
    res = runner.invoke(cli, ["train", str(tmp_path / "nope.npz"), "-o", str(weights)])
    assert res.exit_code == 2 and "no such file" in res.output
    res = runner.invoke(cli, ["train", str(weights), "-o", str(weights)])
    assert res.exit_code == 2 and "not a datagen file" in res.output
    # data made by the net leaf with these weights, recorded by their digest
    netdata = tmp_path / "n.npz"
    res = runner.invoke(cli, ["datagen", "-o", str(netdata), "--games", "1", "--iterations",
                              "8", "--seed", "3", "--leaf", "net", "--net", str(weights)])
    assert res.exit_code == 0, res.output
    with np.load(netdata) as z:
        search = json.loads(str(z["meta"]))["search"]
    assert search["net_digest"] == weights_digest(weights) and search["net_file"] == "w.npz"
    res = runner.invoke(cli, ["datagen", "-o", str(tmp_path / "x.npz"), "--games", "1",
                              "--net", str(weights)])
    assert res.exit_code == 2 and "--net is for --leaf net or model only" in res.output
    res = runner.invoke(cli, ["datagen", "-o", str(tmp_path / "x.npz"), "--games", "1",
                              "--leaf", "net", "--net", str(data)])
    assert res.exit_code == 2 and "not a value-net weights file" in res.output
    assert not (tmp_path / "x.npz").exists()
