"""Loading positions and game records from files or text, with errors that name the problem."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arle_ai import _core
from arle_ai.errors import PositionError
from arle_ai.files import read_text
from arle_ai.jsontext import BOM, parse_json
from arle_ai.names import keys_for_names
from arle_ai.records import GameRecord, RecordError, load_record

__all__ = ["load_position", "load_record", "GameRecord", "RecordError"]


def load_position(source: str | Path | dict[str, Any]) -> _core.GameState:
    """A position from a dict, a JSON text or a JSON file (docs/position-format.md).

    Printed names are accepted where keys are (:func:`arle_ai.names.keys_for_names`).
    Raises PositionError naming the file, the JSON error or the impossible field.
    """
    if isinstance(source, dict):
        return _core.GameState.from_dict(keys_for_names(source))
    if isinstance(source, Path) or not source.lstrip(BOM + " \t\r\n").startswith("{"):
        text = read_text(Path(source), PositionError, "position file")
    else:
        text = source
    return _core.GameState.from_dict(keys_for_names(parse_json(text)))
