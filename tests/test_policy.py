"""The model's policy and auxiliary heads (weights format 2): inference in the core against the
numpy reference, the weights file's versions, the search with the policy's priors, and
training all heads on self-play data."""

from __future__ import annotations

import json
import pickle
import re

import numpy as np
import pytest

import arle_ai
from arle_ai.base.npzfile import write_npz
from arle_ai.engine import _core
from arle_ai.learn.datagen import DatagenConfig, generate
from arle_ai.learn.train import (
    TrainConfig,
    final_breakdowns,
    load_datasets,
    policy_targets,
    train,
    train_files,
)
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS
from arle_ai.search.net import (
    AUX_OUTPUTS,
    FORMATS,
    WEIGHT_ARRAYS,
    NetError,
    ScorePrediction,
    actions_digest,
    load_net,
    load_weights,
    predict_scores,
    reference_aux,
    reference_outputs,
    reference_policy,
    save_weights,
    weights_digest,
)

A = _core.NUM_ACTIONS_PY
F = _core.NUM_FEATURES


def random_model(hidden: int = 24, seed: int = 0, aux: bool = True) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    arrays = {"mean": rng.normal(0, 2, F), "inv_std": rng.uniform(0.05, 2, F),
              "w0": rng.normal(0, 0.1, (2, F)), "w1": rng.normal(0, 0.2, (hidden, F)),
              "b1": rng.normal(0, 0.5, hidden),
              "w2": rng.normal(0, 1, (2, hidden)), "b2": rng.normal(0, 1, 2),
              "wp": rng.normal(0, 0.5, (A, hidden)), "bp": rng.normal(0, 1, A)}
    if aux:
        k = len(AUX_OUTPUTS)
        arrays.update(wa0=rng.normal(0, 0.1, (k, F)), wa=rng.normal(0, 0.3, (k, hidden)),
                      ba=rng.normal(5, 2, k))
    return arrays


def core_model(arrays: dict[str, np.ndarray]) -> _core.ValueNet:
    return _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS), arrays["wp"], arrays["bp"])


def random_decisions(n: int, seed: int = 0) -> list[arle_ai.GameState]:
    """n positions with a decision from seeded random games."""
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


def legal_mask(states: list[arle_ai.GameState]) -> np.ndarray:
    mask = np.zeros((len(states), A), dtype=bool)
    for i, s in enumerate(states):
        mask[i, s.legal_actions()] = True
    return mask


# ---- inference in the core ----

@pytest.mark.parametrize("temperature", [1.0, 0.5, 3.0])
def test_core_policy_equals_the_numpy_reference(temperature: float) -> None:
    arrays = random_model()
    net = core_model(arrays)
    assert net.has_policy
    states = random_decisions(1000 if temperature == 1.0 else 200, seed=5)
    ref = reference_policy(arrays, np.array([s.features() for s in states]),
                           legal_mask(states), temperature)
    worst = 0.0
    for s, row in zip(states, ref, strict=True):
        priors = net.priors(s, temperature)
        assert [a for a, _ in priors] == s.legal_actions()
        p = np.array([q for _, q in priors])
        assert np.all(p > 0) and abs(p.sum() - 1.0) < 1e-5
        worst = max(worst, float(np.max(np.abs(p - row[s.legal_actions()]))))
        assert abs(row.sum() - 1.0) < 1e-9 and not row[~legal_mask([s])[0]].any()
    assert worst < 1e-5
    # the value outputs are the trunk's too
    feats = np.array([s.features() for s in states[:100]])
    assert np.max(np.abs(net.outputs(feats) - reference_outputs(arrays, feats))) < 1e-5


def test_priors_stay_positive_when_the_logits_are_far_apart() -> None:
    arrays = random_model()
    arrays["bp"] = np.zeros(A)
    arrays["bp"][1] = 5000.0   # 'pass' far above every other action
    net = core_model(arrays)
    s = arle_ai.new_game(0)
    p = np.array([q for _, q in net.priors(s)])
    assert np.all(p > 0) and abs(p.sum() - 1.0) < 1e-6 and p.max() > 0.999


