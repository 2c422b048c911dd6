"""Training the model (arle_ai.search.net) on self-play data (arle_ai.learn.datagen), in numpy.

A multilayer perceptron with one ReLU hidden layer (the trunk) and three heads learns from the
features of a position seen by the player to decide:

- the value head (with a linear skip from the inputs): that player's final VP margin (squared
  error, in units of ``margin_scale`` VP) and whether they win (logistic loss). The skip starts
  as "the final margin is the score margin now", so the rest learns corrections to it;
- the policy head: one logit per action id, a softmax over the legal actions (rebuilt from the
  stored raw positions), trained by cross-entropy against the search's improved policy (weight
  ``policy_weight``): datagen's ``policy_*`` table (the root visit shares, or a Gumbel root's
  completed-Q policy) on the positions whose ``policy_mask`` is set (the full searches of
  playout caps), or the root visit distribution of data without it;
- the auxiliary head (with a skip too): each player's final VP by scoring category (the
  categories of ``GameState.score_breakdown``, rebuilt by finishing each game from its last
  stored position), squared error in units of ``aux_scale`` VP per category and per total
  (weight ``aux_weight``). It shapes the trunk and explains predictions (net.predict_scores).

The policy and auxiliary heads are trained when the data has what they need (raw positions,
root visits, final VP: every file of arle datagen); data without it gives a value-only model
(weights format 1). Whole games are held out for validation (positions of one game are strongly
correlated); the weights of the epoch with the lowest validation loss are kept. Adam,
minibatches, L2 weight decay (towards the starting skips); seeded, so a run is reproducible on
the same machine. Non-finite data is refused by name, and a run with no finite validation loss
returns no weights (ValueError).

``target_blend`` X trains on soft value targets: (1 - X) x the game's outcome (win 0/1, final
margin) + X x the search's value and margin at the position (``root_value``, ``root_margin`` of
a format-2 datagen file), which are less noisy than one game's result. ``ignore`` drops the
feature slots whose names start with one of the prefixes (their normalisation zeroes them, so
the weights file keeps the engine's feature layout). The reported validation errors are always
against the final margin and the actual winner.

:func:`train_files` is the whole job for a caller such as a learning loop: data files in, a
weights file and the training figures (JSON) out.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from arle_ai.base.files import write_text
from arle_ai.base.npzfile import NpzArchive
from arle_ai.engine import _core
from arle_ai.search.net import AUX_ARRAYS, POLICY_ARRAYS, WEIGHT_ARRAYS, save_weights

__all__ = ["TrainConfig", "TrainReport", "train", "train_files", "load_data", "load_datasets",
           "split_games", "split_by_source", "ignored_slots", "policy_targets", "policy_table",
           "policy_mask",
           "final_breakdowns"]

SEARCH_TARGETS = ("root_value", "root_margin")
POLICY_DATA = ("positions", "visit_ptr", "visit_action", "visit_count")
# the search's improved policy and which positions carry it (datagen's policy targets: the
# visit shares or a Gumbel root's completed-Q policy; cheap searches of playout caps carry none)
TARGET_DATA = ("policy_mask", "policy_ptr", "policy_action", "policy_prob")
_TABLES = ("visit_ptr", "visit_action", "visit_count", "policy_ptr", "policy_action",
           "policy_prob")
MARGIN_SLOT = (_core.FEATURE_NAMES.index("me.score.total"),
               _core.FEATURE_NAMES.index("opp.score.total"))
CATEGORIES = _core.SCORE_CATEGORIES
NCAT = len(CATEGORIES)
# the feature slot of each auxiliary output's score now (me's categories, then opp's)
AUX_SLOTS = tuple(_core.FEATURE_NAMES.index(f"{side}.score.{c}")
                  for side in ("me", "opp") for c in CATEGORIES)
NUM_ACTIONS = _core.NUM_ACTIONS_PY


@dataclass(frozen=True)
class TrainConfig:
    hidden: int = 64
    epochs: int = 30
    batch: int = 256
    lr: float = 1e-3
    weight_decay: float = 1e-4
    val_fraction: float = 0.1
    margin_scale: float = 20.0
    seed: int = 0
    target_blend: float = 0.0
    ignore: tuple[str, ...] = ()
    policy_weight: float = 1.0
    aux_weight: float = 0.1
    aux_scale: float = 10.0

    def __post_init__(self) -> None:
        for name in ("hidden", "epochs", "batch"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive integer, not {v!r}")
        if not 1 <= self.hidden <= 1024:
            raise ValueError(f"hidden must be 1..1024, not {self.hidden}")
        if not 0 < self.val_fraction < 1:
            raise ValueError(f"val_fraction must be between 0 and 1, not {self.val_fraction}")
        for name in ("lr", "margin_scale", "aux_scale"):
            if not math.isfinite(getattr(self, name)) or not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)}")
        for name in ("weight_decay", "policy_weight", "aux_weight"):
            if not math.isfinite(getattr(self, name)) or not getattr(self, name) >= 0:
                raise ValueError(f"{name} must be >= 0, not {getattr(self, name)}")
        if not 0 <= self.target_blend <= 1:
            raise ValueError(f"target_blend must be in 0..1, not {self.target_blend}")
        for prefix in self.ignore:
            if not isinstance(prefix, str) or not any(
                    name.startswith(prefix) for name in _core.FEATURE_NAMES):
                raise ValueError(f"ignore: no feature name starts with {prefix!r} (see "
                                 "docs/features.md)")


def ignored_slots(prefixes: tuple[str, ...]) -> np.ndarray:
    """A boolean mask of the feature slots whose names start with one of `prefixes`."""
    return np.array([name.startswith(tuple(prefixes)) for name in _core.FEATURE_NAMES],
                    dtype=bool)


@dataclass
class TrainReport:
    """What a training run measured (losses per epoch; validation errors of the kept model)."""

    train_positions: int
    val_positions: int
    train_games: int
    val_games: int
    heads: list[str] = field(default_factory=list)
    epochs: list[dict[str, float]] = field(default_factory=list)
    best_epoch: int = 0
    val_margin_mae: float = 0.0
    val_win_accuracy: float = 0.0
    val_policy_ce: float = 0.0          # cross-entropy against the visit shares (nats)
    val_policy_entropy: float = 0.0     # entropy of the visit shares: the floor of the above
    val_policy_top1: float = 0.0        # share of positions whose top prior is the top visit
    val_final_vp_mae: float = 0.0       # error of each player's predicted final VP
    by_half_year: list[dict[str, float]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


# ---- data ----

def load_data(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The arrays a training run needs from a datagen file (``root_value`` and
    ``root_margin`` too when it has them: format 2; the raw positions, root visits and final VP
    for the policy and auxiliary heads when it has them); ValueError names a problem."""
    need = ("features", "player", "half_year", "game", "margin", "winner")
    extra = (*SEARCH_TARGETS, *POLICY_DATA, *TARGET_DATA, "final_vp")
    # every member's header is checked (type, shape, size against the memory free) and the
    # shapes compared before any data is read (arle_ai.base.npzfile)
    with NpzArchive(path, ValueError, "datagen file") as z:
        z.require(need)
        heads = {k: z.headers[k] for k in (*need, *extra) if k in z.headers}
        shape = heads["features"].shape
        if len(shape) != 2 or shape[1] != _core.NUM_FEATURES:
            raise ValueError(f"{path}: features have shape {shape}, the engine has "
                             f"{_core.NUM_FEATURES} features (made by another version?)")
        rows = shape[0]
        ndims = {"positions": 2, "final_vp": 2}
        for k, head in heads.items():
            if k == "features" or k in _TABLES:
                continue
            if len(head.shape) != ndims.get(k, 1) or head.rows != rows:
                raise ValueError(f"{path}: not a datagen file ({k} has shape {head.shape}, "
                                 f"the features {rows} rows)")
        odd = [k for k, head in heads.items() if head.dtype.kind not in "biuf"]
        if odd:
            raise ValueError(f"{path}: not a datagen file ({odd[0]}: {heads[odd[0]].dtype} "
                             f"values)")
        data = {k: z.read(k) for k in heads}
    _check_visits(path, data, rows)
    _check_targets(path, data, rows)
    for k, v in data.items():
        if v.dtype.kind not in "biuf":
            raise ValueError(f"{path}: not a datagen file ({k}: {v.dtype} values)")
    check_values(data, f"{path}: ")
    return data


