"""The game's language for the page, from :mod:`arle_ai.effects`, :mod:`arle_ai.names` and
:func:`arle_ai.notation.action_label`: move labels with printed names, what an option costs
and brings at once, the prompt of the pending decision, and what each move did (the move,
then every inventorying step it set off) for the event log.
"""

from __future__ import annotations

from typing import Any

from arle_ai import _core, effects, names, rules
from arle_ai.notation import action_label

__all__ = ["NAMES", "label", "option", "prompt", "move_events"]

NAMES: dict[str, str] = {}
for _kind, _table in (("space", rules.ACTION_SPACES), ("tool", rules.TOOLS),
                      ("building", rules.BUILDINGS), ("vehicle", rules.VEHICLES),
                      ("destination", rules.DESTINATIONS)):
    for _item in _table:
        NAMES.setdefault(_item.key, names.name(_kind, _item.key))


def label(state: _core.GameState, action: int) -> str:
    """The move with printed names, e.g. 'place Builders' Merchant (special)'."""
    return action_label(state, action)


def option(before: _core.GameState, after: _core.GameState) -> dict[str, Any]:
    """What the player to move pays and gets by the move from ``before`` to ``after``."""
    change = effects.describe(before, after)[before.current_player]
    amounts = change.amounts()
    cost = [a[1:] for a in amounts if a.startswith("-")]
    gain = [a[1:] for a in amounts if a.startswith("+")] + change.phrases()
    return {"cost": ", ".join(cost), "gain": ", ".join(gain), "vp": change.vp_change}


def prompt(state: _core.GameState) -> str:
    """What the pending decision asks, in words."""
    if state.is_terminal():
        return "The game is over"
    pending = state.pending
    who = f"Player {state.current_player}"
    if pending == "turn":
        return f"{who}: place a worker"
    kind, _, step = pending.partition(":")
    if kind == "action":
        return f"{who}: {NAMES.get(step, step.replace('_', ' '))}"
    return f"{who}: {kind.replace('_', ' ')}"


def move_events(before: _core.GameState, action: int) -> tuple[_core.GameState, list[str]]:
    """The position after ``action`` and what happened, one line per step: the move itself,
    then each inventorying step and the new half-year it set off."""
    after = before.copy()
    steps = effects.apply(after, action)
    lines = [f"{label(before, action)}: {steps[0].text()}"]
    lines += [f"{s.what} (half-year {s.half_year}): {s.text()}" for s in steps[1:]]
    return after, lines
