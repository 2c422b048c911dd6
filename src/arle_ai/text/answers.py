"""A player's answer to the pending decision: the legal action id a text names
(:func:`parse_action`), and the error for one that is not legal now (:func:`illegal_action`,
what :meth:`GameState.apply` raises), in printed names with the question asked and the legal
moves.

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
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from arle_ai.base.errors import IllegalActionError
from arle_ai.engine.rules import NUM_ACTIONS
from arle_ai.text.decisions import question
from arle_ai.text.notation import action_label, find_action, normalise

if TYPE_CHECKING:  # pragma: no cover
    from arle_ai.engine._core import GameState

__all__ = ["parse_action", "illegal_action"]


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
