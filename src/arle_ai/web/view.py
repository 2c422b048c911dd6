"""What the page shows, as JSON: the names of the game's pieces, a position, and its moves.

Everything is read from :mod:`arle_ai.rules` (printed names, tracks, costs), the position
dict (docs/position-format.md) and the scoring methods, so the browser holds no game facts.
"""

from __future__ import annotations

from typing import Any

from arle_ai import _core, names, rules
from arle_ai.web import effects

__all__ = ["catalog", "position_view", "legal_moves", "title"]


def title(key: str) -> str:
    """A readable name for a key without a printed one: 'summer_wear' -> 'Summer wear'."""
    return key.replace("_", " ").capitalize()


def catalog() -> dict[str, Any]:
    """The game's pieces with printed names (sent to the page once)."""
    return {
        "spaces": [{"key": a.key, "name": a.name, "season": a.season, "order": a.order,
                    "tool": a.tool} for a in rules.ACTION_SPACES],
        "tools": [{"key": t.key, "name": t.name, "values": list(t.values), "vp": list(t.vp)}
                  for t in rules.TOOLS],
        "buildings": [{"key": b.key, "name": b.name, "colour": b.colour, "vp": b.vp,
                       "timing": b.timing, "ability": b.ability, "cost": _cost_text(b.cost)}
                      for b in rules.BUILDINGS],
        "vehicles": [{"key": v.key, "name": v.name, "kind": v.kind, "vp": v.vp,
                      "spaces": list(v.spaces)} for v in rules.VEHICLES],
        "destinations": [{"key": d.key, "name": d.name, "size": d.size}
                         for d in rules.DESTINATIONS],
        "goods": {"track": list(rules.TRACK_GOODS), "materials": list(rules.MATERIALS),
                  "textiles": list(rules.TEXTILES), "other": ["peat"]},
        "animals": list(rules.ANIMALS),
        "names": effects.NAMES,
        "variants": list(_core.VARIANTS),
        "goods_cap": rules.GOODS_CAP, "food_cap": rules.FOOD_CAP,
    }


def _cost_text(cost: rules.Cost) -> str:
    parts = [names.count(n, k) for k, n in cost.fixed]
    if cost.either:
        parts.append(" or ".join(", ".join(names.count(n, k) for k, n in alt)
                                 for alt in cost.either))
    if cost.any_materials:
        parts.append(f"{cost.any_materials} building material")
    if cost.different_materials:
        parts.append(f"{cost.different_materials} different building materials")
    if cost.different_clothing:
        parts.append(f"{cost.different_clothing} different clothing")
    return ", ".join(parts)


def legal_moves(state: _core.GameState) -> list[dict[str, Any]]:
    """Each legal move: id, notation, printed label, and what it costs and gains at once."""
    if state.is_terminal():
        return []
    out = []
    for a in state.legal_actions():
        text = state.action_to_string(a)
        after = state.copy()
        after.apply(a)
        out.append({"action": a, "text": text, "label": effects.label(state, a),
                    **effects.option(state, after)})
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
        "prompt": effects.prompt(state),
        "terminal": terminal,
        "winner": state.winner(),
        "scores": state.scores(),
        "breakdown": [state.score_breakdown(0), state.score_breakdown(1)],
        "free_land": [_free_land(p["home"]) for p in d["players"]],
    }


def _free_land(home: dict[str, Any]) -> int:
    from arle_ai.display import free_land

    return free_land(home)
