"""What a search is asked to do: its options (:class:`SearchConfig`), how long it may run
(:class:`Budget`), and the default budget of each use, named.

Both are frozen values, checked when they are made (here and nowhere else), so a search, its
worker processes and a record of a run all read the same validated numbers. The leaf is
chosen explicitly: an option that belongs to another leaf (``horizon`` without
``leaf="rollout"``, ``net`` without ``leaf="net"``) is refused by name, never taken as a
reason to switch the leaf.

Adding an option (for example PUCT priors from a policy head, root Dirichlet or Gumbel noise,
playout-cap randomization) is one field with today's behaviour as its default, one check in
``_CHECKS``, and its use where the evaluator or the loop is made (:mod:`arle_ai.search.tree`).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from arle_ai import engine
from arle_ai.base import limits
from arle_ai.search.heuristics import DEFAULT_WEIGHTS, Weights

__all__ = ["SearchConfig", "Budget", "ROOT_NOISES", "LEAVES", "ROLLOUTS", "DEFAULT_LEAF",
           "DEFAULT_ROLLOUT", "DEFAULT_HORIZON", "DEFAULT_NET_HORIZON", "SEARCH_BUDGET",
           "LIBRARY_SUGGEST_BUDGET", "SUGGEST_BUDGET", "HINT_BUDGET", "WEB_HINT_BUDGET",
           "ANALYZE_BUDGET", "WEB_ANALYZE_BUDGET", "PLAY_AI_BUDGET", "WEB_AI_BUDGET",
           "from_keywords"]

LEAVES = ("net", "rollout", "static", "null")
ROLLOUTS = ("random", "heuristic")
# The default leaf: a uniformly random rollout of 2 half-years valued by the learned model (the
# shipped weights) instead of the static evaluation. At 0.25 s a move it beat the random-rollout
# search 36-0-6 (SPRT accepted +100 Elo; docs/benchmarks.md, "Learned evaluation").
DEFAULT_LEAF = "net"
DEFAULT_NET_HORIZON = 2
# Uniformly random rollouts cost about a quarter of heuristic ones (9.9 vs 40.6 us at horizon
# 2), so a timed search runs about 3x more iterations, and at 0.25 s a move that won 92-0-8
# against the heuristic-rollout search of 26a9462 (docs/search.md, "The default rollout").
DEFAULT_ROLLOUT = "random"
# the solo game's rollouts without a solo model: the heuristic policy scored +6.1 VP a setup
# over random moves at 20,000 iterations a move (docs/solo.md, "The search in the solo game")
DEFAULT_SOLO_ROLLOUT = "heuristic"
# The rollout leaf's horizon: at equal time 2 beat 1 by 38-22 over 60 games
# (docs/benchmarks-history.md, "Search settings against the default").
DEFAULT_HORIZON = 2


@dataclass(frozen=True)
class Budget:
    """How long a search runs: ``iterations`` (simulations; a fixed number makes a seeded
    search reproducible), ``seconds`` (wall time, measured by the core's deadline), or both,
    when the search stops at whichever comes first (the analysis searches a played move to
    as many simulations as the best move got, but at most the same time again)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        if self.iterations is not None:
            limits.check_count(self.iterations, "iterations", limits.MAX_ITERATIONS)
        if self.seconds is not None:
            object.__setattr__(self, "seconds", limits.check_seconds(self.seconds, "seconds"))

    @classmethod
    def of(cls, iterations: int | None, seconds: float | None, default: Budget) -> Budget:
        """The budget of optional ``iterations`` / ``seconds`` (a command's options), or
        ``default`` when neither is given."""
        if iterations is None and seconds is None:
            return default
        return cls(iterations, seconds)

    def __str__(self) -> str:
        parts = []
        if self.iterations is not None:
            parts.append(f"{self.iterations:,} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts)


# The default budget of each use: one line to change each. The hint, suggest and the analysis
# are times chosen to agree (issue 28, "one verdict"): a move the hint names best is rarely
# marked by the review (docs/benchmarks.md, "One verdict"; bench/verdicts.py), and the browser
# uses the same ones as the command line.
SEARCH_BUDGET = Budget(iterations=1000)  # MCTS() and an mcts agent spec without time/iterations
LIBRARY_SUGGEST_BUDGET = Budget(iterations=2000)  # arle_ai.suggest() called without a budget
# arle suggest: enough for stable verdicts (docs/benchmarks.md, "Stability of verdicts")
SUGGEST_BUDGET = Budget(seconds=3.0)
HINT_BUDGET = SUGGEST_BUDGET  # arle play's 'hint' command: arle suggest's
WEB_HINT_BUDGET = HINT_BUDGET  # the browser's hint when the page names no time
# per decision, arle analyze and analyze_game: a time budget gives stable verdicts on any
# machine speed (docs/benchmarks.md, "Stability of verdicts")
ANALYZE_BUDGET = Budget(seconds=1.0)
WEB_ANALYZE_BUDGET = ANALYZE_BUDGET  # per decision, the browser's analysis
PLAY_AI_BUDGET = Budget(seconds=2.0)  # arle play's opponent (--ai default)
WEB_AI_BUDGET = Budget(seconds=1.0)  # the browser's AI move when the page names no time


def _check_leaf(c: SearchConfig) -> None:
    if c.leaf not in LEAVES:
        raise ValueError(f"leaf must be one of {LEAVES}, not {c.leaf!r}")


def _check_rollout(c: SearchConfig) -> None:
    plays = c.leaf == "rollout" or (c.leaf == "net" and c.net_horizon is not None)
    if not plays:
        if c.rollout is not None:
            why = ("plays no rollout without net_horizon" if c.leaf == "net"
                   else "plays no rollout")
            raise ValueError(f"rollout is the policy of a rollout; leaf={c.leaf!r} {why}")
        return
    if c.rollout is None:
        object.__setattr__(c, "rollout", DEFAULT_ROLLOUT)
    elif c.rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {ROLLOUTS}, not {c.rollout!r}")


def _check_horizon(c: SearchConfig) -> None:
    if c.leaf != "rollout":
        if c.horizon is not None:
            hint = " (net_horizon is the net leaf's rollout)" if c.leaf == "net" else ""
            raise ValueError(f"horizon is an option of leaf='rollout', not of leaf={c.leaf!r}"
                             f"{hint}")
        return
    if c.horizon is None:
        object.__setattr__(c, "horizon", DEFAULT_HORIZON)
    elif _not_int(c.horizon) or not -1 <= c.horizon <= engine.MAX_HORIZON:
        raise ValueError(f"horizon must be -1 (to the end) or an integer in "
                         f"0..{engine.MAX_HORIZON}, not {c.horizon!r}")


def _check_net(c: SearchConfig) -> None:
    if c.leaf != "net":
        for name in ("net", "solo_net"):
            if getattr(c, name) is not None:
                raise ValueError(f"{name} (a weights file) is an option of leaf='net', not of "
                                 f"leaf={c.leaf!r}")
        if c.net_horizon not in (None, DEFAULT_NET_HORIZON):
            raise ValueError(f"net_horizon is an option of leaf='net', not of leaf={c.leaf!r}")
        if c.solo_rollout not in (None, DEFAULT_SOLO_ROLLOUT):
            raise ValueError(f"solo_rollout is an option of leaf='net', not of leaf={c.leaf!r}"
                             f" (the rollout leaf's policy is rollout, in every game)")
        object.__setattr__(c, "net_horizon", None)
        object.__setattr__(c, "solo_rollout", None)
        return
    if c.solo_rollout is None:  # as rollout: None is the default
        object.__setattr__(c, "solo_rollout", DEFAULT_SOLO_ROLLOUT)
    elif c.solo_rollout not in ROLLOUTS:
        raise ValueError(f"solo_rollout must be one of {ROLLOUTS}, not {c.solo_rollout!r}")
    for name in ("net", "solo_net"):
        value = getattr(c, name)
        if value is not None and not isinstance(value, str | os.PathLike):
            raise ValueError(f"{name} must be a weights file's path, not {value!r}")
    if c.net_horizon is not None and (_not_int(c.net_horizon)
                                      or not 0 <= c.net_horizon <= engine.MAX_HORIZON):
        raise ValueError(f"net_horizon must be None (the model values the leaf) or an integer "
                         f"in 0..{engine.MAX_HORIZON}, not {c.net_horizon!r}")


def _check_policy_temperature(c: SearchConfig) -> None:
    t = c.policy_temperature
    if c.leaf != "net":
        if t not in (None, 1.0):
            raise ValueError(f"policy_temperature is an option of leaf='net' (the model's "
                             f"policy), not of leaf={c.leaf!r}")
        object.__setattr__(c, "policy_temperature", None)
        return
    if t is None:
        object.__setattr__(c, "policy_temperature", 1.0)
    elif (isinstance(t, bool) or not isinstance(t, int | float)
          or not (math.isfinite(t) and 0 < t <= engine.NET_TEMPERATURE_MAX)):
        raise ValueError(f"policy_temperature must be a number in (0, "
                         f"{engine.NET_TEMPERATURE_MAX:g}], not {t!r}")


def _check_c(c: SearchConfig) -> None:
    if isinstance(c.c, bool) or not isinstance(c.c, int | float) or not 0 <= c.c <= limits.MAX_C:
        raise ValueError(f"c must be a number in 0..{limits.MAX_C:g}, not {c.c!r}")


def _check_prior_temperature(c: SearchConfig) -> None:
    t = c.prior_temperature
    if isinstance(t, bool) or not isinstance(t, int | float) or not (math.isfinite(t) and t > 0):
        raise ValueError(f"prior_temperature must be a positive number of VP, not {t!r}")


def _check_flags(c: SearchConfig) -> None:
    if c.puct is not None and not isinstance(c.puct, bool):
        raise ValueError(f"puct must be True, False or None (PUCT when the model has a policy "
                         f"head), not {c.puct!r}")
    if not isinstance(c.reuse, bool):
        raise ValueError(f"reuse must be True or False, not {c.reuse!r}")


def _check_weights(c: SearchConfig) -> None:
    if not isinstance(c.weights, Weights):
        raise ValueError(f"weights must be a heuristics.Weights, not {c.weights!r}")


def _check_seed(c: SearchConfig) -> None:
    if _not_int(c.seed) or c.seed < 0:
        # any size: the tree keeps its low 63 bits (analysis adds the ply to a user seed)
        raise ValueError(f"seed must be a non-negative integer, not {c.seed!r}")


def _check_memory(c: SearchConfig) -> None:
    limits.check_workers(c.workers)
    if c.max_nodes is not None and (_not_int(c.max_nodes)
                                    or not 1 <= c.max_nodes <= engine.MAX_TREE_NODES):
        raise ValueError(f"max_nodes must be an integer in 1..{engine.MAX_TREE_NODES}, "
                         f"not {c.max_nodes!r}")
    if _not_int(c.max_memory) or not c.workers << 16 <= c.max_memory <= engine.MAX_TREE_BYTES:
        raise ValueError(f"max_memory must be {c.workers << 16}..{engine.MAX_TREE_BYTES} "
                         f"bytes, not {c.max_memory!r}")


ROOT_NOISES = ("none", "dirichlet", "gumbel")
MAX_GUMBEL_K = 1024  # moves sampled at the root (beyond the legal moves: all of them)
# Defaults of the root's options, each refused (when changed) with a root_noise that ignores it.
_ROOT_DEFAULTS = {"dirichlet": {"noise_alpha": 10.0, "noise_fraction": 0.25},
                  "gumbel": {"gumbel_k": 16, "gumbel_scale": 1.0}}


def _check_root(c: SearchConfig) -> None:
    if c.root_noise not in ROOT_NOISES:
        raise ValueError(f"root_noise must be one of {ROOT_NOISES}, not {c.root_noise!r}")
    for mode, defaults in _ROOT_DEFAULTS.items():
        for name, default in defaults.items():
            if c.root_noise != mode and getattr(c, name) != default:
                raise ValueError(f"{name} is an option of root_noise={mode!r}, not of "
                                 f"root_noise={c.root_noise!r}")
    if c.root_noise == "none":
        return
    if c.puct is False:
        raise ValueError(f"root_noise={c.root_noise!r} needs PUCT (it works on the priors), "
                         f"not puct=False")
    if c.workers != 1:
        raise ValueError(f"root_noise={c.root_noise!r} is for one process (workers=1): each "
                         f"worker's tree would draw its own root")
    for name in ("noise_alpha", "noise_fraction", "gumbel_scale"):
        v = getattr(c, name)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ValueError(f"{name} must be a number, not {v!r}")
    if not c.noise_alpha > 0:
        raise ValueError(f"noise_alpha must be positive, not {c.noise_alpha!r}")
    if not 0 <= c.noise_fraction <= 1:
        raise ValueError(f"noise_fraction must be in 0..1, not {c.noise_fraction!r}")
    if _not_int(c.gumbel_k) or not 1 <= c.gumbel_k <= MAX_GUMBEL_K:
        raise ValueError(f"gumbel_k must be an integer in 1..{MAX_GUMBEL_K}, "
                         f"not {c.gumbel_k!r}")
    if not c.gumbel_scale >= 0:
        raise ValueError(f"gumbel_scale must be >= 0, not {c.gumbel_scale!r}")


def _not_int(value: object) -> bool:
    return isinstance(value, bool) or not isinstance(value, int)


@dataclass(frozen=True)
class SearchConfig:
    """Every option of a search (:class:`arle_ai.MCTS`); the defaults are the default search.

    Leaf (how a new leaf is valued; its options are refused with another leaf):
        leaf: "net" (default: the learned value model, :mod:`arle_ai.search.net`),
            "rollout" (a rollout finished by the static evaluation), "static" (the static
            evaluation) or "null" (every leaf 0.5: the tree code alone).
        rollout: the policy of the rollout, "random" (default: uniformly random moves) or
            "heuristic" (the heuristic policy, about 4x the cost): of leaf "rollout", and of
            leaf "net" with a net_horizon.
        horizon: leaf "rollout": the rollout stops when this many more half-years have begun
            (default 2) and the static evaluation values it; -1 plays to the end.
        net_horizon: leaf "net": a rollout until this many more half-years have begun
            (default 2), valued by the model; None: the model values the leaf itself.
        net: leaf "net": a weights file (default None: the shipped weights).
        solo_net: leaf "net": the solo model's weights file, which values solo positions
            (default None: the shipped solo model, or the static evaluation of the score
            when the package ships none; :mod:`arle_ai.search.net`).
        solo_rollout: leaf "net": the policy of the rollout of solo positions valued without
            a solo model, "heuristic" (default: it scored 6 VP a game more than random moves)
            or "random"; two-player positions take ``rollout``.
        policy_temperature: leaf "net" with ``puct``: the priors are a softmax of the model's
            policy logits / policy_temperature over the legal actions (a model with a policy
            head: weights format 2); default 1.
    Tree:
        c: exploration constant (UCT: c * sqrt(ln N / n); PUCT: c * P * sqrt(N) / (1 + n)).
        puct: PUCT with priors: the policy head's (leaf "net" with a model that has one),
            else the heuristic evaluation's (a softmax of the margin after each move, VP
            scaled by prior_temperature); False: UCT (uniform priors). None (default): PUCT
            when the leaf's model has a policy head (weights format 2), else UCT.
        weights: evaluation and rollout weights (:class:`arle_ai.search.heuristics.Weights`).
        seed: makes the search deterministic (with an iteration budget and a worker count).
        workers: root parallelism: a persistent pool of this many processes, each searching
            its own tree (kept between searches) with its share of the iterations.
        reuse: keep the tree between searches.
        max_nodes: a ceiling on the tree's positions (None: only max_memory bounds it).
        max_memory: a ceiling in bytes on the trees (all workers together). When a search
            reaches it, no node is added: new leaves are still evaluated and backed up. A
            reused tree over half the ceiling is cut to the part the new root reaches.
    Root (self-play exploration, :mod:`arle_ai.search.root`; PUCT unless puct=False, which
    refuses it, and one worker):
        root_noise: "none" (default), "dirichlet" (the root's priors mixed with Dirichlet
            noise for each search: (1 - noise_fraction) P + noise_fraction Dir(noise_alpha /
            legal moves)), or "gumbel" (Gumbel-Top-k with sequential halving: gumbel_k moves
            sampled without replacement by prior logits + Gumbel noise (times gumbel_scale;
            0: none), the budget halved among them by their values; the search's choice
            is the survivor, ranked first). docs/learning.md says which the loop uses and why.

    Options of the leaf it does not use read None (``SearchConfig(leaf="static").rollout``).
    """

    leaf: str = DEFAULT_LEAF
    rollout: str | None = None
    horizon: int | None = None
    net_horizon: int | None = DEFAULT_NET_HORIZON
    net: str | os.PathLike[str] | None = None
    solo_net: str | os.PathLike[str] | None = None
    solo_rollout: str | None = DEFAULT_SOLO_ROLLOUT
    policy_temperature: float | None = 1.0
    c: float = 0.9
    puct: bool | None = None
    prior_temperature: float = 2.0
    weights: Weights = DEFAULT_WEIGHTS
    seed: int = 0
    workers: int = 1
    reuse: bool = True
    max_nodes: int | None = None
    max_memory: int = 1 << 30
    root_noise: str = "none"
    noise_alpha: float = 10.0
    noise_fraction: float = 0.25
    gumbel_k: int = 16
    gumbel_scale: float = 1.0

    def __post_init__(self) -> None:
        for check in _CHECKS:
            check(self)


# In field order after the leaf: a leaf option is checked once the leaf is known.
_CHECKS: tuple[Callable[[SearchConfig], None], ...] = (
    _check_leaf, _check_net, _check_policy_temperature, _check_rollout, _check_horizon,
    _check_c,
    _check_prior_temperature, _check_flags, _check_weights, _check_seed, _check_memory,
    _check_root)

_CONFIG_FIELDS = frozenset(f.name for f in fields(SearchConfig))


def from_keywords(options: Mapping[str, Any], default: Budget = SEARCH_BUDGET
                  ) -> tuple[SearchConfig, Budget]:
    """The config and budget of the keyword form (``MCTS(iterations=200, seed=1)``):
    ``iterations`` and ``time_limit`` (seconds) make the budget (``default`` without either),
    the other keywords are :class:`SearchConfig` fields. ``rollout`` or ``horizon`` without
    ``leaf`` is refused: before the learned leaf became the default they selected the rollout
    leaf, and the leaf is not chosen silently."""
    rest = dict(options)
    iterations = rest.pop("iterations", None)
    time_limit = rest.pop("time_limit", None)
    unknown = sorted(set(rest) - _CONFIG_FIELDS)
    if unknown:
        raise TypeError(f"unknown search option {unknown[0]!r} (options: iterations, "
                        f"time_limit, {', '.join(f.name for f in fields(SearchConfig))})")
    if "leaf" not in rest:
        for name in ("rollout", "horizon"):
            if rest.get(name) is not None:
                raise ValueError(
                    f"{name}={rest[name]!r} needs leaf=: 'rollout' (a rollout finished by the "
                    f"static evaluation, which {name}= alone selected before) or 'net' (the "
                    f"default leaf; its rollout's options are rollout and net_horizon)")
    if time_limit is not None:
        limits.check_seconds(time_limit, "time_limit")
    return SearchConfig(**rest), Budget.of(iterations, time_limit, default)
