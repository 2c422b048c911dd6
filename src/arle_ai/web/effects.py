"""The game's language for the page: printed names in move labels, and what a move changed.

A move's cost and gain are read by applying it to a copy and comparing the mover's supply
before and after (goods, animals, tools, tiles, barn pieces, VP), so they hold for every
action the engine offers, including ones that open further decisions (those show what the
first step already did).
"""

from __future__ import annotations

import re
from typing import Any

from arle_ai import _core, rules

__all__ = ["NAMES", "name", "label", "player_change", "prompt", "describe_move"]

NAMES: dict[str, str] = {}
for _table in (rules.ACTION_SPACES, rules.TOOLS, rules.BUILDINGS, rules.VEHICLES,
               rules.DESTINATIONS):
    for _item in _table:
        NAMES.setdefault(_item.key, _item.name)

_HOME_KEYS = ("grain_fields", "flax_fields", "forests", "parks", "stalls", "depots", "stables",
              "double_stalls", "dikes")
_WORD = re.compile(r"[a-z][a-z_']*")


def name(key: str) -> str:
    """The printed name of a piece key, or the key made readable."""
    return NAMES.get(key) or key.replace("_", " ")


def label(state: _core.GameState, action: int) -> str:
    """The move in words with printed names: 'place summer_grocer' -> 'Grocer'."""
    text = state.action_to_string(action)
    verb, _, rest = text.partition(" ")
    special = rest.endswith(" (special)")
    if special:
        rest = rest[: -len(" (special)")]
    named = _WORD.sub(lambda m: NAMES.get(m.group(0), m.group(0).replace("_", " ")), rest)
    if verb == "place":
        return f"{named} (special action)" if special else named
    if verb in ("good", "animal", "tile"):
        return named[:1].upper() + named[1:]
    if verb == "tool":
        return f"{named} +1"
    if verb in ("stop", "pass", "more"):
        return verb.capitalize()
    return f"{verb.capitalize()} {named}".strip()


def _supply(state: _core.GameState, player: int) -> dict[str, int]:
    d = state.to_dict()["players"][player]
    out: dict[str, int] = {}
    out.update(d["goods"])
    out.update(d["animals"])
    for t in rules.TOOLS:
        out[t.key] = t.values.index(d["tools"][t.key]) if d["tools"][t.key] in t.values else 0
    home = d["home"]
    for k in _HOME_KEYS:
        out[k] = home[k]
    out["buildings"] = len(home["buildings"])
    out["peat_boats"] = d["barn"]["peat_boats"]
    out["plows"] = d["barn"]["plows"]
    for v in d["barn"]["vehicles"]:
        out[v["kind"]] = out.get(v["kind"], 0) + 1
    out["travel"] = len(d["travel"])
    return out


def _fmt(items: dict[str, int]) -> str:
    return ", ".join(f"{n} {name(k)}" for k, n in items.items())


def player_change(before: _core.GameState, after: _core.GameState,
                  player: int) -> dict[str, Any]:
    """What ``player`` paid and got between two positions, and their VP change."""
    a, b = _supply(before, player), _supply(after, player)
    cost, gain = {}, {}
    for k in list(a) + [k for k in b if k not in a]:
        delta = b.get(k, 0) - a.get(k, 0)
        if delta < 0:
            cost[k] = -delta
        elif delta > 0:
            gain[k] = delta
    vp = after.scores()[player] - before.scores()[player]
    return {"cost": _fmt(cost), "gain": _fmt(gain), "vp": vp}


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
        return f"{who}: {name(step)}"
    return f"{who}: {kind.replace('_', ' ')}"


def describe_move(before: _core.GameState, action: int, after: _core.GameState) -> str:
    """One line saying what a move did: '<label> (-2 clay, +1 stall)', with both players'
    changes when the move also changed the other player (e.g. an inventorying)."""
    mover = before.current_player
    parts = []
    for p in (mover, 1 - mover):
        ch = player_change(before, after, p)
        bits = [f"-{x}" for x in ch["cost"].split(", ") if x]
        bits += [f"+{x}" for x in ch["gain"].split(", ") if x]
        if bits:
            who = "" if p == mover else f"player {p}: "
            parts.append(who + ", ".join(bits))
    text = label(before, action)
    return f"{text} ({'; '.join(parts)})" if parts else text
