"""``arle edit FILE``: enter a position from the table by answering questions.

It asks for the half-year, the start player and the workers placed, then for each player the
goods, animals, home tiles, tools and buildings, accepting printed names or keys
(``timber 2 summer wear 1``, ``Farmer's House, Mill``). Every answer is checked at once against
the rules of a position (docs/position-format.md) and asked again with the reason when it does
not fit; Enter keeps what is there. The file is written without a ``pending`` block, so the
position starts at the turn of the player whose worker is next.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import click

import arle_ai
from arle_ai import names
from arle_ai.errors import PositionError
from arle_cli.common import fail, read_json, write_text

PAIR = re.compile(r"\s*([A-Za-z][A-Za-z' _]*?)\s*[:=]?\s*(-?\d+)\s*,?")
HOME_TILES = {"grain field": "grain_fields", "flax field": "flax_fields", "forest": "forests",
              "park": "parks", "stall": "stalls", "depot": "depots", "stable": "stables",
              "double stall": "double_stalls", "dike": "dikes", "moor": "hydrated_moors",
              "hydrated moor": "hydrated_moors", "boardwalk": "boardwalk_peat"}


class Answer(ValueError):
    """An answer that cannot be read; the message says why."""


def _pairs(text: str) -> list[tuple[str, int]]:
    """``'food 7, summer wear 1'`` -> [('food', 7), ('summer wear', 1)]."""
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = PAIR.match(text, pos)
        if not m:
            raise Answer(f"cannot read {text[pos:].strip()!r}: write a name and a number, "
                         f"e.g. 'timber 2'")
        out.append((m.group(1).strip(), int(m.group(2))))
        pos = m.end()
    return out


def _tile_key(name: str) -> str:
    t = " ".join(name.lower().replace("_", " ").split())
    for word, key in HOME_TILES.items():
        if t in (word, word + "s", key.replace("_", " ")):
            return key
    raise Answer(f"no home tile is called {name!r}; known: {', '.join(HOME_TILES)}")


def _set_counts(target: dict[str, Any], text: str, find) -> None:
    for name, n in _pairs(text):
        try:
            target[find(name)] = n
        except KeyError as exc:
            raise Answer(str(exc)) from None


def _names(text: str, kind: str) -> list[str]:
    if text.strip() in ("-", "none"):
        return []
    try:
        return [names.find(part, kind) for part in text.split(",") if part.strip()]
    except KeyError as exc:
        raise Answer(str(exc)) from None


def _set_buildings(d: dict[str, Any], i: int, keys: list[str]) -> None:
    """Player ``i`` owns ``keys``: those leave the game board, and buildings the player no
    longer owns go back to it (when they were set up)."""
    home = d["players"][i]["home"]
    board = d["buildings_on_board"]
    for key in home["buildings"]:
        if key not in keys and key in d.get("setup", {}).get("buildings", []):
            board.append(key)
    for key in keys:
        if key in board:
            board.remove(key)
    home["buildings"] = keys


def _check(d: dict[str, Any]) -> None:
    arle_ai.GameState.from_dict(d)


def _ask(d: dict[str, Any], question: str, shown: str, change) -> None:
    """Ask until the answer reads and gives a valid position (Enter: keep ``shown``)."""
    while True:
        text = click.prompt(f"{question} [{shown}]", default="", show_default=False,
                            prompt_suffix="> ")
        if not text.strip():
            return
        trial = copy.deepcopy(d)
        try:
            change(trial, text)
            _check(trial)
        except (Answer, PositionError, ValueError) as exc:
            click.echo(f"  not accepted: {' '.join(str(exc).split())}")
            continue
        d.clear()
        d.update(trial)
        return


def _counts(values: dict[str, int], printed) -> str:
    shown = [f"{printed(k)} {v}" for k, v in values.items() if v]
    return ", ".join(shown) or "none"


def _edit_player(d: dict[str, Any], i: int) -> None:
    def p(x: dict) -> dict:
        return x["players"][i]

    who = f"P{i}"
    _ask(d, f"{who} goods (e.g. 'food 7 timber 2 summer wear 1')",
         _counts(p(d)["goods"], names.thing),
         lambda t, s: _set_counts(p(t)["goods"], s, lambda n: names.find(n, "good")))
    _ask(d, f"{who} animals (sheep, cattle, horse)", _counts(p(d)["animals"], names.thing),
         lambda t, s: _set_counts(p(t)["animals"], s, lambda n: names.find(n, "animal")))
    home_keys = sorted(set(HOME_TILES.values()))
    _ask(d, f"{who} home tiles and dikes (e.g. 'stalls 2 forests 1 dikes 3')",
         _counts({k: p(d)["home"][k] for k in home_keys}, lambda k: k.replace("_", " ")),
         lambda t, s: _set_counts(p(t)["home"], s, _tile_key))
    _ask(d, f"{who} tools, the number on the track (e.g. 'fish traps 3 ovens 2')",
         _counts(p(d)["tools"], names.tool),
         lambda t, s: _set_counts(p(t)["tools"], s, lambda n: names.find(n, "tool")))
    _ask(d, f"{who} buildings (names separated by commas, '-' for none)",
         ", ".join(names.building(b) for b in p(d)["home"]["buildings"]) or "none",
         lambda t, s: _set_buildings(t, i, _names(s, "building")))


def _edit(d: dict[str, Any]) -> None:
    d.pop("pending", None)
    d.pop("season", None)
    _ask(d, "half-year (1-9; odd = summer)", str(d["half_year"]),
         lambda t, s: t.__setitem__("half_year", int(s)))
    _ask(d, "start player (0 or 1)", str(d["start_player"]),
         lambda t, s: t.__setitem__("start_player", int(s)))
    _ask(d, "workers placed so far this half-year (0-7)", str(d.get("workers_placed", 0)),
         lambda t, s: t.__setitem__("workers_placed", int(s)))
    for i in (0, 1):
        _edit_player(d, i)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Setup seed of a new position when FILE does not exist yet.")
def edit(file: str, seed: int) -> None:
    """Enter or change the position in FILE by answering questions (printed names or keys;
    Enter keeps a value). FILE is created from a new game when it does not exist."""
    if Path(file).exists():
        data = names.keys_for_names(read_json(file))
        try:
            d = arle_ai.GameState.from_dict(data).to_dict()
        except ValueError as exc:
            fail(f"{file}: invalid position: {exc}")
    else:
        d = arle_ai.new_game(seed=seed).to_dict()
    try:
        _edit(d)
    except click.Abort:
        fail("stopped before the end: nothing written")
    state = arle_ai.GameState.from_dict(d)
    out = state.to_dict()
    out.pop("pending", None)
    write_text(json.dumps(out, indent=1), file)
    click.echo(f"written to {file}:")
    click.echo(arle_ai.describe(state))