def test_priors_errors() -> None:
    arrays = random_model()
    net = core_model(arrays)
    value_only = _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS))
    s = arle_ai.new_game(0)
    assert not value_only.has_policy
    with pytest.raises(ValueError, match="no policy head"):
        value_only.priors(s)
    with pytest.raises(ValueError, match="temperature must be positive"):
        net.priors(s, 0.0)
    done = s.copy()
    while not done.is_terminal():
        done.apply(done.legal_actions()[0])
    with pytest.raises(ValueError, match="no decision"):
        net.priors(done)
    with pytest.raises(ValueError, match="wp must have shape"):
        _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS), arrays["wp"][:, :3], arrays["bp"])
    with pytest.raises(ValueError, match="both wp and bp"):
        _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS), arrays["wp"])
    bad = arrays["bp"].copy()
    bad[7] = np.inf
    with pytest.raises(ValueError, match="bp holds a value that is not finite"):
        _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS), arrays["wp"], bad)
    with pytest.raises(ValueError, match="policy_temperature"):
        _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), net, 2.0, None, True, 0.0)


# ---- the weights file's versions ----

def test_format_2_round_trip_with_every_head(tmp_path) -> None:
    arrays = random_model()
    path = tmp_path / "w2.npz"
    save_weights(path, arrays, {"note": "x"})
    loaded, meta = load_weights(path)
    assert meta["format"] == "arle-value-net/2" and meta["actions_digest"] == actions_digest()
    assert meta["num_actions"] == A and meta["aux_outputs"] == list(AUX_OUTPUTS)
    assert set(loaded) == set(arrays)
    net = load_net(path)
    assert net.has_policy
    s = random_decisions(30, seed=2)[-1]
    f32 = {k: v.astype(np.float32) for k, v in arrays.items()}
    ref = reference_policy(f32, s.features(), legal_mask([s]))[0]
    assert np.allclose([q for _, q in net.priors(s)], ref[s.legal_actions()], atol=1e-5)
    # without the auxiliary head: format 2 still, and digests tell the models apart
    plain = {k: v for k, v in arrays.items() if not k.startswith("wa") and k != "ba"}
    save_weights(tmp_path / "p.npz", plain)
    loaded, meta = load_weights(tmp_path / "p.npz")
    assert meta["format"] == "arle-value-net/2" and "wa" not in loaded
    assert meta["aux_outputs"] == []
    assert weights_digest(path) != weights_digest(tmp_path / "p.npz")


