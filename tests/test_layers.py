"""Imports only go down the layers (docs/architecture.md), and no two modules import each other.

The checker reads the source, not the running program: every ``import`` and ``from ... import``
of a module of the project counts, at the top of a file, inside a function (a lazy import
cannot hide a cycle) or under ``if TYPE_CHECKING``; so do ``importlib.import_module("...")``
calls with a literal name and the Python imports of the compiled core (``_core.pyx`` and the
``.pxi`` sections it includes, read as text). It fails on

- an import of a module in a higher layer (``upward``),
- an import between two packages of the same rank that ``ALLOWED_SIDEWAYS`` does not list,
- a cycle between modules (within a package too),
- an import of a private module (``_core``: a name starting with ``_``) from outside the
  package that holds it (the engine's core is reached through its face, ``arle_ai.engine``),
- a module of ``arle_ai`` outside every layer, or an import of a module that does not exist.

The tests at the end run the checker on small fake trees, so that each rule is seen to fail.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import arle_ai
from arle_ai.engine import _core
from arle_ai.formats import position
from arle_ai.text import answers, notation

SRC = Path(__file__).resolve().parents[1] / "src"
ROOTS = ("arle_ai", "arle_cli")
FACE = "arle_ai"  # the package's own __init__.py: a layer of one module

# Lowest first. A package may import its own modules and those of lower ranks; packages of one
# rank do not import each other (the adapters, learning and the web app are independent uses
# of the layers below: each is an optional extra or can be left out without touching the
# others). ``arle_ai`` is the public face (arle_ai/__init__.py): it re-exports the layers and
# installs the text and the position checks into the core; no layer imports it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("arle_ai.base",),
    ("arle_ai.engine",),
    ("arle_ai.text",),
    ("arle_ai.formats",),
    ("arle_ai.search",),
    ("arle_ai.play",),
    ("arle_ai.adapters", "arle_ai.learn", "arle_ai.web"),
    ("arle_ai",),
    ("arle_cli",),
)

# Imports between packages of the same rank that are allowed: none today.
ALLOWED_SIDEWAYS: frozenset[tuple[str, str]] = frozenset()


@dataclass(frozen=True)
class Import:
    """One import in the source: who imports what, and where it is written."""

    importer: str
    imported: str
    where: str  # path:line

    def __str__(self) -> str:
        return f"{self.where}: {self.importer} imports {self.imported}"


# ---- reading the source ----


def modules(src: Path, roots: Iterable[str] = ROOTS) -> dict[str, list[Path]]:
    """The project's modules by dotted name, each with its source files (a compiled module
    has its .pyx, the .pxi sections it includes and its .pyi stub)."""
    found: dict[str, list[Path]] = {}
    for root in roots:
        for path in sorted((src / root).rglob("*")):
            if path.suffix not in (".py", ".pyi", ".pyx") or "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(src).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            found.setdefault(name, []).append(path)
            if path.suffix == ".pyx":
                found[name].extend(_included(path))
    return found


def _included(pyx: Path) -> list[Path]:
    """The files a Cython file includes, recursively (in the order they are met)."""
    out: list[Path] = []
    todo = [pyx]
    while todo:
        text = todo.pop().read_text()
        for m in re.finditer(r'^[ \t]*include[ \t]+"([^"]+)"', text, re.MULTILINE):
            path = pyx.parent / m.group(1)
            if path not in out:
                out.append(path)
                todo.append(path)
    return out


def _resolve(name: str, known: dict[str, list[Path]]) -> str:
    """``pkg.thing``: the module itself when it is one, else the package that holds the
    name."""
    return name if name in known or "." not in name else name.rsplit(".", 1)[0]


def _absolute(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The dotted name a relative import (``from ..x import y``) means."""
    base = module.split(".")
    if not is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _python_imports(module: str, path: Path, shown: str, known: dict[str, list[Path]]
                    ) -> Iterator[Import]:
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.stem == "__init__"
    for node in ast.walk(tree):
        where = f"{shown}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(module, alias.name, where)
        elif isinstance(node, ast.ImportFrom):
            source = (_absolute(module, is_package, node.level, node.module) if node.level
                      else node.module or "")
            for alias in node.names:
                yield Import(module, _resolve(f"{source}.{alias.name}", known), where)
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and (isinstance(node.func, ast.Attribute) and node.func.attr == "import_module"
                   or isinstance(node.func, ast.Name)
                   and node.func.id in ("import_module", "__import__"))):
            yield Import(module, node.args[0].value, where)


