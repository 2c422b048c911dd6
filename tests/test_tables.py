"""The engine's enums are generated from rules.py (src/arle_ai/engine/_gen_tables.py ->
_tables.pxi):
the file in the tree is what the generator makes of the current rules.py, and the compiled
engine was built from the same names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import arle_ai
from arle_ai.engine import _core, _gen_tables, rules
from arle_ai.text import notation

SRC = Path(__file__).resolve().parents[1] / "src" / "arle_ai" / "engine"


def test_generated_tables_are_not_stale():
    path = SRC / "_tables.pxi"
    if not path.exists():  # pragma: no cover - tests run from a source tree
        pytest.skip("no source tree")
    assert path.read_text() == _gen_tables.render(rules), (
        "src/arle_ai/engine/_tables.pxi is stale: run `python src/arle_ai/engine/_gen_tables.py` "
        "and rebuild the extension")


def test_the_engine_was_built_from_these_names():
    assert _core.TABLES_DIGEST == _gen_tables.names_digest(rules)


def test_a_rules_copy_with_other_names_is_refused():
    import types

    copy = types.ModuleType("other_rules")
    copy.__dict__.update(vars(rules))
    copy.FLIP_TARGETS = rules.FLIP_TARGETS[:-1]
    with pytest.raises(ImportError, match="rebuild"):
        _core._reload_tables(copy)
    assert arle_ai.random_playout(arle_ai.new_game(1), seed=2)  # the real tables are back


def test_one_action_layout():
    """The API, notation and the generated enums serve the same layout from rules.py."""
    assert arle_ai.ACTION_LAYOUT is rules.ACTION_LAYOUT
    assert notation.NUM_ACTIONS == rules.NUM_ACTIONS == _core.NUM_ACTIONS_PY
    text = (SRC / "_tables.pxi").read_text() if (SRC / "_tables.pxi").exists() else ""
    for name, start in rules.ACTION_LAYOUT.items():
        if name in ("num_actions", "max_vehicles") or not text:
            continue
        assert re.search(rf"^    ACT_{name.upper()} = {start}$", text, re.M), name


def test_layout_ranges_cover_every_id_once():
    starts = [rules.ACTION_LAYOUT[name] for name, _ in rules.ACTION_RANGES]
    sizes = [size for _, size in rules.ACTION_RANGES]
    assert starts[0] == 0
    assert all(a + n == b for a, n, b in zip(starts, sizes, starts[1:], strict=False))
    assert starts[-1] + sizes[-1] == rules.NUM_ACTIONS


def test_delivery_choices_follow_the_destinations():
    for dest, choices in zip(rules.DESTINATIONS, rules.DELIVERY_CHOICES, strict=True):
        assert {c.delivery for c in choices} == set(range(len(dest.deliveries)))
        for c in choices:
            assert c.food == dest.deliveries[c.delivery].food
    hage = rules.DELIVERY_CHOICES[0]
    assert [c.key for c in hage] == ["grain_field", "flax_field"]
