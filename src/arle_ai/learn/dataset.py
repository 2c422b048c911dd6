"""Self-play data as a training set (arle_ai.learn.datagen's files): reading and checking
the files, joining several, holding out whole games, and the targets rebuilt from the stored
raw positions (the legal actions under each policy target, each game's final VP by scoring
category). Nothing here knows the model; :mod:`arle_ai.learn.train` fits it on what this
module gives."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from arle_ai import engine
from arle_ai.base.npzfile import NpzArchive

__all__ = ["load_data", "load_datasets", "check_values", "VALUE_BOUNDS", "split_games",
           "split_by_source", "ignored_slots", "policy_table", "policy_mask",
           "policy_targets", "final_breakdowns", "data_players", "SEARCH_TARGETS",
           "POLICY_DATA", "TARGET_DATA", "CATEGORIES", "NCAT", "NUM_ACTIONS"]

SEARCH_TARGETS = ("root_value", "root_margin")
POLICY_DATA = ("positions", "visit_ptr", "visit_action", "visit_count")
# the search's improved policy and which positions carry it (datagen's policy targets: the
# visit shares or a Gumbel root's completed-Q policy; cheap searches of playout caps carry none)
TARGET_DATA = ("policy_mask", "policy_ptr", "policy_action", "policy_prob")
_TABLES = ("visit_ptr", "visit_action", "visit_count", "policy_ptr", "policy_action",
           "policy_prob")
CATEGORIES = engine.SCORE_CATEGORIES
NCAT = len(CATEGORIES)
NUM_ACTIONS = engine.NUM_ACTIONS


def ignored_slots(prefixes: tuple[str, ...]) -> np.ndarray:
    """A boolean mask of the feature slots whose names start with one of `prefixes`."""
    return np.array([name.startswith(tuple(prefixes)) for name in engine.FEATURE_NAMES],
                    dtype=bool)



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
        if len(shape) != 2 or shape[1] != engine.NUM_FEATURES:
            raise ValueError(f"{path}: features have shape {shape}, the engine has "
                             f"{engine.NUM_FEATURES} features (made by another version?)")
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
    if len(paths) == 1:
        return load_data(paths[0])
    # the large per-position arrays are copied into arrays of the whole set file by file, so
    # that a window of many files never holds them twice
    heads = [_headers(p) for p in paths]
    rows = [int(h["features"].shape[0]) for h in heads]
    big = {k: np.empty((sum(rows), *heads[0][k].shape[1:]), dtype=heads[0][k].dtype)
           for k in _LARGE if all(k in h and h[k].shape[1:] == heads[0][k].shape[1:]
                                  for h in heads)}
    datas = []
    at = 0
    for path, n in zip(paths, rows, strict=True):
        d = load_data(path)
        for k, whole in big.items():
            whole[at:at + n] = d.pop(k)
        at += n
        datas.append(d)
    keys = [k for k in datas[0] if all(k in d for d in datas)]
    merged = {k: np.concatenate([d[k] for d in datas]) for k in keys
              if k not in ("game", "visit_ptr", "policy_ptr")}
    merged.update(big)
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


_LARGE = ("features", "positions")   # the per-position arrays that dominate a set's memory
_LEGAL_ROWS = 1 << 15   # positions whose legal actions are unpacked at a time


def _headers(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The member headers of a datagen file (shapes and types, no data; ValueError names a
    file that is not one)."""
    with NpzArchive(path, ValueError, "datagen file") as z:
        z.require(("features",))
        return dict(z.headers)


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


def _state(row: np.ndarray) -> engine.GameState:
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
    ptr, act, cnt = policy_table(data)
    rows = np.repeat(np.arange(n), np.diff(ptr))
    packed = np.zeros((n, (NUM_ACTIONS + 7) // 8), dtype=np.uint8)
    for lo in range(0, n, _LEGAL_ROWS):   # a chunk at a time: n x NUM_ACTIONS bools is large
        hi = min(n, lo + _LEGAL_ROWS)
        legal = np.zeros((hi - lo, NUM_ACTIONS), dtype=bool)
        for i in range(lo, hi):
            legal[i - lo, _state(data["positions"][i]).legal_actions()] = True
        a, b = int(ptr[lo]), int(ptr[hi])
        if b > a and not legal[rows[a:b] - lo, act[a:b]].all():
            bad = int(rows[a:b][~legal[rows[a:b] - lo, act[a:b]]][0])
            raise ValueError(f"position {bad}: a visited action is not legal there (data of "
                             f"another engine version?)")
        packed[lo:hi] = np.packbits(legal, axis=1)
    totals = np.add.reduceat(cnt, ptr[:-1]) if n else np.zeros(0)
    shares = (cnt / np.maximum(totals[rows], 1e-300)).astype(np.float32)
    return packed, shares


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

