"""What the page shows, as JSON: the names of the game's pieces, a position, and its moves.

Everything is read from :mod:`arle_ai.engine.rules` (tracks), :mod:`arle_ai.text.names` (printed
names and
costs), :mod:`arle_ai.text.decisions` (the question asked and each option's cost and gain, as the
terminal shows them), the position dict (docs/position-format.md) and the scoring methods, so
the browser holds no game facts and this module writes no game text of its own.
"""

from __future__ import annotations

from typing import Any

from arle_ai.engine import _core, rules
from arle_ai.text import decisions, names
from arle_ai.text.display import free_land

__all__ = ["catalog", "position_view", "legal_moves"]


def catalog() -> dict[str, Any]:
    """The game's pieces with printed names (sent to the page once)."""
    return {
        "spaces": [{"key": a.key, "name": a.name, "season": a.season, "order": a.order,
                    "tool": a.tool, "text": a.text} for a in rules.ACTION_SPACES],
        "tools": [{"key": t.key, "name": t.name, "values": list(t.values), "vp": list(t.vp)}
                  for t in rules.TOOLS],
        "buildings": [{"key": b.key, "name": b.name, "colour": b.colour, "vp": b.vp,
                       "timing": b.timing, "ability": b.ability, "cost": names.cost(b.cost)}
                      for b in rules.BUILDINGS],
        "vehicles": [{"key": v.key, "name": v.name, "kind": v.kind, "vp": v.vp,
                      "spaces": list(v.spaces)} for v in rules.VEHICLES],
        "destinations": [{"key": d.key, "name": d.name, "size": d.size}
                         for d in rules.DESTINATIONS],
        "goods": {"track": list(rules.TRACK_GOODS), "materials": list(rules.MATERIALS),
                  "textiles": list(rules.TEXTILES), "other": ["peat"]},
        "animals": list(rules.ANIMALS),
        "names": _names(),
        "variants": list(_core.VARIANTS),
        "goods_cap": rules.GOODS_CAP, "food_cap": rules.FOOD_CAP,
    }


def _names() -> dict[str, str]:
    """Printed name by key of the spaces (with the season where two share a name), tools,
    buildings, vehicles and destinations (a key of two kinds, wood_trader, names the space)."""
    table: dict[str, str] = {}
    for kind in ("space", "tool", "building", "vehicle", "destination"):
        for key in names.KINDS[kind][0]:
            table.setdefault(key, names.name(kind, key))
    return table


def legal_moves(state: _core.GameState) -> list[dict[str, Any]]:
    """Each legal move (:func:`arle_ai.text.decisions.menu`): id, notation, printed label, and what
    it costs (``cost``: goods and animals paid), gains (``gain``: goods and animals got), does
    (``done``: built, turned, reached..., in the past tense) and changes in VP at once for
    the player who makes it."""
    if state.is_terminal():
        return []
    out = []
    for option in decisions.menu(state):
        change = option.change
        out.append({"action": option.action, "text": option.notation, "label": option.label,
                    "effect": option.effect,
                    "cost": ", ".join(change.paid()) if change else "",
                    "gain": ", ".join(change.gained()) if change else "",
                    "done": ", ".join(change.phrases()) if change else "",
                    "vp": change.vp_change if change else 0.0})
    return out


def position_view(state: _core.GameState) -> dict[str, Any]:
    """The position for the board: the position dict plus scores, breakdowns and the prompt."""
    terminal = state.is_terminal()
    d = state.to_dict()
    return {
        "position": d,
        "half_year": state.half_year,
        "season": state.season,
        "start_player": state.start_player,
        "to_move": state.current_player,
        "pending": state.pending,
        "prompt": decisions.question(state),
        "terminal": terminal,
        "winner": state.winner(),
        "scores": state.scores(),
        "breakdown": [state.score_breakdown(0), state.score_breakdown(1)],
        "free_land": [free_land(p["home"]) for p in d["players"]],
    }
