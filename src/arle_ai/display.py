"""A readable plain-text view of a position (``arle_ai.describe(state)``).

Everything shown is read from ``state.to_dict()`` (docs/position-format.md) and the scoring
methods; the text is plain ASCII, at most 100 characters a line and about 50 lines long.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from arle_ai import rules

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai._core import GameState

__all__ = ["describe", "free_land"]

WIDTH = 100
INDENT = "  "
CONT = "      "
NB = "\x00"  # a space that wrapping must not break (restored after wrapping)


def _num(x: float) -> str:
    """12.0 -> '12', 12.5 -> '12.5'."""
    return str(int(x)) if float(x).is_integer() else str(x)


def _wrap(text: str, first: str = INDENT, rest: str = CONT) -> list[str]:
    lines = textwrap.wrap(text, width=WIDTH, initial_indent=first, subsequent_indent=rest,
                          break_on_hyphens=False) or [first.rstrip()]
    return [line.replace(NB, " ") for line in lines]


def _counts(d: dict[str, int], keys: Iterable[str]) -> str:
    return " ".join(f"{k}{NB}{d.get(k, 0)}" for k in keys)


def _rows_opened(dikes: int) -> int:
    return 3 if dikes >= 7 else 2 if dikes >= 4 else 1 if dikes >= 1 else 0


def free_land(home: dict[str, Any]) -> int:
    """Empty land spaces of a home board dict: 6 + 3 per opened tidal row + 2 per removed moor,
    less the tiles and buildings on them (the boardwalk takes one while it lies there)."""
    removed = 3 - home["hydrated_moors"] - len(home["dehydrated_moors"])
    total = 6 + 3 * _rows_opened(home["dikes"]) + 2 * removed
    used = sum(home[k] for k in ("grain_fields", "flax_fields", "forests", "parks", "stalls",
                                 "depots", "stables", "double_stalls"))
    used += len(home["buildings"]) + (1 if home["boardwalk_peat"] > 0 else 0)
    return int(total - used)


def _tools(tools: dict[str, int]) -> str:
    parts = []
    for t in rules.TOOLS:
        v = tools[t.key]
        text = f"{t.key}{NB}{v}/{t.values[-1]}"
        if t.key == "shovels":
            text += f"{NB}(dikes{NB}{rules.SHOVEL_DIKE_VALUES[t.values.index(v)]})"
        parts.append(text)
    return ", ".join(parts)


def _home(home: dict[str, Any]) -> list[str]:
    moors = f"moors {home['hydrated_moors']} hydrated"
    if home["dehydrated_moors"]:
        peat = "+".join(str(n) for n in home["dehydrated_moors"])
        moors += f", {len(home['dehydrated_moors'])} dehydrated (peat {peat})"
    walk = home["boardwalk_peat"]
    board = f"boardwalk {walk} peat" if walk > 0 else "boardwalk gone"
    line1 = f"home: dikes {home['dikes']}/7, {moors}, {board}, free land {free_land(home)}"
    line2 = (f"fields {home['grain_fields']} grain + {home['flax_fields']} flax, "
             f"forests {home['forests']}, parks {home['parks']}, stalls {home['stalls']}, "
             f"depots {home['depots']}, stables {home['stables']}, "
             f"double stalls {home['double_stalls']}")
    line3 = "buildings: " + (", ".join(home["buildings"]) or "none")
    return _wrap(line1) + _wrap(line2, CONT) + _wrap(line3, CONT)


def _barn(p: dict[str, Any]) -> list[str]:
    barn = p["barn"]
    vehicles = []
    for v in barn["vehicles"]:
        used = ",".join(str(i) for i in v["used"])
        vehicles.append(f"{v['kind']}[used {used}]" if used else v["kind"])
    loaded = p["loaded"]
    items = [f"{k} {n}" for k, n in loaded.items() if k != "destinations" and n]
    items += loaded["destinations"]
    text = (f"barn: peat boats {barn['peat_boats']}, plows {barn['plows']}, vehicles: "
            f"{', '.join(vehicles) or 'none'}; loaded: {', '.join(items) or 'nothing'}")
    return _wrap(text)


def _travel(p: dict[str, Any]) -> list[str]:
    size = {d.key: d.size for d in rules.DESTINATIONS}
    spaces = sum(size[k] for k in p["travel"])
    dests = ", ".join(p["travel"]) or "none"
    return _wrap(f"travel: {dests} ({spaces} spaces); bottlenecks {p['bottlenecks']}")


def _player(state: GameState, d: dict[str, Any], i: int) -> list[str]:
    p = d["players"][i]
    g = p["goods"]
    score = state.scores()[i]
    role = " (start player)" if d["start_player"] == i else ""
    to_move = " <- to decide" if state.current_player == i else ""
    lines = [f"Player {i}{role}: {_num(score)} VP{to_move}"]
    lines += _wrap("goods track: " + _counts(g, rules.TRACK_GOODS))
    lines += _wrap("materials: " + _counts(g, rules.MATERIALS + ("peat",)))
    lines += _wrap("textiles: " + _counts(g, rules.TEXTILES))
    lines += _wrap("animals: " + _counts(p["animals"], rules.ANIMALS))
    lines += _wrap("tools: " + _tools(p["tools"]))
    lines += _home(p["home"])
    lines += _barn(p)
    lines += _travel(p)
    parts = state.score_breakdown(i)
    lines += _wrap("score: " + ", ".join(f"{k}{NB}{_num(v)}" for k, v in parts.items()))
    return lines


def _board(state: GameState, d: dict[str, Any]) -> list[str]:
    season = d["season"]
    occupied = d["occupied"]
    here = [a.key for a in rules.ACTION_SPACES if a.season == season]
    taken = [f"{k}=P{occupied[k]}" for k in here if k in occupied]
    free = [k for k in here if k not in occupied]
    lines = [f"Game board ({season}):"]
    lines += _wrap("taken: " + (" ".join(taken) or "none"))
    lines += _wrap("free: " + (" ".join(free) or "none"))
    other = [f"{k} (P{who})" for k, who in occupied.items()
             if rules.action_space(k).season != season]
    if other:
        special = ", ".join(other)
    elif d["special_action_by"] is not None:
        special = f"used by P{d['special_action_by']}"
    else:
        special = "free (one space of the other season)"
    lines += _wrap("special action: " + special)
    lines += _wrap("buildings on board: " + (", ".join(d["buildings_on_board"]) or "none"))
    return lines


def describe(state: GameState) -> str:
    """A multi-line plain-text description of the whole position."""
    d = state.to_dict()
    setup = d.get("setup", {})
    lines = [f"Fields of Arle - half-year {d['half_year']}/9 ({d['season']}), "
             f"{setup.get('variant', 'standard')}, seed {setup.get('seed', 0)}"]
    if state.is_terminal():
        scores = state.scores()
        winner = state.winner()
        tie = " (tie broken by the next start player)" if scores[0] == scores[1] else ""
        lines.append(f"GAME OVER - final scores: P0 {_num(scores[0])}, P1 {_num(scores[1])}; "
                     f"winner: P{winner}{tie}")
    else:
        lines.append(f"Start player: P{d['start_player']} | workers placed: "
                     f"{d['workers_placed']}/8 | to decide: P{state.current_player}, "
                     f"decision {state.pending!r}")
    lines += _board(state, d)
    for i in range(2):
        lines.append("-" * 40)
        lines += _player(state, d, i)
    return "\n".join(lines)