# Sizes no game reaches, by far (features are counts of a board, VP scores and margins are
# two or three digits): data beyond them was not made by a game and would overflow float32
# sums in training (a model refused only after the training, for a reason naming the model).
VALUE_BOUNDS = {"features": 1e6, "margin": 1e4, "final_vp": 1e4, "root_margin": 1e4,
                "root_value": 1e4}


def check_values(data: dict[str, np.ndarray], where: str = "") -> None:
    """ValueError naming the first array with a value that is not finite or is beyond
    VALUE_BOUNDS."""
    for k, v in data.items():
        v = np.asarray(v)
        if v.dtype.kind != "f" or not v.size:
            continue
        if not np.all(np.isfinite(v)):
            raise ValueError(f"{where}{k} holds a value that is not finite (NaN or infinite): "
                             f"refusing to train on it")
        bound = VALUE_BOUNDS.get(k)
        if bound is not None and float(np.abs(v).max()) > bound:
            raise ValueError(f"{where}{k} holds {float(np.abs(v).max()):.3g} in size, beyond "
                             f"any game's (at most {bound:g}): refusing to train on it")


def _check_table(path: str | os.PathLike[str], data: dict[str, np.ndarray], rows: int,
                 names: tuple[str, ...], kind: str, entries: str, lacking: str,
                 value_ok: Callable[[np.ndarray], bool]) -> None:
    """ValueError unless the arrays `names` (ptr, action, value, ...), when present, are a
    well-formed table of `rows` rows: each row at least one entry, each entry an action id
    and a value that `value_ok` accepts."""
    present = [k for k in names if k in data]
    if not present:
        return
    if len(present) < len(names):
        raise ValueError(f"{path}: not a datagen file (has {', '.join(present)} but not all "
                         f"of {', '.join(names)})")
    ptr, act, val = (data[k] for k in names[:3])
    if ptr.ndim != 1 or len(ptr) != rows + 1 or act.ndim != 1 or val.shape != act.shape:
        raise ValueError(f"{path}: not a datagen file ({kind} arrays of shapes {ptr.shape}, "
                         f"{act.shape}, {val.shape} for {rows} positions)")
    if rows and (ptr[0] != 0 or ptr[-1] != len(act) or np.any(np.diff(ptr) < 1)):
        raise ValueError(f"{path}: not a datagen file ({names[0]} is not a table of "
                         f"{len(act)} {entries} with at least one per position)")
    if len(act) and (act.min() < 0 or act.max() >= NUM_ACTIONS or not value_ok(val)):
        raise ValueError(f"{path}: not a datagen file (a {kind} entry names no action id "
                         f"0..{NUM_ACTIONS - 1} or has no {lacking})")


