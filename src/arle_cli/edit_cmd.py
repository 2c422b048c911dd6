"""``arle edit FILE``: enter a position from the table by answering questions.

It asks for the half-year, the start player, the workers on the action spaces and the workers
placed, then for each player the goods, animals, home tiles (with the moors and the peat on
them), tools, buildings, barn (vehicles, peat boats, plows), what is loaded on the vehicles,
the travel track and the supply bottlenecks, accepting printed names or keys (``timber 2
summer wear 1``, ``Farmer's House, Mill``, ``P0 Fisherman; P1 Grocer (winter)``). Every answer
is checked at once against the rules of a position (docs/position-format.md) and asked again
with the reason when it does not fit; Enter keeps what is there. The vehicle compartments the
loads take are worked out (:func:`arle_ai.text.loads.place_loads`). The file is written without a
``pending`` block, so the position starts at the turn of the player whose worker is next.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
import textwrap
from pathlib import Path
from typing import Any, NoReturn

import click

import arle_ai
from arle_ai.base.errors import PositionError
from arle_ai.engine import rules
from arle_ai.text import names
from arle_ai.text.display import describe_wide
from arle_ai.text.loads import place_loads
from arle_cli.common import OUT_FILE, fail, interrupted, read_json, seed_option, write_text

PLAYER = re.compile(r"\s*(?:p|player)?\s*([01])\s*:?\s*(.*)$", re.IGNORECASE | re.DOTALL)
COUNTED = re.compile(r"\s*(?:(\d+)\s+)?(.*?)(?:\s+(\d+))?\s*$", re.DOTALL)
PAIR = re.compile(r"\s*([A-Za-z][A-Za-z' _]*?)\s*[:=]?\s*(-?\d+)\s*,?")
HOME_TILES = {"grain field": "grain_fields", "flax field": "flax_fields", "forest": "forests",
              "park": "parks", "stall": "stalls", "depot": "depots", "stable": "stables",
              "double stall": "double_stalls", "dike": "dikes", "moor": "hydrated_moors",
              "hydrated moor": "hydrated_moors", "boardwalk": "boardwalk_peat"}
WIDTH = 80  # every line of the dialogue fits an 80-column terminal, words whole
NB = "\x00"  # a space that wrapping keeps (inside a quoted example)


class Answer(ValueError):
    """An answer that cannot be read; the message says why."""


def _pairs(text: str, example: str = "timber 2") -> list[tuple[str, int]]:
    """``'food 7, summer wear 1'`` -> [('food', 7), ('summer wear', 1)]; ``example`` is the
    answer the error shows (one of the question's own kind)."""
    out, pos = [], 0
    while pos < len(text.rstrip()):
        m = PAIR.match(text, pos)
        if not m:
            raise Answer(f"cannot read {text[pos:].strip()!r}: write a name and a number, "
                         f"e.g. {example!r}")
        out.append((m.group(1).strip(), int(m.group(2))))
        pos = m.end()
    return out


def _tile_key(name: str) -> str:
    t = " ".join(name.lower().replace("_", " ").split())
    for word, key in HOME_TILES.items():
        if t in (word, word + "s", key.replace("_", " ")):
            return key
    raise Answer(f"no home tile is called {name!r}; known: {', '.join(HOME_TILES)}")


def _set_counts(target: dict[str, Any], text: str, find, example: str) -> None:
    for name, n in _pairs(text, example):
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


def _list(text: str) -> list[str]:
    """The comma-separated parts of an answer; none for ``-`` or ``none``."""
    if text.strip().lower() in ("-", "none"):
        return []
    return [part.strip() for part in text.split(",") if part.strip()]


def _space_key(name: str, half_year: int) -> str:
    """The action space ``name`` means; a name both seasons share is this half-year's."""
    found = {key for _, key in names.matches(name, ("space",))}
    season = "summer" if half_year % 2 else "winter"
    if len(found) > 1:
        found = {k for k in found if rules.action_space(k).season == season}
    if len(found) == 1:
        return found.pop()
    try:
        return names.find(name, "space")
    except KeyError as exc:
        raise Answer(str(exc)) from None


def _set_occupied(d: dict[str, Any], text: str) -> None:
    """``'P0 Fisherman, Colonist; P1 Forester'``: the spaces holding each player's workers;
    the workers placed grow to at least their number and the other season's space says who
    used the special action."""
    occupied: dict[str, int] = {}
    if text.strip().lower() not in ("-", "none"):
        for part in text.split(";"):
            m = PLAYER.match(part)
            if not m:
                raise Answer(f"cannot read {part.strip()!r}: start with the player, e.g. "
                             f"'P0 Fisherman, Colonist; P1 Forester'")
            for name in _list(m.group(2)):
                key = _space_key(name, d["half_year"])
                if key in occupied:
                    raise Answer(f"{names.space(key, qualified=True)} is named twice")
                occupied[key] = int(m.group(1))
    season = "summer" if d["half_year"] % 2 else "winter"
    special = [key for key in occupied if rules.action_space(key).season != season]
    if len(special) > 1:
        raise Answer("only one worker per half-year may use the other season, not "
                     + " and ".join(names.space(k, qualified=True) for k in special))
    d["occupied"] = occupied
    d["special_action_by"] = occupied[special[0]] if special else None
    d["workers_placed"] = max(d.get("workers_placed", 0), len(occupied))


def _vehicle_key(name: str) -> str:
    """A vehicle or barn piece by name, singular or plural (``peat boats``, ``droshkies``)."""
    t = name.strip()
    forms = [t, t[:-3] + "y" if t.lower().endswith("ies") else t[:-1] if t.endswith("s") else t]
    for form in forms:
        try:
            return names.find(form, "vehicle")
        except KeyError:
            continue
    raise Answer(f"no vehicle is called {name!r}; known: "
                 f"{', '.join(v.name for v in rules.VEHICLES)}")


def _place(player: dict[str, Any]) -> None:
    """Mark the compartments that the player's loaded items take (Answer: they do not fit)."""
    barn = player["barn"]
    used = place_loads([v["kind"] for v in barn["vehicles"]], player["loaded"])
    if used is None:
        raise Answer(f"the loaded items ({_loaded(player['loaded'])}) do not fit on the "
                     f"vehicles ({_vehicles(barn)})")
    for vehicle, compartments in zip(barn["vehicles"], used, strict=True):
        vehicle["used"] = compartments


def _vehicles(barn: dict[str, Any]) -> str:
    shown = [names.vehicle(v["kind"]) for v in barn["vehicles"]]
    shown += [names.count(barn[k], k.removesuffix("s")).replace("_", " ")
              for k in ("peat_boats", "plows") if barn[k]]
    return ", ".join(shown) or "none"


def _set_barn(player: dict[str, Any], text: str) -> None:
    """``'handcart, horse cart, peat boats 2'``: the player's vehicles and barn pieces."""
    barn: dict[str, Any] = {"peat_boats": 0, "plows": 0, "vehicles": []}
    for part in _list(text):
        m = COUNTED.match(part)
        assert m is not None  # every text matches
        n = int(m.group(1) or m.group(3) or 1)
        key = _vehicle_key(m.group(2))
        if key in ("peat_boat", "plow"):
            barn[key + "s"] += n
        else:
            barn["vehicles"] += [{"kind": key, "used": []} for _ in range(n)]
    player["barn"] = barn
    _place(player)


def _set_loaded(player: dict[str, Any], text: str) -> None:
    """``'wood 1 linen 1, Hage'``: the goods and destinations lying on the vehicles."""
    loaded: dict[str, Any] = {good: 0 for good in rules.LOAD_GOODS}
    loaded["destinations"] = []
    for part in _list(text):
        if re.search(r"\d", part):
            for name, n in _pairs(part, "wood 1"):
                key = names.find(name, "good") if names.matches(name, ("good",)) else name
                if key not in rules.LOAD_GOODS:
                    raise Answer(f"{name!r} cannot be loaded; goods that can: "
                                 f"{', '.join(rules.LOAD_GOODS)}")
                loaded[key] = n
        else:
            loaded["destinations"].append(_names(part, "destination")[0])
    player["loaded"] = loaded
    _place(player)


def _set_moors(home: dict[str, Any], text: str) -> None:
    """``'4 2'``: the peat on each dehydrated moor."""
    if text.strip().lower() in ("-", "none"):
        home["dehydrated_moors"] = []
        return
    try:
        home["dehydrated_moors"] = [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise Answer(f"cannot read {text.strip()!r}: write the peat on each dehydrated moor, "
                     f"e.g. '4 2'") from None


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


def _lines(text: str, first: str = "", rest: str = "", width: int = WIDTH) -> str:
    """``text`` wrapped at whole words into lines of at most ``width`` characters; a quoted
    example (``'food 7 timber 2'``) is kept on one line."""
    text = re.sub(r"'[^']*'", lambda m: m.group(0).replace(" ", NB), " ".join(text.split()))
    return "\n".join(textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest,
                                    break_long_words=False, break_on_hyphens=False)
                      ).replace(NB, " ")


def _question(question: str, shown: str) -> str:
    """The prompt: the question and what is there now; the answer is typed after ``> ``, on
    the same line when the question is short, else on a line of its own."""
    items = ", ".join(item.replace(" ", NB) for item in shown.split(", "))  # 'Ovens 1' whole
    text = _lines(question, rest="  ") + "\n" + _lines(f"now: {items}", "  ", "    ")
    short = f"{question} [{shown}]"
    return short if len(short) <= WIDTH - 30 else text + "\n"


def _ask(d: dict[str, Any], question: str, shown: str, change) -> None:
    """Ask until the answer reads and gives a valid position (Enter: keep ``shown``)."""
    while True:
        text = click.prompt(_question(question, shown), default="", show_default=False,
                            prompt_suffix="> ")
        if not text.strip():
            return
        trial = copy.deepcopy(d)
        try:
            change(trial, text)
            _check(trial)
        except (Answer, PositionError, ValueError) as exc:
            click.echo(_lines(f"not accepted: {exc}", first="  ", rest="    "))
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
         lambda t, s: _set_counts(p(t)["goods"], s, lambda n: names.find(n, "good"),
                                  "timber 2"))
    _ask(d, f"{who} animals (sheep, cattle, horse)", _counts(p(d)["animals"], names.thing),
         lambda t, s: _set_counts(p(t)["animals"], s, lambda n: names.find(n, "animal"),
                                  "sheep 2"))
    home_keys = sorted(set(HOME_TILES.values()))
    _ask(d, f"{who} home tiles, dikes, moors not yet drained, peat on the boardwalk "
            f"(e.g. 'stalls 2 forests 1 dikes 3 moors 2 boardwalk 4')",
         _counts({k: p(d)["home"][k] for k in home_keys}, lambda k: k.replace("_", " ")),
         lambda t, s: _set_counts(p(t)["home"], s, _tile_key, "stalls 2"))
    _ask(d, f"{who} dehydrated moors: the peat on each (e.g. '4 2'; '-' for none)",
         " ".join(map(str, p(d)["home"]["dehydrated_moors"])) or "none",
         lambda t, s: _set_moors(p(t)["home"], s))
    _ask(d, f"{who} tools, the number on the track (e.g. 'fish traps 3 ovens 2')",
         _counts(p(d)["tools"], names.tool),
         lambda t, s: _set_counts(p(t)["tools"], s, lambda n: names.find(n, "tool"),
                                  "ovens 2"))
    _ask(d, f"{who} buildings (names separated by commas, '-' for none)",
         ", ".join(names.building(b) for b in p(d)["home"]["buildings"]) or "none",
         lambda t, s: _set_buildings(t, i, _names(s, "building")))
    _ask(d, f"{who} barn: vehicles, peat boats, plows (e.g. 'handcart, horse cart, peat boats "
            f"2'; '-' for none)", _vehicles(p(d)["barn"]), lambda t, s: _set_barn(p(t), s))
    _ask(d, f"{who} loaded on the vehicles until the inventorying (e.g. 'wood 1 linen 1, "
            f"Hage'; '-' for nothing)", _loaded(p(d)["loaded"]),
         lambda t, s: _set_loaded(p(t), s))
    _ask(d, f"{who} travel track: destinations delivered (names separated by commas, '-' for "
            f"none)", ", ".join(names.destination(k) for k in p(d)["travel"]) or "none",
         lambda t, s: p(t).__setitem__("travel", _names(s, "destination")))
    _ask(d, f"{who} supply bottlenecks suffered so far (-2 VP each)", str(p(d)["bottlenecks"]),
         lambda t, s: p(t).__setitem__("bottlenecks", _number(s)))


