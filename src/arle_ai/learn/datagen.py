"""Training data from self-play: seeded games of MCTS against itself, every searched position
kept with its features and targets, written to one compressed numpy file.

Game ``g`` (0-based) of a run with seed ``S`` is set up from seed ``S + g`` and searched with
seed ``S * 1_000_003 + g`` at a fixed iteration budget, so it is the same game whatever the
number of worker processes and however often the run was interrupted. Each finished game is
written to ``OUT.parts/game-NNNNNN.npz`` at once (a run that is started again skips those), and
when all are there they are merged, in game order, into ``OUT``. The first ``explore``
decisions of a game are drawn in proportion to the root visit counts (seeded) instead of
taking the most visited action, so that games from one setup differ.

The merged file holds, for n positions (decisions with a choice, in game order):

- ``features`` (n, NUM_FEATURES) float32: ``GameState.features()`` seen by the player to decide
- ``positions`` (n, STATE_BYTES) uint8: the raw state (``position_from_row`` rebuilds it)
- ``player``, ``half_year`` (n,) int8; ``game`` (n,) int32; ``ply`` (n,) int16
- ``final_vp`` (n, 2) float32: the final VP of player 0 and player 1
- ``margin`` (n,) float32: the final VP margin of the player to decide
- ``winner`` (n,) int8: the player who won the game
- ``root_value`` (n,) float32: the search's value of the position for the player to decide
  (the visit-weighted mean over the root's actions, 0..1), a target to blend with the outcome
- ``root_margin`` (n,) float32: likewise the search's mean VP margin for that player
- ``visit_ptr`` (n + 1,) int64, ``visit_action`` int16, ``visit_count`` int32: the root visit
  distribution over action ids, position i's entries at ``visit_ptr[i]:visit_ptr[i + 1]``
  (see :func:`visit_distribution`)
- ``meta``: a JSON string with the run's settings and ``format``

A run of solo games (``players=1``, recorded in ``meta``) keeps the same arrays: ``margin`` is
the player's final score (the solo game's "margin", as the search's), ``final_vp`` the score
and 0, ``winner`` -1 (a solo game has none), ``root_margin`` the search's mean score. A solo
model (the one the search values solo positions with) is trained on such data alone.

The search is pinned per ``leaf`` (``SEARCHES``), whatever the agents' defaults are, so a run's
data does not change with them: ``leaf="heuristic"`` (the default, which made the shipped
weights' first data) searches with heuristic rollouts truncated after 2 half-years, comparing 4
candidate moves per decision (``SEARCH_SAMPLE``); ``leaf="net"`` searches as the default agent
of 2026-12-04 does, a uniformly random rollout of 2 half-years valued by a value model: the
weights file ``net`` (default: the shipped weights), whose digest the run records (the next
round of learning from self-play: data made by the current model); ``leaf="model"`` has that
model value each leaf itself, without a rollout (issue 33's default search). In solo games
``net`` is a solo model (default: the one shipped, if any); a two-player model is refused
there by name, as a solo model is in two-player games. Files of format 1 (before
``root_value`` and ``root_margin``) still load for training on the outcome alone.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from arle_ai import engine
from arle_ai.base import files, procs
from arle_ai.base.jsontext import parse_json
from arle_ai.base.npzfile import NpzArchive, write_npz
from arle_ai.play.tournament import Runner
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.heuristics import DEFAULT_WEIGHTS
from arle_ai.search.mcts import MCTS
from arle_ai.search.net import (
    default_solo_weights_path,
    default_weights_path,
    load_net,
    weights_digest,
)
from arle_ai.search.root import completed_q_policy, visit_policy

__all__ = ["DamagedPart", "DatagenConfig", "generate", "play_game", "position_from_row",
           "visit_distribution", "merge_parts", "parts_dir"]

FORMAT = "arle-selfplay-data/2"
SEARCHES: dict[str, dict[str, Any]] = {
    "heuristic": {"leaf": "rollout", "rollout": "heuristic", "horizon": 2},
    "net": {"leaf": "net", "rollout": "random", "net_horizon": 2},
    "model": {"leaf": "net", "net_horizon": None},
}
MODEL_LEAVES = ("net", "model")   # the searches a value model values (its file: ``net``)
SEARCH = SEARCHES["heuristic"]  # the search of the shipped weights' first data
# the heuristic policy's candidates per decision when the shipped weights' data was made
# (Weights.sample's default was 4 then), pinned so that a seed still gives the same games
SEARCH_SAMPLE = 4.0
MAX_SEED = 2**31 - 1  # keeps every derived setup and search seed well inside int64
_BASE_ARRAYS = ("features", "positions", "player", "half_year", "game", "ply", "final_vp",
                "margin", "winner", "root_value", "root_margin", "visit_ptr", "visit_action",
                "visit_count")
_POLICY_ARRAYS = ("policy_mask", "policy_ptr", "policy_action", "policy_prob")
_ARRAYS = _BASE_ARRAYS + _POLICY_ARRAYS
_TABLES = ("visit_ptr", "visit_action", "visit_count", "policy_ptr", "policy_action",
           "policy_prob")  # not one row per position
_PTRS = {"visit_ptr", "policy_ptr"}
# settings added after the first runs, with the value those runs had
_LATER_DEFAULTS: dict[str, Any] = {"puct": None, "c": 0.9, "root_noise": "none",
                                   "temperature": 1.0, "full_share": 1.0,
                                   "cheap_iterations": 0}


@dataclass(frozen=True)
class DatagenConfig:
    """The settings that make a run's games: the same settings give the same games."""

    games: int = 100
    seed: int = 0
    iterations: int = 200
    explore: int = 24
    variant: str = "standard"
    leaf: str = "heuristic"
    net: str | None = None  # leaf="net": a weights file (None: the shipped weights)
    # the search and the self-play targets (docs/learning.md); the defaults make the data of
    # the runs before these settings, game for game
    puct: bool | None = None       # PUCT (None: with a policy head or root noise; SearchConfig)
    c: float = 0.9
    root_noise: str = "none"       # "dirichlet" or "gumbel" (SearchConfig.root_noise)
    temperature: float = 1.0       # the first `explore` decisions: drawn by target ** (1/t)
    full_share: float = 1.0        # playout caps: the share of full searches (the rest cheap)
    cheap_iterations: int = 0      # iterations of a cheap search (full_share < 1)
    players: int = 2               # 1: solo games (a solo model's data)

    def __post_init__(self) -> None:
        for name in ("games", "iterations"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, not {value!r}")
        if not isinstance(self.seed, int) or not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer in 0..{MAX_SEED}, not {self.seed!r}")
        if not isinstance(self.explore, int) or self.explore < 0:
            raise ValueError(f"explore must be a non-negative integer, not {self.explore!r}")
        if self.variant not in ("standard", "first-game"):
            raise ValueError(f"variant must be 'standard' or 'first-game', not {self.variant!r}")
        if self.leaf not in SEARCHES:
            raise ValueError(f"leaf must be one of {tuple(SEARCHES)}, not {self.leaf!r}")
        if self.net is not None and self.leaf not in MODEL_LEAVES:
            raise ValueError("net (a weights file) is for leaf='net' or 'model' only")
        if isinstance(self.players, bool) or self.players not in engine.PLAYER_COUNTS:
            raise ValueError(f"players must be 1 (solo games) or 2, not {self.players!r}")
        if not (isinstance(self.temperature, int | float) and not isinstance(
                self.temperature, bool) and 0 < self.temperature <= 100):
            raise ValueError(f"temperature must be a number in (0, 100], not "
                             f"{self.temperature!r}")
        if not (isinstance(self.full_share, int | float) and 0 < self.full_share <= 1):
            raise ValueError(f"full_share must be in (0, 1], not {self.full_share!r}")
        if self.full_share < 1:
            if (isinstance(self.cheap_iterations, bool) or not isinstance(
                    self.cheap_iterations, int)
                    or not 1 <= self.cheap_iterations < self.iterations):
                raise ValueError(f"cheap_iterations must be an integer in 1.."
                                 f"{self.iterations - 1} (fewer than a full search's "
                                 f"iterations), not {self.cheap_iterations!r}")
        elif self.cheap_iterations != 0:
            raise ValueError("cheap_iterations is for full_share < 1 (playout caps) only")
        self.search_config(0)  # the search options' own checks (c, puct, root_noise)

    def search_config(self, g: int) -> SearchConfig:
        """The search of game `g` (solo games: `net` is the solo model)."""
        solo = self.players == 1
        return SearchConfig(**SEARCHES[self.leaf], net=None if solo else self.net,
                            solo_net=self.net if solo else None,
                            seed=self.seed * 1_000_003 + g,
                            weights=DEFAULT_WEIGHTS.with_(sample=SEARCH_SAMPLE),
                            c=self.c, puct=self.puct, root_noise=self.root_noise)

    def search_settings(self) -> dict[str, Any]:
        """The search options of the run's games, as recorded in the data's meta."""
        settings = dict(SEARCHES[self.leaf], sample=SEARCH_SAMPLE, c=self.c, puct=self.puct,
                        root_noise=self.root_noise)
        if self.leaf in MODEL_LEAVES:
            settings["net_digest"] = weights_digest(self.model_file())
            settings["net_file"] = (os.path.basename(self.net) if self.net is not None
                                    else "(shipped) " + self.model_file().name)
        return settings

    def model_file(self) -> Path:
        """leaf "net" or "model": the weights file that values the run's positions, `net` or
        the model shipped for its games (two-player or solo)."""
        if self.net is not None:
            return Path(self.net)
        return default_solo_weights_path() if self.players == 1 else default_weights_path()

    def check_model(self) -> None:
        """leaf "net" or "model": NetError naming a model that cannot value the run's games
        (a two-player model for solo games, a solo model for two-player games, a bad file, no
        solo model shipped), before any game is played."""
        if self.leaf in MODEL_LEAVES:
            load_net(self.net, players=self.players)


def parts_dir(out: str | os.PathLike[str]) -> Path:
    """The folder of a run's finished games (one file each)."""
    return Path(f"{os.fspath(out)}.parts")


def _part_path(out: str | os.PathLike[str], g: int) -> Path:
    return parts_dir(out) / f"game-{g:06d}.npz"


def play_game(config: DatagenConfig, g: int) -> dict[str, np.ndarray]:
    """Play game `g` of the run and return its positions and targets (arrays as in the
    merged file, with visit and policy offsets starting at 0)."""
    state = engine.GameState.new(config.seed + g, config.variant, config.players)
    full_budget = Budget(iterations=config.iterations)
    cheap_budget = Budget(iterations=config.cheap_iterations or config.iterations)
    search = MCTS(config.search_config(g), full_budget)
    rng = random.Random(config.seed * 7_919 + g)
    caps = random.Random(config.seed * 104_729 + g)  # which searches are full
    feats, raw, player, half, ply, mask = [], [], [], [], [], []
    root_value: list[float] = []
    root_margin: list[float] = []
    ptr: list[int] = [0]
    acts: list[int] = []
    counts: list[int] = []
    pol_ptr: list[int] = [0]
    pol_act: list[int] = []
    pol_prob: list[float] = []
    decision = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        full = config.full_share >= 1 or caps.random() < config.full_share
        search.budget = full_budget if full else cheap_budget
        result = search.search(state, noise=full)
        moves = sorted(result.moves, key=lambda s: s.action)
        visited = [(s.action, s.visits) for s in moves if s.visits > 0]
        total = sum(s.visits for s in moves)
        root_value.append(sum(s.visits * s.win_rate for s in moves) / total)
        root_margin.append(sum(s.visits * s.mean_margin for s in moves) / total)
        feats.append(state.features())
        raw.append(np.frombuffer(state.raw_bytes(), dtype=np.uint8))
        player.append(state.current_player)
        half.append(state.half_year)
        ply.append(decision)
        mask.append(full)
        acts.extend(a for a, _ in visited)
        counts.extend(n for _, n in visited)
        ptr.append(len(acts))
        target = _target(config, search, state, moves)
        pol_act.extend(a for a, _ in target)
        pol_prob.extend(p for _, p in target)
        pol_ptr.append(len(pol_act))
        if decision < config.explore:
            action = _draw(rng, visited, target, config)
        else:
            action = result.best_action
        state.apply(action)
        decision += 1
    search.close()
    scores = state.scores()
    pl = np.array(player, dtype=np.int8)
    n = len(pl)
    winner: int | None
    if state.players == 1:  # the solo game: its "margin" is the score, there is no winner
        winner = -1
        final = np.array([scores[0], 0.0], dtype=np.float32)
        margin = np.full(n, scores[0], dtype=np.float32)
    else:
        winner = state.winner()
        final = np.array(scores, dtype=np.float32)
        sign = np.where(pl == 0, 1.0, -1.0).astype(np.float32)
        margin = (sign * (final[0] - final[1])).astype(np.float32)
    return {
        "features": np.array(feats, dtype=np.float32).reshape(n, engine.NUM_FEATURES),
        "positions": np.array(raw, dtype=np.uint8).reshape(n, -1),
        "player": pl,
        "half_year": np.array(half, dtype=np.int8),
        "game": np.full(n, g, dtype=np.int32),
        "ply": np.array(ply, dtype=np.int16),
        "final_vp": np.tile(final, (n, 1)),
        "margin": margin,
        "winner": np.full(n, winner, dtype=np.int8),
        "root_value": np.array(root_value, dtype=np.float32),
        "root_margin": np.array(root_margin, dtype=np.float32),
        "visit_ptr": np.array(ptr, dtype=np.int64),
        "visit_action": np.array(acts, dtype=np.int16),
        "visit_count": np.array(counts, dtype=np.int32),
        "policy_mask": np.array(mask, dtype=np.uint8),
        "policy_ptr": np.array(pol_ptr, dtype=np.int64),
        "policy_action": np.array(pol_act, dtype=np.int16),
        "policy_prob": np.array(pol_prob, dtype=np.float32),
    }


def _target(config: DatagenConfig, search: MCTS, state: engine.GameState,
            moves: list[Any]) -> list[tuple[int, float]]:
    """The improved policy of a search (action, probability > 0), in action order: the
    completed-Q policy of a Gumbel root, else the visit shares."""
    if config.root_noise == "gumbel":
        priors = dict(search.evaluator.action_priors(state))
        policy = completed_q_policy([s.visits for s in moves], [s.win_rate for s in moves],
                                    [priors[s.action] for s in moves])
    else:
        policy = visit_policy([s.visits for s in moves])
    return [(s.action, p) for s, p in zip(moves, policy, strict=True) if p > 0]


def _draw(rng: random.Random, visited: list[tuple[int, int]], target: list[tuple[int, float]],
          config: DatagenConfig) -> int:
    """A move drawn with probability proportional to target ** (1 / temperature). The visit
    counts at temperature 1 draw as the runs before these settings did (an integer draw)."""
    if config.temperature == 1 and config.root_noise != "gumbel":
        pick = rng.randrange(sum(n for _, n in visited))
        for a, n in visited:
            pick -= n
            if pick < 0:
                return a
    weights = [p ** (1.0 / config.temperature) for _, p in target]
    x = rng.random() * sum(weights)
    for (a, _), w in zip(target, weights, strict=True):
        x -= w
        if x < 0:
            return a
    return target[-1][0]


def _play_and_save(job: tuple[DatagenConfig, int, str]) -> int:
    config, g, out = job
    data = play_game(config, g)
    write_npz(_part_path(out, g), data)
    return len(data["player"])


def _play_remote(job: tuple[DatagenConfig, int]) -> tuple[int, dict[str, np.ndarray]]:
    """A game played by a runner's worker (maybe on another machine): its arrays come back
    and this process writes the part, so the folder need not be shared."""
    config, g = job
    return g, play_game(config, g)


def _check_config(out: str | os.PathLike[str], config: DatagenConfig) -> None:
    """A started run keeps its settings: a resume with other settings is refused."""
    folder = parts_dir(out)
    stamp = folder / "config.json"
    mine = {k: v for k, v in asdict(config).items() if k not in ("games", "net")}
    if config.players == 2:
        del mine["players"]  # the runs from before the solo game: two players
    mine["format"] = FORMAT
    if config.leaf in MODEL_LEAVES:  # the weights by content, wherever the file is
        mine["net_digest"] = weights_digest(config.model_file())
    if stamp.exists():
        try:
            theirs = parse_json(files.read_text(stamp, ValueError, "settings file"), ValueError)
        except ValueError as exc:
            raise ValueError(f"{stamp} is damaged ({str(exc).removeprefix(f'{stamp}: ')}): it "
                             f"holds the settings that made the games in {folder}; delete it "
                             f"to go on with the settings given now (the games there are "
                             f"then taken as made with them), or use another output "
                             f"file") from None
        if isinstance(theirs, dict):
            theirs.setdefault("leaf", "heuristic")  # runs from before the leaf option
            for name, default in _LATER_DEFAULTS.items():  # and before the search options
                theirs.setdefault(name, default)
        if isinstance(theirs, dict) and theirs.get("format", FORMAT[:-1] + "1") != FORMAT:
            raise ValueError(f"{folder} holds games of data format "
                             f"{theirs.get('format', FORMAT[:-1] + '1')!r}, this version "
                             f"writes {FORMAT!r}; use another output file")
        if theirs != mine:
            raise ValueError(f"{folder} holds games made with other settings ({theirs}); "
                             "use another output file or the same settings")
    else:
        files.write_text(stamp, json.dumps(mine))


class DamagedPart(ValueError):
    """A finished game's file that cannot be read (a disk fault, a file from elsewhere):
    ``game`` is its index, the message names the file and the problem."""

    def __init__(self, message: str, game: int, path: Path) -> None:
        super().__init__(message)
        self.game = game
        self.path = path


def _lock(out: str | os.PathLike[str]) -> Any:
    """The run's lock (``OUT.parts/lock``), held until the handle is closed: two runs on one
    OUT would play the same games and write the same files."""
    folder = parts_dir(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
    return files.lock_exclusive(folder / "lock", ValueError,
                                f"{os.fspath(out)} is being made by another datagen run (it "
                                f"holds {folder / 'lock'}): wait for it to end, or use "
                                f"another output file")


def _sweep(out: str | os.PathLike[str]) -> None:
    """Remove the temporary files of a run that was killed while it wrote a part, its
    settings stamp or OUT (under the lock, so no running writer owns them)."""
    for tmp in [*parts_dir(out).glob(".game-*.npz.*.tmp"),
                *files.temporary_files(parts_dir(out) / "config.json"),
                *files.temporary_files(out)]:
        tmp.unlink(missing_ok=True)


def generate(out: str | os.PathLike[str], config: DatagenConfig, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             runner: Runner | None = None,
             notify: Callable[[str], None] | None = None) -> dict[str, np.ndarray]:
    """Play the run's games not yet in OUT.parts (in `workers` processes, or as the jobs of a
    `runner` such as :class:`arle_ai.adapters.ray_backend.RayRunner`), then merge all of them
    into OUT and return the merged arrays. `progress(done, total)` is called as games finish
    (and once at the start). The games, and so OUT's bytes, do not depend on where they were
    played; with a runner the weights file of ``leaf="net"`` must be readable by its workers
    at the same path.

    The run holds OUT's lock (another run on the same OUT is refused). A finished game whose
    file cannot be read is moved aside (``game-NNNNNN.npz.damaged``), ``notify`` is told, and
    the game is played again (the same game: it is seeded). Parts that cannot even be opened
    (cut short, empty, not an archive: a power loss) are found before the games to play are
    counted, damage deeper in a part when it is merged."""
    if not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a positive integer, not {workers!r}")
    config.check_model()
    lock = _lock(out)
    try:
        _sweep(out)
        _check_config(out, config)
        replayed = _set_aside_unopenable(out, config, notify)
        while True:
            _play_missing(out, config, workers, progress, runner)
            try:
                return merge_parts(out, config)
            except DamagedPart as exc:
                if exc.game in replayed:  # played again just now and damaged again
                    raise
                replayed.add(exc.game)
                _set_aside(exc, notify)
    finally:
        lock.close()


def _set_aside(damage: DamagedPart, notify: Callable[[str], None] | None) -> None:
    """Move a damaged part to ``game-NNNNNN.npz.damaged`` and say so: its game is played
    again."""
    aside = damage.path.with_name(damage.path.name + ".damaged")
    os.replace(damage.path, aside)
    if notify is not None:
        notify(f"{damage}; moved to {aside.name}, the game is played again")


def _set_aside_unopenable(out: str | os.PathLike[str], config: DatagenConfig,
                          notify: Callable[[str], None] | None) -> set[int]:
    """Set aside the parts whose archive or array headers cannot be read (the zip directory
    and each member's header only: no data); the games set aside."""
    aside: set[int] = set()
    for g in range(config.games):
        path = _part_path(out, g)
        if not path.exists():
            continue
        try:
            with NpzArchive(path, ValueError, "datagen part", PART_MAX_BYTES) as z:
                z.require(_BASE_ARRAYS)
        except ValueError as exc:
            _set_aside(DamagedPart(str(exc), g, path), notify)
            aside.add(g)
    return aside


def _play_missing(out: str | os.PathLike[str], config: DatagenConfig, workers: int,
                  progress: Callable[[int, int], None] | None, runner: Runner | None) -> None:
    """Play the games whose part is not in OUT.parts, writing each part as it ends."""
    todo = [g for g in range(config.games) if not _part_path(out, g).exists()]
    done = config.games - len(todo)
    if progress is not None:
        progress(done, config.games)
    if runner is not None:
        def finish(result: tuple[int, dict[str, np.ndarray]]) -> None:
            nonlocal done
            write_npz(_part_path(out, result[0]), result[1])
            done += 1
            if progress is not None:
                progress(done, config.games)

        runner.run(_play_remote, [(config, g) for g in todo], finish)
        return
    jobs = [(config, g, os.fspath(out)) for g in todo]
    if workers == 1 or len(jobs) <= 1:
        for job in jobs:
            _play_and_save(job)
            done += 1
            if progress is not None:
                progress(done, config.games)
    else:
        import multiprocessing as mp

        with procs.sigint_ignored():  # the workers start here; Ctrl-C is the parent's
            pool = mp.get_context("fork").Pool(min(workers, len(jobs)),
                                               procs.exit_with_parent, procs.parent_watch())
        with pool:  # terminated on leaving, an interrupt too
            for _ in pool.imap_unordered(_play_and_save, jobs):
                done += 1
                if progress is not None:
                    progress(done, config.games)


PART_MAX_BYTES = 512 << 20  # one game: ~250 positions of ~2 kB (a part is ~0.5 MiB)


def _read_part(out: str | os.PathLike[str], g: int) -> dict[str, np.ndarray]:
    """Game ``g``'s arrays, every header checked before its data and the arrays checked
    against each other; DamagedPart naming the file otherwise."""
    path = _part_path(out, g)
    if not path.exists():
        raise DamagedPart(f"{path}: missing", g, path)
    try:
        with NpzArchive(path, ValueError, "datagen part", PART_MAX_BYTES) as z:
            z.require(_BASE_ARRAYS)
            # a game played before the policy targets has none: its visits are its target
            names = _ARRAYS if all(k in z.headers for k in _POLICY_ARRAYS) else _BASE_ARRAYS
            rows = z.headers["player"].rows
            wrong = [k for k in names if k not in _TABLES and z.headers[k].rows != rows]
            if rows is None or wrong:
                raise ValueError(f"{path}: not a datagen part ({', '.join(wrong) or 'player'} "
                                 f"of another length)")
            part = {k: z.read(k) for k in names}
    except DamagedPart:
        raise
    except ValueError as exc:
        raise DamagedPart(str(exc), g, path) from None
    ptr = part["visit_ptr"]
    if (ptr.shape != (rows + 1,) or part["visit_action"].shape != part["visit_count"].shape
            or int(ptr[0]) != 0 or int(ptr[-1]) != len(part["visit_action"])
            or np.any(part["game"] != g)):
        raise DamagedPart(f"{path}: not a datagen part of game {g} (its visit table or game "
                          f"ids do not fit)", g, path)
    if "policy_prob" not in part:
        part.update(_visit_targets(part))
    ptr = part["policy_ptr"]
    if (ptr.shape != (rows + 1,) or part["policy_action"].shape != part["policy_prob"].shape
            or int(ptr[0]) != 0 or int(ptr[-1]) != len(part["policy_action"])):
        raise DamagedPart(f"{path}: not a datagen part of game {g} (its policy table does not "
                          f"fit)", g, path)
    return part


def merge_parts(out: str | os.PathLike[str], config: DatagenConfig) -> dict[str, np.ndarray]:
    """Merge the run's finished games, in game order, into OUT (written atomically).
    DamagedPart names the first part that cannot be read."""
    pieces = [_read_part(out, g) for g in range(config.games)]
    merged: dict[str, np.ndarray] = {}
    for k in _ARRAYS:
        if k in _PTRS:
            offsets, base = [np.zeros(1, dtype=np.int64)], 0
            for p in pieces:
                offsets.append(p[k][1:] + base)
                base += int(p[k][-1])
            merged[k] = np.concatenate(offsets)
        else:
            merged[k] = np.concatenate([p[k] for p in pieces])
    meta = dict(asdict(config), format=FORMAT,
                search=config.search_settings(), num_features=engine.NUM_FEATURES,
                positions=int(len(merged["player"])))
    if config.net is not None:  # the file's name, not where it was: the data is the same
        meta["net"] = os.path.basename(config.net)
    merged["meta"] = np.array(json.dumps(meta))
    write_npz(out, merged)
    return merged


def _visit_targets(piece: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The policy arrays of a game whose searches were all full and targeted their visits."""
    ptr = piece["visit_ptr"]
    counts = piece["visit_count"].astype(np.float64)
    rows = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    totals = np.add.reduceat(counts, ptr[:-1]) if len(ptr) > 1 else np.zeros(0)
    return {"policy_mask": np.ones(len(ptr) - 1, dtype=np.uint8), "policy_ptr": ptr.copy(),
            "policy_action": piece["visit_action"].copy(),
            "policy_prob": (counts / totals[rows]).astype(np.float32)}


def position_from_row(row: np.ndarray) -> engine.GameState:
    """The GameState of one row of ``positions`` (its raw state bytes)."""
    body = bytes(np.asarray(row, dtype=np.uint8))
    return engine.state_from_bytes(body)


def visit_distribution(data: dict[str, np.ndarray] | np.lib.npyio.NpzFile,
                       i: int) -> dict[int, float]:
    """Position i's root visit shares by action id (summing to 1)."""
    lo, hi = int(data["visit_ptr"][i]), int(data["visit_ptr"][i + 1])
    acts = data["visit_action"][lo:hi]
    counts = data["visit_count"][lo:hi].astype(np.float64)
    return {int(a): float(c / counts.sum()) for a, c in zip(acts, counts, strict=True)}