def _check_visits(path: str | os.PathLike[str], data: dict[str, np.ndarray], rows: int) -> None:
    """ValueError unless the root visits (if any) are a well-formed table of `rows` rows."""
    _check_table(path, data, rows, ("visit_ptr", "visit_action", "visit_count"), "visit",
                 "visit entries", "visit", lambda cnt: bool(cnt.min() >= 1))


def _check_targets(path: str | os.PathLike[str], data: dict[str, np.ndarray],
                   rows: int) -> None:
    """ValueError unless the policy targets (if any) are a well-formed table of `rows` rows
    with a 0/1 mask."""
    _check_table(path, data, rows, ("policy_ptr", "policy_action", "policy_prob", "policy_mask"),
                 "policy", "entries", "probability",
                 lambda prob: bool(np.all(np.isfinite(prob)) and prob.min() >= 0))
    if "policy_mask" in data and not np.isin(data["policy_mask"], (0, 1)).all():
        raise ValueError(f"{path}: not a datagen file (policy_mask holds values other than "
                         f"0 and 1)")


def load_datasets(paths: list[str] | tuple[str, ...]) -> dict[str, np.ndarray]:
    """Several datagen files as one training set: their positions in file order, game ids made
    distinct (each file's shifted past the previous ones', order kept) and ``source`` (the
    file's index), by which :func:`train` holds out each file's own share of games, the games
    it would hold out of that file alone. The search's root targets, raw positions and visits
    are kept when every file has them."""
    if not paths:
        raise ValueError("no datagen file given")
    datas = [load_data(p) for p in paths]
    if len(datas) == 1:
        return datas[0]
    keys = [k for k in datas[0] if all(k in d for d in datas)]
    merged = {k: np.concatenate([d[k] for d in datas]) for k in keys
              if k not in ("game", "visit_ptr", "policy_ptr")}
    for ptr in ("visit_ptr", "policy_ptr"):
        if ptr in keys:
            offsets, base = [np.zeros(1, dtype=np.int64)], 0
            for d in datas:
                offsets.append(np.asarray(d[ptr][1:], dtype=np.int64) + base)
                base += int(d[ptr][-1])
            merged[ptr] = np.concatenate(offsets)
    games, base = [], 0
    for d in datas:
        g = np.asarray(d["game"], dtype=np.int64)
        games.append(g - int(g.min()) + base if len(g) else g)  # an empty file adds none
        if len(g):
            base = int(games[-1].max()) + 1
    merged["game"] = np.concatenate(games)
    merged["source"] = np.concatenate([np.full(len(d["game"]), i, dtype=np.int32)
                                       for i, d in enumerate(datas)])
    return merged


def split_by_source(data: dict[str, np.ndarray], val_fraction: float, seed: int) -> np.ndarray:
    """The validation mask: `split_games` within each source file (one file: over all)."""
    games = np.asarray(data["game"])
    if "source" not in data:
        return split_games(games, val_fraction, seed)
    source = np.asarray(data["source"])
    val = np.zeros(len(games), dtype=bool)
    for i in np.unique(source):
        sel = source == i
        val[sel] = split_games(games[sel], val_fraction, seed)
    return val


def split_games(games: np.ndarray, val_fraction: float, seed: int) -> np.ndarray:
    """A boolean mask of the validation positions: a seeded share of whole games."""
    ids = np.unique(games)
    if len(ids) < 2:
        raise ValueError("need positions from at least 2 games (whole games are held out)")
    rng = np.random.default_rng(seed)
    n_val = min(len(ids) - 1, max(1, round(len(ids) * val_fraction)))
    val_ids = rng.choice(ids, size=n_val, replace=False)
    return np.isin(games, val_ids)


def _state(row: np.ndarray) -> _core.GameState:
    from arle_ai.learn.datagen import position_from_row

    try:
        return position_from_row(row)
    except ValueError as exc:
        raise ValueError(f"a stored position does not load ({exc}): data of another "
                         f"version?") from None