# A Python statement in Cython source: ``import a.b as c, d``, ``from x import y`` (names in
# parentheses may span lines) or ``cimport``, at the start of a line and not inside a string.
CYTHON_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<source>[.\w]+)[ \t]+c?import[ \t]+(?P<names>\([^)]*\)|[^\n]*)"
    r"|c?import[ \t]+(?P<modules>[^\n]*))", re.MULTILINE)


def _string_spans(text: str) -> list[tuple[int, int]]:
    """Where the string literals of ``text`` lie (offsets), so that prose in a docstring is
    not read as an import; Cython's tokens are Python's as far as strings go."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.STRING:
            spans.append((starts[tok.start[0] - 1] + tok.start[1],
                          starts[tok.end[0] - 1] + tok.end[1]))
    return spans


def _cython_imports(module: str, path: Path, shown: str, known: dict[str, list[Path]]
                    ) -> Iterator[Import]:
    text = path.read_text()
    strings = _string_spans(text)
    for m in CYTHON_IMPORT.finditer(text):
        if any(lo <= m.start() < hi for lo, hi in strings):
            continue
        where = f"{shown}:{text.count(chr(10), 0, m.start()) + 1}"
        if m.group("modules") is not None:
            for part in m.group("modules").split("#")[0].split(","):
                if part.strip():
                    yield Import(module, part.split()[0], where)
            continue
        names = m.group("names").split("#")[0].strip("() \t\n")
        for part in re.split(r"[,\n]", names):
            name = part.split("#")[0].split()
            if name:
                yield Import(module, _resolve(f"{m.group('source')}.{name[0]}", known), where)


def project_imports(src: Path, roots: Iterable[str] = ROOTS) -> tuple[
        dict[str, list[Path]], list[Import]]:
    """The project's modules and every import of one of them by another."""
    roots = tuple(roots)
    known = modules(src, roots)
    found: list[Import] = []
    for module, paths in known.items():
        for path in paths:
            read = _python_imports if path.suffix in (".py", ".pyi") else _cython_imports
            for imp in read(module, path, path.relative_to(src).as_posix(), known):
                if (imp.imported.split(".")[0] in roots and imp.imported != module
                        and imp not in found):  # "from x import a, b": one import of x
                    found.append(imp)
    return known, found


# ---- the rules ----


def layer_of(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS
             ) -> tuple[int, str] | None:
    """The rank and package of ``module`` (the longest package that holds it), or None."""
    best: tuple[int, str] | None = None
    for rank, packages in enumerate(layers):
        for package in packages:
            holds = module == package or (module.startswith(package + ".") and package != FACE)
            if holds and (best is None or len(package) > len(best[1])):
                best = (rank, package)
    return best


