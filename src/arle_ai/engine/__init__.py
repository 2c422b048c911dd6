"""Layer 1, the game: the one description of its data (rules), the compiled rules engine built
from it (_core: positions, legal actions, apply, playouts, the search tree, features and the
value net's inference) and its invariants and random positions for tests (testing).

This module is the engine's public face: the names the layers above use, and only these.
The compiled core ``_core`` is private to this package; a module outside it imports from
here (``from arle_ai import engine``, ``from arle_ai.engine import GameState``), never the
core itself, and tests/test_layers.py fails when one does. ``rules`` (the game's data) and
``testing`` are public modules of their own::

    >>> from arle_ai import engine
    >>> state = engine.new_game(seed=0)
    >>> len(engine.features_batch([state])[0]) == engine.NUM_FEATURES
    True
"""

from __future__ import annotations

from typing import Any

from arle_ai.engine import _core
from arle_ai.engine._core import (
    FEATURE_NAMES,
    HALF_END_PROGRAM,
    MAX_HORIZON,
    MAX_SEED,
    MAX_TREE_BYTES,
    MAX_TREE_NODES,
    NET_TEMPERATURE_MAX,
    NUM_FEATURES,
    PLAYER_COUNTS,
    SCORE_CATEGORIES,
    VARIANTS,
    GameState,
    LeafEvaluator,
    NetEvaluator,
    NullEvaluator,
    RolloutEvaluator,
    SearchTree,
    StaticEvaluator,
    ValueNet,
    action_scores,
    copies,
    evaluate,
    features_batch,
    final_value,
    heuristic_playouts,
    install_position_checker,
    install_text,
    new_game,
    random_playout,
    random_playouts,
    rollout_value,
)

NUM_ACTIONS: int = _core.NUM_ACTIONS_PY
"""The number of action ids (rules.NUM_ACTIONS, as the core was built with it)."""


def position_limits() -> dict[str, Any]:
    """The bounds a position's fields are checked against (formats.position.check_position):
    the format's name, the seed's range, the variants, counts and names of the loaded tables."""
    return _core._position_limits()


def state_from_bytes(body: bytes) -> GameState:
    """The position whose ``raw_bytes()`` are ``body`` (self-play data stores positions so),
    checked as an unpickled state is: ValueError when the bytes are not a position."""
    return GameState._from_bytes(body + _core._digest(body))


def is_compiled(evaluator: LeafEvaluator) -> bool:
    """Whether ``evaluator`` is of one of the core's own evaluator classes: the search calls
    their C methods, which a Python subclass cannot override (its leaves would all be 0.5)."""
    return type(evaluator).__module__ == _core.__name__


__all__ = [
    # positions: the game state, a new game and the facts every layer checks against
    "GameState",
    "new_game",
    "state_from_bytes",
    "position_limits",
    "MAX_SEED",
    "VARIANTS",
    "PLAYER_COUNTS",
    "SCORE_CATEGORIES",
    "HALF_END_PROGRAM",
    # the action layout and the feature vector (docs/features.md)
    "NUM_ACTIONS",
    "NUM_FEATURES",
    "FEATURE_NAMES",
    "features_batch",
    # evaluation: the static value, the heuristic's move scores, rollouts, a finished game
    "evaluate",
    "action_scores",
    "rollout_value",
    "final_value",
    # the search: its tree, the leaf evaluators (docs/search.md), the value net, the bounds
    "SearchTree",
    "LeafEvaluator",
    "NullEvaluator",
    "StaticEvaluator",
    "RolloutEvaluator",
    "NetEvaluator",
    "ValueNet",
    "is_compiled",
    "MAX_HORIZON",
    "MAX_TREE_NODES",
    "MAX_TREE_BYTES",
    "NET_TEMPERATURE_MAX",
    # playouts and copies (the public face's random_playout, the benchmarks)
    "random_playout",
    "random_playouts",
    "heuristic_playouts",
    "copies",
    # the core seam: what the public face arle_ai installs at import (docs/architecture.md)
    "install_text",
    "install_position_checker",
]
