"""arle-ai: a complete rules engine and AI for the board game *Fields of Arle*.

The rules engine is compiled (its face is ``arle_ai.engine``); this package re-exports the
public API::

    import arle_ai
    s = arle_ai.new_game(seed=0)
    a = s.legal_actions()[0]
    s.apply(a)

It is the public face, above every layer (docs/architecture.md): importing it (which Python
does before any module of the package) also hands the core the functions it calls but may not
import, the action text and the position checks (the core seam).
"""

from __future__ import annotations

from importlib import metadata as _metadata

from arle_ai import engine as _engine
from arle_ai.base.errors import IllegalActionError, PositionError
from arle_ai.engine import (
    FEATURE_NAMES,
    NUM_FEATURES,
    GameState,
    new_game,
    random_playout,
    rules,
)
from arle_ai.formats import position as _position
from arle_ai.play.suggest import suggest
from arle_ai.search.config import Budget, SearchConfig
from arle_ai.search.mcts import MCTS
from arle_ai.search.result import ActionStats, SearchResult
from arle_ai.text import answers as _answers
from arle_ai.text import notation as _notation
from arle_ai.text.display import describe

# The core seam: GameState.action_to_string/parse_action, apply()'s IllegalActionError in
# printed names and from_dict's checks call these (src/arle_ai/engine/_seam.pxi).
_engine.install_text(action_to_string=_notation.action_to_string,
                     parse_action=_answers.parse_action, illegal_action=_answers.illegal_action)
_engine.install_position_checker(_position.check_position)

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
    "SearchConfig",
    "Budget",
    "SearchResult",
    "ActionStats",
    "suggest",
]

