"""Training the value model (arle_ai.search.net) on self-play data (arle_ai.learn.datagen), in
numpy.

A multilayer perceptron with one ReLU hidden layer and a linear skip from the inputs learns,
from the features of a position seen by the player to decide, that player's final VP margin
(squared error, in units of ``margin_scale`` VP) and whether they win (logistic loss). The skip
starts as "the final margin is the score margin now", so the rest learns corrections to it.
Whole games are held out for validation (positions of one game are strongly correlated); the
weights of the epoch with the lowest validation loss are kept. Adam, minibatches, L2 weight
decay (towards the starting skip); seeded, so a run is reproducible on the same machine.

``target_blend`` X trains on soft targets: (1 - X) x the game's outcome (win 0/1, final margin)
+ X x the search's value and margin at the position (``root_value``, ``root_margin`` of a
format-2 datagen file), which are less noisy than one game's result. ``ignore`` drops the
feature slots whose names start with one of the prefixes (their normalisation zeroes them, so
the weights file keeps the engine's feature layout). The reported validation errors are always
against the final margin and the actual winner.
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from arle_ai.base.files import check_regular
from arle_ai.engine import _core
from arle_ai.search.net import WEIGHT_ARRAYS

__all__ = ["TrainConfig", "TrainReport", "train", "load_data", "load_datasets", "split_games",
           "split_by_source", "ignored_slots"]

SEARCH_TARGETS = ("root_value", "root_margin")
MARGIN_SLOT = (_core.FEATURE_NAMES.index("me.score.total"),
               _core.FEATURE_NAMES.index("opp.score.total"))


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

    def __post_init__(self) -> None:
        for name in ("hidden", "epochs", "batch"):
            v = getattr(self, name)
            if not isinstance(v, int) or v < 1:
                raise ValueError(f"{name} must be a positive integer, not {v!r}")
        if not 1 <= self.hidden <= 1024:
            raise ValueError(f"hidden must be 1..1024, not {self.hidden}")
        if not 0 < self.val_fraction < 1:
            raise ValueError(f"val_fraction must be between 0 and 1, not {self.val_fraction}")
        for name in ("lr", "margin_scale"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} must be positive, not {getattr(self, name)}")
        if not self.weight_decay >= 0:
            raise ValueError(f"weight_decay must be >= 0, not {self.weight_decay}")
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
    epochs: list[dict[str, float]] = field(default_factory=list)
    best_epoch: int = 0
    val_margin_mae: float = 0.0
    val_win_accuracy: float = 0.0
    by_half_year: list[dict[str, float]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def load_data(path: str | os.PathLike[str]) -> dict[str, np.ndarray]:
    """The arrays a training run needs from a datagen file (``root_value`` and
    ``root_margin`` too when it has them: format 2); ValueError names a problem."""
    need = ("features", "player", "half_year", "game", "margin", "winner")
    check_regular(path, ValueError, "datagen file")  # a fifo would block numpy's open
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in need if k not in z.files]
            if missing:
                raise ValueError(f"{path}: not a datagen file (missing {', '.join(missing)})")
            data = {k: z[k] for k in (*need, *SEARCH_TARGETS) if k in z.files}
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        if str(exc).startswith(f"{path}: "):
            raise
        raise ValueError(f"{path}: not a datagen file ({exc})") from None
    if data["features"].ndim != 2 or data["features"].shape[1] != _core.NUM_FEATURES:
        raise ValueError(f"{path}: features have shape {data['features'].shape}, the engine "
                         f"has {_core.NUM_FEATURES} features (made by another version?)")
    rows = len(data["features"])
    for k, v in data.items():
        if k != "features" and (v.ndim != 1 or len(v) != rows):
            raise ValueError(f"{path}: not a datagen file ({k} has shape {v.shape}, the "
                             f"features {rows} rows)")
    return data


def load_datasets(paths: list[str] | tuple[str, ...]) -> dict[str, np.ndarray]:
    """Several datagen files as one training set: their positions in file order, game ids made
    distinct (each file's shifted past the previous ones', order kept) and ``source`` (the
    file's index), by which :func:`train` holds out each file's own share of games, the games
    it would hold out of that file alone. The search's root targets are kept when every file
    has them."""
    if not paths:
        raise ValueError("no datagen file given")
    datas = [load_data(p) for p in paths]
    if len(datas) == 1:
        return datas[0]
    keys = [k for k in datas[0] if all(k in d for d in datas)]
    merged = {k: np.concatenate([d[k] for d in datas]) for k in keys if k != "game"}
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


def _forward(p: dict[str, np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = x @ p["w1"].T + p["b1"]
    h = np.maximum(a, 0.0)
    return h, x @ p["w0"].T + h @ p["w2"].T + p["b2"]


def _losses(y: np.ndarray, margin: np.ndarray, win: np.ndarray,
            scale: float) -> tuple[float, np.ndarray]:
    """Mean loss and its gradient with respect to the outputs (`win`: a probability)."""
    n = len(margin)
    d = (y[:, 0] - margin) / scale
    z = y[:, 1]
    bce = np.logaddexp(0.0, z) - win * z
    loss = float(np.mean(d * d) + np.mean(bce))
    g = np.empty_like(y)
    g[:, 0] = 2.0 * d / scale / n
    g[:, 1] = (1.0 / (1.0 + np.exp(-z)) - win) / n
    return loss, g


def _evaluate(p: dict[str, np.ndarray], x: np.ndarray, target: tuple[np.ndarray, np.ndarray],
              outcome: tuple[np.ndarray, np.ndarray],
              scale: float) -> tuple[float, float, float, np.ndarray]:
    """(loss against the (margin, win) `target`, margin MAE and win accuracy against the
    `outcome`, predicted margins)."""
    _, y = _forward(p, x)
    loss, _ = _losses(y, target[0], target[1], scale)
    mae = float(np.mean(np.abs(y[:, 0] - outcome[0])))
    acc = float(np.mean((y[:, 1] > 0) == (outcome[1] > 0.5)))
    return loss, mae, acc, y[:, 0]


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


def train(data: dict[str, np.ndarray], config: TrainConfig = TrainConfig(),
          log: Callable[[str], None] | None = None
          ) -> tuple[dict[str, np.ndarray], TrainReport]:
    """Fit the model; returns its arrays (net.WEIGHT_ARRAYS, raw-feature normalisation
    included) and the report. `log` gets one line per epoch."""
    x_all = np.asarray(data["features"], dtype=np.float64)
    margin_all = np.asarray(data["margin"], dtype=np.float64)
    win_all = (np.asarray(data["winner"]) == np.asarray(data["player"])).astype(np.float64)
    tm_all, tw_all = _targets(data, margin_all, win_all, config.target_blend)
    val = split_by_source(data, config.val_fraction, config.seed)
    tr = ~val
    mean = x_all[tr].mean(axis=0)
    std = x_all[tr].std(axis=0)
    inv_std = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 0.0)
    dropped = ignored_slots(config.ignore)
    mean[dropped] = 0.0
    inv_std[dropped] = 0.0
    xs = (x_all - mean) * inv_std
    x_tr, x_val = xs[tr], xs[val]
    m_tr, w_tr = tm_all[tr], tw_all[tr]
    val_target = (tm_all[val], tw_all[val])
    m_val, w_val = margin_all[val], win_all[val]
    rng = np.random.default_rng(config.seed)
    nin, nh, scale = x_all.shape[1], config.hidden, config.margin_scale
    win_rate = min(max(w_tr.mean(), 0.01), 0.99)
    w0 = np.zeros((2, nin))
    w0[0, MARGIN_SLOT[0]] = std[MARGIN_SLOT[0]]     # margin now = me's score - opp's score
    w0[0, MARGIN_SLOT[1]] = -std[MARGIN_SLOT[1]]
    prior = {"w0": w0.copy(), "w1": 0.0, "w2": 0.0}  # weight decay pulls towards these
    p = {
        "w0": w0,
        "w1": rng.normal(0.0, math.sqrt(2.0 / nin), size=(nh, nin)),
        "b1": np.zeros(nh),
        "w2": rng.normal(0.0, 0.01, size=(2, nh)),
        "b2": np.array([m_tr.mean(), math.log(win_rate / (1 - win_rate))]),
    }
    adam_m = {k: np.zeros_like(v) for k, v in p.items()}
    adam_v = {k: np.zeros_like(v) for k, v in p.items()}
    b1_, b2_, eps = 0.9, 0.999, 1e-8
    step = 0
    report = TrainReport(train_positions=int(tr.sum()), val_positions=int(val.sum()),
                         train_games=len(np.unique(data["game"][tr])),
                         val_games=len(np.unique(data["game"][val])))
    best = (math.inf, 0, {k: v.copy() for k, v in p.items()})
    n = len(x_tr)
    for epoch in range(1, config.epochs + 1):
        order = rng.permutation(n)
        total = 0.0
        for start in range(0, n, config.batch):
            idx = order[start:start + config.batch]
            xb = x_tr[idx]
            h, y = _forward(p, xb)
            loss, gy = _losses(y, m_tr[idx], w_tr[idx], scale)
            total += loss * len(idx)
            grads = {"w0": gy.T @ xb, "w2": gy.T @ h, "b2": gy.sum(axis=0)}
            gh = (gy @ p["w2"]) * (h > 0)
            grads["w1"] = gh.T @ xb
            grads["b1"] = gh.sum(axis=0)
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
        val_loss, val_mae, val_acc, _ = _evaluate(p, x_val, val_target, (m_val, w_val), scale)
        row = {"epoch": epoch, "train_loss": total / n, "val_loss": val_loss,
               "val_margin_mae": val_mae, "val_win_accuracy": val_acc}
        report.epochs.append(row)
        if log is not None:
            log(f"epoch {epoch:3d}  train loss {total / n:.4f}  val loss {val_loss:.4f}  "
                f"val margin MAE {val_mae:.2f} VP  val win accuracy {val_acc:.3f}")
        if val_loss < best[0]:
            best = (val_loss, epoch, {k: v.copy() for k, v in p.items()})
    p = best[2]
    report.best_epoch = best[1]
    _, mae, acc, pred = _evaluate(p, x_val, val_target, (m_val, w_val), scale)
    report.val_margin_mae = mae
    report.val_win_accuracy = acc
    half = np.asarray(data["half_year"])[val]
    now = (x_all[val][:, MARGIN_SLOT[0]] - x_all[val][:, MARGIN_SLOT[1]])
    for hy in range(1, 10):
        sel = half == hy
        if sel.any():
            report.by_half_year.append({
                "half_year": hy, "positions": int(sel.sum()),
                "margin_mae": float(np.mean(np.abs(pred[sel] - m_val[sel]))),
                "margin_rmse": float(np.sqrt(np.mean((pred[sel] - m_val[sel]) ** 2))),
                "score_now_mae": float(np.mean(np.abs(now[sel] - m_val[sel]))),
            })
    arrays = {"mean": mean, "inv_std": inv_std, "w0": p["w0"], "w1": p["w1"], "b1": p["b1"],
              "w2": p["w2"], "b2": p["b2"]}
    assert tuple(arrays) == WEIGHT_ARRAYS
    return arrays, report
