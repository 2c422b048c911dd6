"""Learning from self-play, generation after generation (``arle learn``, docs/learning.md).

A run lives in one folder, RUN_DIR. Generation 0 is the starting model (the shipped weights,
or ``init``). Generation k (1, 2, ...) does three things, each kept in ``gen-KKK/`` as soon as
it is finished:

1. **data**: ``settings.games`` self-play games searched by the current best model
   (:mod:`arle_ai.learn.datagen` with ``leaf`` "net" or "model"), merged into ``data.npz``;
   each finished game is kept in ``data.npz.parts/`` until then;
2. **training**: a candidate model fitted on the data of the last ``settings.window``
   generations, written to ``weights.npz`` (its figures in the file's meta);
3. **gate**: a seat-swapped match at equal budget, candidate against the current best, with an
   SPRT (``settings.sprt``, ``alpha``, ``beta``) checked each time a pair of games on one setup
   is complete; the games go to ``gate.jsonl`` as they end. H1 accepted: the candidate becomes
   the best; H0: the best stays. With no verdict after ``settings.gate_games`` games the
   candidate is accepted only if the Wilson 95% interval of its score lies above H0's score
   (the SPRT's statistic cannot move while every game is won: its variance is 0).

A run may start from data it did not play (``init_data``, e.g. the games generation 0's model
was trained on): it is kept as ``gen-000/data.npz`` and counts as generation 0's data in the
window of the first candidates (a candidate is fitted from scratch, so without it the first
ones would learn from one generation's games only).

Interrupting the run at any moment (Ctrl-C, SIGKILL, a power cut) loses at most the games and
the training in progress: every finished piece is a file written whole (or a line appended to
the gate's results) and is not redone; the same command resumes (and removes the temporary
files of the writes it cut short). A new run writes ``learn.json`` first, then generation 0's
pieces it lists; every start checks them against it.

Nothing in the folder names where the folder is: the gates name their models by their place
in it (``net=gen-001/weights.npz``; gates begun by older versions, by the absolute paths of
that time, are read as the same generations), so a run can be moved, renamed or reached
through a symbolic link. The gate's players load the models by absolute path, an agent spec
each: a run folder whose path holds ',' or '=' is refused when the run is opened.

What the run measured is in ``ledger.json`` (every generation's weights digest, data digest
and self-play VP, training figures and gate result; rebuilt from the pieces after every step)
and drawn in ``chart.svg`` (:mod:`arle_ai.learn.chart`).

The data and training of a generation depend only on the settings and the seed (the search
runs on iteration budgets): run again, a generation gives the same files. The gate plays on a
time budget (``gate_time``, the fair comparison) unless ``gate_iterations`` is set.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from arle_ai.base import files, limits
from arle_ai.base.jsontext import parse_json
from arle_ai.base.npzfile import read_npz
from arle_ai.learn import datagen
from arle_ai.learn.chart import write_chart
from arle_ai.learn.train import TrainConfig, load_data, train_files
from arle_ai.play.agents import agent_from_spec
from arle_ai.play.ratings import (
    elo_from_score,
    expected_score,
    paired_t_test,
    sprt_bounds,
    wilson_interval,
)
from arle_ai.play.tournament import Runner, Tournament, json_safe, summarize
from arle_ai.search.net import (
    NetError,
    default_weights_path,
    load_net,
    load_weights,
    weights_digest,
)

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = ["LearnSettings", "LearnRun", "LearnError", "Reporter", "chained_elo", "solo_scores",
           "file_digest",
           "RUN_FORMAT", "LEDGER_FORMAT", "DEFAULT_TRAIN"]

RUN_FORMAT = "arle-learn-run/1"
LEDGER_FORMAT = "arle-learn-ledger/1"
SETTINGS_FILE = "learn.json"
NO_MODEL = "(none: the search's own solo value)"   # a solo run's first generation
LEDGER_FILE = "ledger.json"
CHART_FILE = "chart.svg"
# The training recipe of the shipped weights (docs/benchmarks.md, "Learned evaluation"): 64
# hidden units, weight decay 0.001, targets half outcome and half search, without the slots
# that identify a game's setup; 4 epochs (the shipped weights kept epoch 2 of 10, the lowest
# validation loss).
DEFAULT_TRAIN = TrainConfig(hidden=64, epochs=4, weight_decay=0.001, target_blend=0.5,
                            ignore=("in_play.", "available."))


class LearnError(ValueError):
    """Bad settings, or a run folder that holds another run (or is being run)."""


@dataclass(frozen=True)
class LearnSettings:
    """What a run does each generation; kept in RUN_DIR/learn.json and fixed for the run."""

    games: int = 200               # self-play games per generation
    iterations: int = 800          # search iterations per self-play decision
    explore: int = 24              # first decisions of a game drawn by root visits
    window: int = 4                # generations of data the candidate trains on
    window_games: int | None = None  # instead: the newest generations holding this many games
    gate_time: float | None = 0.25  # seconds a decision in the gate (equal for both)
    gate_iterations: int | None = None  # instead of gate_time: iterations a decision
    gate_games: int = 400          # the most gate games (even; setups seat-swapped)
    sprt: tuple[float, float] = (0.0, 50.0)  # the gate's H0 and H1, Elo of candidate - best
    alpha: float = 0.05
    beta: float = 0.05
    seed: int = 0
    variant: str = "standard"
    agent: str = ""                # more MCTS agent options for both gate players ("c=1.2")
    train: TrainConfig = field(default=DEFAULT_TRAIN)
    # the search of self-play and of the gate (puct: the policy head's priors), and the
    # self-play targets (datagen.DatagenConfig; docs/learning.md)
    puct: bool | None = None       # None: PUCT when the model has a policy head (or noise)
    c: float = 0.9
    root_noise: str = "gumbel"     # docs/learning.md, "Root exploration: why Gumbel"
    temperature: float = 1.0
    full_share: float = 1.0
    cheap_iterations: int = 0
    players: int = 2               # 1: a solo run (solo models; the gate a paired test)
    leaf: str = "net"              # self-play's leaf: "net" (a rollout, then the model) or
    #                                "model" (the model alone; datagen.SEARCHES)

    def __post_init__(self) -> None:
        for name in ("games", "iterations", "window", "gate_games"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise LearnError(f"{name} must be a positive integer, not {value!r}")
        if self.games < 2:
            raise LearnError(f"games must be at least 2 (training holds out whole games), "
                             f"not {self.games}")
        if self.window_games is not None and (
                isinstance(self.window_games, bool) or not isinstance(self.window_games, int)
                or self.window_games < 1):
            raise LearnError(f"window_games must be a positive integer, not "
                             f"{self.window_games!r}")
        if isinstance(self.players, bool) or self.players not in (1, 2):
            raise LearnError(f"players must be 1 (a solo run) or 2, not {self.players!r}")
        if self.leaf not in datagen.MODEL_LEAVES:
            raise LearnError(f"leaf must be one of {datagen.MODEL_LEAVES}, not {self.leaf!r}")
        if self.gate_games % 2 and self.players == 2:
            raise LearnError(f"gate_games must be even (each setup is played twice, seats "
                             f"swapped), not {self.gate_games}")
        if (self.gate_time is None) == (self.gate_iterations is None):
            raise LearnError("give the gate one budget: gate_time (seconds a decision) or "
                             "gate_iterations")
        if self.gate_time is not None:
            limits.check_seconds(self.gate_time, "gate_time")
        if self.gate_iterations is not None:
            limits.check_count(self.gate_iterations, "gate_iterations", limits.MAX_ITERATIONS)
        elo0, elo1 = self.sprt
        if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
            raise LearnError(f"sprt needs finite Elo bounds H0 < H1, not {elo0!r} {elo1!r}")
        try:
            sprt_bounds(self.alpha, self.beta)
            self.datagen_config(seed=0, net=None)
        except ValueError as exc:
            raise LearnError(str(exc)) from None
        if not isinstance(self.seed, int) or not 0 <= self.seed <= datagen.MAX_SEED:
            raise LearnError(f"seed must be an integer in 0..{datagen.MAX_SEED}, "
                             f"not {self.seed!r}")
        if not isinstance(self.train, TrainConfig):
            raise LearnError(f"train must be a TrainConfig, not {self.train!r}")
        self.gate_spec("weights.npz")  # LearnError for the options the run sets itself
        if self.agent.strip():
            try:  # the agent's own check of the other options (names, values)
                agent_from_spec(f"mcts:iterations=1,{self.agent.strip().strip(',')}")
            except ValueError as exc:
                raise LearnError(f"agent options {self.agent!r}: {exc}") from None

    def datagen_config(self, seed: int, net: str | None) -> datagen.DatagenConfig:
        """The self-play of a generation: seeded `seed`, searched by the model `net` (a solo
        run's first generation may have none: the heuristic leaf then values its games)."""
        leaf = "heuristic" if self.players == 1 and net is None else self.leaf
        return datagen.DatagenConfig(
            games=self.games, seed=seed, iterations=self.iterations, explore=self.explore,
            variant=self.variant, leaf=leaf, net=net, puct=self.puct, c=self.c,
            root_noise=self.root_noise, temperature=self.temperature,
            full_share=self.full_share, cheap_iterations=self.cheap_iterations,
            players=self.players)

    def gate_spec(self, weights: str | os.PathLike[str] | None) -> str:
        """The gate's agent spec of the model in the file `weights` (named as given; None: a
        solo run's first generation, the search without a solo model)."""
        path = "" if weights is None else os.fspath(weights)
        if "," in path or "=" in path:
            raise LearnError(f"{path}: a weights file whose path holds ',' or '=' cannot be "
                             f"named in an agent spec")
        budget = (f"time={self.gate_time:g}" if self.gate_time is not None
                  else f"iterations={self.gate_iterations}")
        extra = self.agent.strip().strip(",")
        for part in filter(None, extra.split(",")):
            if part.partition("=")[0].strip() in ("time", "iterations", "eval", "net", "puct",
                                                   "c", "solo_net"):
                raise LearnError(f"agent option {part.strip()!r}: the gate's budget, model and "
                                 f"search (puct, c) are the run's settings")
        search = ("" if self.puct is None else f",puct={int(self.puct)}") + (
            f",c={self.c!r}" if self.c != 0.9 else "")
        model = (f",solo_net={path}" if path else "") if self.players == 1 else \
            f",eval=net,net={path}"
        return f"mcts:{budget}{model}{search}" + (f",{extra}" if extra else "")

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["sprt"] = list(self.sprt)
        d["train"]["ignore"] = list(self.train.ignore)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LearnSettings:
        """The settings of a learn.json (a run started before a setting existed has what it
        had then)."""
        d = {**_BEFORE, **d}
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise LearnError(f"unknown settings {', '.join(unknown)}")
        d = dict(d)
        if "sprt" in d:
            d["sprt"] = tuple(d["sprt"])
        if "train" in d:
            t = dict(d["train"])
            t["ignore"] = tuple(t.get("ignore", ()))
            try:
                d["train"] = TrainConfig(**t)
            except (TypeError, ValueError) as exc:
                raise LearnError(f"train settings: {exc}") from None
        try:
            return cls(**d)
        except TypeError as exc:
            raise LearnError(str(exc)) from None


# the settings added after the first runs, with the value those runs had
_BEFORE: dict[str, Any] = {"puct": None, "c": 0.9, "root_noise": "none", "temperature": 1.0,
                           "full_share": 1.0, "cheap_iterations": 0, "window_games": None,
                           "players": 2, "leaf": "net"}


class Reporter:
    """What a run tells as it goes (the CLI draws progress bars from it); does nothing here."""

    def step(self, generation: int, name: str, done: int, total: int) -> None:
        """A step of a generation ("self-play" games, "training" epochs, "gate" games) starts
        with `done` of `total` already finished."""

    def advance(self, done: int, note: str = "") -> None:
        """The current step has `done` finished (`note`: a short status, e.g. the gate's
        W-D-L and LLR)."""

    def message(self, text: str) -> None:
        """A line worth keeping (a generation's verdict)."""


def _derived_seed(seed: int, generation: int, what: str, bound: int) -> int:
    """A seed for one piece of one generation, in 0..bound-1 (a hash: pieces independent)."""
    digest = hashlib.sha256(f"arle-learn:{seed}:{generation}:{what}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % bound


_DIGESTS: dict[tuple[str, int, int], str] = {}  # (path, mtime_ns, size) -> digest
_GAME_COUNTS: dict[str, int] = {}  # a datagen file's digest -> its games


def file_digest(path: str | os.PathLike[str]) -> str:
    """The first 16 hex digits of the file's SHA-256 (datagen files are written
    reproducibly: equal data, equal digest). Remembered while the file is unchanged."""
    st = os.stat(path)
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size)
    if key not in _DIGESTS:
        _DIGESTS[key] = _sha256(path)
    return _DIGESTS[key]


def _sha256(path: str | os.PathLike[str]) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()[:16]


def _write_json(path: Path, value: Any) -> None:
    """Write JSON whole or not at all (base.files' atomic writer)."""
    files.write_text(path, json.dumps(value, indent=1) + "\n")


class _GateDecided(Exception):
    """Raised from the gate's result callback to stop its tournament once the SPRT decides."""


class LearnRun:
    """A run folder: its settings, its generations' pieces and the loop that adds them.

    Args:
        folder: RUN_DIR (created if need be).
        settings: the run's settings; None for a run that exists (its learn.json). For an
            existing run, settings must equal the stored ones (LearnError names the
            differences).
        init: generation 0's weights file (a new run only; default the shipped weights).
        init_data: a datagen file kept as generation 0's data (a new run only; default none).
    """

    def __init__(self, folder: str | os.PathLike[str], settings: LearnSettings | None = None,
                 init: str | os.PathLike[str] | None = None,
                 init_data: str | os.PathLike[str] | None = None) -> None:
        self.folder = Path(folder)
        where = os.path.abspath(self.folder)
        if "," in where or "=" in where:  # refused before anything is played or written
            raise LearnError(f"{where}: a run folder whose path holds ',' or '=' cannot be "
                             f"named in the gate's agent specs; use another folder")
        stored = self._stored_settings()
        if stored is None:
            players = (settings or LearnSettings()).players
            if init is not None:
                try:  # the model as self-play will load it: shapes, finite values, kind
                    load_net(init, players=players)
                    weights_digest(init)
                except NetError as exc:
                    raise LearnError(f"--init: {exc}") from None
            if init_data is not None:
                try:
                    load_data(init_data)
                except (OSError, ValueError, MemoryError) as exc:
                    raise LearnError(f"--init-data: {exc}") from None
            self.settings = settings if settings is not None else LearnSettings()
            self._init = init
            self._init_data = init_data
        else:
            if settings is not None and settings != stored:
                mine, theirs = settings.as_dict(), stored.as_dict()
                diff = [f"{k} {theirs[k]!r} (now {mine[k]!r})" for k in mine
                        if mine[k] != theirs[k]]
                raise LearnError(f"{self.folder} is a run with other settings: "
                                 + ", ".join(diff) + "; give the same settings or none")
            self._check_same_start(init, init_data)
            self.settings = stored
            self._init = init  # the files the run began from (by digest): see _begin
            self._init_data = init_data

    def _check_same_start(self, init: str | os.PathLike[str] | None,
                          init_data: str | os.PathLike[str] | None) -> None:
        """A run that has begun resumes with the command that started it: an init or
        init_data given again must be the files it started from (by digest)."""
        head = json.loads((self.folder / SETTINGS_FILE).read_text(encoding="utf-8"))
        for name, given, key, digest in (
                ("init", init, "init_digest", weights_digest),
                ("init data", init_data, "init_data_digest", file_digest)):
            if given is None:
                continue
            try:
                same = digest(given) == head.get(key)
            except (OSError, ValueError, NetError):
                same = False
            if not same:
                raise LearnError(f"{self.folder} is a run that has begun from another {name} "
                                 f"than {given}: its first model and data are chosen (give "
                                 f"the same {name} or none)")

    # ---- files ----

    def gen_dir(self, k: int) -> Path:
        return self.folder / f"gen-{k:03d}"

    def weights_path(self, k: int) -> Path:
        return self.gen_dir(k) / "weights.npz"

    def data_path(self, k: int) -> Path:
        return self.gen_dir(k) / "data.npz"

    def gate_path(self, k: int) -> Path:
        return self.gen_dir(k) / "gate.jsonl"

    def _stored_settings(self) -> LearnSettings | None:
        path = self.folder / SETTINGS_FILE
        if not path.exists():
            if self.folder.exists() and not self.folder.is_dir():
                raise LearnError(f"{self.folder}: not a folder")
            return None
        try:
            head = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LearnError(f"{path}: not a learn run's settings ({exc})") from None
        if not isinstance(head, dict) or head.get("format") != RUN_FORMAT:
            raise LearnError(f"{path}: not a learn run's settings (format "
                             f"{head.get('format') if isinstance(head, dict) else None!r}, "
                             f"this version reads {RUN_FORMAT!r})")
        return LearnSettings.from_dict(head.get("settings", {}))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """The run folder's lock (flock on the folder itself): two processes running one
        folder would play its games twice and write its files in turn."""
        self.folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.folder, os.O_RDONLY)
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    raise LearnError(f"{self.folder} is being run by another process; wait "
                                     f"for it to end") from None
            yield
        finally:
            os.close(fd)  # releases the lock

    def _sweep(self) -> None:
        """Remove the temporary files of the run's writes that a kill cut short (under the
        run's lock: none of its writers is running)."""
        for name in (SETTINGS_FILE, LEDGER_FILE, CHART_FILE):
            for tmp in files.temporary_files(self.folder / name):
                tmp.unlink(missing_ok=True)
        for gen in self.folder.glob("gen-[0-9][0-9][0-9]*"):
            for name in ("weights.npz", "data.npz"):
                for tmp in files.temporary_files(gen / name):
                    tmp.unlink(missing_ok=True)

    def _begin(self) -> None:
        """A new run: write learn.json first (what the run is), then generation 0's pieces
        it lists. Every start: those pieces checked against it (a replaced or damaged one
        refused by name), a missing one copied again from where the run began."""
        head_path = self.folder / SETTINGS_FILE
        if not head_path.exists():
            pieces = sorted(p.name for p in self.folder.glob("gen-[0-9][0-9][0-9]*"))
            if pieces:  # an older version wrote generation 0 before learn.json
                raise LearnError(f"{self.folder} holds {', '.join(pieces)} but no "
                                 f"{SETTINGS_FILE}: not a run (a start interrupted before "
                                 f"its settings were written?); remove them or use another "
                                 f"folder")
            self.folder.mkdir(parents=True, exist_ok=True)
            _write_json(head_path, self._new_head())
        head = json.loads(head_path.read_text(encoding="utf-8"))
        shipped = "(shipped) " + default_weights_path().name
        if head["init_digest"] is not None:
            self._first_piece(
                self.weights_path(0), weights_digest, head["init_digest"], "first model",
                "--init", [self._init, default_weights_path() if head["init"] == shipped
                           else head["init"]])
        elif self.weights_path(0).exists() or self._init is not None:
            raise LearnError(f"{self.weights_path(0)}: the run began without a model (a solo "
                             f"run's first generation searches without one): remove it, or "
                             f"start another run with --init")
        if "init_data_digest" in head:
            self._first_piece(self.data_path(0), file_digest, head["init_data_digest"],
                              "init data", "--init-data", [self._init_data, head["init_data"]])
        elif self.data_path(0).exists():
            raise LearnError(f"{self.data_path(0)}: {SETTINGS_FILE} lists no init data (the "
                             f"run began without --init-data): remove it")

    def _new_head(self) -> dict[str, Any]:
        """learn.json of a new run: its settings and the files it begins from, by digest."""
        source = default_weights_path() if self._init is None else Path(self._init)
        head: dict[str, Any] = {"format": RUN_FORMAT, "settings": self.settings.as_dict(),
                                "init": "(shipped) " + source.name if self._init is None
                                else os.path.abspath(source),
                                "init_digest": weights_digest(source)}
        if self.settings.players == 1 and self._init is None:  # no solo model is shipped
            head.update(init=NO_MODEL, init_digest=None)
        if self._init_data is not None:
            head |= {"init_data": os.path.abspath(self._init_data),
                     "init_data_digest": file_digest(self._init_data)}
        return head

    def _first_piece(self, path: Path, digest: Callable[[Any], str], want: str, what: str,
                     option: str, sources: list[Any]) -> None:
        """Generation 0's `path` as learn.json lists it (by `digest`): copied from the first
        of `sources` that is that file if it is missing, else checked."""
        if not path.exists():
            for source in filter(None, sources):
                try:
                    same = digest(source) == want
                except (OSError, ValueError):  # gone, or not such a file (NetError)
                    same = False
                if same:
                    path.parent.mkdir(parents=True, exist_ok=True)
                    files.write_bytes(path, Path(source).read_bytes())
                    break
            else:
                raise LearnError(f"{path} is missing: give {option} with the run's {what} "
                                 f"(digest {want}; {SETTINGS_FILE} says where it began)")
        try:
            have = digest(path)
        except (OSError, ValueError) as exc:
            raise LearnError(f"{path}: the run's {what} cannot be read "
                             f"({str(exc).removeprefix(f'{path}: ')}): delete it and the same "
                             f"command copies it again") from None
        if have != want:
            raise LearnError(f"{path} is not the run's {what} (digest {have}, {SETTINGS_FILE} "
                             f"lists {want}): delete it and the same command copies it again")

    # ---- the state of the run, from its files ----

    def _gate(self, k: int, best: int) -> Tournament:
        """Generation k's gate: its candidate (first: the results are its view) against
        generation `best`. Its results name the models by their place in the run folder
        (which can move); they are played from where they are now."""
        s = self.settings
        models = [self.model_path(g) for g in (k, best)]
        names = [s.gate_spec(None if m is None else self._rel(m)) for m in models]
        return Tournament(self._names_in_file(k, names, (k, best)), s.gate_games,
                          seed=_derived_seed(s.seed, k, "gate", 2**31), variant=s.variant,
                          players=s.players,
                          play_as=[s.gate_spec(None if m is None else os.path.abspath(m))
                                   for m in models])

    def model_path(self, g: int) -> Path | None:
        """Generation g's model file; None for the first generation of a solo run begun
        without one (its search values solo positions without a model)."""
        if g == 0 and self.settings.players == 1:
            head = json.loads((self.folder / SETTINGS_FILE).read_text(encoding="utf-8"))
            if head.get("init_digest") is None:
                return None
        return self.weights_path(g)

    def _names_in_file(self, k: int, names: list[str], gens: tuple[int, int]) -> list[str]:
        """The names of generation k's gate models in its results: `names`, or in a gate
        begun by an older version the absolute paths of that time, when they name the
        weights of the same generations (`gens`) with the same options."""
        try:
            with self.gate_path(k).open("rb") as fh:
                head = parse_json(fh.readline(1 << 20), ValueError)
        except (OSError, ValueError):  # none yet, or damaged: Tournament.load says so
            return names
        agents = head.get("agents") if isinstance(head, dict) else None
        if isinstance(agents, list) and len(agents) == len(names) and all(
                _same_model(old, name, self._rel(self.weights_path(g)))
                for old, name, g in zip(agents, names, gens, strict=True)):
            return [str(a) for a in agents]
        return names

    def _judge_file(self, k: int, best: int) -> dict[str, Any]:
        """Generation k's gate so far (from its results file; no games if none)."""
        t = self._gate(k, best)
        path = self.gate_path(k)
        judged = self._judge(t, list(t.load(path).values()) if path.exists() else [])
        judged["agents"] = t.agents
        return judged

    def history(self) -> list[tuple[int, int, dict[str, Any]]]:
        """The generations whose gate is decided, in order: (k, the best it played against,
        the gate's result); the run's best after them is the last accepted k (or 0)."""
        out: list[tuple[int, int, dict[str, Any]]] = []
        k, best = 1, 0
        while self.weights_path(k).exists() and self.gate_path(k).exists():
            judged = self._judge_file(k, best)
            if not judged["decided"]:
                break
            out.append((k, best, judged))
            if judged["accepted"]:
                best = k
            k += 1
        return out

    def best(self) -> int:
        """The generation of the current best model (0: the first)."""
        accepted = [k for k, _, j in self.history() if j["accepted"]]
        return accepted[-1] if accepted else 0

    def _judge(self, t: Tournament, results: list[dict[str, Any]]) -> dict[str, Any]:
        """The gate's statistics over its complete setups (both seat orders played), the
        SPRT verdict and whether the candidate is accepted (a solo run: _judge_solo)."""
        s = self.settings
        if s.players == 1:
            return self._judge_solo(t, results)
        by_setup: dict[int, list[dict[str, Any]]] = {}
        for r in results:
            by_setup.setdefault(r["meta"]["setup_index"], []).append(r)
        pairs = [r for games in by_setup.values() if len(games) == 2 for r in games]
        summary = summarize(pairs, agents=t.agents, sprt=s.sprt, alpha=s.alpha, beta=s.beta)
        if summary["pairings"]:
            p = summary["pairings"][0]
        else:
            lower, upper = sprt_bounds(s.alpha, s.beta)
            p = {"games": 0, "wins": 0, "draws": 0, "losses": 0,
                 "sprt": {"llr": 0.0, "lower": lower, "upper": upper, "verdict": "continue"}}
        verdict = p["sprt"]["verdict"]
        every = len(results) >= t.total
        accepted = verdict == "H1"
        if every and verdict == "continue" and p["games"]:
            # no verdict in the most games: accepted if the score is above H0's beyond doubt
            # (its Wilson 95% interval), as a match of that fixed size would judge it
            accepted = p["score_interval"][0] > expected_score(s.sprt[0])
        out = {k: p.get(k) for k in ("games", "wins", "draws", "losses", "score",
                                     "score_interval", "elo", "elo_interval", "margin",
                                     "margin_interval")}
        out.update({"llr": p["sprt"]["llr"], "lower": p["sprt"]["lower"],
                    "upper": p["sprt"]["upper"], "verdict": verdict,
                    "sprt": list(s.sprt), "alpha": s.alpha, "beta": s.beta,
                    "decided": verdict != "continue" or every,
                    "accepted": accepted, "played": len(results),
                    "most_games": t.total})
        return out

    def _judge_solo(self, t: Tournament, results: list[dict[str, Any]]) -> dict[str, Any]:
        """A solo gate: the candidate's and the best's scores on the same setups (both
        played), the one-sided paired t-test of their difference at the run's alpha; decided
        when every setup is played by both, the candidate accepted if its gain is
        significant."""
        s = self.settings
        scores: dict[tuple[int, int], float] = {}
        for r in results:
            meta = r["meta"]
            scores[(int(meta["pairing"][0]), int(meta["setup_index"]))] = \
                float(meta["scores"][0])
        setups = sorted(k for a, k in scores if a == 0 and (1, k) in scores)
        mine = [scores[(0, k)] for k in setups]
        theirs = [scores[(1, k)] for k in setups]
        test = paired_t_test(mine, theirs, s.alpha)
        every = len(results) >= t.total
        accepted = every and test.significant
        verdict = "continue" if not every else ("H1" if accepted else "H0")
        return {"games": len(setups), "setups": len(setups), "players": 1,
                "mean_score": _mean(mine), "best_score": _mean(theirs),
                "mean_difference": test.mean, "sd": test.sd, "t": test.t, "p": test.p,
                "alpha": s.alpha, "verdict": verdict, "decided": every, "accepted": accepted,
                "played": len(results), "most_games": t.total}

    # ---- the loop ----

    def run(self, generations: int, workers: int = 1, runner: Runner | None = None,
            reporter: Reporter | None = None,
            on_saved: Callable[[Path], None] | None = None) -> dict[str, Any]:
        """Play generations until `generations` are finished (resuming what is there) and
        return the ledger. `workers` local processes (or a `runner`, e.g. a RayRunner) play
        the self-play and gate games; `on_saved(path)` is called after each piece is kept."""
        limits.check_count(generations, "generations", 10_000)
        if not isinstance(workers, int) or workers < 1:
            raise LearnError(f"workers must be a positive integer, not {workers!r}")
        rep = reporter or Reporter()
        saved = on_saved or (lambda _: None)
        with self._locked():
            self._sweep()
            self._begin()
            ledger = self.write_ledger()
            done = self.history()
            best = max((g for g, _, j in done if j["accepted"]), default=0)
            for k in range(len(done) + 1, generations + 1):
                self.gen_dir(k).mkdir(parents=True, exist_ok=True)
                self._self_play(k, best, workers, runner, rep, saved)
                ledger = self.write_ledger()
                self._train(k, rep, saved)
                ledger = self.write_ledger()
                result = self._play_gate(k, best, workers, runner, rep, saved)
                ledger = self.write_ledger()
                rep.message(_verdict_line(k, best, result))
                if result["accepted"]:
                    best = k
            return ledger

    def _datagen_config(self, k: int, best: int) -> datagen.DatagenConfig:
        s = self.settings
        model = self.model_path(best)
        return s.datagen_config(_derived_seed(s.seed, k, "data", datagen.MAX_SEED - s.games),
                                None if model is None else os.fspath(model))

    def _self_play(self, k: int, best: int, workers: int, runner: Runner | None,
                   rep: Reporter, saved: Callable[[Path], None]) -> None:
        out = self.data_path(k)
        if out.exists():
            return
        config = self._datagen_config(k, best)
        parts = datagen.parts_dir(out)
        started = False

        def progress(done: int, total: int) -> None:
            nonlocal started
            if not started:
                rep.step(k, "self-play", done, total)
                started = True
            else:
                rep.advance(done)
                saved(parts)

        datagen.generate(out, config, workers=workers, progress=progress, runner=runner)
        saved(out)

    def _train(self, k: int, rep: Reporter, saved: Callable[[Path], None]) -> None:
        out = self.weights_path(k)
        if out.exists():
            return
        s = self.settings
        window = [self.data_path(g) for g in self.window_generations(k)]
        what = (f"the newest generations' {s.window_games:,} games or more"
                if s.window_games is not None else f"the data of the last {s.window} "
                f"generations")
        for g, path in enumerate(window, start=k + 1 - len(window)):
            if not path.exists():
                raise LearnError(f"{path} is missing: generation {g}'s self-play data, which "
                                 f"generation {k}'s candidate trains on ({what}); restore it")
        config = replace(s.train, seed=_derived_seed(s.seed, k, "train", 2**31))
        rep.step(k, "training", 0, config.epochs)

        def log(line: str) -> None:
            words = line.split()
            if len(words) > 1 and words[0] == "epoch" and words[1].isdigit():
                rep.advance(int(words[1]))

        train_files(window, out, config, log=log, meta={
            "data": [p.relative_to(self.folder).as_posix() for p in window],
            "data_digests": [file_digest(p) for p in window], "generation": k})
        saved(out)

    def window_generations(self, k: int) -> list[int]:
        """The generations whose data generation k's candidate trains on, oldest first: the
        last ``window`` generations, or with ``window_games`` the newest ones that hold at
        least that many games together (all there are, if fewer); generation 0's data (init
        data) counts when the run has it."""
        s = self.settings
        first = 0 if self._has_init_data() else 1
        if s.window_games is None:
            return list(range(max(first, k - s.window + 1), k + 1))
        gens: list[int] = []
        total = 0
        for g in range(k, first - 1, -1):
            gens.insert(0, g)
            total += self._games_of(g)
            if total >= s.window_games:
                break
        return gens

    def _has_init_data(self) -> bool:
        head = json.loads((self.folder / SETTINGS_FILE).read_text(encoding="utf-8"))
        return "init_data_digest" in head

    def _games_of(self, g: int) -> int:
        """The games of generation g's data: the run's games a generation, or the init
        data's own count (read from the file, remembered by its digest)."""
        if g > 0:
            return self.settings.games
        path = self.data_path(0)
        key = file_digest(path)
        if key not in _GAME_COUNTS:
            z = read_npz(path, ("game",), LearnError, "datagen file")
            _GAME_COUNTS[key] = int(len(np.unique(z["game"])))
        return _GAME_COUNTS[key]

    def _play_gate(self, k: int, best: int, workers: int, runner: Runner | None,
                   rep: Reporter, saved: Callable[[Path], None]) -> dict[str, Any]:
        t = self._gate(k, best)
        path = self.gate_path(k)
        results = list(t.load(path).values()) if path.exists() else []
        judged = self._judge(t, results)
        if judged["decided"]:  # killed after the deciding game was kept
            return judged

        def status(j: dict[str, Any]) -> str:
            if j.get("players") == 1:
                return f"{j['setups']} setups paired, {j['mean_difference']:+.2f} VP"
            return f"W-D-L {j['wins']}-{j['draws']}-{j['losses']} LLR {j['llr']:+.2f}"

        def on_start(to_play: int, done: int) -> None:
            rep.step(k, "gate", done, to_play + done)

        def on_result(result: dict[str, Any]) -> None:
            results.append(result)
            saved(path)
            j = self._judge(t, results)
            rep.advance(len(results), status(j))
            if j["decided"]:
                raise _GateDecided

        try:
            t.run(workers=workers, out=path, on_start=on_start, on_result=on_result,
                  runner=runner)
        except _GateDecided:
            pass
        judged = self._judge(t, list(t.load(path).values()))
        if not judged["decided"]:  # pragma: no cover - every game played decides
            raise RuntimeError(f"generation {k}'s gate ended undecided")
        return judged

    # ---- the ledger and the chart ----

    def ledger(self) -> dict[str, Any]:
        """What the run measured, from its files: settings, and per generation the weights'
        digest, the data's digest and self-play VP, the training figures, the gate result
        and whether it was promoted; the chained Elo of the promoted generations."""
        head = json.loads((self.folder / SETTINGS_FILE).read_text(encoding="utf-8"))
        first = self.model_path(0)
        gens: list[dict[str, Any]] = [{
            "generation": 0, "weights": None if first is None else self._rel(first),
            "weights_digest": None if first is None else self._read_weights(0)[1],
            "source": head["init"], "promoted": True}]
        if "init_data" in head:
            gens[0]["data"] = {"file": self._rel(self.data_path(0)), "source": head["init_data"],
                               "digest": head["init_data_digest"]}
        history = self.history()
        for k, best, judged in history:
            gens.append(self._entry(k, best) | {"gate": json_safe(judged),
                                                "promoted": judged["accepted"]})
        k = len(history) + 1
        best = max((g for g, _, j in history if j["accepted"]), default=0)
        if any(p.exists() for p in (self.data_path(k), datagen.parts_dir(self.data_path(k)),
                                    self.weights_path(k))):
            entry = self._entry(k, best)  # the generation in progress
            if self.weights_path(k).exists():
                entry["gate"] = json_safe(self._judge_file(k, best))
            gens.append(entry)
        best_model = self.model_path(best)
        extra = {"solo_scores": json_safe(solo_scores(gens))} if self.settings.players == 1 \
            else {}
        return extra | {"format": LEDGER_FORMAT, "settings": head["settings"], "init": head["init"],
                "best": best,
                "best_weights": None if best_model is None else self._rel(best_model),
                "generations": gens, "elo": json_safe(chained_elo(gens)),
                "games": sum(int(g["data"].get("games", 0)) for g in gens[1:]
                             if "digest" in g.get("data", {}))
                + (self._games_of(0) if "init_data" in head else 0)}

    def _entry(self, k: int, best: int) -> dict[str, Any]:
        """Generation k's data and training figures (as far as they exist)."""
        entry: dict[str, Any] = {"generation": k, "best_before": best,
                                 "data": self._data_entry(k, best)}
        if self.weights_path(k).exists():
            meta, digest = self._read_weights(k)
            entry["weights"] = self._rel(self.weights_path(k))
            entry["weights_digest"] = digest
            entry["train"] = {key: meta.get(key) for key in
                              ("data", "data_digests", "config", "report", "seconds")}
        return entry

    def _read_weights(self, k: int) -> tuple[dict[str, Any], str]:
        """Generation k's model's meta and digest (LearnError naming a damaged file)."""
        path = self.weights_path(k)
        try:
            return load_weights(path)[1], weights_digest(path)
        except NetError as exc:
            again = ("the same command copies it again" if k == 0 else
                     "the same command trains it again from its data")
            raise LearnError(f"{exc} (generation {k}'s model: restore the file, or delete it "
                             f"and {again})") from None

    def _data_entry(self, k: int, best: int) -> dict[str, Any]:
        path = self.data_path(k)
        config = self._datagen_config(k, best)
        entry: dict[str, Any] = {"file": self._rel(path), "seed": config.seed,
                                 "model": best, "games": config.games}
        if not path.exists():
            parts = datagen.parts_dir(path)
            entry["games_done"] = len(list(parts.glob("game-*.npz"))) if parts.exists() else 0
            return entry
        z = read_npz(path, ("final_vp", "game"), LearnError, "datagen file")
        final, game = z["final_vp"], z["game"]
        first = np.unique(game, return_index=True)[1]
        per_game = final[first]
        solo = self.settings.players == 1   # final_vp is (score, 0): the score alone
        entry.update({"digest": file_digest(path), "positions": int(len(game)),
                      "mean_vp": (float((per_game[:, 0] if solo else per_game).mean())
                                  if len(per_game) else None),
                      "mean_abs_margin": float(np.abs(per_game[:, 0] - per_game[:, 1]).mean())
                      if len(per_game) and not solo else None})
        return entry

    def _rel(self, path: Path) -> str:
        return path.relative_to(self.folder).as_posix()

    def write_ledger(self) -> dict[str, Any]:
        """Write ledger.json and chart.svg from the run's files; return the ledger."""
        ledger = self.ledger()
        _write_json(self.folder / LEDGER_FILE, ledger)
        write_chart(self.folder / CHART_FILE, ledger)
        return ledger


