"""Agents behind one interface: ``select(state) -> action``. Each is seeded and picklable."""

from __future__ import annotations

import ast
import importlib
import operator
import random
from collections.abc import Callable
from typing import Any

from arle_ai import engine
from arle_ai.search.config import LEAVES, SEARCH_BUDGET, Budget, SearchConfig, from_keywords
from arle_ai.search.heuristics import DEFAULT_WEIGHTS, Weights, action_scores
from arle_ai.search.mcts import MCTS
from arle_ai.search.result import SearchResult
from arle_ai.search.tree import Progress

__all__ = ["Agent", "AgentError", "RandomAgent", "GreedyAgent", "MCTSAgent", "agent_from_spec",
           "choose_action", "mcts_spec"]


class AgentError(ValueError):
    """An agent that failed to choose, or chose an action that is not legal."""


class Agent:
    """The interface: pick a legal action for the player to decide in `state`."""

    name = "agent"

    def select(self, state: engine.GameState) -> int:
        raise NotImplementedError

    def reset(self) -> None:
        """Forget anything kept between moves (a new game starts)."""


class RandomAgent(Agent):
    """Uniformly random legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def select(self, state: engine.GameState) -> int:
        return self.rng.choice(state.legal_actions())

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


class GreedyAgent(Agent):
    """The action with the best heuristic evaluation right after it (ties: random, seeded)."""

    name = "greedy"

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.seed = seed
        self.weights = weights
        self.rng = random.Random(seed)

    def select(self, state: engine.GameState) -> int:
        scores = action_scores(state, self.weights)
        best = max(scores.values())
        ties = sorted(a for a, v in scores.items() if v >= best - 1e-9)
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


class MCTSAgent(Agent):
    """Monte Carlo tree search of ``config`` within ``budget`` a move (see
    :class:`arle_ai.MCTS`; keyword options are its keyword form, ``MCTSAgent(iterations=500,
    seed=3)``)."""

    name = "mcts"

    def __init__(self, config: SearchConfig | None = None, budget: Budget | None = None,
                 **options: Any) -> None:
        if options:
            if config is not None or budget is not None:
                raise TypeError("give MCTSAgent a SearchConfig and a Budget, or keyword "
                                "options, not both")
            config, budget = from_keywords(options)
        self.config = SearchConfig() if config is None else config
        self.budget = SEARCH_BUDGET if budget is None else budget
        self.search = MCTS(self.config, self.budget)
        self.last_result: SearchResult | None = None
        self.progress: Progress | None = None  # see MCTS.search

    def select(self, state: engine.GameState) -> int:
        result = self.search.search(state, progress=self.progress)
        self.last_result = result
        return result.best_action

    def reset(self) -> None:
        self.search = MCTS(self.config, self.budget)

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config, "budget": self.budget}

    def __setstate__(self, d: dict[str, Any]) -> None:
        MCTSAgent.__init__(self, d["config"], d["budget"])


_KINDS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent}


def _leaf(text: str) -> str:
    if text not in LEAVES:
        raise ValueError(text)
    return text


def _net_horizon(text: str) -> int | None:
    """net_horizon=none: the model values the leaf itself (no rollout first)."""
    return None if text.lower() == "none" else int(text)


_MCTS_OPTIONS: dict[str, Callable[[str], Any]] = {
    "iterations": int, "time": float, "c": float, "rollout": str, "horizon": int,
    "puct": lambda v: v.lower() in ("1", "true", "yes"), "workers": int,
    "eval": _leaf, "net": str, "solo_net": str, "net_horizon": _net_horizon,
    "solo_rollout": str,
    "policy_temperature": float, "root": str, "noise_alpha": float, "noise_fraction": float,
    "gumbel_k": int, "gumbel_scale": float, "margin_blend": float, "sigma": float}
_OPTION_NAMES = {"time": "time_limit", "eval": "leaf", "root": "root_noise"}
# options that set a field of the value's weights (heuristics.Weights), with their ranges:
# the leaf value's share of the squashed margin (the rest: the win probability) and the
# margin's squash scale in VP
_WEIGHT_OPTIONS = {"margin_blend": (0.0, 1.0), "sigma": (0.5, 1000.0)}


def mcts_spec(budget: Budget) -> str:
    """The agent spec of the default search within ``budget``: ``mcts:time=2``."""
    parts = []
    if budget.iterations is not None:
        parts.append(f"iterations={budget.iterations}")
    if budget.seconds is not None:
        parts.append(f"time={budget.seconds:g}")
    return "mcts:" + ",".join(parts)


def _spec_leaf(options: dict[str, Any]) -> dict[str, Any]:
    """The leaf of an mcts spec spelled out, as docs/cli.md documents what users type:
    ``rollout=`` or ``horizon=`` without ``eval=`` is the rollout leaf, and ``eval=net``
    without ``net_horizon=`` has the model value each leaf itself."""
    if "leaf" not in options and ("rollout" in options or "horizon" in options):
        options["leaf"] = "rollout"
    if options.get("leaf") == "net" and "net_horizon" not in options:
        options["net_horizon"] = None
    return options


def _literal(text: str) -> Any:
    """A Python literal (number, bool, None, string in quotes), else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError, MemoryError):  # deep nesting too
        return text


