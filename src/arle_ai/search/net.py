"""The learned value model: its weights file, the reference forward pass in numpy, and loading
it into the core (``_core.ValueNet``), where the search runs it from plain C arrays.

The model is a multilayer perceptron over ``GameState.features()`` (seen by the player to
decide)::

    z = (x - mean) * inv_std
    h = relu(w1 @ z + b1)
    y = w0 @ z + w2 @ h + b2   # y[0]: final VP margin of the player to decide; y[1]: win logit

(``w0`` is a linear skip from the inputs: with it the perceptron learns corrections to a linear
model.) A weights file is a numpy ``.npz`` holding ``mean``, ``inv_std``, ``w0``, ``w1``,
``b1``, ``w2``, ``b2``
(float32) and ``meta`` (a JSON string: the feature count and a digest of the feature names,
which must match the engine's, and how the model was trained). ``arle train`` writes them.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from arle_ai.base.files import check_regular
from arle_ai.base.jsontext import parse_json
from arle_ai.base.npzfile import write_npz
from arle_ai.engine import _core

__all__ = ["WEIGHT_ARRAYS", "DEFAULT_WEIGHTS_FILE", "features_digest", "save_weights",
           "load_weights", "load_net",
           "weights_digest", "default_net", "reference_outputs", "NetError"]

WEIGHT_ARRAYS = ("mean", "inv_std", "w0", "w1", "b1", "w2", "b2")
DEFAULT_WEIGHTS_FILE = "value_net.npz"
FORMAT = "arle-value-net/1"


class NetError(ValueError):
    """A weights file that cannot be used (missing, malformed, or for other features)."""


def features_digest() -> str:
    """A short digest of the feature layout (names in order): weights are tied to it."""
    text = "\n".join(_core.FEATURE_NAMES).encode()
    return hashlib.blake2b(text, digest_size=8).hexdigest()


def save_weights(path: str | os.PathLike[str], arrays: dict[str, np.ndarray],
                 meta: dict[str, Any] | None = None) -> None:
    """Write a weights file (compressed .npz; float32 arrays)."""
    info = dict(meta or {}, format=FORMAT, num_features=_core.NUM_FEATURES,
                features_digest=features_digest())
    out = {k: np.asarray(arrays[k], dtype=np.float32) for k in WEIGHT_ARRAYS}
    out["meta"] = np.array(json.dumps(info))
    write_npz(path, out)


def load_weights(path: str | os.PathLike[str]) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and metadata of a weights file; NetError names what is wrong."""
    if not os.path.lexists(path):
        raise NetError(f"{path}: no such weights file")
    check_regular(path, NetError, "weights file")  # a fifo would block numpy's open
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [k for k in (*WEIGHT_ARRAYS, "meta") if k not in z.files]
            if missing:
                raise NetError(f"{path}: not a value-net weights file (missing "
                               f"{', '.join(missing)})")
            raw = {k: z[k] for k in WEIGHT_ARRAYS}
            odd = [k for k, a in raw.items() if a.dtype.kind not in "biuf"]
            if odd:  # complex would lose its imaginary part, strings are no weights
                raise NetError(f"{path}: not a value-net weights file ({', '.join(odd)}: "
                               f"{raw[odd[0]].dtype} values, not real numbers)")
            arrays = {k: np.array(a, dtype=np.float64) for k, a in raw.items()}
            meta = parse_json(str(z["meta"]))  # a ValueError for deep nesting too
            if not isinstance(meta, dict):
                raise NetError(f"{path}: not a value-net weights file (meta is not a JSON "
                               f"object)")
    except NetError:
        raise
    except FileNotFoundError:
        raise NetError(f"{path}: no such weights file") from None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise NetError(f"{path}: not a value-net weights file ({exc})") from None
    if meta.get("features_digest") != features_digest():
        raise NetError(f"{path}: trained on other features (digest "
                       f"{meta.get('features_digest')!r}, the engine has {features_digest()!r})")
    return arrays, meta


def load_net(path: str | os.PathLike[str] | None = None) -> _core.ValueNet:
    """The core model of a weights file (default: the weights shipped with the package)."""
    if path is None:
        return default_net()
    arrays, _ = load_weights(path)
    try:
        return _core.ValueNet(*(arrays[k] for k in WEIGHT_ARRAYS))
    except ValueError as exc:
        raise NetError(f"{path}: {exc}") from None


def weights_digest(path: str | os.PathLike[str] | None = None) -> str:
    """A short digest of a weights file's arrays (default: the shipped weights): the same
    model gives the same digest whatever the file's name or compression."""
    arrays, _ = load_weights(default_weights_path() if path is None else path)
    h = hashlib.blake2b(digest_size=8)
    for k in WEIGHT_ARRAYS:
        a = np.ascontiguousarray(arrays[k], dtype=np.float32)
        h.update(k.encode() + str(a.shape).encode() + a.tobytes())
    return h.hexdigest()


_DEFAULT: list[_core.ValueNet] = []


def default_weights_path() -> Path:
    """The weights file shipped in the package (docs/benchmarks.md: how it was made)."""
    return Path(str(resources.files("arle_ai") / "data" / DEFAULT_WEIGHTS_FILE))


def default_net() -> _core.ValueNet:
    """The shipped model, loaded once."""
    if not _DEFAULT:
        _DEFAULT.append(load_net(default_weights_path()))
    return _DEFAULT[0]


def reference_outputs(arrays: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    """The model's outputs (n, 2) computed in numpy (float64): the reference the core's
    inference is tested against."""
    x = np.atleast_2d(np.asarray(features, dtype=np.float64))
    z = (x - arrays["mean"]) * arrays["inv_std"]
    h = np.maximum(z @ np.asarray(arrays["w1"], dtype=np.float64).T + arrays["b1"], 0.0)
    out: np.ndarray = (z @ np.asarray(arrays["w0"], dtype=np.float64).T
                       + h @ np.asarray(arrays["w2"], dtype=np.float64).T + arrays["b2"])
    return out
