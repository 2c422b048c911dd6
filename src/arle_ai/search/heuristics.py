"""Static evaluation and rollout-policy weights.

The evaluation of a player is, in VP: the points they would score now (``scores()``), plus
estimates of what the position will still bring. Every term is scaled by the share of the game
left (1 at the start, 0 at the end) where it describes future production:

- ``tool``: per tool step taken (beyond its printed VP, which the score holds): better tools
  yield more for every action still to come.
- ``food``: a penalty per unit of food (grain counts) missing for the next two sustenances
  (one in half-year 9); each missing unit would cost an animal or 2 VP.
- ``fuel``: a penalty per unit of peat/wood missing for the coming November (summer only).
- ``land``: per free land space (room for fields, stalls, buildings, animals).
- ``goods``: per building material or peat (inputs of buildings, tools, heating).
- ``textile``: per linen, woolen or leather (future clothing VP).
- ``diversity``: per animal of the least-kept type, on top of its 2 VP in the score: the
  animal score rewards balance (least type 2 VP each, second 1 VP, most 0).

The same weights drive the rollout policy (``epsilon``: share of uniformly random moves;
``sample``: candidate moves compared per decision; 2, not the earlier 4: a quarter cheaper
per rollout and not weaker at equal iterations, see docs/search.md) and the value of a rollout
(``sigma``: a VP margin m becomes 0.5 + 0.5 tanh(m / sigma); ``margin_blend``: share of that
squashed margin in a finished game's value, the rest being win = 1 / loss = 0). ``own_blend``
(default 0) adds a share of the player's own VP (own VP / 200, clipped to 0..1; where the
search stops before the end, the static evaluation stands in) to each player's value, so that
a player also wants points for themselves, not only the margin and the win; with it the search
keeps a value per player (the game value is no longer zero-sum). See docs/search.md.

The solo game has no opponent: its value is the player's final score (or, where the search
stops before the end, the leaf's estimate of it), squashed as 0.5 + 0.5 tanh((score -
``solo_center``) / ``solo_sigma``); the search reports the score in place of the margin.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, replace

from arle_ai import engine

__all__ = ["Weights", "DEFAULT_WEIGHTS", "evaluate", "action_scores"]


@dataclass(frozen=True)
class Weights:
    """Named weights; the field order is the C engine's array order."""

    tool: float = 0.8
    food: float = 1.2
    fuel: float = 1.0
    land: float = 0.6
    goods: float = 0.15
    textile: float = 0.6
    diversity: float = 0.5
    epsilon: float = 0.15
    sample: float = 2.0
    sigma: float = 12.0
    margin_blend: float = 0.2
    own_blend: float = 0.0
    solo_center: float = 120.0
    solo_sigma: float = 40.0

    def as_array(self) -> tuple[float, ...]:
        return astuple(self)

    def with_(self, **changes: float) -> Weights:
        return replace(self, **changes)


DEFAULT_WEIGHTS: Weights = Weights()


def evaluate(state: engine.GameState, weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    """The static evaluation (VP estimate) of both players."""
    return engine.evaluate(state, weights.as_array())


def action_scores(state: engine.GameState, weights: Weights = DEFAULT_WEIGHTS) -> dict[int, float]:
    """Each legal action's evaluation margin for the acting player right after it."""
    return dict(engine.action_scores(state, weights.as_array()))
