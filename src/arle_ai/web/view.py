"""What the page shows, as JSON: the names of the game's pieces, a position, and its moves.

Everything is read from :mod:`arle_ai.engine.rules` (tracks), :mod:`arle_ai.text.names` (printed
names and
costs), :mod:`arle_ai.text.decisions` (the question asked and each option's cost and gain, as the
terminal shows them), the position dict (docs/position-format.md) and the scoring methods, so
the browser holds no game facts and this module writes no game text of its own.
"""

from __future__ import annotations

from typing import Any

from arle_ai import engine
from arle_ai.engine import rules
from arle_ai.formats import entry
from arle_ai.search.config import WEB_ANALYZE_BUDGET, WEB_HINT_BUDGET
from arle_ai.text import decisions, names, reading
from arle_ai.text.display import free_land
from arle_ai.web import board

__all__ = ["catalog", "count_answers", "position_view", "legal_moves", "layouts"]


def catalog() -> dict[str, Any]:
    """The game's pieces with printed names (sent to the page once)."""
    return {
        "spaces": [{"key": a.key, "name": a.name, "season": a.season, "order": a.order,
                    "tool": a.tool, "text": a.text} for a in rules.ACTION_SPACES],
        "tools": [{"key": t.key, "name": t.name, "values": list(t.values), "vp": list(t.vp),
                   # the second printed row of the track the Dike Builder reads (Shovels):
                   # the dikes of each position
                   "dikes": list(rules.SHOVEL_DIKE_VALUES)
                   if t.key == rules.action_space("dike_builder").tool else None,
                   # what the values count (rules.ToolTrack: the Shovels' are the clay row)
                   "values_of": names.thing("clay")
                   if t.key == rules.action_space("clay_worker").tool else None}
                  for t in rules.TOOLS],
        "building_spaces": dict(rules.BUILDING_COLOUR_SPACES),
        "buildings": [{"key": b.key, "name": b.name, "colour": b.colour, "vp": b.vp,
                       "space": rules.BUILDING_SPACE_OF_COLOUR[b.colour],
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
        "things": _things(),
        "variants": list(engine.VARIANTS),
        # the default budgets of the hint and the analysis, as the CLI's (one verdict)
        "budgets": {"hint_seconds": WEB_HINT_BUDGET.seconds,
                    "analysis_seconds": WEB_ANALYZE_BUDGET.seconds},
        "goods_cap": rules.GOODS_CAP, "food_cap": rules.FOOD_CAP,
        "goods_track_vp": list(rules.GOODS_TRACK_VP),
        "home": {"columns": board.COLUMNS, "tidal_rows": board.TIDAL_ROWS,
                 "land_rows": board.LAND_ROWS, "moor_rows": board.MOOR_ROWS,
                 "dikes": rules.DIKES, "barn_small": rules.BARN_SMALL,
                 "barn_large": rules.BARN_LARGE, "barn_flex": rules.BARN_FLEX,
                 "barn_penalty_vp": rules.BARN_PENALTY_VP, "moor_peat": rules.MOOR_PEAT,
                 "tile_vp": dict(rules.HOME_TILE_VP)},
        "shovel_dikes": list(rules.SHOVEL_DIKE_VALUES),
        "half_years": rules.HALF_YEARS, "workers": rules.WORKERS_PER_PLAYER,
        "legend": list(reading.LEGEND),
        "solo_legend": list(reading.SOLO_LEGEND),
        "solo_workers": rules.SOLO_WORKERS,
        "max_vehicles": rules.MAX_VEHICLES,
        "load_goods": list(rules.LOAD_GOODS),
        # the fields a home board counts (one list: text.names.HOME_FIELDS)
        "home_fields": [{"field": f.field, "piece": f.piece, "name": names.thing(f.field)}
                        for f in names.HOME_FIELDS],
        # the position entry's questions (POST /api/position/entry answers them by key)
        "entry": {str(n): [{"key": q.key, "text": q.text} for q in entry.questions(n)]
                  for n in engine.PLAYER_COUNTS},
    }


def _things() -> dict[str, str]:
    """Printed name by key of the goods, animals, home tiles (singular) and moors."""
    keys = [*rules.GOODS, *rules.ANIMALS, *(k for k, _ in board.TILE_FIELDS),
            "hydrated_moor", "dehydrated_moor", "boardwalk", "dike", "peat_boat", "plow"]
    return {k: names.thing(k) for k in keys}


def _names() -> dict[str, str]:
    """Printed name by key of the spaces (with the season where two share a name), tools,
    buildings, vehicles and destinations (a key of two kinds, wood_trader, names the space)."""
    table: dict[str, str] = {}
    for kind in ("space", "tool", "building", "vehicle", "destination"):
        for key in names.KINDS[kind][0]:
            table.setdefault(key, names.name(kind, key))
    return table


def legal_moves(state: engine.GameState) -> list[dict[str, Any]]:
    """Each legal move (:func:`arle_ai.text.decisions.menu`): id, notation, printed label, and what
    it costs (``cost``: goods and animals paid), gains (``gain``: goods and animals got), both
    signed in the menu's order (``amounts``), does (``done``: built, turned, reached..., in the
    past tense) and changes in VP at once for the player who makes it; ``note`` says what a
    pass is."""
    if state.is_terminal():
        return []
    out = []
    for option in decisions.menu(state):
        change = option.change
        out.append({"action": option.action, "text": option.notation, "label": option.label,
                    "effect": option.effect,
                    "on": board.move_target(option.action, state.current_player),
                    "cost": ", ".join(change.paid()) if change else "",
                    "gain": ", ".join(change.gained()) if change else "",
                    "done": ", ".join(change.phrases()) if change else "",
                    # signed as the CLI's menu writes them (+3 food, -1 grain)
                    "amounts": change.amounts() if change else [],
                    "vp": change.vp_change if change else 0.0,
                    # what a pass does, where it is offered (as arle info pass says it)
                    "note": decisions.PASS_WORDS if option.notation == "pass" else ""})
    return out


def count_answers(state: engine.GameState) -> list[dict[str, Any]] | None:
    """The answers to a how-many question (:func:`arle_ai.text.decisions.how_many`: a
    repeated conversion, which the page asks as a count and plays with ``{"count": n}``),
    each as :func:`legal_moves` gives a move, with its ``count`` and the moves that make it
    (``text``: their notation); None when no count is asked."""
    answers = decisions.how_many(state)
    if answers is None:
        return None
    out = []
    for c in answers:
        change = c.change
        out.append({"count": c.count, "label": c.label, "effect": c.effect,
                    "text": ", ".join(state.action_to_string(a) for a in c.actions),
                    "cost": ", ".join(change.paid()) if change else "",
                    "gain": ", ".join(change.gained()) if change else "",
                    "done": ", ".join(change.phrases()) if change else "",
                    "amounts": change.amounts() if change else [],
                    "vp": change.vp_change if change else 0.0})
    return out


def layouts(state: engine.GameState, previous: list[board.HomeLayout] | None = None
            ) -> list[board.HomeLayout]:
    """Where each player's tiles lie in ``state``, each kept where it lay in ``previous``
    (the layouts of the position before it; the starting layout when None)."""
    d = state.to_dict()
    return [board.place_tiles(p["home"], previous[i] if previous else None)
            for i, p in enumerate(d["players"])]


def position_view(state: engine.GameState, homes: list[board.HomeLayout] | None = None
                  ) -> dict[str, Any]:
    """The position for the board: the position dict plus scores, breakdowns, the prompt and
    where the pieces lie (``homes``: the tiles' spaces, :func:`layouts` when None)."""
    terminal = state.is_terminal()
    d = state.to_dict()
    homes = homes or layouts(state)
    return {
        "position": d,
        "half_year": state.half_year,
        "season": state.season,
        "start_player": state.start_player,
        "to_move": state.current_player,
        "pending": state.pending,
        "prompt": decisions.question(state),
        "terminal": terminal,
        "players_count": state.players,
        "workers_per_half_year": state.workers_per_half_year,
        "winner": state.winner() if state.players == 2 else None,  # solo: the score alone
        "scores": state.scores(),
        "breakdown": [state.score_breakdown(p) for p in range(state.players)],
        "free_land": [free_land(p["home"]) for p in d["players"]],
        "boards": [board.home_board(p, homes[i]) for i, p in enumerate(d["players"])],
        "building_spaces": board.building_spaces(d),
        "workers_left": board.workers_left(d),
    }
