"""What a move did, in the game's terms: goods, animals, tiles, tools, barn pieces, travel, VP.

:func:`describe` compares two positions player by player; :func:`apply` plays a move and
reports its own effect and then each automatic step the engine ran after it one by one (the
inventorying: vehicles emptied, milking, harvest, breeding, shearing, feeding with any
bottleneck; the next half-year), so that a player sees everything that changed::

    >>> import arle_ai
    >>> from arle_ai.text import effects
    >>> s = arle_ai.new_game(seed=0)
    >>> steps = effects.apply(s, s.parse_action("place woodcutter"))
    >>> steps[0].text()
    'P0: +3 wood'

Names are the printed ones (:mod:`arle_ai.text.names`); every count is read from
``GameState.to_dict()`` (docs/position-format.md), so nothing here knows a rule.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arle_ai.engine import HALF_END_PROGRAM as _PROGRAM
from arle_ai.engine import rules
from arle_ai.text import names

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = ["PlayerChange", "Step", "describe", "apply", "INVENTORY_STEPS", "step_name"]

# The inventorying steps of the end-of-half-year program, by season and step (engine order).
INVENTORY_STEPS = {
    "summer": ("vehicles emptied", "milking", "harvest", "feeding"),
    "winter": ("vehicles emptied", "breeding", "shearing", "feeding"),
}
NEW_HALF_YEAR = "new half-year"
_BUILT = {"stalls", "stables", "double_stalls", "depots"}
_MOOR = ("hydrated_moors", "dehydrated_moors", "boardwalk_peat")


def step_name(program_step: int, season: str) -> str | None:
    """Name of the end-of-half-year program step (``GameState.apply_traced``), or None for a
    step that is no inventorying (closing windows, November houses)."""
    if program_step == _PROGRAM["prepare"]:
        return NEW_HALF_YEAR
    start, other = _PROGRAM["inventory_start"], _PROGRAM["inventory_other"]
    if start <= program_step < _PROGRAM["prepare"]:
        k = program_step - (start if program_step < other else other)
        if k < _PROGRAM["inventory_steps"]:
            return INVENTORY_STEPS[season][k]
    return None


def _a(word: str) -> str:
    return f"an {word}" if word[0].lower() in "aeiou" else f"a {word}"


def _some(n: int, key: str) -> str:
    return _a(names.thing(key)) if n == 1 else names.count(n, key)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass
class PlayerChange:
    """What changed for one player between two positions (deltas; zero entries left out)."""

    player: int
    goods: dict[str, int] = field(default_factory=dict)
    animals: dict[str, int] = field(default_factory=dict)
    tiles: dict[str, int] = field(default_factory=dict)  # home tiles and dikes
    moors: dict[str, int] = field(default_factory=dict)  # dehydrated, removed, boardwalk_gone
    tools: dict[str, tuple[int, int]] = field(default_factory=dict)  # key -> (before, after)
    buildings: list[str] = field(default_factory=list)  # built
    barn: dict[str, int] = field(default_factory=dict)  # peat_boat, plow and vehicle kinds
    loaded: dict[str, int] = field(default_factory=dict)  # goods and destinations on vehicles
    travel: list[str] = field(default_factory=list)  # destinations reached
    bottlenecks: int = 0
    vp: tuple[float, float] = (0.0, 0.0)

    @property
    def vp_change(self) -> float:
        return self.vp[1] - self.vp[0]

    def is_empty(self) -> bool:
        return not (self.goods or self.animals or self.tiles or self.moors or self.tools
                    or self.buildings or self.barn or self.loaded or self.travel
                    or self.bottlenecks or self.vp_change)

    def phrases(self) -> list[str]:
        """The things built, taken, turned and reached, as short phrases."""
        out = [f"built {names.building(b)}" for b in self.buildings]
        out += _tile_phrases(self.tiles)
        out += _moor_phrases(self.moors)
        out += [f"{names.tool(k)} {a} -> {b}" for k, (a, b) in self.tools.items()]
        out += _barn_phrases(self.barn)
        out += _load_phrases(self.loaded)
        out += [f"reached {names.destination(d)}" for d in self.travel]
        if self.bottlenecks:
            n = self.bottlenecks
            out.append(f"{n} bottleneck{'s' if n != 1 else ''}")
        return out

    def amounts(self) -> list[str]:
        """The goods and animals gained (+) and paid (-)."""
        return ([names.count(n, k, signed=True) for k, n in self.goods.items()]
                + [names.count(n, k, signed=True) for k, n in self.animals.items()])

    def paid(self) -> list[str]:
        """What the player gave: the goods and animals lost, unsigned (``2 clay``)."""
        return [names.count(-n, k) for k, n in (*self.goods.items(), *self.animals.items())
                if n < 0]

    def gained(self) -> list[str]:
        """What the player got: the goods and animals gained, unsigned (``3 food``); what
        was built, taken, turned and reached is :meth:`phrases`, said in the past tense
        (``built a dike``), never after a verb such as "get"."""
        return [names.count(n, k) for k, n in (*self.goods.items(), *self.animals.items())
                if n > 0]

    def text(self) -> str:
        """One line: phrases, then the goods and animals in brackets, then the VP change;
        ``nothing`` when nothing changed."""
        phrases, amounts = self.phrases(), self.amounts()
        vp = f"{_num(self.vp_change)} VP" if self.vp_change < 0 else (
            f"+{_num(self.vp_change)} VP" if self.vp_change else "")
        if phrases:
            inside = ", ".join(amounts) + ("; " if amounts and vp else "") + vp
            return ", ".join(phrases) + (f" ({inside})" if inside else "")
        if amounts:
            return ", ".join(amounts) + (f" ({vp})" if vp else "")
        return vp or "nothing"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (for the browser app), with the line of :meth:`text`."""
        return {"player": self.player, "goods": self.goods, "animals": self.animals,
                "tiles": self.tiles, "moors": self.moors,
                "tools": {k: list(v) for k, v in self.tools.items()},
                "buildings": self.buildings, "barn": self.barn, "loaded": self.loaded,
                "travel": self.travel, "bottlenecks": self.bottlenecks, "vp": list(self.vp),
                "text": self.text()}


