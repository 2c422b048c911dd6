"""src/arle_ai/engine/_core.pyi declares the compiled engine's interface (for type checkers):
every name it declares exists in arle_ai.engine._core, and every public function and class of
arle_ai.engine._core is
declared there, with each method and property."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from arle_ai.engine import _core

STUB = Path(__file__).resolve().parents[1] / "src" / "arle_ai" / "engine" / "_core.pyi"


def _stub() -> tuple[set[str], dict[str, set[str]]]:
    if not STUB.exists():  # pragma: no cover - tests run from a source tree
        pytest.skip("no source tree")
    tree = ast.parse(STUB.read_text())
    names: set[str] = set()
    classes: dict[str, set[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return names, classes


def test_every_declared_name_exists():
    names, classes = _stub()
    missing = sorted(n for n in names if not hasattr(_core, n))
    assert not missing, f"_core.pyi declares names the engine lacks: {missing}"
    for cls, members in classes.items():
        absent = sorted(m for m in members if not hasattr(getattr(_core, cls), m))
        assert not absent, f"_core.pyi declares {cls} members the engine lacks: {absent}"


def test_every_public_function_and_class_is_declared():
    names, classes = _stub()
    public = {n for n, v in vars(_core).items()
              if not n.startswith("_") and (inspect.isclass(v) or callable(v))
              and getattr(v, "__module__", "arle_ai.engine._core") == "arle_ai.engine._core"}
    undeclared = sorted(public - names)
    assert not undeclared, f"add these to src/arle_ai/engine/_core.pyi: {undeclared}"
    for cls in classes:
        members = {n for n in vars(getattr(_core, cls))
                   if not n.startswith("_") or n in ("__init__",)}
        undeclared = sorted(m for m in members - classes[cls]
                            if m != "__init__" or cls == "GameState")
        assert not undeclared, (f"add these {cls} members to src/arle_ai/engine/_core.pyi: "
                                f"{undeclared}")
