"""Deeper trunks (weights format 3, issue 33): the core's inference of every trunk size equals
the numpy reference, format-3 files round-trip and are refused by name when malformed, the
search is deterministic with each model, and training fits a deeper trunk whose gradients
are the loss's."""

from __future__ import annotations

import json
import pickle
import re

import numpy as np
import pytest

import arle_ai
from arle_ai.engine import _core
from arle_ai.learn.model import Batch, Model
from arle_ai.learn.train import TrainConfig, train
from arle_ai.play.agents import agent_from_spec
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS
from arle_ai.search.net import (
    AUX_OUTPUTS,
    FORMATS,
    LAYER_ARRAYS,
    NetError,
    load_net,
    load_weights,
    reference_aux,
    reference_outputs,
    reference_policy,
    save_weights,
    trunk_layers,
    weights_digest,
)

A = _core.NUM_ACTIONS_PY
F = _core.NUM_FEATURES
TRUNKS = [(64,), (128, 128), (256, 256), (48, 96, 32)]


def trunk_model(trunk: tuple[int, ...], seed: int = 0) -> dict[str, np.ndarray]:
    """A model of random weights with the hidden layers `trunk` and every head."""
    rng = np.random.default_rng(seed)
    last = trunk[-1]
    arrays = {"mean": rng.normal(0, 2, F), "inv_std": rng.uniform(0.05, 1, F),
              "w0": rng.normal(0, 0.1, (2, F)),
              "w1": rng.normal(0, 0.1, (trunk[0], F)), "b1": rng.normal(0, 0.3, trunk[0])}
    for k in range(1, len(trunk)):
        w, b = LAYER_ARRAYS[k - 1]
        arrays[w] = rng.normal(0, 1.5 / np.sqrt(trunk[k - 1]), (trunk[k], trunk[k - 1]))
        arrays[b] = rng.normal(0, 0.3, trunk[k])
    k = len(AUX_OUTPUTS)
    arrays.update(w2=rng.normal(0, 0.3, (2, last)), b2=rng.normal(0, 1, 2),
                  wp=rng.normal(0, 0.3, (A, last)), bp=rng.normal(0, 1, A),
                  wa0=rng.normal(0, 0.1, (k, F)), wa=rng.normal(0, 0.3, (k, last)),
                  ba=rng.normal(5, 2, k))
    return arrays


def random_decisions(n: int, seed: int = 0) -> list[arle_ai.GameState]:
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
    return out


@pytest.fixture(scope="module")
def positions() -> list[arle_ai.GameState]:
    return random_decisions(1000, seed=11)


@pytest.mark.parametrize("trunk", TRUNKS, ids=lambda t: "x".join(map(str, t)))
def test_core_inference_of_every_trunk_equals_the_numpy_reference(tmp_path, positions,
                                                                  trunk) -> None:
    arrays = trunk_model(trunk)
    path = tmp_path / "w.npz"
    save_weights(path, arrays)
    loaded, meta = load_weights(path)
    net = load_net(path)
    assert net.trunk == trunk and net.hidden == trunk[-1] and trunk_layers(loaded) == len(trunk)
    assert meta["format"] == ("arle-value-net/2" if len(trunk) == 1 else "arle-value-net/3")
    assert meta.get("trunk", [trunk[0]]) == list(trunk)
    feats = np.array([s.features() for s in positions])
    ref = reference_outputs(loaded, feats)
    assert np.max(np.abs(net.outputs(feats) - ref)) < 1e-5
    legal = np.zeros((len(positions), A), dtype=bool)
    for i, s in enumerate(positions):
        legal[i, s.legal_actions()] = True
    ref_p = reference_policy(loaded, feats, legal)
    worst = 0.0
    for i, s in enumerate(positions):
        got = np.array([q for _, q in net.priors(s)])
        worst = max(worst, float(np.max(np.abs(got - ref_p[i, s.legal_actions()]))))
    assert worst < 1e-5
    # the value the search takes from the core is the reference's too
    for s in positions[:50]:
        m, z = net.state_outputs(s)
        row = reference_outputs(loaded, s.features())[0]
        assert abs(m - row[0]) < 1e-5 and abs(z - row[1]) < 1e-5
    # the auxiliary head reads the last layer (numpy only): finite, of the right shape
    assert reference_aux(loaded, feats[:5]).shape == (5, len(AUX_OUTPUTS))
    # a pickled model (what workers get) is the same model
    again = pickle.loads(pickle.dumps(net))
    assert again.trunk == trunk
    assert np.array_equal(again.outputs(feats[:20]), net.outputs(feats[:20]))


