"""arle-ai: a complete rules engine and AI for the board game *Fields of Arle*.

The rules engine is compiled (``arle_ai.engine._core``); this package re-exports its public API::

    import arle_ai
    s = arle_ai.new_game(seed=0)
    a = s.legal_actions()[0]
    s.apply(a)
"""

from __future__ import annotations

from importlib import metadata as _metadata

from arle_ai.base.errors import IllegalActionError, PositionError
from arle_ai.engine import rules
from arle_ai.engine._core import (
    FEATURE_NAMES,
    NUM_FEATURES,
    GameState,
    new_game,
    random_playout,
)
from arle_ai.play.suggest import Suggestion, SuggestionReport, suggest
from arle_ai.search.mcts import MCTS, ActionStats, SearchResult

# The action-id layout: first id of each range (rules.ACTION_RANGES), "num_actions", "max_vehicles".
ACTION_LAYOUT = rules.ACTION_LAYOUT
NUM_ACTIONS = rules.NUM_ACTIONS

try:  # the one source of the version is pyproject.toml
    __version__ = _metadata.version("arle-ai")
except _metadata.PackageNotFoundError:  # a source tree built in place, not installed
    __version__ = "0+unknown"

__all__ = [
    "ACTION_LAYOUT",
    "NUM_ACTIONS",
    "FEATURE_NAMES",
    "NUM_FEATURES",
    "GameState",
    "IllegalActionError",
    "PositionError",
    "new_game",
    "random_playout",
    "rules",
    "describe",
    "MCTS",
    "SearchResult",
    "ActionStats",
    "suggest",
    "Suggestion",
    "SuggestionReport",
]


def describe(state: GameState, width: int = 100) -> str:
    """A readable multi-line text of a position in lines of at most ``width`` characters
    (see :mod:`arle_ai.text.display`)."""
    from arle_ai.text.display import describe as _describe

    return _describe(state, width)
