"""A readable plain-text view of a position (``arle_ai.describe(state)``).

Everything shown is read from ``state.to_dict()`` (docs/position-format.md) and the scoring
methods; the text is plain ASCII, at most 100 characters a line and about 50 lines long.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from arle_ai.engine import rules
from arle_ai.text import decisions, names

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = ["describe", "describe_wide", "free_land", "land_spaces", "land_tiles", "fit",
           "columns", "side_by_side", "table_rows"]

WIDTH = 100
INDENT = "  "
CONT = "      "
NB = "\x00"  # a space that wrapping must not break (restored after wrapping)


def _num(x: float) -> str:
    """12.0 -> '12', 12.5 -> '12.5'."""
    return str(int(x)) if float(x).is_integer() else str(x)


def _wrap(text: str, first: str = INDENT, rest: str = CONT, width: int = WIDTH) -> list[str]:
    lines = textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=rest,
                          break_on_hyphens=False) or [first.rstrip()]
    return [line.replace(NB, " ") for line in lines]


def _counts(d: dict[str, int], keys: Iterable[str]) -> str:
    return " ".join(f"{_nb(names.thing(k))}{NB}{d.get(k, 0)}" for k in keys)


def _nb(text: str) -> str:
    """``text`` with its spaces unbreakable (a printed name is never wrapped inside)."""
    return text.replace(" ", NB)


def land_spaces(home: dict[str, Any]) -> int:
    """Land spaces of a home board dict: the starting land, the opened tidal rows' and the
    removed moors' (rules.START_LAND, TIDAL_ROW_LAND, TIDAL_ROWS_OPEN_AT, MOOR_LAND)."""
    removed = (rules.START_HOME["hydrated_moor"] - home["hydrated_moors"]
               - len(home["dehydrated_moors"]))
    rows = sum(1 for step in rules.TIDAL_ROWS_OPEN_AT if home["dikes"] >= step)
    return int(rules.START_LAND + rules.TIDAL_ROW_LAND * rows + rules.MOOR_LAND * removed)


def land_tiles(home: dict[str, Any]) -> int:
    """The tiles of a home board dict that stand on land spaces: fields, forests, parks,
    stalls, stables and their back sides, and the boardwalk while it lies there (buildings
    are counted apart: ``len(home["buildings"])``)."""
    return int(sum(home[k] for k in names.TILES) + (1 if home["boardwalk_peat"] > 0 else 0))


def free_land(home: dict[str, Any]) -> int:
    """Empty land spaces of a home board dict: :func:`land_spaces` less the tiles and
    buildings on them (the boardwalk takes one while it lies there)."""
    return land_spaces(home) - land_tiles(home) - len(home["buildings"])


def _tools(tools: dict[str, int]) -> str:
    parts = []
    for t in rules.TOOLS:
        v = tools[t.key]
        text = f"{_nb(t.name)}{NB}{v}/{t.values[-1]}"
        if t.key == "shovels":
            text += f"{NB}(dikes{NB}{rules.SHOVEL_DIKE_VALUES[t.values.index(v)]})"
        parts.append(text)
    return ", ".join(parts)


def _home(home: dict[str, Any], width: int = WIDTH) -> list[str]:
    moors = f"moors {home['hydrated_moors']} hydrated"
    if home["dehydrated_moors"]:
        peat = "+".join(str(n) for n in home["dehydrated_moors"])
        moors += f", {len(home['dehydrated_moors'])} dehydrated (peat {peat})"
    walk = home["boardwalk_peat"]
    board = f"boardwalk {walk} peat" if walk > 0 else "boardwalk gone"
    line1 = (f"home: dikes {home['dikes']}/{rules.DIKE_STEPS_MAX}, {moors}, {board}, "
             f"free land {free_land(home)}")
    line2 = (f"fields {home['grain_fields']} grain + {home['flax_fields']} flax, "
             f"forests {home['forests']}, parks {home['parks']}, stalls {home['stalls']}, "
             f"depots {home['depots']}, stables {home['stables']}, "
             f"double stalls {home['double_stalls']}")
    line3 = "buildings: " + (", ".join(_nb(names.building(b)) for b in home["buildings"])
                             or "none")
    return (_wrap(line1, width=width) + _wrap(line2, CONT, width=width)
            + _wrap(line3, CONT, width=width))


def _barn(p: dict[str, Any], width: int = WIDTH) -> list[str]:
    barn = p["barn"]
    vehicles = []
    for v in barn["vehicles"]:
        spaces = rules.vehicle(v["kind"]).spaces
        loaded = sum(spaces[c] for c in v["used"])
        kind = _nb(names.vehicle(v["kind"]))
        vehicles.append(f"{kind}{NB}({loaded}{NB}of{NB}{sum(spaces)}{NB}spaces{NB}loaded)"
                        if loaded else kind)
    loaded = p["loaded"]
    items = [f"{k} {n}" for k, n in loaded.items() if k != "destinations" and n]
    items += [_nb(names.destination(k)) for k in loaded["destinations"]]
    text = (f"barn: peat boats {barn['peat_boats']}, plows {barn['plows']}, vehicles: "
            f"{', '.join(vehicles) or 'none'}; loaded: {', '.join(items) or 'nothing'}")
    return _wrap(text, width=width)