def _failure(exc: BaseException) -> str:
    """What the user's code did wrong, for a message (sys.exit is named as such: it must not
    end the whole program from inside an agent)."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    return f"{type(exc).__name__}: {exc}"


def _python_agent(spec: str, target: str, options: str, seed: int) -> Agent:
    """The agent of 'py:package.module.Class[:key=value,...]': Class(seed=seed, **options)."""
    module_name, _, class_name = target.rpartition(".")
    if not module_name or not class_name:
        raise ValueError(f"{spec!r}: write py:package.module.ClassName")
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as exc:  # not found, or the user's module fails to import
        raise ValueError(f"{spec!r}: cannot import {module_name!r}: {_failure(exc)}") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise ValueError(f"{spec!r}: {target!r} is not an arle_ai.play.agents.Agent subclass")
    make: Callable[..., Agent] = cls  # a subclass's constructor takes seed= (documented)
    kwargs: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in options.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip().isidentifier():
            raise ValueError(f"agent option {part!r} in {spec!r} needs key=value")
        kwargs[key.strip()] = _literal(value.strip())
    try:
        return make(seed=seed, **kwargs)
    except (Exception, SystemExit) as exc:  # bad options or the user's constructor failing
        raise ValueError(f"{spec!r}: {_failure(exc)}") from None


def agent_from_spec(spec: str, seed: int = 0) -> Agent:
    """An agent from text such as 'random', 'greedy', 'mcts:iterations=2000',
    'mcts:time=0.5,c=1.2', or 'py:package.module.Class:key=value' for your own Agent subclass
    (constructed as Class(seed=seed, key=value); values are Python literals or plain text).
    Raises ValueError naming the bad part."""
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "py":
        target, _, option_text = rest.partition(":")
        return _python_agent(spec, target.strip(), option_text, seed)
    if kind not in _KINDS:
        raise ValueError(f"unknown agent {kind!r} in {spec!r} (random, greedy, mcts, "
                         "py:module.Class)")
    options: dict[str, Any] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq:
                raise ValueError(f"agent option {part!r} in {spec!r} needs key=value")
            if kind != "mcts" or key not in _MCTS_OPTIONS:
                raise ValueError(f"unknown option {key!r} for agent {kind!r} in {spec!r}")
            try:
                options[_OPTION_NAMES.get(key, key)] = _MCTS_OPTIONS[key](value.strip())
            except ValueError:
                raise ValueError(f"bad value {value!r} for {key!r} in {spec!r}") from None
    if kind == "mcts":
        changes = {k: options.pop(k) for k in _WEIGHT_OPTIONS if k in options}
        for key, value in changes.items():
            lo, hi = _WEIGHT_OPTIONS[key]
            if not lo <= value <= hi:   # NaN fails too
                raise ValueError(f"{key}={value!r} in {spec!r} must be in {lo:g}..{hi:g}")
        if changes:
            options["weights"] = DEFAULT_WEIGHTS.with_(**changes)
        try:
            return MCTSAgent(seed=seed, **_spec_leaf(options))
        except ValueError as exc:  # an option out of its range (the MCTS checks name it)
            raise ValueError(f"{spec!r}: {exc}") from None
    return _KINDS[kind](seed=seed)


def choose_action(agent: Agent, state: engine.GameState, label: str = "agent") -> int:
    """The agent's choice in `state` (passed a copy), checked: AgentError names the agent
    (`label`), the decision and what went wrong when select raises or returns an id that is not
    legal. Numpy integers are accepted as ids."""
    where = (f"decision {state.pending!r} of player {state.current_player} in half-year "
             f"{state.half_year}")
    try:
        action = agent.select(state.copy())
    except (Exception, SystemExit) as exc:
        raise AgentError(f"{label} failed in {where}: {_failure(exc)}") from None
    if not isinstance(action, bool):
        try:
            action = operator.index(action)
        except TypeError:
            pass
    if not state.is_legal(action):
        raise AgentError(f"{label} chose {action!r}, not a legal action, in {where}")
    return action