def solo_scores(generations: list[dict[str, Any]], z: float = 1.96) -> list[dict[str, Any]]:
    """A solo run's chain: generation 0's mean score in the first decided gate, then each
    promoted generation's mean score in the gate that promoted it, with the 95% interval of
    its gain over the model it replaced added to that model's mean."""
    out: list[dict[str, Any]] = []
    for g in generations[1:]:
        gate = g.get("gate") or {}
        if not gate.get("decided") or gate.get("best_score") is None:
            continue
        if not out:
            out.append({"generation": g["best_before"], "score": gate["best_score"],
                        "low": None, "high": None})
        if g.get("promoted"):
            n, sd = gate["setups"], gate["sd"]
            half = z * sd / math.sqrt(n) if n > 1 and sd == sd else 0.0
            out.append({"generation": g["generation"], "score": gate["mean_score"],
                        "low": gate["best_score"] + gate["mean_difference"] - half,
                        "high": gate["best_score"] + gate["mean_difference"] + half})
    return out


def chained_elo(generations: list[dict[str, Any]], z: float = 1.96) -> list[dict[str, Any]]:
    """Elo of each promoted generation against generation 0: the sum of the gate Elo
    differences along the chain of promotions, with a 95% interval whose variance is the sum
    of the gates' (each gate's standard error from its Wilson interval in Elo). A gate won or
    lost in every game (an infinite Elo) counts with one virtual draw added."""
    out = [{"generation": 0, "elo": 0.0, "low": 0.0, "high": 0.0}]
    elo, var = 0.0, 0.0
    for g in generations[1:]:
        gate = g.get("gate")
        if not g.get("promoted") or not gate or "wins" not in gate:  # a solo gate: no Elo
            continue
        w, d, lo = gate["wins"], gate["draws"], gate["losses"]
        n = w + d + lo
        score = (w + 0.5 * d) / n
        if score in (0.0, 1.0):
            score = (w + 0.5 * d + 0.5) / (n + 1)
            n += 1
        step = elo_from_score(score)
        # the Wilson interval in Elo is asymmetric: its width, in Elo, gives the error
        s_lo, s_hi = wilson_interval(score, n, z)
        s_lo, s_hi = max(s_lo, 0.5 / (n + 1)), min(s_hi, 1 - 0.5 / (n + 1))
        se = (elo_from_score(s_hi) - elo_from_score(s_lo)) / (2 * z)
        elo += step
        var += se * se
        half = z * math.sqrt(var)
        out.append({"generation": g["generation"], "elo": elo, "low": elo - half,
                    "high": elo + half, "gate_elo": step})
    return out


