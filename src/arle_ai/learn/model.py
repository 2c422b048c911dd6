"""The model being trained (the multilayer perceptron of :mod:`arle_ai.search.net`), in numpy:
its parameters, their starting values, the forward pass and the gradients of the training
loss of each head. The trunk has one hidden layer or more (``layers``); the heads read its
last layer. Training itself (batches, Adam, validation) is :mod:`arle_ai.learn.train`."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from arle_ai import engine
from arle_ai.learn.dataset import NCAT, NUM_ACTIONS
from arle_ai.search.net import LAYER_ARRAYS

__all__ = ["Batch", "Model", "LossSettings", "init_params", "MARGIN_SLOT", "AUX_SLOTS"]

MARGIN_SLOT = (engine.FEATURE_NAMES.index("me.score.total"),
               engine.FEATURE_NAMES.index("opp.score.total"))
# the feature slot of each auxiliary output's score now (me's categories, then opp's)
AUX_SLOTS = tuple(engine.FEATURE_NAMES.index(f"{side}.score.{c}")
                  for side in ("me", "opp") for c in engine.SCORE_CATEGORIES)


class LossSettings(Protocol):
    """What the loss needs of a training configuration (TrainConfig has it)."""

    @property
    def margin_scale(self) -> float: ...
    @property
    def policy_weight(self) -> float: ...
    @property
    def aux_weight(self) -> float: ...
    @property
    def aux_scale(self) -> float: ...


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
class Batch:
    """One minibatch's normalised inputs and targets."""

    z: np.ndarray
    margin: np.ndarray
    win: np.ndarray
    legal: np.ndarray | None = None       # (b, NUM_ACTIONS) bool
    pi: np.ndarray | None = None          # (b, NUM_ACTIONS) visit shares
    pi_mask: np.ndarray | None = None     # (b,) the positions that carry a policy target
    aux: np.ndarray | None = None         # (b, 2 * NCAT)
    aux_known: np.ndarray | None = None   # (b,) bool


def _further_layers(p: dict[str, np.ndarray]) -> list[tuple[str, str]]:
    """The names (w, b) of the trunk's layers after the first that `p` holds."""
    return [pair for pair in LAYER_ARRAYS if pair[0] in p]


class Model:
    """The parameters, the forward pass and the gradients of the training loss."""

    def __init__(self, p: dict[str, np.ndarray], config: LossSettings, policy: bool,
                 aux: bool) -> None:
        self.p = p
        self.config = config
        self.policy = policy
        self.aux = aux

    def forward(self, z: np.ndarray) -> dict[str, np.ndarray]:
        p = self.p
        a1 = z @ p["w1"].T + p["b1"]
        h = np.maximum(a1, 0.0)
        out = {"h1": h}
        for k, (w, b) in enumerate(_further_layers(p), start=2):
            h = np.maximum(h @ p[w].T + p[b], 0.0)
            out[f"h{k}"] = h
        out.update(h=h, y=z @ p["w0"].T + h @ p["w2"].T + p["b2"])
        if self.policy:
            out["logits"] = h @ p["wp"].T + p["bp"]
        if self.aux:
            out["aux"] = z @ p["wa0"].T + h @ p["wa"].T + p["ba"]
        return out

    def losses(self, b: Batch, out: dict[str, np.ndarray], grad: bool
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
        for layer in range(len(_further_layers(p)) + 1, 1, -1):   # further layers, back
            w_name, b_name = LAYER_ARRAYS[layer - 2]
            gh *= out[f"h{layer}"] > 0
            grads[w_name] = gh.T @ out[f"h{layer - 1}"]
            grads[b_name] = gh.sum(axis=0)
            gh = gh @ p[w_name]
        gh *= out["h1"] > 0
        grads["w1"] = gh.T @ z
        grads["b1"] = gh.sum(axis=0)
        return loss, grads

    def total(self, loss: dict[str, float]) -> float:
        c = self.config
        return (loss["value"] + c.policy_weight * loss.get("policy", 0.0)
                + c.aux_weight * loss.get("aux", 0.0))


def init_params(nin: int, trunk: tuple[int, ...], std: np.ndarray, margin_mean: float,
                win_rate: float, policy: bool, aux_mean: np.ndarray | None,
                rng: np.random.Generator
                ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Starting parameters and the values weight decay pulls towards: the skips start as
    "the final margin (each category's final VP) is the score (its VP) now", the layers He
    initialised, the heads near zero. `trunk`: the units of each hidden layer; `std` the
    features' standard deviations; `aux_mean` the auxiliary targets' means (None: no
    auxiliary head)."""
    nh = trunk[-1]
    win_rate = min(max(win_rate, 0.01), 0.99)
    w0 = np.zeros((2, nin))
    w0[0, MARGIN_SLOT[0]] = std[MARGIN_SLOT[0]]     # margin now = me's score - opp's score
    w0[0, MARGIN_SLOT[1]] = -std[MARGIN_SLOT[1]]
    p = {
        "w0": w0,
        "w1": rng.normal(0.0, math.sqrt(2.0 / nin), size=(trunk[0], nin)),
        "b1": np.zeros(trunk[0]),
    }
    prior = {"w0": w0.copy(), "w1": np.zeros(1), "w2": np.zeros(1)}
    for k in range(1, len(trunk)):
        w, b = LAYER_ARRAYS[k - 1]
        p[w] = rng.normal(0.0, math.sqrt(2.0 / trunk[k - 1]), size=(trunk[k], trunk[k - 1]))
        p[b] = np.zeros(trunk[k])
        prior[w] = np.zeros(1)
    p["w2"] = rng.normal(0.0, 0.01, size=(2, nh))
    p["b2"] = np.array([margin_mean, math.log(win_rate / (1 - win_rate))])
    if policy:
        p["wp"] = rng.normal(0.0, 0.01, size=(NUM_ACTIONS, nh))
        p["bp"] = np.zeros(NUM_ACTIONS)
        prior["wp"] = np.zeros(1)
    if aux_mean is not None:
        wa0 = np.zeros((2 * NCAT, nin))
        for k, slot in enumerate(AUX_SLOTS):    # final VP of a category = its VP now
            wa0[k, slot] = std[slot]
        p["wa0"] = wa0
        p["wa"] = rng.normal(0.0, 0.01, size=(2 * NCAT, nh))
        p["ba"] = aux_mean.astype(np.float64)
        prior["wa0"] = wa0.copy()
        prior["wa"] = np.zeros(1)
    return p, prior
