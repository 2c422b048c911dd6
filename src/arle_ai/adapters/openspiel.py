"""Fields of Arle as an OpenSpiel game (``pip install "arle-ai[openspiel]"``).

Importing this module registers the Python game ``fields_of_arle`` with OpenSpiel::

    import pyspiel
    import arle_ai.adapters.openspiel  # registers "fields_of_arle"

    game = pyspiel.load_game("fields_of_arle", {"seed": 7, "variant": "standard"})
    state = game.new_initial_state()

The game is sequential, deterministic once set up (the setup is drawn from the parameter
``seed``; ``variant`` is "standard" or "first-game"), of perfect information, zero-sum, with
rewards only at the end: +1 for the winner, -1 for the loser (the rules' tie-break leaves no
draws). The parameter ``players`` (default 2) set to 1 gives the solo game: one player (0),
who takes every decision, and whose one return at the end is its final score in VP (a
general-sum game of one player, utilities in :data:`SOLO_MIN_VP` .. :data:`SOLO_MAX_VP`).
Actions are the engine's action ids (``arle_ai.NUM_ACTIONS`` distinct ones) and their strings
are the project's notation (docs/notation.md), so ``state.string_to_action`` reads notation too.

The state wraps the compiled :class:`arle_ai.GameState`: ``clone`` copies its struct,
``observation_tensor(player)`` is ``GameState.features(player)`` (docs/features.md) and
``serialize`` / ``deserialize_state`` carry the position as its JSON (docs/position-format.md)
next to OpenSpiel's move history. :class:`RolloutEvaluator` values leaves for OpenSpiel's
``MCTSBot`` with one rollout in the compiled core (the one ``arle_ai.MCTS`` uses).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as os_mcts
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from arle_ai import engine
from arle_ai.search.config import DEFAULT_ROLLOUT, ROLLOUTS
from arle_ai.search.heuristics import DEFAULT_WEIGHTS, Weights

__all__ = ["GAME_NAME", "MAX_GAME_LENGTH", "SOLO_MIN_VP", "SOLO_MAX_VP", "ArleGame",
           "ArleState", "RolloutEvaluator", "core_state", "load_game"]

GAME_NAME = "fields_of_arle"
# An upper bound on the decisions of a game, which OpenSpiel asks for (buffers, checks). The
# longest of 20,000 random games took 241 decisions, a typical game about 170.
MAX_GAME_LENGTH = 2000
# The bounds OpenSpiel asks for of the solo game's one return, its final score: below the worst
# a game can score (60 bottlenecks at -2, 3 hydrated moors, boardwalk, barn, top dike row:
# -141) and above any game played (the AI's best solo games score under 200).
SOLO_MIN_VP = -150.0
SOLO_MAX_VP = 400.0


def _game_type(long_name: str, utility: Any, players: int) -> Any:
    """The pyspiel.GameType of the two-player game or of the solo game (one player, its
    return its score): the same game otherwise."""
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"seed": 0, "variant": "standard", "players": 2},
    )


def _game_info(players: int, low: float, high: float, total: float | None) -> Any:
    return pyspiel.GameInfo(
        num_distinct_actions=engine.NUM_ACTIONS,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=low,
        max_utility=high,
        utility_sum=total,
        max_game_length=MAX_GAME_LENGTH,
    )


_GAME_TYPE = _game_type("Fields of Arle", pyspiel.GameType.Utility.ZERO_SUM, 2)
_GAME_INFO = _game_info(2, -1.0, 1.0, 0.0)
# The solo game: one player, general-sum (its return is its score), the same game otherwise.
_SOLO_TYPE = _game_type("Fields of Arle (solo)", pyspiel.GameType.Utility.GENERAL_SUM, 1)
_SOLO_INFO = _game_info(1, SOLO_MIN_VP, SOLO_MAX_VP, None)
_TERMINAL = pyspiel.PlayerId.TERMINAL


class _Position:
    """The core state as an attribute of an OpenSpiel state: OpenSpiel clones a Python state
    by deep-copying its attributes (here one struct copy) and serializes them by pickling
    (here the position JSON, so a serialized state is readable and checked on load)."""

    __slots__ = ("state",)

    def __init__(self, state: engine.GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.state.copy())

    def __reduce__(self) -> tuple[Callable[[str], _Position], tuple[str]]:
        return (_position_from_json, (self.state.to_json(),))


def _position_from_json(text: str) -> _Position:
    return _Position(engine.GameState.from_json(text))


class ArleGame(pyspiel.Game):
    """The OpenSpiel game ``fields_of_arle``; its parameters are ``seed``, ``variant`` and
    ``players`` (1: the solo game)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = params.get("players", 2)
        if isinstance(players, bool) or players not in engine.PLAYER_COUNTS:
            raise ValueError(f"players must be 1 (the solo game) or 2, not {players!r}")
        solo = players == 1
        super().__init__(_SOLO_TYPE if solo else _GAME_TYPE, _SOLO_INFO if solo else _GAME_INFO,
                         params)
        p = self.get_parameters()
        seed, variant = p["seed"], p["variant"]
        if variant not in engine.VARIANTS:
            raise ValueError(f"variant must be one of {engine.VARIANTS}, not {variant!r}")
        self._start = engine.new_game(seed=seed, variant=variant, players=players)

    def new_initial_state(self, position: engine.GameState | None = None) -> ArleState:
        """The start position of this game's setup, or a copy of ``position`` (any position,
        e.g. ``arle_ai.GameState.from_json(text)``; its OpenSpiel history starts empty)."""
        return ArleState(self, self._start if position is None else position)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The observer behind ``observation_tensor`` / ``observation_string``; information
        states (perfect recall) are the public move history, as for any perfect-information
        game."""
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _Observer()
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class ArleState(pyspiel.State):
    """A Fields of Arle position in OpenSpiel; ``core`` is the engine's GameState."""

    def __init__(self, game: ArleGame, start: engine.GameState) -> None:
        super().__init__(game)
        self._pos = _Position(start.copy())

    @property
    def core(self) -> engine.GameState:
        """The engine's state (do not change it: OpenSpiel keeps the history)."""
        return self._pos.state

    def current_player(self) -> int:
        p = self._pos.state.current_player
        return _TERMINAL if p is None else p

    def _legal_actions(self, player: int) -> list[int]:
        return self._pos.state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self._pos.state.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._pos.state.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._pos.state.is_terminal()

    def returns(self) -> list[float]:
        s = self._pos.state
        if not s.is_terminal():
            return [0.0] * s.players
        if s.players == 1:  # the solo game: its score
            return [s.scores()[0]]
        return [1.0, -1.0] if s.winner() == 0 else [-1.0, 1.0]

    def rewards(self) -> list[float]:
        return self.returns()

    def __str__(self) -> str:
        from arle_ai.text.display import describe

        return describe(self._pos.state)


