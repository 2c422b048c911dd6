"""Shared helpers for the tests: build positions from dicts, name action ids, and check what
a command run by click's CliRunner said."""

from __future__ import annotations

import copy
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import arle_ai
from arle_ai.engine import rules

L = arle_ai.ACTION_LAYOUT
SPACES = [a.key for a in rules.ACTION_SPACES]
TOOLS = [t.key for t in rules.TOOLS]
BUILDINGS = [b.key for b in rules.BUILDINGS]
VEHICLES = [v.key for v in rules.VEHICLES]
DESTINATIONS = [d.key for d in rules.DESTINATIONS]
GOODS = list(rules.GOODS)
ANIMALS = list(rules.ANIMALS)
FLIPS = list(rules.FLIP_TARGETS)
TILES = list(rules.HOME_TILES)
LOAD_ITEMS = list(rules.LOAD_GOODS) + DESTINATIONS

STOP = L["stop"]
PASS = L["pass"]
MORE = L["more"]


def place(space: str) -> int:
    return L["place"] + SPACES.index(space)


def imitate(space: str) -> int:
    return L["imitate"] + SPACES.index(space)


def good(name: str) -> int:
    return L["good"] + GOODS.index(name)


def exchange(name: str) -> int:
    return L["exchange"] + GOODS.index(name)


def animal(name: str) -> int:
    return L["animal"] + ANIMALS.index(name)


def tool(key: str) -> int:
    return L["tool"] + TOOLS.index(key)


def build(key: str) -> int:
    return L["build"] + BUILDINGS.index(key)


def use(key: str) -> int:
    return L["use"] + BUILDINGS.index(key)


def vehicle(key: str) -> int:
    return L["vehicle"] + VEHICLES.index(key)


def cut(source: int) -> int:
    """0 = the boardwalk, k = a dehydrated moor holding k peat."""
    return L["cut"] + source


def flip(name: str) -> int:
    return L["flip"] + FLIPS.index(name)


def tile(name: str) -> int:
    return L["tile"] + TILES.index(name)


def breed(k: int) -> int:
    return L["breed"] + k


def deliver(destination: str, k: int) -> int:
    return L["deliver"] + DESTINATIONS.index(destination) * rules.DELIVERY_IDS_PER_DESTINATION + k


def load(item: str, slot: int, start: int) -> int:
    per_slot = rules.VEHICLE_COMPARTMENTS
    return L["load"] + (LOAD_ITEMS.index(item) * L["max_vehicles"] + slot) * per_slot + start


def base(seed: int = 0, variant: str = "standard") -> dict[str, Any]:
    """The start position of `seed` as a dict, to edit and load with make()."""
    return arle_ai.new_game(seed, variant).to_dict()


def make(d: dict[str, Any], *, keep_pending: bool = False) -> arle_ai.GameState:
    """Load an edited position; by default the pending decisions are recomputed from the
    workers placed (the turn of the player whose worker is next)."""
    d = copy.deepcopy(d)
    d.pop("season", None)      # only a check; edited half-years would contradict it
    if not keep_pending:
        d.pop("pending", None)
    return arle_ai.GameState.from_dict(d)


def play(state: arle_ai.GameState, *actions: int) -> arle_ai.GameState:
    for a in actions:
        state.apply(a)
    return state


def me(state: arle_ai.GameState) -> dict[str, Any]:
    """The current player's part of the position."""
    return state.to_dict()["players"][state.current_player]


# ---- position builders and checks shared by the rules tests ----


def edit(pl: dict[str, Any], upd: dict[str, Any] | None) -> None:
    """Update player part `pl`: a dict value updates that section, any other value replaces it."""
    for section, vals in (upd or {}).items():
        if isinstance(vals, dict):
            pl[section].update(vals)
        else:
            pl[section] = vals


def position(p0: dict | None = None, p1: dict | None = None, *, half_year: int = 1,
             start_player: int = 0, workers_placed: int = 0, occupied: dict | None = None,
             special: int | None = None) -> dict[str, Any]:
    """The start position of seed 0 at `half_year` with the players' parts edited by p0, p1."""
    d = base(0)
    d["half_year"] = half_year
    d["season"] = "summer" if half_year % 2 else "winter"
    d["start_player"] = start_player
    d["workers_placed"] = workers_placed
    d["occupied"] = dict(occupied or {})
    d["special_action_by"] = special
    edit(d["players"][0], p0)
    edit(d["players"][1], p1)
    d.pop("pending", None)
    return d


def expected(d: dict[str, Any], pi: int = 0, **changes: Any) -> dict[str, Any]:
    """Player pi of position d with the given sections updated (absolute values)."""
    pl = copy.deepcopy(d["players"][pi])
    edit(pl, changes)
    return pl