def _same_model(old: Any, name: str, weights: str) -> bool:
    """Whether the gate player `old` is `name`, whose model is the run's file `weights`,
    named by an absolute path ending in it (how older versions named it)."""
    key = f"net={weights}"
    if not isinstance(old, str) or old == name or key not in name:
        return bool(old == name)
    before, after = name[:name.index(key) + 4], name[name.index(key) + len(key):]
    path = old[len(before):len(old) - len(after)] if len(old) > len(before) + len(after) else ""
    return (old.startswith(before) and old.endswith(after) and os.path.isabs(path)
            and PurePath(path).parts[-2:] == PurePath(weights).parts)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _verdict_line(k: int, best: int, result: dict[str, Any]) -> str:
    if result.get("players") == 1:
        gain = result["mean_difference"]
        return (f"generation {k} against generation {best}: {result['setups']} setups, "
                f"{result['mean_score'] or 0:.1f} VP against {result['best_score'] or 0:.1f} "
                f"({gain:+.2f} a setup, p {result['p']:.3f}), "
                + ("promoted" if result["accepted"] else "rejected")
                + f" (one-sided paired t-test, alpha {result['alpha']:g})")
    games = f"{result['wins']}-{result['draws']}-{result['losses']}"
    if result["accepted"] and result["verdict"] == "H1":
        what = f"promoted (H1 accepted, LLR {result['llr']:+.2f})"
    elif result["accepted"]:
        what = f"promoted (no verdict in {result['played']} games, score interval above H0)"
    elif result["verdict"] == "H0":
        what = f"rejected (H0 accepted, LLR {result['llr']:+.2f})"
    else:
        what = f"rejected (no verdict in {result['played']} games, LLR {result['llr']:+.2f})"
    return f"generation {k} against generation {best}: {games}, {what}"