def policy_table(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The flat table the policy is trained on, (ptr, action ids, weights): the search's
    improved policy when the data has it (``policy_*``), else the root visit counts."""
    ptr, act, weight = ("policy_ptr", "policy_action", "policy_prob") if "policy_prob" in data \
        else ("visit_ptr", "visit_action", "visit_count")
    return (np.asarray(data[ptr], dtype=np.int64), np.asarray(data[act], dtype=np.int64),
            np.asarray(data[weight], dtype=np.float64))


def policy_mask(data: dict[str, np.ndarray]) -> np.ndarray:
    """Which positions carry a policy target (all, for data without ``policy_mask``)."""
    if "policy_mask" in data:
        return np.asarray(data["policy_mask"]).astype(bool)
    return np.ones(len(data["features"]), dtype=bool)


def policy_targets(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The policy's targets rebuilt from the raw positions: the legal actions of each position
    as packed bits (n, ceil(NUM_ACTIONS / 8)) uint8, and each entry of the flat
    :func:`policy_table` as a share of its position's total (float32). ValueError if a
    target's action is not legal in its position (data of another engine version)."""
    n = len(data["features"])
    legal = np.zeros((n, NUM_ACTIONS), dtype=bool)
    for i, row in enumerate(data["positions"]):
        legal[i, _state(row).legal_actions()] = True
    ptr, act, cnt = policy_table(data)
    rows = np.repeat(np.arange(n), np.diff(ptr))
    if len(act) and not legal[rows, act].all():
        bad = int(rows[~legal[rows, act]][0])
        raise ValueError(f"position {bad}: a visited action is not legal there (data of "
                         f"another engine version?)")
    totals = np.add.reduceat(cnt, ptr[:-1]) if n else np.zeros(0)
    shares = (cnt / np.maximum(totals[rows], 1e-300)).astype(np.float32)
    return np.packbits(legal, axis=1), shares


def final_breakdowns(data: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Each position's game's final VP by scoring category, by seat: (n, 2, categories)
    float32, and a mask of the positions where it is known. It is rebuilt by finishing each
    game from its last stored position (the decisions after it have one legal action): the
    played action is the most visited one whose finished game has the recorded final VP
    (its categories then must agree with every such action's, else the game is left out)."""
    n = len(data["features"])
    out = np.zeros((n, 2, NCAT), dtype=np.float32)
    known = np.zeros(n, dtype=bool)
    games = np.asarray(data["game"])
    ptr = np.asarray(data["visit_ptr"], dtype=np.int64)
    if n == 0:
        return out, known
    order = np.argsort(games, kind="stable")
    starts = np.flatnonzero(np.r_[True, games[order][1:] != games[order][:-1]])
    for k, lo in enumerate(starts):
        hi = starts[k + 1] if k + 1 < len(starts) else n
        rows = order[lo:hi]
        last = int(rows[-1])
        final = tuple(float(v) for v in data["final_vp"][last])
        a, b = int(ptr[last]), int(ptr[last + 1])
        visits = sorted(zip(data["visit_count"][a:b].tolist(),
                            data["visit_action"][a:b].tolist(), strict=True),
                        key=lambda t: (-t[0], t[1]))
        found = []
        for _, action in visits:
            s = _state(data["positions"][last])
            s.apply(action)
            while not s.is_terminal():
                legal = s.legal_actions()
                if len(legal) != 1:
                    break
                s.apply(legal[0])
            # a solo game's final_vp is (score, 0): its absent seat scores nothing
            if s.is_terminal() and tuple(float(v) for v in s.scores()) == final[:s.players]:
                found.append(np.array([[s.score_breakdown(p)[c] if p < s.players else 0.0
                                        for c in CATEGORIES] for p in (0, 1)],
                                      dtype=np.float32))
        if found and all(np.array_equal(found[0], f) for f in found[1:]):
            out[rows] = found[0]
            known[rows] = True
    return out, known


# ---- the model ----

def _softmax_masked(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 0.5 * (1.0 + np.tanh(0.5 * z))
    return out


@dataclass
class _Batch:
    """One minibatch's normalised inputs and targets."""

    z: np.ndarray
    margin: np.ndarray
    win: np.ndarray
    legal: np.ndarray | None = None       # (b, NUM_ACTIONS) bool
    pi: np.ndarray | None = None          # (b, NUM_ACTIONS) visit shares
    pi_mask: np.ndarray | None = None     # (b,) the positions that carry a policy target
    aux: np.ndarray | None = None         # (b, 2 * NCAT)
    aux_known: np.ndarray | None = None   # (b,) bool


class _Model:
    """The parameters, the forward pass and the gradients of the training loss."""

    def __init__(self, p: dict[str, np.ndarray], config: TrainConfig, policy: bool,
                 aux: bool) -> None:
        self.p = p
        self.config = config
        self.policy = policy
        self.aux = aux

    def forward(self, z: np.ndarray) -> dict[str, np.ndarray]:
        p = self.p
        a1 = z @ p["w1"].T + p["b1"]
        h = np.maximum(a1, 0.0)
        out = {"h": h, "y": z @ p["w0"].T + h @ p["w2"].T + p["b2"]}
        if self.policy:
            out["logits"] = h @ p["wp"].T + p["bp"]
        if self.aux:
            out["aux"] = z @ p["wa0"].T + h @ p["wa"].T + p["ba"]
        return out

    def losses(self, b: _Batch, out: dict[str, np.ndarray], grad: bool
               ) -> tuple[dict[str, float], dict[str, np.ndarray]]:
        """Each head's mean loss, and (with `grad`) the gradient of the weighted sum."""
        c = self.config
        n = len(b.z)
        y = out["y"]
        d = (y[:, 0] - b.margin) / c.margin_scale
        zlog = y[:, 1]
        loss = {"value": float(np.mean(d * d) + np.mean(np.logaddexp(0.0, zlog) - b.win * zlog))}
        grads: dict[str, np.ndarray] = {}
        gy = np.empty_like(y)
        gy[:, 0] = 2.0 * d / c.margin_scale / n
        gy[:, 1] = (_sigmoid(zlog) - b.win) / n
        gouts = {"y": gy}
        if self.policy:
            assert b.legal is not None and b.pi is not None
            assert b.pi_mask is not None
            prob = _softmax_masked(out["logits"], b.legal)
            with np.errstate(divide="ignore"):
                logp = np.where(b.legal, np.log(prob), 0.0)
            w = b.pi_mask.astype(np.float64)[:, None]  # no target: no policy loss
            nw = max(float(w.sum()), 1.0)
            loss["policy"] = float(-np.sum(w * b.pi * logp) / nw)
            gouts["logits"] = c.policy_weight * (prob - b.pi) * w / nw
        if self.aux:
            assert b.aux is not None and b.aux_known is not None
            k = b.aux_known
            nk = max(int(k.sum()), 1)
            e = (out["aux"] - b.aux) / c.aux_scale * k[:, None]
            tot = np.stack([e[:, :NCAT].sum(axis=1), e[:, NCAT:].sum(axis=1)], axis=1)
            loss["aux"] = float((np.sum(e * e) / (2 * NCAT) + np.sum(tot * tot) / 2) / nk)
            ga = 2.0 * e / (2 * NCAT) / nk
            ga[:, :NCAT] += (2.0 * tot[:, :1] / 2) / nk
            ga[:, NCAT:] += (2.0 * tot[:, 1:] / 2) / nk
            gouts["aux"] = c.aux_weight * ga / c.aux_scale
        if not grad:
            return loss, grads
        p, h, z = self.p, out["h"], b.z
        grads["w0"] = gy.T @ z
        grads["w2"] = gy.T @ h
        grads["b2"] = gy.sum(axis=0)
        gh = gy @ p["w2"]
        if "logits" in gouts:
            g = gouts["logits"]
            grads["wp"] = g.T @ h
            grads["bp"] = g.sum(axis=0)
            gh += g @ p["wp"]
        if "aux" in gouts:
            g = gouts["aux"]
            grads["wa0"] = g.T @ z
            grads["wa"] = g.T @ h
            grads["ba"] = g.sum(axis=0)
            gh += g @ p["wa"]
        gh *= h > 0
        grads["w1"] = gh.T @ z
        grads["b1"] = gh.sum(axis=0)
        return loss, grads

    def total(self, loss: dict[str, float]) -> float:
        c = self.config
        return (loss["value"] + c.policy_weight * loss.get("policy", 0.0)
                + c.aux_weight * loss.get("aux", 0.0))


# ---- training ----

def _targets(data: dict[str, np.ndarray], margin: np.ndarray, win: np.ndarray,
             blend: float) -> tuple[np.ndarray, np.ndarray]:
    """The (margin, win) training targets: the outcome blended with the search's values."""
    if blend == 0:
        return margin, win
    missing = [k for k in SEARCH_TARGETS if k not in data]
    if missing:
        raise ValueError("target blend needs the search's root values, which this data has "
                         "not (a format-1 datagen file: make it again with this version's "
                         "arle datagen, or train with a blend of 0)")
    root_margin = np.asarray(data["root_margin"], dtype=np.float64)
    root_value = np.asarray(data["root_value"], dtype=np.float64)
    return ((1 - blend) * margin + blend * root_margin,
            (1 - blend) * win + blend * np.clip(root_value, 0.0, 1.0))


class _Data:
    """The training set with its derived targets, cut into batches on demand (features stay
    float32 and are normalised per batch, so memory stays near the data's own size)."""

    def __init__(self, data: dict[str, np.ndarray], config: TrainConfig,
                 policy: bool, aux: bool, log: Callable[[str], None] | None) -> None:
        self.x = np.asarray(data["features"], dtype=np.float32)
        self.margin = np.asarray(data["margin"], dtype=np.float64)
        self.win = (np.asarray(data["winner"]) == np.asarray(data["player"])).astype(np.float64)
        self.t_margin, self.t_win = _targets(data, self.margin, self.win, config.target_blend)
        self.policy, self.aux = policy, aux
        self.seats = data_players(data)  # 1: solo games, whose second seat is empty
        self.mean = np.zeros(self.x.shape[1])
        self.inv_std = np.ones(self.x.shape[1])
        if policy:
            start = time.perf_counter()
            self.legal_bits, shares = policy_targets(data)
            self.visit_ptr, self.visit_action, _ = policy_table(data)
            self.visit_share = shares
            self.pi_mask = policy_mask(data)
            if log is not None:
                log(f"legal actions rebuilt from {len(self.x)} positions "
                    f"({time.perf_counter() - start:.0f} s)")
        if aux:
            by_seat, self.aux_known = final_breakdowns(data)
            me = np.asarray(data["player"]).astype(np.int64)
            rows = np.arange(len(me))
            self.aux_target = np.concatenate([by_seat[rows, me], by_seat[rows, 1 - me]],
                                             axis=1)
            if log is not None:
                games = len(np.unique(np.asarray(data["game"])[self.aux_known]))
                log(f"final VP by category rebuilt for {games} of "
                    f"{len(np.unique(data['game']))} games")

    def batch(self, idx: np.ndarray, value_targets: str = "train") -> _Batch:
        z = (self.x[idx] - self.mean) * self.inv_std
        if value_targets == "train":
            b = _Batch(z=z, margin=self.t_margin[idx], win=self.t_win[idx])
        else:  # the outcome
            b = _Batch(z=z, margin=self.margin[idx], win=self.win[idx])
        if self.policy:
            b.legal = np.unpackbits(self.legal_bits[idx], axis=1,
                                    count=NUM_ACTIONS).astype(bool)
            pi = np.zeros((len(idx), NUM_ACTIONS))
            lo, hi = self.visit_ptr[idx], self.visit_ptr[idx + 1]
            lens = hi - lo
            rows = np.repeat(np.arange(len(idx)), lens)
            flat = np.repeat(lo - np.r_[0, np.cumsum(lens)[:-1]], lens) + np.arange(lens.sum())
            pi[rows, self.visit_action[flat]] = self.visit_share[flat]
            b.pi = pi
            b.pi_mask = self.pi_mask[idx]
        if self.aux:
            b.aux = self.aux_target[idx].astype(np.float64)
            b.aux_known = self.aux_known[idx]
        return b


def _init(d: _Data, tr: np.ndarray, config: TrainConfig, rng: np.random.Generator,
          std: np.ndarray) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Starting parameters and the values weight decay pulls towards."""
    nin, nh = d.x.shape[1], config.hidden
    win_rate = min(max(float(d.t_win[tr].mean()), 0.01), 0.99)
    w0 = np.zeros((2, nin))
    w0[0, MARGIN_SLOT[0]] = std[MARGIN_SLOT[0]]     # margin now = me's score - opp's score
    w0[0, MARGIN_SLOT[1]] = -std[MARGIN_SLOT[1]]
    p = {
        "w0": w0,
        "w1": rng.normal(0.0, math.sqrt(2.0 / nin), size=(nh, nin)),
        "b1": np.zeros(nh),
        "w2": rng.normal(0.0, 0.01, size=(2, nh)),
        "b2": np.array([float(d.t_margin[tr].mean()), math.log(win_rate / (1 - win_rate))]),
    }
    prior = {"w0": w0.copy(), "w1": np.zeros(1), "w2": np.zeros(1)}
    if d.policy:
        p["wp"] = rng.normal(0.0, 0.01, size=(NUM_ACTIONS, nh))
        p["bp"] = np.zeros(NUM_ACTIONS)
        prior["wp"] = np.zeros(1)
    if d.aux:
        wa0 = np.zeros((2 * NCAT, nin))
        for k, slot in enumerate(AUX_SLOTS):    # final VP of a category = its VP now
            wa0[k, slot] = std[slot]
        known = tr & d.aux_known
        p["wa0"] = wa0
        p["wa"] = rng.normal(0.0, 0.01, size=(2 * NCAT, nh))
        p["ba"] = (d.aux_target[known].mean(axis=0).astype(np.float64) if known.any()
                   else np.zeros(2 * NCAT))
        prior["wa0"] = wa0.copy()
        prior["wa"] = np.zeros(1)
    return p, prior


def _evaluate(model: _Model, d: _Data, rows: np.ndarray, batch: int = 4096
              ) -> dict[str, Any]:
    """Validation figures of `rows`: the losses against the training targets, and the errors
    against the outcome, the visits and the final VP."""
    sums: dict[str, float] = {}
    margin_err, win_hit, top1, ent, vp_err = 0.0, 0.0, 0.0, 0.0, 0.0
    known, targeted = 0, 0
    preds = []
    for start in range(0, len(rows), batch):
        idx = rows[start:start + batch]
        b = d.batch(idx)
        out = model.forward(b.z)
        loss, _ = model.losses(b, out, grad=False)
        rows_with = int(b.pi_mask.sum()) if b.pi_mask is not None else len(idx)
        targeted += rows_with
        for k, v in loss.items():
            sums[k] = sums.get(k, 0.0) + v * (rows_with if k == "policy" else len(idx))
        y = out["y"]
        preds.append(y[:, 0])
        margin_err += float(np.sum(np.abs(y[:, 0] - d.margin[idx])))
        win_hit += float(np.sum((y[:, 1] > 0) == (d.win[idx] > 0.5)))
        if d.policy:
            assert b.legal is not None and b.pi is not None and b.pi_mask is not None
            logits = np.where(b.legal, out["logits"], -np.inf)
            m = b.pi_mask
            top1 += float(np.sum((np.argmax(logits, axis=1) == np.argmax(b.pi, axis=1))[m]))
            with np.errstate(divide="ignore", invalid="ignore"):
                ent -= float(np.sum(np.where(b.pi > 0, b.pi * np.log(b.pi), 0.0)[m]))
        if d.aux:
            assert b.aux is not None and b.aux_known is not None
            a = out["aux"][b.aux_known]
            t = b.aux[b.aux_known]
            vp_err += float(np.sum(np.abs(a[:, :NCAT].sum(1) - t[:, :NCAT].sum(1))))
            if d.seats == 2:
                vp_err += float(np.sum(np.abs(a[:, NCAT:].sum(1) - t[:, NCAT:].sum(1))))
            known += int(b.aux_known.sum())
    n = max(len(rows), 1)
    res: dict[str, Any] = {k: v / (max(targeted, 1) if k == "policy" else n)
                           for k, v in sums.items()}
    res["total"] = model.total(res)
    res["margin_mae"] = margin_err / n
    res["win_accuracy"] = win_hit / n
    res["pred"] = np.concatenate(preds) if preds else np.zeros(0)
    if d.policy:
        res["policy_top1"] = top1 / max(targeted, 1)
        res["policy_entropy"] = ent / max(targeted, 1)
    if d.aux:
        res["final_vp_mae"] = vp_err / max(d.seats * known, 1)
    return res


def train(data: dict[str, np.ndarray], config: TrainConfig = TrainConfig(),
          log: Callable[[str], None] | None = None
          ) -> tuple[dict[str, np.ndarray], TrainReport]:
    """Fit the model; returns its arrays (net.WEIGHT_ARRAYS, raw-feature normalisation
    included, plus the policy and auxiliary heads when the data supports them and their
    weights are positive) and the report. `log` gets one line per epoch. ValueError for
    data that cannot be trained on, or when no epoch reached a finite validation loss."""
    check_values(data)
    has_positions = all(k in data for k in POLICY_DATA)
    policy = has_positions and config.policy_weight > 0
    aux = has_positions and "final_vp" in data and config.aux_weight > 0
    val = split_by_source(data, config.val_fraction, config.seed)
    tr = ~val
    d = _Data(data, config, policy, aux, log)
    solo = d.seats == 1
    x_tr = d.x[tr].astype(np.float64)
    mean = x_tr.mean(axis=0)
    std = x_tr.std(axis=0)
    del x_tr
    inv_std = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0)
    dropped = ignored_slots(config.ignore)
    mean[dropped] = 0.0
    inv_std[dropped] = 0.0
    d.mean, d.inv_std = mean, inv_std
    rng = np.random.default_rng(config.seed)
    p, prior = _init(d, tr, config, rng, std)
    model = _Model(p, config, policy, aux)
    adam_m = {k: np.zeros_like(v) for k, v in p.items()}
    adam_v = {k: np.zeros_like(v) for k, v in p.items()}
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    step = 0
    report = TrainReport(train_positions=int(tr.sum()), val_positions=int(val.sum()),
                         train_games=len(np.unique(data["game"][tr])),
                         val_games=len(np.unique(data["game"][val])),
                         heads=["value"] + (["policy"] if policy else [])
                         + (["aux"] if aux else []))
    best: tuple[float, int, dict[str, np.ndarray]] = (math.inf, 0, {})
    train_rows = np.flatnonzero(tr)
    val_rows = np.flatnonzero(val)
    n = len(train_rows)
    for epoch in range(1, config.epochs + 1):
        order = train_rows[rng.permutation(n)]
        total = 0.0
        with np.errstate(over="ignore", invalid="ignore"):
            for start in range(0, n, config.batch):
                idx = order[start:start + config.batch]
                b = d.batch(idx)
                loss, grads = model.losses(b, model.forward(b.z), grad=True)
                total += model.total(loss) * len(idx)
                step += 1
                for k in p:
                    g = grads[k]
                    if k in prior:
                        g = g + config.weight_decay * (p[k] - prior[k])
                    adam_m[k] = b1_ * adam_m[k] + (1 - b1_) * g
                    adam_v[k] = b2_ * adam_v[k] + (1 - b2_) * g * g
                    mh = adam_m[k] / (1 - b1_ ** step)
                    vh = adam_v[k] / (1 - b2_ ** step)
                    p[k] -= config.lr * mh / (np.sqrt(vh) + eps)
            finite = math.isfinite(total) and all(np.all(np.isfinite(v)) for v in p.values())
            ev: dict[str, Any] = (_evaluate(model, d, val_rows) if finite
                                  else {"total": math.nan})
        row = {"epoch": epoch, "train_loss": total / n, "val_loss": ev["total"]}
        if finite:  # a solo game has no winner: no win accuracy (it would read 1.000)
            row.update({f"val_{k}": ev[k] for k in ("value", "policy", "aux", "margin_mae",
                                                     "win_accuracy", "policy_top1",
                                                     "final_vp_mae")
                        if k in ev and not (solo and k == "win_accuracy")})
        report.epochs.append(row)
        if log is not None:
            log(_epoch_line(row))
        if not finite or not math.isfinite(ev["total"]):
            if log is not None:
                log(f"epoch {epoch}: the loss is not finite: training stops (try a lower "
                    f"learning rate)")
            break
        if ev["total"] < best[0]:
            best = (ev["total"], epoch, {k: v.copy() for k, v in p.items()})
    if not best[2]:
        raise ValueError("no epoch reached a finite validation loss: no weights written "
                         "(try a lower learning rate)")
    p = best[2]
    model.p = p
    report.best_epoch = best[1]
    ev = _evaluate(model, d, val_rows)
    report.val_margin_mae = ev["margin_mae"]
    report.val_win_accuracy = ev["win_accuracy"]
    report.val_policy_ce = ev.get("policy", 0.0)
    report.val_policy_entropy = ev.get("policy_entropy", 0.0)
    report.val_policy_top1 = ev.get("policy_top1", 0.0)
    report.val_final_vp_mae = ev.get("final_vp_mae", 0.0)
    pred = ev["pred"]
    half = np.asarray(data["half_year"])[val]
    xv = d.x[val].astype(np.float64)
    m_val = d.margin[val]
    now = xv[:, MARGIN_SLOT[0]] - xv[:, MARGIN_SLOT[1]]
    for hy in range(1, 10):
        sel = half == hy
        if sel.any():
            report.by_half_year.append({
                "half_year": hy, "positions": int(sel.sum()),
                "margin_mae": float(np.mean(np.abs(pred[sel] - m_val[sel]))),
                "margin_rmse": float(np.sqrt(np.mean((pred[sel] - m_val[sel]) ** 2))),
                "score_now_mae": float(np.mean(np.abs(now[sel] - m_val[sel]))),
            })
    arrays = {"mean": mean, "inv_std": inv_std,
              **{k: p[k] for k in ("w0", "w1", "b1", "w2", "b2")}}
    assert tuple(arrays) == WEIGHT_ARRAYS
    for k in (POLICY_ARRAYS if policy else ()) + (AUX_ARRAYS if aux else ()):
        arrays[k] = p[k]
    return arrays, report


def _epoch_line(row: dict[str, float]) -> str:
    text = (f"epoch {int(row['epoch']):3d}  train loss {row['train_loss']:.4f}  "
            f"val loss {row['val_loss']:.4f}")
    if "val_win_accuracy" in row:
        text += (f"  margin MAE {row['val_margin_mae']:.2f} VP  win accuracy "
                 f"{row['val_win_accuracy']:.3f}")
    elif "val_margin_mae" in row:  # a solo model: its margin is the final score
        text += f"  score MAE {row['val_margin_mae']:.2f} VP"
    if "val_policy" in row:
        text += f"  policy CE {row['val_policy']:.3f}  top-1 {row['val_policy_top1']:.3f}"
    if "val_final_vp_mae" in row:
        text += f"  final VP MAE {row['val_final_vp_mae']:.2f}"
    return text


def data_players(data: dict[str, np.ndarray]) -> int:
    """The games of a training set: 1 when every position is of a solo game (datagen writes
    winner -1 there), 2 when none is; ValueError for a mix (a solo model predicts the final
    score, a two-player one the margin: one model cannot learn both)."""
    solo = np.asarray(data["winner"]) < 0
    if solo.all() and len(solo):
        return 1
    if solo.any():
        raise ValueError("the data mixes solo games and two-player games: a solo model "
                         "trains on solo games alone (arle datagen --players 1)")
    return 2


def train_files(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str],
                config: TrainConfig = TrainConfig(),
                log: Callable[[str], None] | None = None,
                figures: str | os.PathLike[str] | None = None,
                meta: dict[str, Any] | None = None) -> TrainReport:
    """Train on the datagen files `paths` (together, each holding out its own games) and write
    the weights of the best epoch to `out` (written only when training succeeded: a finite
    validation loss), and the report as JSON to `figures` if given. `meta` is added to the
    weights file's meta. ValueError names bad data or a failed run (nothing written then)."""
    names = [os.fspath(p) for p in paths]
    data = load_datasets(names)
    players = data_players(data)
    start = time.perf_counter()
    arrays, report = train(data, config, log=log)
    took = time.perf_counter() - start
    info = {"data": names[0] if len(names) == 1 else names, "config": asdict(config),
            "report": report.as_dict(), "seconds": round(took, 1), **(meta or {})}
    if players == 1:  # a solo model: its margin output is the final score (search.net)
        info["players"] = 1
    save_weights(out, arrays, info)
    if figures is not None:
        write_text(figures, json.dumps(dict(report.as_dict(), seconds=round(took, 1),
                                            weights=os.fspath(out)), indent=1))
    return report
