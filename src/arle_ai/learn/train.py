"""Training the model (arle_ai.search.net) on self-play data (arle_ai.learn.datagen), in numpy.

A multilayer perceptron with a trunk of ReLU hidden layers (``hidden`` units each, ``layers``
of them: one is the shipped weights' trunk, more make a weights file of format 3) and three
heads learns from the features of a position seen by the player to decide:

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
weights file and the training figures (JSON) out. The data's reading and checks are
:mod:`arle_ai.learn.dataset` (re-exported here), the model's forward pass and gradients
:mod:`arle_ai.learn.model`; this module is the training loop.
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

from arle_ai import engine
from arle_ai.base.files import write_text
from arle_ai.learn.dataset import (
    NCAT,
    NUM_ACTIONS,
    POLICY_DATA,
    SEARCH_TARGETS,
    VALUE_BOUNDS,
    check_values,
    data_players,
    final_breakdowns,
    ignored_slots,
    load_data,
    load_datasets,
    policy_mask,
    policy_table,
    policy_targets,
    split_by_source,
    split_games,
)
from arle_ai.learn.model import MARGIN_SLOT, Batch, Model, init_params
from arle_ai.search.net import (
    AUX_ARRAYS,
    LAYER_ARRAYS,
    MAX_LAYERS,
    POLICY_ARRAYS,
    WEIGHT_ARRAYS,
    save_weights,
)

__all__ = ["TrainConfig", "TrainReport", "train", "train_files", "feature_moments",
           "load_data", "load_datasets",
           "split_games", "split_by_source", "ignored_slots", "policy_targets", "policy_table",
           "policy_mask", "final_breakdowns", "data_players", "check_values", "VALUE_BOUNDS"]


@dataclass(frozen=True)
class TrainConfig:
    hidden: int = 64
    layers: int = 1                  # hidden layers of the trunk, `hidden` units each
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
        if (isinstance(self.layers, bool) or not isinstance(self.layers, int)
                or not 1 <= self.layers <= MAX_LAYERS):
            raise ValueError(f"layers must be 1..{MAX_LAYERS}, not {self.layers!r}")
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
                    name.startswith(prefix) for name in engine.FEATURE_NAMES):
                raise ValueError(f"ignore: no feature name starts with {prefix!r} (see "
                                 "docs/features.md)")



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



# ---- training ----

MOMENT_ROWS = 1 << 16   # rows of features converted to float64 at a time


def feature_moments(x: np.ndarray, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean and standard deviation of each feature over `rows` of `x`, in float64, a
    chunk at a time (a window of millions of positions would not fit twice in memory as
    float64). The sums run row after row into one accumulator, the order numpy's own
    ``mean(axis=0)`` and ``std(axis=0)`` take, so the figures are theirs bit for bit."""
    n = len(rows)
    total = np.zeros(x.shape[1])
    for start in range(0, n, MOMENT_ROWS):
        chunk = x[rows[start:start + MOMENT_ROWS]].astype(np.float64)
        total = np.add.reduce(np.concatenate([total[None], chunk]), axis=0)
    mean: np.ndarray = total / max(n, 1)
    squares = np.zeros(x.shape[1])
    for start in range(0, n, MOMENT_ROWS):
        dev = x[rows[start:start + MOMENT_ROWS]].astype(np.float64) - mean
        squares = np.add.reduce(np.concatenate([squares[None], dev * dev]), axis=0)
    std: np.ndarray = np.sqrt(squares / max(n, 1))
    return mean, std


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

    def batch(self, idx: np.ndarray, value_targets: str = "train") -> Batch:
        z = (self.x[idx] - self.mean) * self.inv_std
        if value_targets == "train":
            b = Batch(z=z, margin=self.t_margin[idx], win=self.t_win[idx])
        else:  # the outcome
            b = Batch(z=z, margin=self.margin[idx], win=self.win[idx])
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


def _evaluate(model: Model, d: _Data, rows: np.ndarray, batch: int = 4096
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
    mean, std = feature_moments(d.x, np.flatnonzero(tr))
    inv_std = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0)
    dropped = ignored_slots(config.ignore)
    mean[dropped] = 0.0
    inv_std[dropped] = 0.0
    d.mean, d.inv_std = mean, inv_std
    rng = np.random.default_rng(config.seed)
    aux_mean = None
    if aux:
        known = tr & d.aux_known
        aux_mean = (d.aux_target[known].mean(axis=0) if known.any()
                    else np.zeros(2 * NCAT))
    p, prior = init_params(d.x.shape[1], (config.hidden,) * config.layers, std,
                           float(d.t_margin[tr].mean()), float(d.t_win[tr].mean()), policy,
                           aux_mean, rng)
    model = Model(p, config, policy, aux)
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
    layer_names = tuple(k for pair in LAYER_ARRAYS[:config.layers - 1] for k in pair)
    for k in layer_names + (POLICY_ARRAYS if policy else ()) + (AUX_ARRAYS if aux else ()):
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
