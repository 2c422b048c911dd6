"""Fields of Arle as a PettingZoo AEC environment (``pip install "arle-ai[pettingzoo]"``).

::

    from arle_ai.adapters.pettingzoo import env

    e = env(variant="standard")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(
            obs["action_mask"])
        e.step(action)

Agents are ``"player_0"`` and ``"player_1"`` (the engine's players). Who acts next comes from
the game, not from a fixed rotation: a player often takes several decisions in a row (a worker
placement and its sub-decisions). Observations are dicts:

- ``"observation"``: ``GameState.features(player)`` (float32, ``arle_ai.NUM_FEATURES`` slots,
  docs/features.md), seen by the observing player;
- ``"action_mask"``: int8 over all ``arle_ai.NUM_ACTIONS`` action ids, 1 where legal (all 0 for
  the agent not to act).

Rewards come at the end only: +1 to the winner, -1 to the loser (the rules' tie-break leaves no
draws); the final ``infos`` hold ``scores``, ``winner`` and each agent's ``vp_margin`` (its VP
minus the opponent's).

``env(players=1)`` is the solo game: one agent, ``"player_0"``, who takes every decision; its
one reward, at the end, is its final score in VP (the solo game's result: no winner), and its
final ``infos`` hold ``scores`` (one) and ``breakdown`` (``score_breakdown(0)``).

``reset(seed=...)`` draws the setup from ``seed`` (the same seed, the same game; ``reset()``
without one continues the seeded stream). An illegal action raises
:class:`arle_ai.IllegalActionError` and changes nothing. ``render()`` is text: printed with
``render_mode="human"``, returned with ``render_mode="ansi"``.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from arle_ai import engine
from arle_ai.base.errors import IllegalActionError

__all__ = ["ArleEnv", "env", "raw_env", "play_random", "AGENTS"]

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("human", "ansi")


def env(variant: str = "standard", render_mode: str | None = None, players: int = 2) -> ArleEnv:
    """The Fields of Arle AEC environment (it checks its own inputs, so it needs none of
    PettingZoo's checking wrappers); ``players`` 1 is the solo game."""
    return ArleEnv(variant=variant, render_mode=render_mode, players=players)


raw_env = env


def play_random(e: AECEnv, rng: random.Random
                ) -> tuple[int, dict[str, tuple[float, dict[str, Any]]]]:
    """Play ``e`` (already reset) to its end, each acting agent picking uniformly among the
    legal actions of its mask with ``rng``; return the number of actions taken and what each
    agent saw when its game ended (``{agent: (reward, info)}``). The reference loop of the
    tests and bench/adapters.py."""
    steps = 0
    ended: dict[str, tuple[float, dict[str, Any]]] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            ended[agent] = (reward, info)
            e.step(None)
            continue
        legal = obs["action_mask"].view(bool).nonzero()[0]
        e.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
    return steps, ended


class ArleEnv(AECEnv):
    """Fields of Arle for two agents, or one (the solo game); see the module docs."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "fields_of_arle_v0",
                                "is_parallelizable": False}

    def __init__(self, variant: str = "standard", render_mode: str | None = None,
                 players: int = 2) -> None:
        super().__init__()
        if variant not in engine.VARIANTS:
            raise ValueError(f"variant must be one of {engine.VARIANTS}, not {variant!r}")
        if isinstance(players, bool) or players not in engine.PLAYER_COUNTS:
            raise ValueError(f"players must be 1 (the solo game) or 2, not {players!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {list(RENDER_MODES)} or "
                             f"None, not {render_mode!r}")
        self.variant = variant
        self.players = players
        self.render_mode = render_mode
        self.seats = AGENTS[:players]
        self.possible_agents = list(self.seats)
        self.agents: list[str] = []
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (engine.NUM_FEATURES,), np.float32),
            "action_mask": spaces.Box(0, 1, (engine.NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.seats}
        self.action_spaces = {a: spaces.Discrete(engine.NUM_ACTIONS) for a in self.seats}
        self._index = {a: i for i, a in enumerate(self.seats)}
        self._rng = random.Random()
        self.game_state: engine.GameState = engine.new_game(seed=0, variant=variant,
                                                            players=players)
        self.setup_seed = 0

    # ---- spaces ----

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---- the game ----

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the setup draws; ``options`` are not used."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.setup_seed = self._rng.randrange(2**31)
        self.game_state = engine.new_game(seed=self.setup_seed, variant=self.variant,
                                          players=self.players)
        self.agents = list(self.seats)
        self.rewards: dict[str, float] = {a: 0 for a in self.seats}
        self._cumulative_rewards: dict[str, float] = {a: 0 for a in self.seats}
        self.terminations = {a: False for a in self.seats}
        self.truncations = {a: False for a in self.seats}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.seats}
        player = self.game_state.current_player
        assert player is not None  # a new game always has a player to act
        self.agent_selection = AGENTS[player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        s = self.game_state
        player = self._index[agent]
        if s.current_player == player:
            mask = s.legal_mask()
        else:
            mask = np.zeros(engine.NUM_ACTIONS, np.int8)
        return {"observation": s.features(player), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for an agent whose game "
                                     f"is over")
        s = self.game_state
        s.apply(int(action))  # IllegalActionError (state unchanged) for an illegal action
        player = s.current_player
        if player is None:
            self._finish()
        else:
            self.agent_selection = AGENTS[player]
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        s = self.game_state
        scores = s.scores()
        if self.players == 1:  # the solo game: its score is the result
            a = self.seats[0]
            self.rewards[a] = scores[0]
            self._cumulative_rewards[a] += scores[0]
            self.terminations[a] = True
            self.infos[a] = {"scores": list(scores), "breakdown": s.score_breakdown(0)}
            return
        winner = s.winner()
        for i, a in enumerate(AGENTS):
            self.rewards[a] = 1 if i == winner else -1
            self._cumulative_rewards[a] += self.rewards[a]
            self.terminations[a] = True
            self.infos[a] = {"scores": list(scores), "winner": winner,
                             "vp_margin": scores[i] - scores[1 - i]}

    def render(self) -> str | None:
        """The position as text (``arle_ai.describe``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'human' or "
                                  "'ansi')")
            return None
        from arle_ai.text.display import describe

        text = describe(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The global state: the features seen by player 0."""
        return self.game_state.features(0)

    def close(self) -> None:
        pass
