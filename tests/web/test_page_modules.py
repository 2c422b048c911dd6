"""The page's modules (src/arle_ai/web/static/*.js), read as text: one entry module, imports
that resolve and form no cycle, no module over 450 lines, the state changed only through
state.js, and no game fact the catalog serves written in the page."""

from __future__ import annotations

import re
from pathlib import Path

from arle_ai.engine import rules
from arle_ai.text import names

STATIC = Path(__file__).resolve().parents[2] / "src" / "arle_ai" / "web" / "static"
IMPORT = re.compile(r'^import\s[^;]*?from\s+"\./([\w.]+)";', re.MULTILINE)
MAX_LINES = 450


def modules() -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(STATIC.glob("*.js"))}


def imports(text: str) -> list[str]:
    return IMPORT.findall(text)


def test_the_page_is_one_module_entry_and_every_module_is_imported():
    html = (STATIC / "index.html").read_text()
    assert re.findall(r"<script[^>]*>", html) == ['<script type="module" src="/static/app.js">']
    found = modules()
    reached, todo = set(), ["app.js"]
    while todo:
        name = todo.pop()
        reached.add(name)
        for dep in imports(found[name]):
            assert dep in found, f"{name} imports {dep}, which is not in static/"
            if dep not in reached:
                todo.append(dep)
    assert reached == set(found), f"not imported by the page: {set(found) - reached}"


def test_no_import_cycle_and_no_module_over_the_limit():
    found = modules()
    for name, text in found.items():
        assert len(text.splitlines()) <= MAX_LINES, f"{name}: {len(text.splitlines())} lines"
    state: dict[str, str] = {}  # name -> "doing" or "done"

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == "doing":
            raise AssertionError("import cycle: " + " -> ".join([*path, name]))
        if state.get(name) == "done":
            return
        state[name] = "doing"
        for dep in imports(found[name]):
            visit(dep, [*path, name])
        state[name] = "done"

    for name in found:
        visit(name, [])


def test_the_state_is_changed_only_through_state_js():
    assigned = re.compile(r"\bstate\.\w+(\[[^\]]*\])?\s*(=(?!=)|\+=|-=|\+\+|--)")
    for name, text in modules().items():
        assert not assigned.search(text), f"{name} writes the state: {assigned.search(text)}"
        if name != "state.js":
            assert "update(" not in text or 'from "./state.js"' in text


def test_no_game_fact_the_catalog_serves_is_written_in_the_page():
    """The home board's fields and the keys of the spaces, tools, buildings, vehicles and
    destinations come from /api/catalog (or the game's view), never from a module's text."""
    keys = {f.field for f in names.HOME_FIELDS} | {a.key for a in rules.ACTION_SPACES}
    keys |= {t.key for t in rules.TOOLS} | {b.key for b in rules.BUILDINGS}
    keys |= {v.key for v in rules.VEHICLES} | {d.key for d in rules.DESTINATIONS}
    for name, text in modules().items():
        written = set(re.findall(r'"(\w+)"', text)) & keys
        assert not written, f"{name} writes {sorted(written)}"