def cycles(edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The groups of modules that import each other, directly or around a loop (Tarjan's
    strongly connected components of more than one module), each sorted."""
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def private_to(module: str) -> str | None:
    """The package a private module (its own name starts with ``_``, as the engine's
    ``_core``) belongs to, or None for a public module."""
    head, _, name = module.rpartition(".")
    return head if name.startswith("_") and head else None


def violations(src: Path = SRC, roots: Iterable[str] = ROOTS,
               layers: tuple[tuple[str, ...], ...] = LAYERS,
               allowed_sideways: frozenset[tuple[str, str]] = ALLOWED_SIDEWAYS) -> list[str]:
    """Every breach of the rules in the tree at ``src``, one line each (empty: all is well)."""
    known, imports = project_imports(src, roots)
    out: list[str] = []
    for module in sorted(known):
        if layer_of(module, layers) is None:
            out.append(f"{module} is in no layer (a module of arle_ai belongs in a layer "
                       "package)")
    for imp in imports:
        if imp.imported not in known:
            out.append(f"{imp}, which does not exist")
            continue
        low, high = layer_of(imp.importer, layers), layer_of(imp.imported, layers)
        if low is None or high is None:
            continue
        if high[0] > low[0]:
            out.append(f"{imp}: upward ({high[1]} is above {low[1]})")
        elif high[0] == low[0] and high[1] != low[1] and (low[1], high[1]) not in allowed_sideways:
            out.append(f"{imp}: sideways ({low[1]} and {high[1]} are of one rank)")
        elif (owner := private_to(imp.imported)) and not (
                imp.importer == owner or imp.importer.startswith(owner + ".")):
            out.append(f"{imp}: private (to {owner}, whose face the others import)")
    for group in cycles((i.importer, i.imported) for i in imports if i.imported in known):
        lines = sorted(str(i) for i in imports if i.importer in group and i.imported in group)
        out.append(f"import cycle between {', '.join(group)}: " + "; ".join(lines))
    return out


# ---- the project ----


def test_imports_only_go_down_and_form_no_cycle():
    found = violations()
    assert not found, "\n".join(found)


def test_every_package_of_the_source_is_in_a_layer():
    packages = {f"arle_ai.{p.name}" for p in (SRC / "arle_ai").iterdir()
                if (p / "__init__.py").exists()}
    layered = {p for rank in LAYERS for p in rank} - set(ROOTS)
    assert packages == layered


def test_the_front_ends_share_the_interactive_layer():
    """The terminal and the browser each hold their games in play.session, enter positions
    through formats.entry and read the selfplay results with play.results: one model of each,
    none written twice (docs/architecture.md, Where things go)."""
    _, imports = project_imports(SRC)
    edges = {(i.importer.split(".")[0] if i.importer.startswith("arle_cli") else
              i.importer.rsplit(".", 1)[0], i.imported) for i in imports}
    for shared in ("arle_ai.play.session", "arle_ai.formats.entry", "arle_ai.play.results"):
        assert ("arle_cli", shared) in edges and ("arle_ai.web", shared) in edges, shared


def test_the_core_is_read():
    """The compiled core's sources are read: the checker sees its imports of the layer below."""
    known, imports = project_imports(SRC)
    assert any(p.name == "_api.pxi" for p in known["arle_ai.engine._core"])
    assert any(i.importer == "arle_ai.engine._core" and i.imported == "arle_ai.base.errors"
               for i in imports)


# ---- the core seam: what the core calls but does not import ----


def test_the_public_face_installs_the_text_and_the_position_checks():
    assert _core._installed("action_to_string") is notation.action_to_string
    assert _core._installed("parse_action") is answers.parse_action
    assert _core._installed("illegal_action") is answers.illegal_action
    assert _core._installed("check_position") is position.check_position


def test_before_installation_the_core_says_what_is_missing(monkeypatch):
    s = arle_ai.new_game(seed=0)
    d = s.to_dict()
    monkeypatch.setattr(_core, "_INSTALLED", {})
    with pytest.raises(RuntimeError, match=r"no action_to_string is installed \(import arle_ai, "
                                           r"whose __init__ calls _core.install_text\)"):
        s.action_to_string(2)
    with pytest.raises(RuntimeError, match="no parse_action is installed"):
        s.parse_action("pass")
    with pytest.raises(RuntimeError, match="no check_position is installed .*"
                                           "_core.install_position_checker"):
        arle_ai.GameState.from_dict(d)
    # apply() still refuses an illegal action with an IllegalActionError, in plain words
    with pytest.raises(arle_ai.IllegalActionError,
                       match=r"^illegal action 999 \(not an action id\) in decision 'turn'"):
        s.apply(999)
    assert s.to_dict() == d


def test_installing_something_that_cannot_be_called_is_refused():
    with pytest.raises(TypeError, match="install_text: illegal_action must be callable, not 3"):
        _core.install_text(action_to_string=str, parse_action=answers.parse_action,
                           illegal_action=3)
    assert _core._installed("action_to_string") is not str  # nothing was installed
    with pytest.raises(TypeError, match="install_position_checker: check_position must be"):
        _core.install_position_checker(None)


# ---- the checker on fake trees ----

FAKE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("arle_ai.base",), ("arle_ai.engine",), ("arle_ai.text",), ("arle_ai.play",),
    ("arle_ai.learn", "arle_ai.web"), ("arle_ai",), ("arle_cli",))