def _tile_phrases(tiles: dict[str, int]) -> list[str]:
    out = []
    rest = {k: n for k, n in tiles.items() if k != "dikes"}
    gone = [k for k, n in rest.items() if n == -1]
    new = [k for k, n in rest.items() if n == 1]
    if len(gone) == 1 and len(new) == 1 and len(rest) == 2:  # an upgrade or a conversion
        if tiles.get("dikes", 0) > 0:  # the Dike Warden builds a dike and flips a tile
            out.append(f"built {_some(tiles['dikes'], 'dike')}")
        return out + [f"turned {_some(1, gone[0])} into {_some(1, new[0])}"]
    for k, n in tiles.items():
        if k == "dikes":
            out.append(f"built {_some(n, 'dike')}" if n > 0 else f"{n} dikes")
        elif n > 0:
            out.append(f"{'built' if k in _BUILT else 'placed'} {_some(n, k)}")
        else:
            out.append(f"removed {_some(-n, k)}")
    return out


def _moor_phrases(moors: dict[str, int]) -> list[str]:
    out = []
    if moors.get("dehydrated"):
        out.append(f"dehydrated {_some(moors['dehydrated'], 'moor')}")
    if moors.get("removed"):
        out.append(f"removed {_some(moors['removed'], 'moor')}")
    if moors.get("boardwalk_gone"):
        out.append("the boardwalk is gone")
    return out


def _barn_phrases(barn: dict[str, int]) -> list[str]:
    label = {"peat_boat": "peat boat", "plow": "plow"}
    gone = [k for k, n in barn.items() if n < 0]
    new = [k for k, n in barn.items() if n > 0]

    def piece(k: str, n: int) -> str:
        word = names.vehicle(k) if k in names.KINDS["vehicle"][0] else label[k]
        return _a(word) if n == 1 else f"{n} {word}s"

    if len(gone) == 1 and len(new) == 1 and barn[gone[0]] == -1 and barn[new[0]] == 1:
        return [f"turned {piece(gone[0], 1)} into {piece(new[0], 1)}"]
    return ([f"took {piece(k, barn[k])}" for k in new]
            + [f"gave up {piece(k, -barn[k])}" for k in gone])


def _load_phrases(loaded: dict[str, int]) -> list[str]:
    on = [f"{n} {k}" if k in names.GOODS else names.destination(k)
          for k, n in loaded.items() if n > 0]
    off = any(n < 0 for n in loaded.values())
    return ([f"loaded {', '.join(on)}"] if on else []) + (["emptied vehicles"] if off else [])


def _delta(a: dict[str, int], b: dict[str, int], keys: Iterable[str]) -> dict[str, int]:
    return {k: b.get(k, 0) - a.get(k, 0) for k in keys if b.get(k, 0) != a.get(k, 0)}


def _barn_count(p: dict[str, Any]) -> Counter[str]:
    c = Counter(v["kind"] for v in p["barn"]["vehicles"])
    c["peat_boat"] += p["barn"]["peat_boats"]
    c["plow"] += p["barn"]["plows"]
    return c


def _loaded_count(p: dict[str, Any]) -> Counter[str]:
    c = Counter({k: n for k, n in p["loaded"].items() if k != "destinations"})
    c.update(p["loaded"]["destinations"])
    return c


