"""Exceptions of the public API."""

from __future__ import annotations

__all__ = ["IllegalActionError", "PositionError"]


class IllegalActionError(ValueError):
    """An action that is not legal in the pending decision; the state is left unchanged.
    ``reason`` is the message's first part alone (what was typed and why it is no move now,
    for a terminal that shows the legal moves already); by default the whole message."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = message if reason is None else reason


class PositionError(ValueError):
    """A position (JSON or dict) that is malformed or impossible; the message names the field."""