# A small tree that keeps the rules, with one import of each form the checker reads. The engine
# has a face (its __init__) over its private core, which only the engine's modules import.
FAKE_TREE = {
    "arle_ai/__init__.py": "from arle_ai.engine import GameState\nfrom arle_ai.text import words\n",
    "arle_ai/base/__init__.py": "",
    "arle_ai/base/errors.py": "class PositionError(ValueError): ...\n",
    "arle_ai/engine/__init__.py": "from arle_ai.engine._core import GameState\n",
    "arle_ai/engine/testing.py": "from arle_ai.engine import _core\n",
    "arle_ai/engine/_core.pyx": 'include "_api.pxi"\n',
    "arle_ai/engine/_api.pxi": (
        "# the core's Python face\n"
        "cimport numpy as cnp\n"
        "import json as _json\n"
        "from arle_ai.base.errors import (\n"
        "    PositionError,\n"
        ")\n"
        "def f():\n"
        '    """Prose is not read:\n'
        '    from arle_ai.text import words"""\n'),
    "arle_ai/text/__init__.py": "",
    "arle_ai/text/words.py": "from arle_ai.engine import GameState\n",
    "arle_ai/text/menu.py": "from . import words\n",
    "arle_ai/text/names.py": "",
    "arle_ai/play/__init__.py": "",
    "arle_ai/play/session.py": "from arle_ai import engine\nfrom arle_ai.text import menu\n",
    "arle_ai/learn/__init__.py": "",
    "arle_ai/learn/train.py": "import arle_ai.text.menu\n",
    "arle_ai/learn/datagen.py": "",
    "arle_ai/web/__init__.py": "",
    "arle_ai/web/app.py": "from arle_ai.text.words import x\nfrom arle_ai.play import session\n",
    "arle_cli/__init__.py": "",
    "arle_cli/main.py": ("import importlib\nimport arle_ai\n"
                         "importlib.import_module('arle_cli.cmd')\n"),
    "arle_cli/cmd.py": "from arle_ai.web import app\n",
    "arle_cli/play.py": "from arle_ai.play.session import Session\n",
}


def _tree(tmp_path: Path, changes: dict[str, str]) -> Path:
    for name, text in {**FAKE_TREE, **changes}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def _check(tmp_path: Path, changes: dict[str, str]) -> list[str]:
    return violations(_tree(tmp_path, changes), layers=FAKE_LAYERS)


def test_a_tree_that_keeps_the_rules_passes(tmp_path):
    assert _check(tmp_path, {}) == []
    _, imports = project_imports(tmp_path)
    edges = {(i.importer, i.imported) for i in imports}
    assert ("arle_ai.engine._core", "arle_ai.base.errors") in edges  # parenthesised, in a .pxi
    assert ("arle_ai.text.menu", "arle_ai.text.words") in edges  # relative
    assert ("arle_cli.main", "arle_cli.cmd") in edges  # importlib with a literal name
    assert ("arle_ai.engine._core", "arle_ai.text.words") not in edges  # prose in a docstring
    assert ("arle_ai.text.words", "arle_ai.engine") in edges  # a name of the engine's face
    assert ("arle_ai.play.session", "arle_ai.engine") in edges  # the face by its package


