"""Reading JSON text from users: every way it can be malformed becomes one error naming it.

``json.loads`` alone fails in ways that are not JSONDecodeError: RecursionError on deeply
nested brackets, ValueError on an integer literal of more than 4300 digits. Position files,
game records and results files all go through :func:`parse_json` so that each of these is a
PositionError (or the subclass the caller asks for) with a one-line message.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from arle_ai.base.errors import PositionError

__all__ = ["BOM", "parse_json", "shown"]

BOM = "\ufeff"  # a UTF-8 byte order mark some editors put at the start of a file
# Nesting that any file or request of ours could have (a position is about 5 levels deep, a
# record or a web request holding one 7): deeper values are refused, because what reads them
# next (copy.deepcopy, repr, the checks) recurses and hit Python's limit at ~500 levels.
MAX_DEPTH = 100


def parse_json(text: str | bytes, error: type[ValueError] = PositionError) -> Any:
    """The value of the JSON ``text`` (a leading byte order mark is ignored); ``error``
    (default PositionError) naming the problem when it is not valid JSON."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise error(f"expected JSON text, got {type(text).__name__}")
    if text.startswith(BOM):
        text = text[len(BOM):]
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"malformed JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
                    ) from None
    except RecursionError:
        raise error("malformed JSON: nested too deeply") from None
    except ValueError:  # an integer literal beyond Python's digit limit
        raise error(f"malformed JSON: an integer literal of more than "
                    f"{sys.get_int_max_str_digits()} digits") from None
    if _deeper_than(value, MAX_DEPTH):
        raise error(f"malformed JSON: nested more than {MAX_DEPTH} levels deep")
    return value


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether arrays and objects nest more than ``limit`` levels in ``value`` (iterative)."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, dict):
            children: Any = v.values()
        elif isinstance(v, list):
            children = v
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to ``limit`` characters: it stays one readable line
    whatever a user sent, and never raises (an int past the digit limit or a deeply nested
    value is named by its type)."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "..."
