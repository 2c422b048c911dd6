"""The pending decision in a player's words: what is asked, and each option with its effect.

:func:`question` turns the engine's decision (``state.pending``, e.g. ``action:tanner``) and
the kinds of its legal moves into a question (``Tanner: turn another hide into leather?``);
:func:`menu` lists the legal moves with their printed labels and what each does at once
(its cost and immediate gain, found by playing it on a copy, :mod:`arle_ai.text.effects`). The
terminal (``arle play``) and the browser app both show these.

>>> import arle_ai
>>> from arle_ai.text import decisions
>>> s = arle_ai.new_game(seed=0)
>>> decisions.question(s)
'P0, your turn: place a worker on an action space, or pass'
>>> [o.effect for o in decisions.menu(s) if o.label == "place Woodcutter"]
['+3 wood']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from arle_ai.engine import rules
from arle_ai.text import effects, names
from arle_ai.text.notation import action_label, action_range

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine._core import GameState

__all__ = ["Option", "menu", "question", "context"]

# What "more" does on the spaces that repeat a conversion (stop ends the action); these are
# the only spaces that offer "more" (actions.md S3, W2, W3, W8, W9).
MORE = {
    "wool_weaver": "turn wool into woolen",
    "linen_weaver": "turn flax into linen",
    "tanner": "turn a hide into leather",
    # the numbers from the rules (rules.BAKER_*, rules.SPACE_EXCHANGES), not typed again
    "baker": (f"turn {rules.BAKER_GRAIN} grain (or flax) and {rules.BAKER_FUEL} peat (or wood) "
              f"into {names.amounts([('food', rules.BAKER_FOOD)])}"),
    "potter": (f"turn {names.amounts([rules.SPACE_EXCHANGES['potter'][0]])} into "
               f"{names.amounts(rules.SPACE_EXCHANGES['potter'][1]).replace(', ', ' and ')}"),
}

# A building that asks before each exchange (the first too): what "more" does there.
_PAY, _GET = rules.BAKEHOUSE_EXCHANGE
EXCHANGES = {"bakehouse": f"pay {names.amounts(_PAY).replace(', ', ' and ')} for "
                          f"{names.amounts(_GET)}"}

# Sub-decisions of an action (``action:<step>`` that is no space), in words.
SUB_STEPS = {
    "pay_building": "paying for the building",
    "cut": "cutting peat",
    "flip": "upgrading a tile",
    "master": "the Master (improving tools)",
    "field": "placing a field",
    "forest": "placing a forest",
    "animals": "taking animals",
    "deliver": "delivering goods",
    "smithy": "Smithy",
    "farmers_inn": "Farmer's Inn",
    "bakehouse": "Bakehouse",
    "give_animals": "handing over animals",
    "give_clothing": "handing over clothing",
    "junk_dealer": "Junk Dealer's Inn",
}

# Questions by the kind of the legal moves (ACTION_LAYOUT ranges).
KIND_QUESTIONS = {
    "place": "place a worker on an action space, or pass",
    "build": "which building do you build?",
    "tile": "which tile?",
    "good": "which good?",
    "animal": "which animal?",
    "tool": "which tool track to move up?",
    "vehicle": "which vehicle?",
    "cut": "where do you cut the peat?",
    "imitate": "which action space do you copy?",
    "flip": "which tile do you flip (upgrade)?",
    "breed": "which animals are born?",
    "deliver": "what do you deliver?",
    "load": "what do you load, and where?",
    "use": "which building do you use?",
    "exchange": "what do you take for a peat (peat boat)?",
}

# The spaces whose choice mixes kinds that the kinds alone would name badly (a "tile" is a
# stall at the Carpenter, a forest at the Forester; "good" is 4 wood at the Wood Trader): the
# question by the kinds of moves on offer (actions.md S5, S12, S13, W3, W12, W14; a field of
# the Farmer, fields into forests at the Farmer's Inn).
SPACE_QUESTIONS = {
    ("summer_carpenter", frozenset({"build"})): "which building do you build?",
    ("summer_carpenter", frozenset({"build", "tile"})):
        "which building do you build, or do you build a stall?",
    ("summer_carpenter", frozenset({"tile"})): "do you build a stall?",
    ("winter_carpenter", frozenset({"flip", "tile"})):
        "do you upgrade a stall to a stable, or build a new stall?",
    ("winter_carpenter", frozenset({"flip"})): "do you upgrade a stall to a stable?",
    ("winter_carpenter", frozenset({"tile"})): "do you build a stall?",
    ("forester", frozenset({"build", "tile"})):
        "do you place a forest, or which building do you build?",
    ("forester", frozenset({"tile"})): "do you place a forest?",
    ("wood_trader", frozenset({"build", "good"})):
        f"do you take {rules.WOOD_TRADER_WOOD} wood, or which building do you build?",
    ("wood_trader", frozenset({"good"})): f"do you take {rules.WOOD_TRADER_WOOD} wood?",
    ("summer_laborer", frozenset({"vehicle"})): "which vehicle do you build?",
    ("summer_laborer", frozenset({"vehicle", "imitate"})):
        "which vehicle do you build, or which action space do you copy?",
    ("winter_laborer", frozenset({"build", "imitate"})):
        "which building do you build, or which action space do you copy?",
    ("field", frozenset({"tile"})): "a grain field or a flax field?",
    ("farmers_inn", frozenset({"tile"})): "which field do you turn into a forest?",
}

# What the chosen thing is for, by action step, when the moves are things (NOUNS): "which
# animal do you slaughter?" (the rules text of each space or building; actions.md).
VERBS = {
    "summer_grocer": "take", "winter_grocer": "take", "builders_merchant": "take",
    "dike_builder": "take", "cattle_trader": "take", "animals": "take", "junk_dealer": "take",
    "butcher": "slaughter", "farmer": "pay for a plow", "wainwright": "build",
    "smithy": "swap for plows", "pay_building": "pay with", "give_animals": "hand over",
    "give_clothing": "hand over",
}

# What a choice of several kinds at once names: "which good or animal?"
NOUNS = {"good": "good", "animal": "animal", "tile": "tile", "build": "building",
         "vehicle": "vehicle", "tool": "tool track"}


@dataclass(frozen=True)
class Option:
    """One legal move: its id, number in the menu (1..n), printed label, notation text and
    what it does at once for the player who makes it (``""`` when nothing yet; ``change``
    holds it in parts, None when nothing changed)."""

    number: int
    action: int
    label: str
    notation: str
    effect: str
    change: effects.PlayerChange | None = None


def context(state: GameState) -> str:
    """What the pending decision belongs to, in words: ``Tanner``, ``paying for the
    building``, ``feeding``..."""
    pending = state.pending
    if pending.startswith("action:"):
        step = pending.split(":", 1)[1]
        if step in SUB_STEPS:
            return SUB_STEPS[step]
        try:
            return names.space(step)
        except KeyError:
            return step
    return {
        "turn": "your turn",
        "end_window": "end of the work phase",
        "final_window": "before final scoring",
        "november": "November",
        "feed": "feeding",
        "breed": "breeding",
        "discard": "no room for all animals",
    }.get(pending, pending)


def _kinds(state: GameState) -> list[str]:
    out: list[str] = []
    for a in state.legal_actions():
        kind = action_range(a)[0]
        if kind not in out:
            out.append(kind)
    return out


def _ask(state: GameState, kinds: list[str]) -> str:
    pending = state.pending
    step = pending.split(":", 1)[1] if pending.startswith("action:") else None
    if pending == "turn":
        return KIND_QUESTIONS["place"]
    if pending == "feed":
        return "food is missing: which animal do you give?"
    if pending == "discard":
        return "which animal do you return?"
    if pending in ("end_window", "final_window"):
        return "any last actions? (stop: done)"
    if pending == "november":
        return "use a house? (stop: done)"
    doing = [k for k in kinds if k not in ("stop", "more", "pass")]
    if "more" in kinds:
        if step in MORE:
            return f"{MORE[step]} once more? (more / stop)"
        return f"{EXCHANGES.get(step or '', 'go on')}? (more / stop)"
    stop = " (or stop)" if "stop" in kinds else ""
    asked = SPACE_QUESTIONS.get((step or "", frozenset(doing)))
    if asked:
        return asked + stop
    verb = VERBS.get(step or "")
    if verb and doing and all(k in NOUNS for k in doing):  # "which animal do you take?"
        return f"which {' or '.join(NOUNS[k] for k in doing)} do you {verb}?{stop}"
    if len(doing) == 1:
        return KIND_QUESTIONS.get(doing[0], "choose") + stop
    if doing and all(k in NOUNS for k in doing):  # the Grocer: "which good or animal?"
        return f"which {' or '.join(NOUNS[k] for k in doing)}?{stop}"
    if doing and all(k in KIND_QUESTIONS for k in doing):  # the Laborer
        return ", or ".join(KIND_QUESTIONS[k].rstrip("?") for k in doing) + "?" + stop
    return "choose" + stop


def question(state: GameState, players: tuple[str, ...] = ("P0", "P1")) -> str:
    """The pending decision as a question, naming the player (``players`` are the names to
    use): ``P1 - Tanner: turn a hide into leather once more? (more / stop)``."""
    if state.is_terminal():
        return "the game is over"
    player = state.current_player
    assert player is not None  # the game is not over
    who = players[player]
    where = context(state)
    ask = _ask(state, _kinds(state))
    if where == "your turn":
        return f"{'Your' if who == 'You' else who + ', your'} turn: {ask}"
    return f"{who} - {where}: {ask}"


def menu(state: GameState) -> list[Option]:
    """The legal moves, numbered from 1 in id order, each with what it does at once for the
    player to move (cost and immediate gain; empty when the move only opens a decision)."""
    player = state.current_player
    out = []
    for i, a in enumerate(state.legal_actions(), 1):
        copy = state.copy()
        step = effects.apply(copy, a)[0]
        change = step.changes[player] if player is not None else None
        if change is not None and change.is_empty():
            change = None
        effect = "" if change is None else change.text()
        out.append(Option(i, a, action_label(state, a), state.action_to_string(a), effect,
                          change))
    return out