def _moors(a: dict[str, Any], b: dict[str, Any]) -> dict[str, int]:
    out = {}
    removed = ((a["hydrated_moors"] + len(a["dehydrated_moors"]))
               - (b["hydrated_moors"] + len(b["dehydrated_moors"])))
    # Hydrated moors turned to their dehydrated side, not removed while hydrated (Bremen):
    # the dehydrated ones that are new, or that carry the full peat a dehydrated moor gets
    # (peat is only ever taken off them after).
    lost = a["hydrated_moors"] - b["hydrated_moors"]
    da, db = a["dehydrated_moors"], b["dehydrated_moors"]
    full = db.count(rules.MOOR_PEAT) - da.count(rules.MOOR_PEAT)
    dehydrated = min(lost, max(len(db) - len(da) + max(0, removed - lost), full))
    if dehydrated > 0:
        out["dehydrated"] = dehydrated
    if removed > 0:
        out["removed"] = removed
    if a["boardwalk_peat"] > 0 and b["boardwalk_peat"] == 0:
        out["boardwalk_gone"] = 1
    return out


def _player_change(i: int, a: dict[str, Any], b: dict[str, Any],
                   vp: tuple[float, float]) -> PlayerChange:
    ha, hb = a["home"], b["home"]
    barn = _barn_count(b)
    barn.subtract(_barn_count(a))
    loaded = _loaded_count(b)
    loaded.subtract(_loaded_count(a))
    return PlayerChange(
        player=i,
        goods=_delta(a["goods"], b["goods"], names.GOODS),
        animals=_delta(a["animals"], b["animals"], rules.ANIMALS),
        tiles=_delta(ha, hb, ("dikes",) + names.TILES),
        moors=_moors(ha, hb),
        tools={k: (a["tools"][k], b["tools"][k]) for k in names.KINDS["tool"][0]
               if a["tools"][k] != b["tools"][k]},
        buildings=[k for k in hb["buildings"] if k not in ha["buildings"]],
        barn={k: n for k, n in barn.items() if n},
        loaded={k: n for k, n in loaded.items() if n},
        travel=[d for d in b["travel"] if d not in a["travel"]],
        bottlenecks=b["bottlenecks"] - a["bottlenecks"],
        vp=vp,
    )


def describe(before: GameState, after: GameState) -> list[PlayerChange]:
    """What changed for each player from ``before`` to ``after`` (every player, in order: two,
    or one in the solo game)."""
    da, db = before.to_dict(), after.to_dict()
    sa, sb = before.scores(), after.scores()
    return [_player_change(i, da["players"][i], db["players"][i], (sa[i], sb[i]))
            for i in range(before.players)]


@dataclass
class Step:
    """One thing that happened: a player's move (``what == "move"``), or an automatic step
    (an :data:`INVENTORY_STEPS` name or ``"new half-year"``) with the changes it made."""

    what: str
    player: int | None  # who moved, or whose inventorying this is (None: both / nobody)
    half_year: int
    changes: list[PlayerChange]
    after: GameState  # the position right after this step

    def changed(self) -> list[PlayerChange]:
        return [c for c in self.changes if not c.is_empty()]

    def text(self, players: tuple[str, ...] = ("P0", "P1")) -> str:
        """``P0: <effect>`` per player that changed (``nothing`` when none did)."""
        parts = [f"{players[c.player]}: {c.text()}" for c in self.changed()]
        return "; ".join(parts) or "nothing"

    def to_dict(self) -> dict[str, Any]:
        return {"what": self.what, "player": self.player, "half_year": self.half_year,
                "changes": [c.to_dict() for c in self.changed()]}


def apply(state: GameState, action: int) -> list[Step]:
    """Play ``action`` on ``state`` in place (like ``state.apply``; IllegalActionError leaves
    it unchanged) and return what happened: first the move itself (with any choice forced on
    the player right after it), then each inventorying step and the start of the next
    half-year, in the order the engine ran them."""
    before = state.copy()
    mover = state.current_player
    trace = state.apply_traced(action)
    out: list[Step] = []
    what, who, start, last = "move", mover, before, before
    for kind, program_step, player, snapshot in trace:
        # "applied" is the position right after the move itself: what a decision inside the
        # half-year's end (breeding, feeding) did belongs to the move, not to the next step
        name = step_name(program_step, last.season) if kind == "half_end" else None
        if name is not None:
            out.append(Step(what, who, start.half_year, describe(start, last), last))
            what, who, start = name, (player if player >= 0 else None), last
        last = snapshot
    out.append(Step(what, who, start.half_year, describe(start, state), state.copy()))
    return out
