"""The learned model: its weights file, the reference forward pass in numpy, and loading it
into the core (``engine.ValueNet``), where the search runs it from plain C arrays.

The model is a multilayer perceptron over ``GameState.features()`` (seen by the player to
decide), one trunk shared by its heads::

    z = (x - mean) * inv_std
    h = relu(w1 @ z + b1)                   # the trunk: one hidden layer, or more:
    h = relu(wh2 @ h + bh2)                 #   format 3's further layers (wh3, bh3 after)
    y = w0 @ z + w2 @ h + b2                # value: y[0] final VP margin of the player to
                                            # decide, y[1] the logit of their win
    logit = wp @ h + bp                     # policy: one logit per action id; the priors are
    prior = softmax(logit[legal] / T)       # a softmax over the legal actions only
    aux = wa0 @ z + wa @ h + ba             # final VP by scoring category, me's then opp's

(``w0`` is a linear skip from the inputs: with it the perceptron learns corrections to a linear
model.) A weights file is a numpy ``.npz`` holding the float32 arrays and ``meta``, a JSON
string with the format, the feature count and a digest of the feature names (which must match
the engine's), and how the model was trained. Formats (``meta["format"]``):

- ``arle-value-net/1``: the value model alone (``WEIGHT_ARRAYS``); a file without a format is
  one. It loads as a value-only model: the search's PUCT priors, if asked for, are then the
  heuristic's, and the default UCT search uses none.
- ``arle-value-net/2``: the value model plus the policy head (``POLICY_ARRAYS``: ``wp``
  (NUM_ACTIONS x hidden), ``bp``) and optionally the auxiliary head (``AUX_ARRAYS``: ``wa0``,
  ``wa``, ``ba``, one row per name of ``AUX_OUTPUTS``); ``meta`` adds ``num_actions`` and a
  digest of the action ids' meanings (``actions_digest``), which must match the engine's too.

- ``arle-value-net/3``: format 2 with a deeper trunk: ``meta["trunk"]`` lists the units of
  each hidden layer (2 or 3 layers), and the arrays ``wh2``, ``bh2`` (and ``wh3``, ``bh3``)
  are the further layers (``wh2``: units x units of the layer before); the heads read the
  last layer.

Any other format is refused by name (:class:`NetError`). ``arle train`` writes format 2 for a
trunk of one layer (the files of earlier versions) and format 3 for more.

A *solo model* is trained on solo games (``arle datagen --players 1``) and says so in its
meta (``"players": 1``): its value output ``y[0]`` is the player's final score (the solo
game's "margin"), ``y[1]`` unused. The search values solo positions with one
(``SearchConfig.solo_net``; default :data:`DEFAULT_SOLO_WEIGHTS_FILE` when the package ships
it) and two-player positions with a two-player model; :func:`load_net` refuses the one where
the other is asked for.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from arle_ai import engine
from arle_ai.base.jsontext import parse_json
from arle_ai.base.npzfile import NpzArchive, write_npz
from arle_ai.engine import rules
from arle_ai.text import notation

__all__ = ["WEIGHT_ARRAYS", "POLICY_ARRAYS", "AUX_ARRAYS", "AUX_OUTPUTS", "FORMATS",
           "LAYER_ARRAYS", "MAX_LAYERS", "trunk_layers",
           "DEFAULT_WEIGHTS_FILE", "features_digest", "actions_digest", "save_weights",
           "load_weights", "load_net", "weights_digest", "default_net", "default_arrays",
           "DEFAULT_SOLO_WEIGHTS_FILE", "default_solo_net", "model_players",
           "reference_outputs", "reference_trunk", "reference_policy", "reference_aux",
           "ScorePrediction", "predict_scores", "NetError"]

WEIGHT_ARRAYS = ("mean", "inv_std", "w0", "w1", "b1", "w2", "b2")   # the value model
POLICY_ARRAYS = ("wp", "bp")                                        # format 2's policy head
AUX_ARRAYS = ("wa0", "wa", "ba")                                    # format 2, optional
MAX_LAYERS = 3   # hidden layers of a trunk (the core's NET_LAYERS_MAX)
# format 3's further hidden layers, the second and third: (w, b) of each
LAYER_ARRAYS = tuple((f"wh{k}", f"bh{k}") for k in range(2, MAX_LAYERS + 1))
# the auxiliary head's outputs: the final VP of each scoring category (score_breakdown), of
# the player to decide ("me") and of the other ("opp")
AUX_OUTPUTS = tuple(f"{side}.{category}" for side in ("me", "opp")
                    for category in engine.SCORE_CATEGORIES)
DEFAULT_WEIGHTS_FILE = "value_net.npz"
DEFAULT_SOLO_WEIGHTS_FILE = "value_net_solo.npz"  # the solo model shipped (when it is)
FORMAT_1 = "arle-value-net/1"
FORMAT_2 = "arle-value-net/2"
FORMAT_3 = "arle-value-net/3"
FORMATS = (FORMAT_1, FORMAT_2, FORMAT_3)   # the formats this version reads (and writes)
MAX_WEIGHTS_BYTES = 64 << 20  # a model of 1,024 hidden units and its policy head: ~4 MiB


class NetError(ValueError):
    """A weights file that cannot be used (missing, malformed, or for other features)."""


def features_digest() -> str:
    """A short digest of the feature layout (names in order): weights are tied to it."""
    text = "\n".join(engine.FEATURE_NAMES).encode()
    return hashlib.blake2b(text, digest_size=8).hexdigest()


def actions_digest() -> str:
    """A short digest of what each action id means (the layout of the id ranges and the names
    they index): a policy head is tied to it."""
    text = json.dumps([rules.ACTION_RANGES, notation.GOODS, notation.SPACES, notation.TOOLS,
                       notation.BUILDINGS, notation.VEHICLES, notation.DESTINATIONS,
                       notation.FLIPS, notation.TILES, notation.LOAD_ITEMS]).encode()
    return hashlib.blake2b(text, digest_size=8).hexdigest()


def trunk_layers(arrays: dict[str, Any]) -> int:
    """How many hidden layers the trunk of `arrays` has (1 plus format 3's further ones)."""
    layers = 1
    for pair in LAYER_ARRAYS:
        if not all(k in arrays for k in pair):
            break
        layers += 1
    return layers


def _layer_names(layers: int) -> tuple[str, ...]:
    return tuple(k for pair in LAYER_ARRAYS[:layers - 1] for k in pair)


def _array_names(arrays: dict[str, Any]) -> tuple[str, ...]:
    """The weight arrays of a model in file order: the value model, the trunk's further
    layers, then the heads it has."""
    names: tuple[str, ...] = WEIGHT_ARRAYS + _layer_names(trunk_layers(arrays))
    if all(k in arrays for k in POLICY_ARRAYS):
        names += POLICY_ARRAYS
        if all(k in arrays for k in AUX_ARRAYS):
            names += AUX_ARRAYS
    return names


def save_weights(path: str | os.PathLike[str], arrays: dict[str, np.ndarray],
                 meta: dict[str, Any] | None = None) -> None:
    """Write a weights file (compressed .npz; float32 arrays): format 3 when `arrays` has
    further hidden layers (``wh2``, ...; then the policy head too), format 2 when it has the
    policy head (and then the auxiliary head too if it has it), else format 1 (value only).
    NetError, nothing written, when the core would refuse the arrays (not finite as float32,
    too large)."""
    names = _array_names(arrays)
    layers = trunk_layers(arrays)
    if layers > 1 and "wp" not in names:
        raise NetError(f"{path}: a trunk of {layers} layers needs the policy head (format 3)")
    fmt = FORMAT_3 if layers > 1 else FORMAT_2 if "wp" in names else FORMAT_1
    info = dict(meta or {}, format=fmt, num_features=engine.NUM_FEATURES,
                features_digest=features_digest())
    if layers > 1:
        info["trunk"] = [int(np.shape(arrays["w1"])[0])] + [
            int(np.shape(arrays[w])[0]) for w, _ in LAYER_ARRAYS[:layers - 1]]
    if "wp" in names:
        info.update(num_actions=engine.NUM_ACTIONS, actions_digest=actions_digest(),
                    aux_outputs=list(AUX_OUTPUTS) if "wa" in names else [])
    out = {k: np.asarray(arrays[k], dtype=np.float32) for k in names}
    # what eval=net would refuse is never written (a model trained on overflowing data)
    usable = {k: v.astype(np.float64) for k, v in out.items()}
    try:
        _core_net(path, usable)
        if "wa" in usable:
            _check_aux(path, usable)
    except NetError as exc:
        raise NetError(f"{exc}: the model cannot be used, so it was not written") from None
    out["meta"] = np.array(json.dumps(info))
    write_npz(path, out)


def load_weights(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and metadata of a weights file; NetError names what is wrong."""
    if not os.path.lexists(path):
        raise NetError(f"{path}: no such weights file")
    # every member's header is checked before its data is read (base/npzfile.py)
    with NpzArchive(path, NetError, "value-net weights file", MAX_WEIGHTS_BYTES) as z:
        z.require((*WEIGHT_ARRAYS, "meta"))
        try:
            meta = parse_json(str(z.read("meta")))  # a ValueError for deep nesting too
        except NetError:
            raise
        except ValueError as exc:
            raise NetError(f"{path}: not a value-net weights file (meta: {exc})") from None
        if not isinstance(meta, dict):
            raise NetError(f"{path}: not a value-net weights file (meta is not a JSON "
                           f"object)")
        names = _format_arrays(path, meta, list(z.headers))
        odd = [k for k in names if z.headers[k].dtype.kind not in "biuf"]
        if odd:  # complex would lose its imaginary part, strings are no weights
            raise NetError(f"{path}: not a value-net weights file ({', '.join(odd)}: "
                           f"{z.headers[odd[0]].dtype} values, not real numbers)")
        arrays = {k: np.array(z.read(k), dtype=np.float64) for k in names}
    if meta.get("features_digest") != features_digest():
        raise NetError(f"{path}: trained on other features (digest "
                       f"{meta.get('features_digest')!r}, the engine has {features_digest()!r})")
    if "wp" in arrays and meta.get("actions_digest") != actions_digest():
        raise NetError(f"{path}: its policy was trained on other action ids (digest "
                       f"{meta.get('actions_digest')!r}, the engine has {actions_digest()!r})")
    if meta.get("format") == FORMAT_3:
        _check_trunk(path, arrays, meta["trunk"])
    if "wa" in arrays:  # the trunk first (the core's checks name its arrays): the auxiliary
        _core_net(path, arrays)  # head's shapes follow from the trunk's last layer
        _check_aux(path, arrays)
    return arrays, meta


def _check_trunk(path: str | os.PathLike[str], arrays: dict[str, np.ndarray],
                 trunk: list[int]) -> None:
    """NetError unless each hidden layer's arrays have the units ``meta["trunk"]`` lists."""
    shapes: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = [
        ("w1", arrays["w1"].shape, (trunk[0], engine.NUM_FEATURES))]
    for k, (w, b) in enumerate(LAYER_ARRAYS[:len(trunk) - 1], start=1):
        shapes += [(w, arrays[w].shape, (trunk[k], trunk[k - 1])),
                   (b, arrays[b].shape, (trunk[k],))]
    for name, shape, want in shapes:
        if shape != want:
            raise NetError(f"{path}: {name} must have shape {want} for the trunk {trunk} "
                           f"(meta 'trunk'), not {shape}")


def _format_arrays(path: str | os.PathLike[str], meta: dict[str, Any],
                   files: list[str]) -> tuple[str, ...]:
    """The arrays a file of its format must hold (NetError for an unknown format or a missing
    array)."""
    fmt = meta.get("format", FORMAT_1)  # files from before the format field are format 1
    if fmt not in FORMATS:
        raise NetError(f"{path}: weights format {fmt!r} is not one this version reads "
                       f"({', '.join(FORMATS)})")
    names: tuple[str, ...] = WEIGHT_ARRAYS
    if fmt == FORMAT_3:
        trunk = meta.get("trunk")
        if (not isinstance(trunk, list) or not 2 <= len(trunk) <= MAX_LAYERS
                or not all(isinstance(u, int) and not isinstance(u, bool) for u in trunk)):
            raise NetError(f"{path}: a {fmt} weights file needs meta 'trunk', the units of "
                           f"each of its 2..{MAX_LAYERS} hidden layers (has {trunk!r})")
        names += _layer_names(len(trunk))
    if fmt in (FORMAT_2, FORMAT_3):
        names += POLICY_ARRAYS
        if any(k in files for k in AUX_ARRAYS):
            names += AUX_ARRAYS
    missing = [k for k in names if k not in files]
    if missing:
        raise NetError(f"{path}: a {fmt} weights file without {', '.join(missing)}")
    return names


def _check_aux(path: str | os.PathLike[str], arrays: dict[str, np.ndarray]) -> None:
    """NetError unless the auxiliary head fits the trunk and holds finite numbers (the core
    never sees it, so its checks are here)."""
    layers = trunk_layers(arrays)
    last = "w1" if layers == 1 else LAYER_ARRAYS[layers - 2][0]
    k, nin, nh = len(AUX_OUTPUTS), engine.NUM_FEATURES, arrays[last].shape[0]
    for name, shape in (("wa0", (k, nin)), ("wa", (k, nh)), ("ba", (k,))):
        if arrays[name].shape != shape:
            raise NetError(f"{path}: {name} must have shape {shape}, not "
                           f"{arrays[name].shape}")
        if not np.all(np.isfinite(arrays[name])):
            raise NetError(f"{path}: {name} holds a value that is not finite")


def model_players(meta: dict[str, Any]) -> int:
    """The games a model was trained on: 1 (a solo model) or 2 (no ``players`` in meta)."""
    players = meta.get("players", 2)
    return players if players in (1, 2) and not isinstance(players, bool) else 2


def load_net(path: str | os.PathLike[str] | None = None, players: int = 2) -> engine.ValueNet:
    """The core model of a weights file (default: the weights shipped with the package), a
    model of ``players`` (1: a solo model; NetError names a file of the other kind)."""
    if path is None:
        if players == 1:
            solo = default_solo_net()
            if solo is None:
                raise NetError("no solo model is shipped with this package: give a solo "
                               "model's weights file (arle datagen --players 1, arle train)")
            return solo
        return default_net()
    arrays, meta = load_weights(path)
    if model_players(meta) != players:
        kinds = {1: "a solo model (trained on solo games)", 2: "a two-player model"}
        raise NetError(f"{path}: {kinds[model_players(meta)]}, where {kinds[players]} is "
                       f"needed")
    return _core_net(path, arrays)


def _core_net(path: str | os.PathLike[str], arrays: dict[str, np.ndarray]) -> engine.ValueNet:
    """The core model of loaded arrays (NetError names what the core refuses)."""
    mean, inv_std, w0, w1, b1, w2, b2 = (arrays[k] for k in WEIGHT_ARRAYS)
    wp, bp = (arrays.get(k) for k in POLICY_ARRAYS)
    layers = [(arrays[w], arrays[b]) for w, b in LAYER_ARRAYS[:trunk_layers(arrays) - 1]]
    try:
        return engine.ValueNet(mean, inv_std, w0, w1, b1, w2, b2, wp, bp, layers=layers)
    except ValueError as exc:
        raise NetError(f"{path}: {exc}") from None


def weights_digest(path: str | os.PathLike[str] | None = None) -> str:
    """A short digest of a weights file's arrays (default: the shipped weights): the same
    model gives the same digest whatever the file's name or compression."""
    arrays, _ = load_weights(default_weights_path() if path is None else path)
    h = hashlib.blake2b(digest_size=8)
    for k in _array_names(arrays):   # a format-1 file's digest is what it was before format 2
        a = np.ascontiguousarray(arrays[k], dtype=np.float32)
        h.update(k.encode() + str(a.shape).encode() + a.tobytes())
    return h.hexdigest()


_DEFAULT: list[engine.ValueNet] = []
_DEFAULT_ARRAYS: list[dict[str, np.ndarray]] = []


def default_weights_path() -> Path:
    """The weights file shipped in the package (docs/benchmarks.md: how it was made)."""
    return Path(str(resources.files("arle_ai") / "data" / DEFAULT_WEIGHTS_FILE))


def default_net() -> engine.ValueNet:
    """The shipped model, loaded once."""
    if not _DEFAULT:
        _DEFAULT.append(_core_net(default_weights_path(), default_arrays()))
    return _DEFAULT[0]


_DEFAULT_SOLO: list[engine.ValueNet | None] = []


def default_solo_weights_path() -> Path:
    """Where the package ships its solo model (docs/benchmarks.md: how it was made)."""
    return Path(str(resources.files("arle_ai") / "data" / DEFAULT_SOLO_WEIGHTS_FILE))


def default_solo_net() -> engine.ValueNet | None:
    """The shipped solo model, loaded once; None when the package ships none (the search
    then values solo positions by the static evaluation)."""
    if not _DEFAULT_SOLO:
        path = default_solo_weights_path()
        _DEFAULT_SOLO.append(load_net(path, players=1) if path.exists() else None)
    return _DEFAULT_SOLO[0]


def default_arrays() -> dict[str, np.ndarray]:
    """The shipped model's arrays (float64), loaded once: do not change them."""
    if not _DEFAULT_ARRAYS:
        _DEFAULT_ARRAYS.append(load_weights(default_weights_path())[0])
    return _DEFAULT_ARRAYS[0]


def _inputs(arrays: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    x = np.atleast_2d(np.asarray(features, dtype=np.float64))
    z: np.ndarray = (x - arrays["mean"]) * arrays["inv_std"]
    return z


def _f64(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float64)


def reference_trunk(arrays: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    """The trunk's hidden units (n, hidden) for raw features (n, NUM_FEATURES), in numpy."""
    z = _inputs(arrays, features)
    h: np.ndarray = np.maximum(z @ _f64(arrays["w1"]).T + arrays["b1"], 0.0)
    for w, b in LAYER_ARRAYS[:trunk_layers(arrays) - 1]:
        h = np.maximum(h @ _f64(arrays[w]).T + arrays[b], 0.0)
    return h


def reference_outputs(arrays: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    """The model's value outputs (n, 2: margin, win logit) computed in numpy (float64): the
    reference the core's inference is tested against."""
    z = _inputs(arrays, features)
    h = reference_trunk(arrays, features)
    out: np.ndarray = z @ _f64(arrays["w0"]).T + h @ _f64(arrays["w2"]).T + arrays["b2"]
    return out


def reference_policy(arrays: dict[str, np.ndarray], features: np.ndarray, legal: np.ndarray,
                     temperature: float = 1.0) -> np.ndarray:
    """The policy's priors (n, NUM_ACTIONS) in numpy: a softmax of the logits / temperature
    over the ids `legal` marks (a boolean (n, NUM_ACTIONS) mask), 0 elsewhere."""
    h = reference_trunk(arrays, features)
    logits = (h @ _f64(arrays["wp"]).T + arrays["bp"]) / temperature
    mask = np.atleast_2d(np.asarray(legal, dtype=bool))
    logits = np.where(mask, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(logits), 0.0)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def reference_aux(arrays: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    """The auxiliary head's outputs (n, len(AUX_OUTPUTS)) in numpy: final VP by category."""
    z = _inputs(arrays, features)
    h = reference_trunk(arrays, features)
    out: np.ndarray = z @ _f64(arrays["wa0"]).T + h @ _f64(arrays["wa"]).T + arrays["ba"]
    return out


@dataclass(frozen=True)
class ScorePrediction:
    """What the model expects a game to end with, by seat: each player's final VP by scoring
    category (``score_breakdown``'s names) and in all, plus the value head's margin and win
    probability for player 0."""

    by_category: tuple[dict[str, float], dict[str, float]]
    final_vp: tuple[float, float]
    margin0: float
    win0: float


def predict_scores(states: engine.GameState | Sequence[engine.GameState],
                   path: str | os.PathLike[str] | None = None
                   ) -> ScorePrediction | list[ScorePrediction]:
    """The model's prediction of the final score of each position (one state, or a list of
    them: a list), from the auxiliary head of the weights file `path` (default: the shipped
    weights). Compare two positions (after two candidate moves) to see in which categories the
    model expects one to score more. NetError if the weights have no auxiliary head."""
    arrays = default_arrays() if path is None else load_weights(path)[0]
    if "wa" not in arrays:
        raise NetError(f"{path or default_weights_path()}: the model has no auxiliary head "
                       f"(final VP by category)")
    seq = [states] if isinstance(states, engine.GameState) else list(states)
    if not seq:
        return []
    feats = engine.features_batch(seq)
    aux = reference_aux(arrays, feats)
    value = reference_outputs(arrays, feats)
    k = len(engine.SCORE_CATEGORIES)
    out = []
    for s, row, (m, z) in zip(seq, aux, value, strict=True):
        me = s.current_player if s.current_player is not None else 0
        parts = [dict(zip(engine.SCORE_CATEGORIES, (float(v) for v in row[:k]), strict=True)),
                 dict(zip(engine.SCORE_CATEGORIES, (float(v) for v in row[k:]), strict=True))]
        seats = (parts[0], parts[1]) if me == 0 else (parts[1], parts[0])
        win = float(1.0 / (1.0 + np.exp(-z)))
        out.append(ScorePrediction(by_category=seats,
                                   final_vp=(sum(seats[0].values()), sum(seats[1].values())),
                                   margin0=float(m if me == 0 else -m),
                                   win0=win if me == 0 else 1.0 - win))
    return out[0] if isinstance(states, engine.GameState) else out