def test_an_upward_import_fails(tmp_path):
    found = _check(tmp_path, {"arle_ai/engine/rules.py": "from arle_ai.text import words\n"})
    assert found == ["arle_ai/engine/rules.py:1: arle_ai.engine.rules imports arle_ai.text.words:"
                     " upward (arle_ai.text is above arle_ai.engine)"]


def test_an_upward_import_inside_a_function_fails(tmp_path):
    found = _check(tmp_path, {"arle_ai/base/files.py": (
        "def read():\n    from arle_ai.engine._core import GameState\n    return GameState\n")})
    assert found == ["arle_ai/base/files.py:2: arle_ai.base.files imports arle_ai.engine._core:"
                     " upward (arle_ai.engine is above arle_ai.base)"]


def test_an_upward_import_under_type_checking_fails(tmp_path):
    found = _check(tmp_path, {"arle_ai/text/words.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import arle_ai.learn.datagen\n")})
    assert found == ["arle_ai/text/words.py:3: arle_ai.text.words imports arle_ai.learn.datagen:"
                     " upward (arle_ai.learn is above arle_ai.text)"]


def test_an_upward_import_in_the_core_sources_fails(tmp_path):
    api = FAKE_TREE["arle_ai/engine/_api.pxi"] + (
        "def _illegal(self, a):\n"
        "    try:\n"
        "        from arle_ai.text.names import illegal_action\n"
        "    except Exception:\n"
        "        pass\n")
    found = _check(tmp_path, {"arle_ai/engine/_api.pxi": api})
    assert found == ["arle_ai/engine/_api.pxi:12: arle_ai.engine._core imports "
                     "arle_ai.text.names: upward (arle_ai.text is above arle_ai.engine)"]
    found = _check(tmp_path, {"arle_ai/engine/_api.pxi": "import sys, arle_ai.text.names as n\n"})
    assert found == ["arle_ai/engine/_api.pxi:1: arle_ai.engine._core imports "
                     "arle_ai.text.names: upward (arle_ai.text is above arle_ai.engine)"]


def test_a_library_module_importing_the_public_face_fails(tmp_path):
    found = _check(tmp_path, {"arle_ai/text/menu.py": "import arle_ai\n"})
    assert found == ["arle_ai/text/menu.py:1: arle_ai.text.menu imports arle_ai: upward "
                     "(arle_ai is above arle_ai.text)"]


def test_an_upward_import_from_the_game_in_progress_fails(tmp_path):
    """The game in progress (play/session.py) serves both front ends: it imports neither."""
    session = FAKE_TREE["arle_ai/play/session.py"]
    found = _check(tmp_path, {"arle_ai/play/session.py": session + "from arle_ai.web import app\n"})
    assert found == [  # the page's app uses the session: a cycle too
        "arle_ai/play/session.py:3: arle_ai.play.session imports arle_ai.web.app: upward "
        "(arle_ai.web is above arle_ai.play)",
        "import cycle between arle_ai.play.session, arle_ai.web.app: arle_ai/play/session.py:3: "
        "arle_ai.play.session imports arle_ai.web.app; arle_ai/web/app.py:2: arle_ai.web.app "
        "imports arle_ai.play.session"]
    found = _check(tmp_path, {"arle_ai/play/session.py": session + (
        "from arle_ai.learn.train import fit\n")})
    assert found == ["arle_ai/play/session.py:3: arle_ai.play.session imports "
                     "arle_ai.learn.train: upward (arle_ai.learn is above arle_ai.play)"]
    found = _check(tmp_path, {"arle_ai/play/session.py": session + (
        "def ask():\n    import arle_cli.play\n    return arle_cli.play\n")})
    assert found == [
        "arle_ai/play/session.py:4: arle_ai.play.session imports arle_cli.play: upward "
        "(arle_cli is above arle_ai.play)",
        "import cycle between arle_ai.play.session, arle_cli.play: arle_ai/play/session.py:4: "
        "arle_ai.play.session imports arle_cli.play; arle_cli/play.py:1: arle_cli.play imports "
        "arle_ai.play.session"]


