"""A player's answer to the pending decision: the legal action id a text names
(:func:`parse_action`), what a person types at a menu (:func:`parse_choice`: a menu number,
the move, a space's name alone, an option without its first word), the engine's moves a
person's answer makes (:func:`parse_answer`: at a how-many question, a count is several
``more`` and a ``stop``; :func:`count_actions`), and the error for one that
is not legal now (:func:`illegal_action`, what :meth:`GameState.apply` raises), in printed
names with the question asked and the legal moves.

It builds on :mod:`arle_ai.text.notation` (the texts of ids) and :mod:`arle_ai.text.decisions`
(the question); the public face installs both functions into the core
(``GameState.parse_action``, apply's error: docs/architecture.md, the core seam).

>>> import arle_ai
>>> from arle_ai.text.answers import parse_action
>>> s = arle_ai.new_game(seed=0)
>>> s.action_to_string(parse_action(s, "Place  Fisherman"))
'place fisherman'
>>> parse_action(s, "place mill")
Traceback (most recent call last):
...
arle_ai.base.errors.IllegalActionError: cannot play 'place mill': not an action text ...
>>> parse_choice(s, "2") == parse_choice(s, "fisherman") == parse_action(s, "place fisherman")
True
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from arle_ai.base.errors import IllegalActionError
from arle_ai.engine.rules import NUM_ACTIONS
from arle_ai.text import names
from arle_ai.text.decisions import how_many, menu, question
from arle_ai.text.notation import action_label, find_action, normalise

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine import GameState

__all__ = ["count_actions", "illegal_action", "parse_action", "parse_answer", "parse_choice"]

MENU_NUMBER = re.compile(r"[+-]?[0-9]+")  # ASCII digits: int() also takes '٣', isdigit '²'
PLACE = "place "


def _failure(state: GameState, text: object, legal: list[int], why: str) -> IllegalActionError:
    """The error for ``text``: the reason, the pending decision as the question a player is
    asked and up to 10 legal moves, all with printed names (a person reads it; the keys
    are accepted as input all the same)."""
    shown = [action_label(state, a) for a in legal[:10]]
    more = f" (and {len(legal) - 10} more)" if len(legal) > 10 else ""
    alts = ", ".join(repr(t) for t in shown) if shown else "none"
    try:
        said = repr(text)
    except ValueError:  # an int past Python's digit limit
        said = "that number"
    said = said if len(said) <= 60 else said[:60] + "..."
    reason = f"cannot play {said}: {why}"
    return IllegalActionError(f"{reason} (decision: {question(state)}); legal: {alts}{more}",
                              reason=reason)


def parse_action(state: GameState, text: str | int) -> int:
    """The legal action id named by `text` (its notation, any case and spacing, or an integer
    id). IllegalActionError names the text, the pending decision and legal alternatives."""
    legal = state.legal_actions()
    if isinstance(text, int) and not isinstance(text, bool):
        a = text
    elif isinstance(text, str):
        t = normalise(text)
        if re.fullmatch(r"[+-]?[0-9]+", t):  # ASCII digits (\d and int() take others)
            if len(t.lstrip("+-").lstrip("0")) > len(str(NUM_ACTIONS)):
                raise _failure(state, text, legal, f"not an action id (0..{NUM_ACTIONS - 1})")
            a = int(t)
        else:
            found = find_action(state, t, legal)
            if found is not None:
                return found
            other = find_action(state, t, range(NUM_ACTIONS))
            if other is None:
                raise _failure(state, text, legal, "not an action text")
            raise _failure(state, text, legal,
                           f"{action_label(state, other)!r} is not legal now")
    else:
        raise _failure(state, text, legal, "expected a string or an integer id")
    if a in legal:
        return a
    if not 0 <= a < NUM_ACTIONS:
        raise _failure(state, text, legal, f"{a} is not an action id (0..{NUM_ACTIONS - 1})")
    raise _failure(state, text, legal, f"action {a} ({action_label(state, a)!r}) is not legal now")


def illegal_action(state: GameState, a: object) -> IllegalActionError:
    """The error :meth:`GameState.apply` raises for `a` (an action id that is not legal now, or
    no action id): like :func:`parse_action`'s, with printed names, the decision and the legal
    moves."""
    legal = state.legal_actions()
    if isinstance(a, bool) or not isinstance(a, int):
        return _failure(state, a, legal, "not an action id (an integer)")
    if not 0 <= a < NUM_ACTIONS:
        return _failure(state, a, legal, f"{a} is not an action id (0..{NUM_ACTIONS - 1})")
    return _failure(state, a, legal, f"action {a} ({action_label(state, a)!r}) is not legal now")


def parse_choice(state: GameState, text: str) -> int:
    """The legal action a person means by ``text`` at the menu of the pending decision
    (:func:`arle_ai.text.decisions.menu`): its number (1..n, ASCII digits), the move in
    notation or with printed names (:func:`parse_action`), a space's name alone when placing a
    worker (``Fisherman``), or an option less its first word (``timber`` for ``good timber``).
    IllegalActionError names what is wrong: a number off the menu, a space that holds a
    worker (``the Fisherman is taken (P0's worker is on it)``), or parse_action's reason."""
    legal = state.legal_actions()
    t = text.strip()
    if MENU_NUMBER.fullmatch(t):
        digits = t.lstrip("+-").lstrip("0")
        if len(digits) <= len(str(len(legal))) and 1 <= int(t) <= len(legal):
            return legal[int(t) - 1]
        shown = t if len(t) <= 12 else t[:12] + "..."
        raise IllegalActionError(f"there is no move {shown}")
    try:
        return parse_action(state, t)
    except IllegalActionError:
        if state.pending != "turn":
            named = _option_without_verb(state, t)
            if named is not None:
                return named
            raise
        if not t.lower().startswith(PLACE):
            try:  # a space name alone, as the turn menu shows it
                return parse_action(state, PLACE + t)
            except IllegalActionError:
                pass
        taken = _taken_space(state, t)
        if taken:
            raise IllegalActionError(taken) from None
        raise


def _option_without_verb(state: GameState, text: str) -> int | None:
    """The one option of the decision's menu whose label, less its first word, is ``text``
    (``timber`` for ``good timber``, ``sheep`` for ``animal sheep``; any case); None when
    none or several are."""
    want = " ".join(text.split()).casefold()
    hits = [o.action for o in menu(state) if o.label.partition(" ")[2].casefold() == want]
    return hits[0] if len(hits) == 1 else None


def _taken_space(state: GameState, text: str) -> str:
    """Why ``text`` (a space name, ``place`` optional) cannot be played when it names a space
    that holds a worker: ``'the Fisherman is taken (P1's worker is on it)'``; else ``''``."""
    name = text[len(PLACE):] if text.lower().startswith(PLACE) else text
    occupied = state.to_dict()["occupied"]
    for _, key in names.matches(name, ("space",)):
        if key in occupied:
            whose = "your" if state.players == 1 else f"P{occupied[key]}'s"
            return (f"the {names.space(key, qualified=True)} is taken "
                    f"({whose} worker is on it)")
    return ""


def count_actions(state: GameState, count: object) -> tuple[int, ...]:
    """The engine's moves that answer the pending how-many question with ``count``
    (:func:`arle_ai.text.decisions.how_many`: ``more`` that many times, then ``stop``).
    IllegalActionError when no such question is pending or ``count`` is not one of its
    answers (0 to the most the player can convert)."""
    return _count_actions(state, count, count)


def _count_actions(state: GameState, count: object, said: object) -> tuple[int, ...]:
    answers = how_many(state)
    if answers is None:
        raise IllegalActionError(f"no count is asked here (decision: {question(state)})")
    most = len(answers) - 1
    if isinstance(count, bool) or not isinstance(count, int):
        raise IllegalActionError(f"a count is a whole number 0-{most}, not "
                                 f"{type(count).__name__} ({question(state)})")
    if not 0 <= count <= most:
        if isinstance(said, int):  # (str() of an int past 4300 digits refuses)
            said = str(said) if abs(said) < 10**12 else "that number"
        shown = str(said) if len(str(said)) <= 12 else str(said)[:12] + "..."
        raise IllegalActionError(f"{shown} is not an answer to {question(state)!r}: give a "
                                 f"whole number 0-{most}")
    return answers[count].actions


def parse_answer(state: GameState, text: str) -> tuple[int, ...]:
    """The engine's moves a person means by ``text`` at the pending decision: at a how-many
    question a count (``0``-``N``, ASCII digits, or ``none``) makes its moves
    (:func:`count_actions`); anything else is one move (:func:`parse_choice`: ``more`` and
    ``stop`` still name one of the engine's own). IllegalActionError names what is wrong."""
    t = text.strip()
    if how_many(state) is not None:
        if t.casefold() == "none":
            return count_actions(state, 0)
        if MENU_NUMBER.fullmatch(t):
            small = len(t.lstrip("+-").lstrip("0")) <= 3  # int() of 5000 digits refuses
            return _count_actions(state, int(t) if small else -1, t)
    return (parse_choice(state, t),)
