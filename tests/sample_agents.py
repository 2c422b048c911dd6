"""Agents written the way a user would write their own, for the ``py:`` agent spec tests."""

from __future__ import annotations

import numpy as np

from arle_ai.play.agents import Agent


class FirstMove(Agent):
    """Plays the legal action at position ``index`` (wrapped), as a numpy integer."""

    name = "first-move"

    def __init__(self, seed: int = 0, index: int = 0) -> None:
        self.seed = seed
        self.index = index

    def select(self, state) -> int:
        legal = state.legal_actions()
        return np.int64(legal[self.index % len(legal)])


class Cheater(Agent):
    """Always plays action 0, legal or not."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def select(self, state) -> int:
        return 0


class Crasher(Agent):
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def select(self, state) -> int:
        raise RuntimeError("out of ideas")


class NotAnAgent:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed


class Fussy(Agent):
    def __init__(self, seed: int = 0) -> None:
        raise ValueError("no seeds please")
