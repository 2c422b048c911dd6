"""Writing compressed numpy files atomically: the one writer of datagen files, their per-game
parts and value-net weights, so that an interrupted run never leaves a half-written file."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np

__all__ = ["write_npz"]


def write_npz(path: str | os.PathLike[str], arrays: Mapping[str, np.ndarray]) -> None:
    """Write `arrays` to `path` as a compressed .npz: to a temporary file next to it first,
    then renamed over `path` (a reader sees the old file or the whole new one)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
