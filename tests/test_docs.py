"""The documentation's examples run: every ```python block of README.md and docs/*.md, and
the doctests of the library's modules."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

import arle_ai
from arle_ai.formats.records import GameRecord
from arle_ai.play.agents import RandomAgent

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        for i, m in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8")), 1):
            out.append((f"{page.relative_to(ROOT)}#{i}", m.group(1)))
    return out


# Modules of the optional extras (openspiel, pettingzoo, ray): their pages and adapters are
# skipped where the extra is not installed (CI installs them all).
EXTRA_MODULES = {"pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray"}


def _skip_without_extra(exc: ModuleNotFoundError) -> None:
    top = (exc.name or "").split(".")[0]
    if top not in EXTRA_MODULES:
        raise exc
    pytest.skip(f"needs the optional module {top!r} (an extra: see docs/research.md)")


def test_the_pages_have_examples():
    names = {name.split("#")[0] for name, _ in python_blocks()}
    assert {"docs/library.md", "docs/notation.md", "docs/game-record.md"} <= names


@pytest.mark.parametrize("name, code", python_blocks(), ids=[n for n, _ in python_blocks()])
def test_python_example_runs(name, code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    rec = GameRecord.new(seed=4, players=["random", "random"])  # the game.json examples read
    state, agent = rec.start.copy(), RandomAgent(seed=4)
    while not state.is_terminal():
        a = agent.select(state)
        state.apply(a)
        rec.actions.append(a)
    rec.save(tmp_path / "game.json")
    namespace: dict = {"__name__": "docs_example"}
    try:
        exec(compile(code, name, "exec"), namespace)
    except ModuleNotFoundError as exc:
        _skip_without_extra(exc)
    for key, value in list(namespace.items()):  # examples that define tests: run them too
        if key.startswith("test_") and callable(value):
            if hasattr(value, "hypothesis"):  # no time limit per example: the machine is shared
                value = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])(
                    value)
            value()


# every module of the layer packages (iter_modules would list only the packages themselves)
MODULES = sorted(m.name for m in pkgutil.walk_packages(arle_ai.__path__, "arle_ai."))

# The modules whose docstrings hold examples (>>>): each must have some, and they must pass.
# A module given examples is added here (test_every_module_with_examples_is_listed says so).
MODULES_WITH_EXAMPLES = [
    "arle_ai.engine",
    "arle_ai.play.session", "arle_ai.play.solo", "arle_ai.play.suggest", "arle_ai.play.why",
    "arle_ai.text.answers",
    "arle_ai.text.decisions", "arle_ai.text.effects", "arle_ai.text.names",
    "arle_ai.text.narration", "arle_ai.text.notation",
]


def _examples(module: str) -> int:
    """How many >>> examples the module's docstrings hold (its extra missing: skipped)."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        _skip_without_extra(exc)
    return sum(len(test.examples) for test in doctest.DocTestFinder().find(mod))


@pytest.mark.parametrize("module", MODULES_WITH_EXAMPLES)
def test_doctests_pass(module):
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module} is listed as having examples and has none"
    assert result.failed == 0


def test_every_module_with_examples_is_listed():
    unlisted = []
    for module in sorted(set(MODULES) - set(MODULES_WITH_EXAMPLES)):
        try:
            if _examples(module):
                unlisted.append(module)
        except pytest.skip.Exception:
            continue  # an extra's module, not installed here (CI installs them all)
    assert unlisted == [], f"modules with examples that test_doctests_pass does not run: {unlisted}"
    assert set(MODULES_WITH_EXAMPLES) <= set(MODULES)


def documented_commands() -> list[str]:
    """Every ``$ arle ...`` line and every inline `arle CMD [...]` synopsis of the README and
    docs/cli.md (the commands of their blocks are also run: tests/test_doc_commands.py)."""
    out = []
    for page in ("README.md", "docs/cli.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        out += re.findall(r"^\$ (arle .*)$", text, re.M)
        out += re.findall(r"`(arle [a-z]+ [^`]*)`", text.replace("\n", " "))
    return out


@pytest.mark.parametrize("line", documented_commands())
def test_readme_commands_use_real_options(line):
    import click

    from arle_cli.main import cli

    words = line.split()
    assert words[0] == "arle"
    command = cli.commands.get(words[1])
    assert isinstance(command, click.Command), f"no command {words[1]!r}"
    options = {o for p in command.params for o in getattr(p, "opts", []) + p.secondary_opts}
    used = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", " ".join(words[2:])))
    assert used <= options, f"{line}: unknown {sorted(used - options)}"