def _travel(p: dict[str, Any], width: int = WIDTH) -> list[str]:
    size = {d.key: d.size for d in rules.DESTINATIONS}
    spaces = sum(size[k] for k in p["travel"])
    dests = ", ".join(_nb(names.destination(k)) for k in p["travel"]) or "none"
    text = (f"travel: {dests} ({spaces} space{'' if spaces == 1 else 's'}); bottlenecks "
            f"{p['bottlenecks']}")
    return _wrap(text, width=width)


def _player(state: GameState, d: dict[str, Any], i: int, width: int = WIDTH) -> list[str]:
    p = d["players"][i]
    g = p["goods"]
    score = state.scores()[i]
    role = " (start player)" if d["start_player"] == i and state.players == 2 else ""
    to_move = " <- to decide" if state.current_player == i else ""
    who = f"Player {i}" if state.players == 2 else "Solo player"
    lines = [f"{who}{role}: {_num(score)} VP{to_move}"]
    lines += _wrap("goods track: " + _counts(g, rules.TRACK_GOODS), width=width)
    lines += _wrap("materials: " + _counts(g, rules.MATERIALS + ("peat",)), width=width)
    lines += _wrap("textiles: " + _counts(g, rules.TEXTILES), width=width)
    lines += _wrap("animals: " + _counts(p["animals"], rules.ANIMALS), width=width)
    lines += _wrap("tools: " + _tools(p["tools"]), width=width)
    lines += _home(p["home"], width)
    lines += _barn(p, width)
    lines += _travel(p, width)
    parts = state.score_breakdown(i)
    lines += _wrap("score: " + ", ".join(f"{_nb(k.replace('_', ' '))}{NB}{_num(v)}"
                                         for k, v in parts.items()),
                   width=width)
    return lines


def _board(state: GameState, d: dict[str, Any], width: int = WIDTH) -> list[str]:
    season = d["season"]
    occupied = d["occupied"]
    here = [a.key for a in rules.ACTION_SPACES if a.season == season]
    taken = [f"{_nb(names.space(k))}{NB}(P{occupied[k]})" for k in here if k in occupied]
    free = [_nb(names.space(k)) for k in here if k not in occupied]
    lines = [f"Game board ({season}):"]
    lines += _wrap("taken: " + (", ".join(taken) or "none"), width=width)
    lines += _wrap("free: " + (", ".join(free) or "none"), width=width)
    other = [f"{_nb(names.space(k))} (P{who})" for k, who in occupied.items()
             if rules.action_space(k).season != season]
    if other:
        special = ", ".join(other)
    elif d["special_action_by"] is not None:
        special = f"used by P{d['special_action_by']}"
    else:
        special = "free (one space of the other season)"
    lines += _wrap("special action: " + special, width=width)
    lines += _wrap("buildings on board: " + (", ".join(_nb(names.building(b))
                                                       for b in d["buildings_on_board"])
                                             or "none"), width=width)
    return lines


def describe(state: GameState, width: int = WIDTH) -> str:
    """A multi-line plain-text description of the whole position, in lines of at most
    ``width`` characters (at least 60) broken between words."""
    width = max(60, width)
    d = state.to_dict()
    setup = d.get("setup", {})
    solo = state.players == 1
    lines = [f"Fields of Arle{' (solo)' if solo else ''} - half-year {d['half_year']}/9 "
             f"({d['season']}), {setup.get('variant', 'standard')}, seed {setup.get('seed', 0)}"]
    if state.is_terminal() and solo:
        lines.append(f"GAME OVER - final score: {_num(state.scores()[0])} VP")
    elif solo:
        lines.append(f"workers placed: {d['workers_placed']}/{state.workers_per_half_year} | "
                     f"to decide: {decisions.context(state)}")
    elif state.is_terminal():
        scores = state.scores()
        winner = state.winner()
        tie = " (tie broken by the next start player)" if scores[0] == scores[1] else ""
        lines.append(f"GAME OVER - final scores: P0 {_num(scores[0])}, P1 {_num(scores[1])}; "
                     f"winner: P{winner}{tie}")
    else:
        lines.append(f"Start player: P{d['start_player']} | workers placed: "
                     f"{d['workers_placed']}/8 | to decide: P{state.current_player}, "
                     f"{decisions.context(state)}")
    lines = [part for line in lines for part in _wrap(line, "", "  ", width)]
    lines += _board(state, d, width)
    for i in range(state.players):
        lines.append("-" * 40)
        lines += _player(state, d, i, width)
    return "\n".join(lines)