def test_an_import_of_the_private_core_from_outside_the_engine_fails(tmp_path):
    """Only the engine's own modules import its core; every other module uses the face."""
    found = _check(tmp_path, {"arle_ai/text/words.py": "from arle_ai.engine import _core\n"})
    assert found == ["arle_ai/text/words.py:1: arle_ai.text.words imports arle_ai.engine._core: "
                     "private (to arle_ai.engine, whose face the others import)"]
    found = _check(tmp_path, {
        "arle_ai/play/session.py": "def start():\n    from arle_ai.engine._core import new_game\n",
        "arle_ai/__init__.py": "import arle_ai.engine._core as core\n",
        "arle_cli/cmd.py": "from arle_ai.engine._core import MAX_SEED\n"})
    assert found == [
        "arle_ai/__init__.py:1: arle_ai imports arle_ai.engine._core: private (to "
        "arle_ai.engine, whose face the others import)",
        "arle_ai/play/session.py:2: arle_ai.play.session imports arle_ai.engine._core: private "
        "(to arle_ai.engine, whose face the others import)",
        "arle_cli/cmd.py:1: arle_cli.cmd imports arle_ai.engine._core: private (to "
        "arle_ai.engine, whose face the others import)"]


def test_a_sideways_import_fails_unless_allowed(tmp_path):
    src = _tree(tmp_path, {"arle_ai/web/app.py": "from arle_ai.learn import train\n"})
    assert violations(src, layers=FAKE_LAYERS) == [
        "arle_ai/web/app.py:1: arle_ai.web.app imports arle_ai.learn.train: sideways "
        "(arle_ai.web and arle_ai.learn are of one rank)"]
    allowed = frozenset({("arle_ai.web", "arle_ai.learn")})
    assert violations(src, layers=FAKE_LAYERS, allowed_sideways=allowed) == []


def test_a_cycle_fails_even_through_a_lazy_import(tmp_path):
    src = _tree(tmp_path, {"arle_ai/text/words.py": (
        "from arle_ai.engine import GameState\n"
        "def ask():\n    from arle_ai.text.menu import question\n    return question\n")})
    assert violations(src, layers=FAKE_LAYERS) == [
        "import cycle between arle_ai.text.menu, arle_ai.text.words: "
        "arle_ai/text/menu.py:1: arle_ai.text.menu imports arle_ai.text.words; "
        "arle_ai/text/words.py:3: arle_ai.text.words imports arle_ai.text.menu"]


def test_a_cycle_around_three_modules_fails(tmp_path):
    found = _check(tmp_path, {"arle_cli/cmd.py": "import arle_cli.other\n",
                              "arle_cli/other.py": "from arle_cli import main\n"})
    assert len(found) == 1
    assert found[0].startswith("import cycle between arle_cli.cmd, arle_cli.main, arle_cli.other")


def test_a_module_outside_the_layers_and_a_missing_module_fail(tmp_path):
    found = _check(tmp_path, {"arle_ai/loose.py": "",
                              "arle_ai/text/menu.py": "from arle_ai.text.nothing import x\n"})
    assert found == [
        "arle_ai.loose is in no layer (a module of arle_ai belongs in a layer package)",
        "arle_ai/text/menu.py:1: arle_ai.text.menu imports arle_ai.text.nothing, which does not "
        "exist"]
