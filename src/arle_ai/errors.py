"""Exceptions of the public API."""

from __future__ import annotations

__all__ = ["IllegalActionError", "PositionError"]


class IllegalActionError(ValueError):
    """An action that is not legal in the pending decision; the state is left unchanged."""


class PositionError(ValueError):
    """A position (JSON or dict) that is malformed or impossible; the message names the field."""