def fit(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters: when it is longer, its middle is cut
    (``...`` marks the cut) at word boundaries, so that both its start and its end, where
    two long names differ (``place Builders' Merchant (special)``), stay readable."""
    if len(text) <= width:
        return text
    if width < 9:
        return text[:width]
    room = width - 3
    words = text.split(" ")
    head, tail = "", ""
    i, j = 0, len(words) - 1
    while i <= j:  # take whole words from both ends, the longer side first
        take_head = len(head) <= len(tail)
        word = words[i] if take_head else words[j]
        sep = 1 if (head if take_head else tail) else 0
        if len(head) + len(tail) + len(word) + sep > room:
            break
        if take_head:
            head, i = (head + " " + word if head else word), i + 1
        else:
            tail, j = (word + " " + tail if tail else word), j - 1
    if not head and not tail:  # one long word
        return text[: room - room // 2] + "..." + text[len(text) - room // 2:]
    return head + "..." + tail


def table_rows(cells: list[tuple[str, int]], gap: str = " ") -> list[str]:
    """One row of a table whose cells are (text, width): each text wrapped between words in
    its column (a negative width right-aligns it), so the row takes as many lines as its
    longest cell; nothing is cut. A word longer than its column is broken."""
    wrapped = [(textwrap.wrap(text, abs(w), break_on_hyphens=False) if text else []) or [""]
               for text, w in cells]
    lines = []
    for k in range(max(len(c) for c in wrapped)):
        parts = []
        for lines_of, (_, w) in zip(wrapped, cells, strict=True):
            part = lines_of[k] if k < len(lines_of) else ""
            parts.append(part.rjust(-w) if w < 0 else part.ljust(w))
        lines.append(gap.join(parts).rstrip())
    return lines


def _wrap_cell(cell: str, width: int) -> list[str]:
    """``cell`` in lines of at most ``width`` characters, broken between words (before a
    bracketed note such as a move's effect when that keeps the note whole); the lines after
    the first are indented under the text after a leading menu number (``12. ``)."""
    if len(cell) <= width:
        return [cell]
    m = re.match(r"\s*\d+\.\s", cell)
    hang = " " * min(len(m.group(0)) if m else 2, width // 3)
    label, sep, note = cell.partition("  [")
    if sep and len(label) <= width and len(hang) + 1 + len(note) <= width:
        return [label, f"{hang}[{note}"]  # the bracketed note whole on its own line
    return textwrap.wrap(cell, width=width, subsequent_indent=hang,
                         break_on_hyphens=False) or [cell[:width]]


def columns(cells: list[str], width: int = 80, gap: int = 3, indent: int = 2) -> list[str]:
    """``cells`` in as many columns (filled top to bottom) as fit in ``width`` characters
    when three in four cells fit a column whole; a longer cell is wrapped between words onto
    the next lines of its column (nothing is cut), and the row below starts after it."""
    if not cells:
        return []
    room = max(10, width - indent)
    lengths = sorted(len(c) for c in cells)
    # the longest quarter may wrap; in a menu of a few cells every cell fits whole
    n = len(lengths)
    widest = min(room, lengths[n - 1 if n <= 4 else (n - 1) * 3 // 4])
    ncols = max(1, min(4, len(cells), (room + gap) // (widest + gap)))
    rows = -(-len(cells) // ncols)
    ncols = -(-len(cells) // rows)  # no empty column: 5 cells in 3 columns need only 2 rows
    colw = (room + gap) // ncols - gap if ncols > 1 else room
    if ncols < 4 and ncols * (max(len(c) for c in cells) + gap) - gap <= room:
        colw = max(len(c) for c in cells)  # all cells whole: no wider than they need
    lines = []
    for r in range(rows):
        row = [_wrap_cell(cells[i], colw) for i in range(r, len(cells), rows)]
        for k in range(max(len(c) for c in row)):
            parts = [c[k] if k < len(c) else "" for c in row]
            lines.append(" " * indent + "".join(p.ljust(colw + gap) for p in parts).rstrip())
    return lines


def side_by_side(left: list[str], right: list[str], width: int, gap: int = 3) -> list[str]:
    """Two blocks of lines next to each other in ``width`` characters (each cut to fit)."""
    colw = (width - gap) // 2
    n = max(len(left), len(right))
    left = left + [""] * (n - len(left))
    right = right + [""] * (n - len(right))
    return [(fit(a, colw).ljust(colw + gap) + fit(b, colw)).rstrip()
            for a, b in zip(left, right, strict=True)]


def describe_wide(state: GameState, width: int = WIDTH) -> str:
    """:func:`describe` with the two players side by side when ``width`` allows (100 or more
    columns): the board on top, then player 0 left and player 1 right."""
    if width < 100:
        return describe(state, width)
    d = state.to_dict()
    head = describe(state).split("\n" + "-" * 40 + "\n")[0].split("\n")
    half = (width - 3) // 2
    p0, p1 = _player(state, d, 0, half), _player(state, d, 1, half)
    return "\n".join(head + ["-" * width] + side_by_side(p0, p1, width))
