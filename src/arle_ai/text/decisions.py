"""The pending decision in a player's words: what is asked, and each option with its effect.

:func:`question` turns the engine's decision (``state.pending``, e.g. ``action:tanner``) and
the kinds of its legal moves into a question (``Grocer: which good or animal do you take?``);
:func:`menu` lists the legal moves with their printed labels and what each does at once
(its cost and immediate gain, found by playing it on a copy, :mod:`arle_ai.text.effects`). The
terminal (``arle play``) and the browser app both show these.

A conversion the rules allow "up to N times" (the Tanner, the weavers, the Potter, the Baker,
the Bakehouse: actions.md §1.4, "including zero") is one decision after another in the engine,
``more`` or ``stop``; a player thinks of it as one question, how many. :func:`how_many` asks
it so (``how many hides do you turn into leather? (0-3)``), each answer a count with the
engine's moves that make it (:class:`Count`); :func:`question` asks it so too, and
:mod:`arle_ai.text.answers` reads a typed count. Moves already chosen are read back as the
answers they give (:func:`answers`: a run of ``more`` and ``stop`` one answer, its count,
``Tanner: 2 hide into 2 leather``): the search's lines, the turns told, the move list.

>>> import arle_ai
>>> from arle_ai.text import decisions
>>> s = arle_ai.new_game(seed=0)
>>> decisions.question(s)
'P0, your turn: place a worker on an action space, or pass'
>>> [o.effect for o in decisions.menu(s) if o.label == "place Woodcutter"]
['+3 wood']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from arle_ai.engine import rules
from arle_ai.text import effects, names
from arle_ai.text.notation import action_label, action_range

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = ["Answer", "Count", "Option", "PASS_WORDS", "answered", "answers", "counted",
           "first_answer", "how_many", "menu", "question", "context"]

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

# The repeated conversions asked as a count (how_many): "how many ... ? (0-N)".
COUNT_QUESTIONS = {
    "tanner": "how many hides do you turn into leather",
    "wool_weaver": "how much wool do you turn into woolen",
    "linen_weaver": "how much flax do you turn into linen",
    "potter": f"how much clay do you turn into "
              f"{names.amounts(rules.SPACE_EXCHANGES['potter'][1]).replace(', ', ' and ')} "
              f"each",
    "baker": f"how many times do you bake ({MORE['baker']})",
    "bakehouse": f"how many times do you {EXCHANGES['bakehouse']}",
}
NONE = "none"  # the count 0: the action ends having converted nothing

# What a pass does, where it is offered (the turn's menu, arle info pass): core.md 7.3.
PASS_WORDS = ("take your worker off its month space without acting: it does nothing this "
              "half-year (a worker placed on an action space acts at once; 'stop' ends an "
              "action already taken)")
PASS_EFFECT = "the worker does nothing"  # the menu's short form

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
        most = _most(state)
        if step in COUNT_QUESTIONS:
            return f"{COUNT_QUESTIONS[step]}? (0-{most})"
        what = MORE.get(step or "") or EXCHANGES.get(step or "", "go on")
        return f"how many times: {what}? (0-{most})"
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
    use): ``P1 - Tanner: how many hides do you turn into leather? (0-3)``."""
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


@dataclass(frozen=True)
class Count:
    """One answer to a how-many question: ``count`` conversions, made by the engine's moves
    ``actions`` (``more`` that many times, then ``stop`` unless the last ``more`` ended the
    action), with its printed label (``none``, ``2 hide into 2 leather``, ``2 times``) and
    what it does for the player (``effect``, ``change``: None for none)."""

    count: int
    actions: tuple[int, ...]
    label: str
    effect: str
    change: effects.PlayerChange | None = None


_STOP, _MORE = rules.ACTION_LAYOUT["stop"], rules.ACTION_LAYOUT["more"]


def counted(state: GameState) -> bool:
    """Whether the pending decision is a repeated conversion, asked as a count: its moves
    are ``stop`` and ``more``."""
    return not state.is_terminal() and sorted(state.legal_actions()) == sorted((_STOP, _MORE))


def _same_decision(state: GameState, other: GameState) -> bool:
    """Whether ``other`` (``state`` after some ``more``) still asks the decision ``state``
    asks: the same player, action and depth of the decision stack."""
    return (not other.is_terminal() and other.pending == state.pending
            and other.current_player == state.current_player
            and len(other.to_dict()["pending"]) == len(state.to_dict()["pending"]))


