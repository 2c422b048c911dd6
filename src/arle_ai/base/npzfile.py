"""Writing compressed numpy files atomically: the one writer of datagen files, their per-game
parts and value-net weights, so that an interrupted run, a power loss or a full disk never
leaves a half-written file (:func:`arle_ai.base.files.atomic_writer`)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy as np

from arle_ai.base.files import atomic_writer

__all__ = ["write_npz"]


def write_npz(path: str | os.PathLike[str], arrays: Mapping[str, np.ndarray]) -> None:
    """Write `arrays` to `path` as a compressed .npz: to a temporary file next to it first,
    synced to the disk, then renamed over `path` (a reader sees the old file or the whole new
    one)."""
    with atomic_writer(path) as fh:
        np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