def run(d: dict[str, Any], *ids: int) -> arle_ai.GameState:
    """Load position d and apply the action ids."""
    return play(make(d), *ids)


def check_action(s: arle_ai.GameState, d: dict[str, Any], pi: int = 0, *, done: bool = True,
                 **changes: Any) -> None:
    """Player pi's part equals d's with `changes`; the opponent's is unchanged; with done, the
    action is over and it is the opponent's turn."""
    after = s.to_dict()
    assert after["players"][pi] == expected(d, pi, **changes)
    assert after["players"][1 - pi] == d["players"][1 - pi]
    if done:
        assert s.pending == "turn"
        assert s.current_player == 1 - pi


def legal(s: arle_ai.GameState) -> set[int]:
    return set(s.legal_actions())


def vp(s: arle_ai.GameState, category: str, p: int = 0) -> float:
    """Player p's VP in one scoring category."""
    return s.score_breakdown(p)[category]


def veh(*specs: str | tuple[str, list[int]]) -> list[dict[str, Any]]:
    """Barn vehicles: "cart" (empty) or ("cart", [0, 1]) (compartments used)."""
    out = []
    for sp in specs:
        kind, used = (sp, []) if isinstance(sp, str) else sp
        out.append({"kind": kind, "used": list(used)})
    return out


# ---- commands run by click's CliRunner ----

EXIT_BAD_INPUT = 2


def assert_no_traceback(result: Any) -> None:
    """The command ended by exiting, not by an exception escaping it (CliRunner catches that
    and keeps it in ``result.exception``: it never shows in the output), and printed no
    traceback of its own."""
    escaped = result.exception is not None and not isinstance(result.exception, SystemExit)
    assert not escaped, f"{type(result.exception).__name__}: {result.exception}"
    assert "Traceback" not in result.output, result.output


def assert_bad_input(result: Any, *words: str | re.Pattern[str]) -> str:
    """A refused input: exit 2, no traceback, and one ``arle: error:`` line, the last one,
    containing each of ``words`` (a ``str`` as it is, a compiled pattern searched); returns
    that line."""
    assert result.exit_code == EXIT_BAD_INPUT, (result.exit_code, result.output)
    assert_no_traceback(result)
    lines = result.output.strip().splitlines()
    assert lines, "nothing said"
    message = lines[-1]
    assert message.startswith("arle: error: "), message
    assert sum(line.startswith("arle: error:") for line in lines) == 1, result.output
    for w in words:
        found = w.search(message) if isinstance(w, re.Pattern) else w in message
        assert found, f"{w!r} not in {message!r}"
    return message


# ---- waiting for another process: polling with a deadline, never a sleep of a guessed length ----


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``condition`` until it holds (AssertionError naming ``what`` at the deadline, a
    bound for a hang, not a measurement)."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"timed out after {seconds:g} s waiting for {what}"
        time.sleep(0.05)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of a process from /proc; None when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[1])


def process_parents() -> dict[int, int]:
    """Every living process (Linux: /proc) and its parent."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None and st[0] != "Z":
                parents[int(entry)] = st[1]
    return parents


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (children, their children...)."""
    parents = process_parents()
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] != "Z"


# ---- a reviewed game ----

def one_best_in_eight(path: Path) -> Any:
    """A solo game of 8 decisions with a stored review (as ``arle analyze --save`` keeps one)
    in which the move played was the best once, at decision 1, and 4 VP below another move
    at the other 7 (marked): a best move in 1 of 8 decisions. Saved at ``path``; returns
    its record."""
    from arle_ai.formats.records import GameRecord

    rec = GameRecord.from_position(arle_ai.new_game(seed=4, players=1))
    decisions = []
    while len(decisions) < 8:
        state = rec.final_state()
        moves = [state.action_to_string(a) for a in state.legal_actions()]
        rec.push(state.legal_actions()[0])
        if len(moves) < 2:
            continue  # forced: no decision to review
        ply = len(rec.actions)
        best = moves[0] if not decisions else moves[1]
        lost = 0.0 if not decisions else 4.0
        decisions.append({"ply": ply, "player": 0, "half_year": state.half_year,
                          "pending": state.pending, "played": moves[0], "best": best,
                          "best_visits": 40000, "played_visits": 40000,
                          "played_value": 0.5, "best_value": 0.5, "value_lost": 0.0,
                          "played_margin": 100.0 - lost, "best_margin": 100.0,
                          "vp_lost": lost})
    rec.review = {"iterations": 0, "time_limit": 1.0, "decisions": decisions}
    rec.save(path)
    return rec