@pytest.mark.parametrize("trunk", [(128, 128), (48, 96, 32)], ids=lambda t: "x".join(map(str, t)))
def test_the_search_is_deterministic_with_a_deeper_trunk(tmp_path, trunk) -> None:
    path = tmp_path / "w.npz"
    save_weights(path, trunk_model(trunk, seed=3))
    s = random_decisions(40, seed=6)[-1]
    for horizon in (None, 1):
        ev = _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), load_net(path), 2.0, horizon,
                                False, 1.0)
        runs = [MCTS(iterations=400, seed=5, puct=True, evaluator=ev).search(s)
                for _ in range(2)]
        key = [(a.action, a.visits, a.win_rate, a.prior) for a in runs[0].moves]
        assert key == [(a.action, a.visits, a.win_rate, a.prior) for a in runs[1].moves]
        assert sum(a.visits for a in runs[0].moves) >= 399
    # the agent spec takes the file
    agent = agent_from_spec(f"mcts:iterations=200,net={path}", seed=2)
    assert s.is_legal(agent.select(s.copy()))


def _rewrite(src, dst, change_meta=None, drop=(), **arrays) -> None:
    with np.load(src) as z:
        parts = {k: z[k] for k in z.files if k not in drop}
    meta = json.loads(str(parts["meta"]))
    meta.update(change_meta or {})
    parts["meta"] = np.array(json.dumps(meta))
    parts.update(arrays)
    np.savez(dst, **parts)


@pytest.mark.parametrize("change,words", [
    ({"change_meta": {"trunk": None}}, "needs meta 'trunk', the units of each of its 2..3"),
    ({"change_meta": {"trunk": [128]}}, "needs meta 'trunk'"),
    ({"change_meta": {"trunk": [8, 8, 8, 8]}}, "needs meta 'trunk'"),
    ({"change_meta": {"trunk": [8, "8"]}}, "needs meta 'trunk'"),
    ({"change_meta": {"trunk": [8, 9]}},
     "wh2 must have shape (9, 8) for the trunk [8, 9] (meta 'trunk'), not (8, 8)"),
    ({"drop": ("wh2",)}, "a arle-value-net/3 weights file without wh2"),
    ({"drop": ("bh2",)}, "without bh2"),
    ({"bh2": np.zeros(5, np.float32)}, "bh2 must have shape (8,)"),
    ({"wh2": np.full((8, 8), np.nan, np.float32)}, "layer 2's w holds a value that is not "
                                                   "finite"),
    ({"wa": np.zeros((16, 3), np.float32)}, "wa must have shape (16, 8)"),
    ({"drop": ("wp",)}, "without wp"),
    ({"change_meta": {"format": "arle-value-net/2"}}, None),   # read as format 2: one layer
])
def test_malformed_format_3_files_are_refused_by_name(tmp_path, change, words) -> None:
    good = tmp_path / "good.npz"
    save_weights(good, trunk_model((8, 8)))
    bad = tmp_path / "bad.npz"
    _rewrite(good, bad, **change)
    if words is None:   # a format-2 file ignores the further layers' arrays: a 1-layer model
        assert load_net(bad).trunk == (8,)
        return
    with pytest.raises(NetError, match=re.escape(words)):
        load_net(bad)


def test_formats_and_the_core_refusals() -> None:
    assert FORMATS[-1] == "arle-value-net/3"
    a = trunk_model((8, 8))
    base = [a[k] for k in ("mean", "inv_std", "w0", "w1", "b1", "w2", "b2")]
    with pytest.raises(ValueError, match="at most 3 hidden layers, not 4"):
        _core.ValueNet(*base, layers=[(np.eye(8), np.zeros(8))] * 3)
    with pytest.raises(ValueError, match=r"layer 2's w must have shape \(units 1..1024, 8\)"):
        _core.ValueNet(*base, layers=[(np.zeros((8, 5)), np.zeros(8))])
    with pytest.raises(ValueError, match="layer 2 must be a pair"):
        _core.ValueNet(*base, layers=[np.zeros((8, 8))])
    with pytest.raises(ValueError, match=r"w2 must have shape \(2, 4\)"):   # heads read the last
        _core.ValueNet(*base, layers=[(np.zeros((4, 8)), np.zeros(4))])
    with pytest.raises(NetError, match="a trunk of 2 layers needs the policy head"):
        save_weights("/nonexistent/x.npz", {k: v for k, v in a.items()
                                            if k not in ("wp", "bp", "wa0", "wa", "ba")})