def test_format_1_files_load_as_value_only_models(tmp_path) -> None:
    arrays = {k: v for k, v in random_model().items() if k in WEIGHT_ARRAYS}
    path = tmp_path / "w1.npz"
    save_weights(path, arrays)
    loaded, meta = load_weights(path)
    assert meta["format"] == "arle-value-net/1" and set(loaded) == set(WEIGHT_ARRAYS)
    net = load_net(path)
    assert not net.has_policy
    # PUCT with a value-only model takes the heuristic's priors, as before format 2
    s = random_decisions(25, seed=4)[-1]
    ev = _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), net, 2.0, None)
    heur = _core.StaticEvaluator(DEFAULT_WEIGHTS.as_array(), 2.0)
    t1, t2 = _core.SearchTree(), _core.SearchTree()
    t1.ensure_root(s, ev, True)
    t2.ensure_root(s, heur, True)
    assert [p for *_, p in t1.stats(s)] == [p for *_, p in t2.stats(s)]
    # a file without a format field is format 1 (files from before formats were named)
    with np.load(path) as z:
        parts = {k: z[k] for k in z.files}
    meta = json.loads(str(parts["meta"]))
    del meta["format"]
    parts["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "old.npz", **parts)
    assert not load_net(tmp_path / "old.npz").has_policy
    assert weights_digest(tmp_path / "old.npz") == weights_digest(path)


def _rewrite(src, dst, change_meta=None, drop=(), **arrays) -> None:
    with np.load(src) as z:
        parts = {k: z[k] for k in z.files if k not in drop}
    meta = json.loads(str(parts["meta"]))
    if change_meta:
        meta.update(change_meta)
    parts["meta"] = np.array(json.dumps(meta))
    parts.update(arrays)
    np.savez(dst, **parts)


@pytest.mark.parametrize("change,words", [
    ({"change_meta": {"format": "arle-value-net/4"}},
     "weights format 'arle-value-net/4' is not one this version reads "
     "(arle-value-net/1, arle-value-net/2, arle-value-net/3)"),
    ({"change_meta": {"format": "arle-value-net/3"}},
     "a arle-value-net/3 weights file needs meta 'trunk'"),
    ({"change_meta": {"format": "something-else"}}, "weights format 'something-else'"),
    ({"drop": ("wp",)}, "a arle-value-net/2 weights file without wp"),
    ({"drop": ("bp",)}, "without bp"),
    ({"change_meta": {"actions_digest": "0000"}}, "policy was trained on other action ids"),
    ({"change_meta": {"features_digest": "0000"}}, "trained on other features"),
    ({"wp": np.zeros((A, 3), np.float32)}, "wp must have shape (673, 24)"),
    ({"bp": np.full(A, np.nan, np.float32)}, "bp holds a value that is not finite"),
    ({"wa": np.zeros((3, 24), np.float32)}, "wa must have shape (16, 24)"),
    # a trunk array at fault is named as the trunk's, not as the auxiliary head's (whose
    # shapes follow from w1's): w1 of 1 hidden unit was "wa must have shape (16, 1)"
    ({"w1": np.zeros((1, F), np.float32)}, "b1 must have shape (1,), not (24,)"),
    ({"w1": np.zeros((24, 3), np.float32)}, f"w1 must have shape (hidden, {F}), not (24, 3)"),
    ({"w2": np.zeros((2, 5), np.float32)}, "w2 must have shape (2, 24), not (2, 5)"),
    ({"b1": np.full(24, np.nan, np.float32)}, "b1 holds a value that is not finite"),
    ({"ba": np.full(16, np.inf, np.float32)}, "ba holds a value that is not finite"),
    ({"drop": ("wa0",)}, "without wa0"),
    ({"wp": np.array(["x"] * 4)}, "wp: <U1 values, not real numbers"),
])
def test_malformed_format_2_files_are_refused_by_name(tmp_path, change, words) -> None:
    good = tmp_path / "good.npz"
    save_weights(good, random_model())
    bad = tmp_path / "bad.npz"
    _rewrite(good, bad, **change)
    with pytest.raises(NetError, match=re.escape(words)):
        load_net(bad)
    with pytest.raises(NetError, match=re.escape(words)):  # what the weights' readers see
        weights_digest(bad)


def test_every_format_this_version_reads_loads() -> None:
    assert FORMATS == ("arle-value-net/1", "arle-value-net/2", "arle-value-net/3")


# ---- the search with the policy's priors ----

def test_the_search_with_priors_is_deterministic_and_uses_them(tmp_path) -> None:
    arrays = random_model()
    net = core_model(arrays)
    s = random_decisions(60, seed=8)[-1]
    ev = _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), net, 2.0, 1, False, 1.5)
    runs = [MCTS(iterations=500, seed=3, puct=True, evaluator=ev).search(s) for _ in range(2)]
    key = [(a.action, a.visits, a.win_rate, a.prior) for a in runs[0].moves]
    assert key == [(a.action, a.visits, a.win_rate, a.prior) for a in runs[1].moves]
    priors = dict(net.priors(s, 1.5))
    for a in runs[0].moves:   # the tree keeps priors as 16-bit fractions
        assert abs(a.prior - priors[a.action]) <= 1 / 65535
    # a pickled evaluator (what worker processes get) searches the same
    ev2 = pickle.loads(pickle.dumps(ev))
    assert ev2.policy_temperature == 1.5 and ev2.model.has_policy
    again = MCTS(iterations=500, seed=3, puct=True, evaluator=ev2).search(s)
    assert key == [(a.action, a.visits, a.win_rate, a.prior) for a in again.moves]
    # in parallel: deterministic for the seed and worker count
    par = [MCTS(iterations=400, seed=3, puct=True, evaluator=ev, workers=2).search(s)
           for _ in range(2)]
    assert [(a.action, a.visits) for a in par[0].moves] == \
        [(a.action, a.visits) for a in par[1].moves]