def _loaded(loaded: dict[str, Any]) -> str:
    goods = _counts({k: v for k, v in loaded.items() if k != "destinations"}, names.thing)
    dests = [names.destination(k) for k in loaded["destinations"]]
    return ", ".join(x for x in [goods if goods != "none" else "", *dests] if x) or "none"


def _number(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise Answer(f"{text.strip()!r} is not a whole number") from None


def _occupied(d: dict[str, Any]) -> str:
    parts = [f"P{who} " + ", ".join(names.space(k, qualified=True)
                                     for k, w in d["occupied"].items() if w == who)
             for who in (0, 1) if who in d["occupied"].values()]
    return "; ".join(parts) or "none"


def _edit(d: dict[str, Any]) -> None:
    d.pop("pending", None)
    d.pop("season", None)
    _ask(d, "half-year (1-9; odd = summer)", str(d["half_year"]),
         lambda t, s: t.__setitem__("half_year", _number(s)))
    _ask(d, "start player (0 or 1)", str(d["start_player"]),
         lambda t, s: t.__setitem__("start_player", _number(s)))
    _ask(d, "workers on the action spaces (e.g. 'P0 Fisherman, Colonist; P1 Forester'; '-' for "
            "none)", _occupied(d), _set_occupied)
    _ask(d, "workers placed or passed so far this half-year (0-8)",
         str(d.get("workers_placed", 0)),
         lambda t, s: t.__setitem__("workers_placed", _number(s)))
    for i in (0, 1):
        _edit_player(d, i)


def _write(d: dict[str, Any], path: str) -> arle_ai.GameState:
    """Write the position ``d`` (checked by every answer) to ``path`` without its pending
    block; return it as a state."""
    state = arle_ai.GameState.from_dict(d)
    out = state.to_dict()
    out.pop("pending", None)
    write_text(json.dumps(out, indent=1), path)
    return state


def _stopped(file: str, before: dict[str, Any], d: dict[str, Any], ctrl_c: bool) -> NoReturn:
    """Stopped before the last question: FILE stays as it was; answers already given that
    changed the position are written next to it, so nothing typed is lost."""
    if d == before:
        kept = f"nothing changed, {file} is as it was" if Path(file).exists() else (
            "nothing written")
    else:
        p = Path(file)
        partial = p.with_name(f"{p.stem}.partial{p.suffix or '.json'}")
        n = 2
        while partial.exists():
            partial = p.with_name(f"{p.stem}.partial-{n}{p.suffix or '.json'}")
            n += 1
        _write(d, str(partial))
        kept = (f"{file} is unchanged; the answers so far are in {partial} (go on with "
                f"'arle edit {partial}')")
    if ctrl_c:
        interrupted(kept)
    fail(f"input ended before the last question: {kept}")


@click.command()
@click.argument("file", type=OUT_FILE)
@seed_option("Setup seed of a new position when FILE does not exist yet.")
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
    d.pop("pending", None)
    d.pop("season", None)
    before = copy.deepcopy(d)
    try:
        _edit(d)
    except (click.Abort, KeyboardInterrupt) as exc:  # click.prompt: Ctrl-C or end of input
        ctrl_c = isinstance(exc, KeyboardInterrupt) or isinstance(exc.__context__,
                                                                  KeyboardInterrupt)
        _stopped(file, before, d, ctrl_c)
    state = _write(d, file)
    click.echo(f"written to {file}:")
    click.echo(describe_wide(state, shutil.get_terminal_size().columns))