def test_digests_tell_trunks_apart(tmp_path) -> None:
    one, two = trunk_model((8,)), trunk_model((8, 8))
    save_weights(tmp_path / "1.npz", one)
    save_weights(tmp_path / "2.npz", two)
    save_weights(tmp_path / "2b.npz", dict(two, wh2=two["wh2"] * 1.5))
    digests = {weights_digest(tmp_path / n) for n in ("1.npz", "2.npz", "2b.npz")}
    assert len(digests) == 3


# ---- training a deeper trunk ----

def _toy_batch(n: int, rng: np.random.Generator) -> Batch:
    legal = rng.random((n, A)) < 0.05
    legal[:, 0] = True
    pi = np.where(legal, rng.random((n, A)), 0.0)
    pi /= pi.sum(axis=1, keepdims=True)
    return Batch(z=rng.normal(size=(n, F)), margin=rng.normal(0, 20, n),
                 win=(rng.random(n) < 0.5).astype(float), legal=legal, pi=pi,
                 pi_mask=rng.random(n) < 0.7, aux=rng.normal(5, 3, (n, len(AUX_OUTPUTS))),
                 aux_known=rng.random(n) < 0.8)


@pytest.mark.parametrize("trunk", [(6,), (6, 5), (6, 5, 4)], ids=lambda t: "x".join(map(str, t)))
def test_the_gradients_are_the_losss(trunk) -> None:
    rng = np.random.default_rng(1)
    arrays = trunk_model(trunk, seed=2)
    p = {k: v.astype(np.float64) for k, v in arrays.items() if k not in ("mean", "inv_std")}
    model = Model(p, TrainConfig(), policy=True, aux=True)
    b = _toy_batch(7, rng)
    _, grads = model.losses(b, model.forward(b.z), grad=True)
    assert set(grads) == set(p)
    for name in ("w1", "b1", "wh2", "bh2", "wh3", "bh3", "w2", "wp", "wa", "w0"):
        if name not in p:
            continue
        for _ in range(4):
            idx = tuple(int(rng.integers(s)) for s in p[name].shape)
            old = p[name][idx]
            p[name][idx] = old + 1e-6
            up = model.total(model.losses(b, model.forward(b.z), grad=False)[0])
            p[name][idx] = old - 1e-6
            down = model.total(model.losses(b, model.forward(b.z), grad=False)[0])
            p[name][idx] = old
            numeric = (up - down) / 2e-6
            assert abs(numeric - grads[name][idx]) <= 1e-5 + 1e-4 * abs(numeric), name


def test_training_a_two_layer_trunk_writes_a_format_3_model(tmp_path) -> None:
    from arle_ai.learn.datagen import DatagenConfig, generate

    data = generate(tmp_path / "d.npz", DatagenConfig(games=6, seed=4, iterations=8, explore=4))
    config = TrainConfig(hidden=16, layers=2, epochs=2, seed=1)
    arrays, report = train(data, config)
    assert arrays["wh2"].shape == (16, 16) and arrays["wp"].shape == (A, 16)
    assert report.epochs and report.heads == ["value", "policy", "aux"]
    save_weights(tmp_path / "w.npz", arrays)
    loaded, meta = load_weights(tmp_path / "w.npz")
    assert meta["format"] == "arle-value-net/3" and meta["trunk"] == [16, 16]
    # the same settings train the same model
    again, _ = train(data, config)
    assert all(np.array_equal(arrays[k], again[k]) for k in arrays)
    # and the core runs it as numpy does
    net = load_net(tmp_path / "w.npz")
    feats = data["features"][:50]
    assert np.max(np.abs(net.outputs(feats) - reference_outputs(loaded, feats))) < 1e-5
    with pytest.raises(ValueError, match="layers must be 1..3"):
        TrainConfig(layers=4)