def test_the_policy_moves_the_visits() -> None:
    """With a policy sure of one move, PUCT spends most visits on it; UCT does not."""
    arrays = random_model()
    s = random_decisions(40, seed=1)[-1]
    target = s.legal_actions()[-1]
    arrays["bp"] = np.zeros(A)
    arrays["bp"][target] = 8.0
    arrays["wp"] = np.zeros_like(arrays["wp"])
    ev = _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), core_model(arrays), 2.0, None)
    puct = MCTS(iterations=300, seed=1, puct=True, c=0.9, evaluator=ev).search(s)
    uct = MCTS(iterations=300, seed=1, puct=False, evaluator=ev).search(s)
    share = {a.action: a.visits / 300 for a in puct.moves}
    assert share[target] > 0.5 and {a.action: a.visits for a in uct.moves}[target] < 150


# ---- training ----

@pytest.fixture(scope="module")
def selfplay(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("pol") / "d.npz"
    generate(out, DatagenConfig(games=4, seed=12, iterations=16, explore=4))
    return str(out)


def test_targets_are_rebuilt_from_the_raw_positions(selfplay: str) -> None:
    data = load_datasets([selfplay])
    bits, shares = policy_targets(data)
    legal = np.unpackbits(bits, axis=1, count=A).astype(bool)
    ptr = data["visit_ptr"]
    for i in range(0, len(legal), 17):
        s = arle_ai.GameState._from_bytes(bytes(data["positions"][i])
                                          + _core._digest(bytes(data["positions"][i])))
        assert np.flatnonzero(legal[i]).tolist() == sorted(s.legal_actions())
        assert abs(shares[ptr[i]:ptr[i + 1]].sum() - 1) < 1e-6
    by_seat, known = final_breakdowns(data)
    assert known.all()
    for i in range(0, len(known), 23):
        assert np.allclose(by_seat[i].sum(axis=1), data["final_vp"][i])


def test_training_every_head_on_self_play(selfplay: str, tmp_path) -> None:
    data = load_datasets([selfplay])
    config = TrainConfig(hidden=12, epochs=3, val_fraction=0.25, target_blend=0.5)
    arrays, report = train(data, config)
    assert report.heads == ["value", "policy", "aux"]
    assert {"wp", "bp", "wa0", "wa", "ba"} <= set(arrays)
    assert report.val_policy_ce >= report.val_policy_entropy - 1e-9 > 0
    assert 0 <= report.val_policy_top1 <= 1 and report.val_final_vp_mae > 0
    # the saved model infers in the core as the numpy reference
    out, figures = tmp_path / "w.npz", tmp_path / "fig.json"
    rep = train_files([selfplay], out, config, figures=figures, meta={"generation": 1})
    assert rep.as_dict() == report.as_dict() | {"epochs": rep.epochs}
    loaded, meta = load_weights(out)
    assert meta["generation"] == 1 and meta["report"]["heads"] == ["value", "policy", "aux"]
    assert json.loads(figures.read_text())["best_epoch"] == rep.best_epoch
    net = load_net(out)
    states = random_decisions(50, seed=6)
    feats = np.array([s.features() for s in states])
    ref = reference_policy(loaded, feats, legal_mask(states))
    for s, row in zip(states, ref, strict=True):
        assert np.allclose([q for _, q in net.priors(s)], row[s.legal_actions()], atol=1e-5)
    # the explanation: predicted final VP by category and seat
    preds = predict_scores(states[:5], out)
    aux = reference_aux(loaded, feats[:5])
    assert isinstance(preds, list) and isinstance(preds[0], ScorePrediction)
    for s, p, row in zip(states[:5], preds, aux, strict=True):
        me = s.current_player
        mine = p.by_category[me]
        assert list(mine) == list(_core.SCORE_CATEGORIES)
        assert np.allclose(list(mine.values()), row[:8]) and np.isclose(
            p.final_vp[1 - me], row[8:].sum())
        assert 0 < p.win0 < 1
    one = predict_scores(states[0], out)
    assert isinstance(one, ScorePrediction)
    assert np.allclose(one.final_vp, preds[0].final_vp) and np.isclose(one.win0, preds[0].win0)
    # value-only data or weights: a value-only model, and no explanation
    plain = {k: v for k, v in data.items() if k not in ("positions",)}
    arrays, report = train(plain, config)
    assert report.heads == ["value"] and "wp" not in arrays
    save_weights(tmp_path / "v.npz", arrays)
    with pytest.raises(NetError, match="no auxiliary head"):
        predict_scores(states[0], tmp_path / "v.npz")
    arrays, report = train(data, TrainConfig(hidden=4, epochs=1, val_fraction=0.25,
                                             policy_weight=0, aux_weight=0))
    assert report.heads == ["value"]


def test_the_policy_learns_a_known_rule(selfplay: str) -> None:
    """Visit targets that always favour the lowest legal id are learnt (top-1 agreement)."""
    data = dict(load_datasets([selfplay]))
    bits, _ = policy_targets(data)
    legal = np.unpackbits(bits, axis=1, count=A).astype(bool)
    first = legal.argmax(axis=1)
    data["visit_ptr"] = np.arange(len(first) + 1, dtype=np.int64)
    data["visit_action"] = first.astype(np.int16)
    data["visit_count"] = np.ones(len(first), dtype=np.int32)
    for k in ("policy_mask", "policy_ptr", "policy_action", "policy_prob"):
        del data[k]  # the search's own targets would be trained on instead of the visits
    config = TrainConfig(hidden=16, epochs=12, lr=0.01, val_fraction=0.25, aux_weight=0)
    _, report = train(data, config)
    assert report.val_policy_top1 > 0.9


def test_non_finite_data_and_divergence_write_nothing(selfplay: str, tmp_path) -> None:
    data = dict(load_datasets([selfplay]))
    bad = dict(data, root_value=data["root_value"].copy())
    bad["root_value"][3] = np.nan
    with pytest.raises(ValueError, match="root_value holds a value that is not finite"):
        train(bad, TrainConfig(hidden=4, epochs=1))
    path = tmp_path / "nan.npz"
    with np.load(selfplay) as z:
        parts = {k: z[k] for k in z.files}
    parts["features"] = parts["features"].copy()
    parts["features"][0, 0] = np.inf
    write_npz(path, parts)
    out = tmp_path / "w.npz"
    with pytest.raises(ValueError, match="features holds a value that is not finite"):
        train_files([path], out)
    with pytest.raises(ValueError, match="no epoch reached a finite validation loss"):
        train_files([selfplay], out, TrainConfig(hidden=8, epochs=2, lr=1e30,
                                                 val_fraction=0.25))
    assert not out.exists()


# ---- the search's options ----

def test_policy_temperature_is_a_net_leaf_option(tmp_path) -> None:
    from arle_ai.play.agents import agent_from_spec
    from arle_ai.search.config import SearchConfig

    assert SearchConfig().policy_temperature == 1.0
    assert SearchConfig(leaf="rollout").policy_temperature is None
    with pytest.raises(ValueError, match="policy_temperature is an option of leaf='net'"):
        SearchConfig(leaf="static", policy_temperature=2.0)
    for bad in (0, -1.0, float("nan"), float("inf"), True, "1"):
        with pytest.raises(ValueError, match="policy_temperature must be a number"):
            SearchConfig(policy_temperature=bad)
    path = tmp_path / "w.npz"
    save_weights(path, random_model())
    search = MCTS(iterations=50, seed=2, net=str(path), puct=True, policy_temperature=2.5)
    assert search.evaluator.policy_temperature == 2.5 and search.evaluator.model.has_policy
    s = random_decisions(20, seed=3)[-1]
    priors = dict(load_net(path).priors(s, 2.5))
    for m in search.search(s).moves:
        assert abs(m.prior - priors[m.action]) <= 1 / 65535
    agent = agent_from_spec(f"mcts:iterations=20,net={path},puct=1,policy_temperature=0.5,"
                            "net_horizon=none")
    assert agent.search.evaluator.policy_temperature == 0.5
    assert agent.search.evaluator.rollout_horizon is None
    with pytest.raises(ValueError, match="bad value 'x' for 'policy_temperature'"):
        agent_from_spec("mcts:policy_temperature=x")


def test_the_default_search_is_puct_exactly_when_the_model_has_a_policy(tmp_path) -> None:
    from arle_ai.search.config import SearchConfig
    from arle_ai.search.tree import TreeSearch

    assert SearchConfig().puct is None
    with pytest.raises(ValueError, match="puct must be True, False or None"):
        SearchConfig(puct=1)  # type: ignore[arg-type]
    v2, v1 = tmp_path / "v2.npz", tmp_path / "v1.npz"
    arrays = random_model()
    save_weights(v2, arrays)
    save_weights(v1, {k: arrays[k] for k in WEIGHT_ARRAYS})
    assert TreeSearch(SearchConfig(net=str(v2))).puct
    assert not TreeSearch(SearchConfig(net=str(v1))).puct
    assert not TreeSearch(SearchConfig(net=str(v2), puct=False)).puct
    assert TreeSearch(SearchConfig(net=str(v1), puct=True)).puct
    assert not TreeSearch(SearchConfig(leaf="rollout")).puct
    s = random_decisions(30, seed=7)[-1]
    n = len(s.legal_actions())
    uct = MCTS(iterations=60, seed=1, net=str(v1)).search(s)
    assert {m.prior for m in uct.moves} == {1 / n}
    pol = MCTS(iterations=60, seed=1, net=str(v2)).search(s)
    priors = dict(load_net(v2).priors(s))
    assert all(abs(m.prior - priors[m.action]) <= 1 / 65535 for m in pol.moves)


def test_the_model_alone_values_a_new_node_from_the_priors_pass() -> None:
    """With net_horizon None the value of a new node comes from the trunk pass of its priors
    (kept for that one call): it equals the model's value of the position computed afresh."""
    arrays = random_model()
    ev = _core.NetEvaluator(DEFAULT_WEIGHTS.as_array(), core_model(arrays), 2.0, None, True,
                            50.0)  # flat priors: most children get a first visit
    checked = 0
    for s in random_decisions(200, seed=11)[20::5]:
        result = MCTS(iterations=len(s.legal_actions()), seed=1, puct=True,
                      evaluator=ev).search(s)
        for m in result.moves:
            child = s.copy()
            child.apply(m.action)
            if m.visits != 1 or child.is_terminal() or len(m.pv) != 1:
                continue  # (a longer line: the child was in the tree already, a transposition)
            v0, _ = ev.evaluate(child)
            want = v0 if s.current_player == 0 else 1.0 - v0
            assert abs(m.win_rate - want) < 1e-6
            checked += 1
    assert checked > 30