class _Observer:
    """OpenSpiel's PyObserver: the tensor is ``GameState.features(player)``."""

    def __init__(self) -> None:
        self.tensor = np.zeros(engine.NUM_FEATURES, np.float32)
        self.dict = {"features": self.tensor}

    def set_from(self, state: ArleState, player: int) -> None:
        self.tensor[:] = state.core.features(player)

    def string_from(self, state: ArleState, player: int) -> str:
        from arle_ai.text.display import describe

        return describe(state.core)


def core_state(state: pyspiel.State) -> engine.GameState:
    """The engine's GameState inside an OpenSpiel state of this game."""
    core: engine.GameState = state.core
    return core


def load_game(seed: int = 0, variant: str = "standard", players: int = 2) -> ArleGame:
    """``pyspiel.load_game("fields_of_arle", {"seed": seed, "variant": variant, "players":
    players})``; ``players`` 1 is the solo game."""
    # pyspiel has no type information; the registered class is ArleGame.
    return cast(ArleGame, pyspiel.load_game(GAME_NAME, {"seed": seed, "variant": variant,
                                                        "players": players}))


class RolloutEvaluator(os_mcts.Evaluator):
    """Leaf values for OpenSpiel's ``MCTSBot`` from one rollout in the compiled core.

    The rollout is ``arle_ai.MCTS``'s: uniformly random moves by default (or the heuristic
    policy with ``rollout="heuristic"``), stopped ``horizon`` half-years on and finished by
    the static evaluation. Its value for player 0, v in [0, 1]
    (win/loss blended with the squashed VP margin), becomes the returns ``[2v - 1, 1 - 2v]``;
    in the solo game the return is the rollout's score (the final score, or the static
    evaluation's estimate where it stopped), on the scale of the game's returns.
    Priors are uniform. Deterministic for a given ``seed``.
    """

    def __init__(self, horizon: int = 2, rollout: str = DEFAULT_ROLLOUT,
                 weights: Weights = DEFAULT_WEIGHTS, seed: int = 0) -> None:
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, not {rollout!r}")
        self._w = weights.as_array()
        self._heuristic = rollout == "heuristic"
        self._horizon = horizon
        self._rng = random.Random(seed)

    def evaluate(self, state: ArleState) -> np.ndarray:
        v0, m0 = engine.rollout_value(state.core, self._w, self._rng.getrandbits(62),
                                      self._heuristic, self._horizon)
        if state.core.players == 1:
            return np.array([m0])
        return np.array([2.0 * v0 - 1.0, 1.0 - 2.0 * v0])

    def prior(self, state: ArleState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        p = 1.0 / len(legal)
        return [(a, p) for a in legal]


pyspiel.register_game(_GAME_TYPE, ArleGame)