def _repeats(state: GameState) -> list[GameState]:
    """The positions after 1, 2, ... ``more`` from ``state`` while one more is possible."""
    out, s = [], state
    while _MORE in s.legal_actions() and (s is state or _same_decision(state, s)):
        s = s.copy()
        s.apply(_MORE)
        out.append(s)
    return out


def _most(state: GameState) -> int:
    return len(_repeats(state))


def _count_label(step: str, n: int) -> str:
    if n == 0:
        return NONE
    if step in rules.SPACE_EXCHANGES:
        (pay, k), gets = rules.SPACE_EXCHANGES[step]
        got = names.amounts([(g, m * n) for g, m in gets]).replace(", ", " and ")
        return f"{names.count(k * n, pay)} into {got}"
    return f"{n} time{'' if n == 1 else 's'}"


def how_many(state: GameState) -> list[Count] | None:
    """The answers to the pending decision asked as a count (0 to the most the player can
    convert now), each with the engine's moves that make it; None when the decision is no
    repeated conversion (:func:`counted`)."""
    if not counted(state):
        return None
    step = state.pending.partition(":")[2]
    player = state.current_player
    assert player is not None  # (not terminal)
    out = [Count(0, (_STOP,), _count_label(step, 0), "")]
    for n, after in enumerate(_repeats(state), 1):
        moves = (_MORE,) * n + ((_STOP,) if _same_decision(state, after) else ())
        change = effects.describe(state, after)[player]
        out.append(Count(n, moves, _count_label(step, n), change.text(), change))
    return out


def answered(state: GameState, actions: Sequence[int]) -> tuple[Count, int] | None:
    """The answer to the how-many question pending in ``state`` that the engine's moves
    ``actions`` (played from ``state``: a principal variation) give, and how many of them it
    takes: ``more`` as many times as they repeat it, and the ``stop`` that ends it when they
    go on to it (a line cut short before its ``stop`` counts the ``more`` it has). None when
    the decision is no repeated conversion (:func:`counted`) or ``actions`` is empty."""
    answers = how_many(state)
    if answers is None or not actions:
        return None
    n = 0
    while n + 1 < len(answers) and n < len(actions) and actions[n] == _MORE:
        n += 1
    count = answers[n]
    whole = tuple(actions[:len(count.actions)]) == count.actions
    return count, len(count.actions) if whole else n


@dataclass(frozen=True)
class Answer:
    """One answer a player gives, as the game asks for it: one of the engine's moves, or at
    a how-many question its count, the run of ``more`` and ``stop`` that makes it
    (``count``, None for a single move; ``finished`` False while the run stops short of
    the count's end: a line cut short, a count being played). ``label`` is what a player
    reads: the move's printed label, or the count's answer with what it belongs to,
    ``Tanner: 2 hide into 2 leather`` (``Tanner: none`` for 0), as the question lists it;
    ``where`` is what the decision belongs to (:func:`context`: ``Tanner``)."""

    player: int
    actions: tuple[int, ...]
    label: str
    where: str
    count: Count | None = None
    finished: bool = True


def first_answer(state: GameState, actions: Sequence[int]) -> Answer:
    """The answer the engine's moves ``actions`` (played from ``state``, at least one) begin
    with: the first move, or at a how-many question the count their run of ``more`` and
    ``stop`` makes (:func:`answered`); only the moves it takes are read. ValueError for a
    finished game or no move."""
    player = state.current_player
    if player is None or not actions:
        raise ValueError("no move answers anything: the game is over, or no move was given")
    where = context(state)
    found = answered(state, actions)
    if found is not None and found[1]:
        count, used = found
        return Answer(player, tuple(actions[:used]), f"{where}: {count.label}", where, count,
                      used == len(count.actions))
    return Answer(player, (actions[0],), action_label(state, actions[0]), where)


def answers(state: GameState, actions: Sequence[int]) -> list[Answer]:
    """The engine's moves ``actions``, played one after another from ``state`` (left
    unchanged), as the answers a player gives (:class:`Answer`): each move one answer, but a
    run of ``more`` and ``stop`` at a how-many question one, its count
    (:func:`first_answer`). The one reading of moves as answers: a line of the search, a
    turn told, the moves of a game. IllegalActionError (a ValueError) when a move is not
    legal where it comes."""
    s = state.copy()
    out = []
    i = 0
    while i < len(actions):
        answer = first_answer(s, actions[i:])
        for a in answer.actions:
            s.apply(a)
        out.append(answer)
        i += len(answer.actions)
    return out


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
        if a == rules.ACTION_LAYOUT["pass"] and not effect:
            effect = PASS_EFFECT
        out.append(Option(i, a, action_label(state, a), state.action_to_string(a), effect,
                          change))
    return out
