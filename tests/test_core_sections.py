"""The compiled core's sections state their interfaces (issue 27): ``_core.pyx`` includes every
``.pxi`` section itself, in an order where each section uses only the ones before it; each
section begins with a header saying what it offers, what it uses and its invariants; and the
"Uses:" of a header names exactly the sections whose names its code uses.

The check reads the sections as text: the names each one defines at the top level (C
functions, enum members, types, C and Python globals, classes) and the names its code uses
(comments, strings and attribute names left out). A use of a later section is allowed only
where the header declares it under "Calls ahead:" (a call made at run time that the include
order cannot put below: GameState.features calls into _features, which takes a GameState).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "src" / "arle_ai" / "engine"
INCLUDE = re.compile(r'^include "(_\w+)\.pxi"', re.M)
SECTION_NAME = re.compile(r"\b(_[a-z]+)\b")
IDENT = re.compile(r"(?<![\w.])([A-Za-z_]\w*)")


def _order() -> list[str]:
    return INCLUDE.findall((CORE / "_core.pyx").read_text())


def _text(section: str) -> str:
    return (CORE / f"{section}.pxi").read_text()


def _header(text: str) -> str:
    """The comment block a section starts with (generated sections: after the GENERATED line)."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            if lines:
                break
            continue
        lines.append(line[1:].strip())
    return "\n".join(lines)


def _field(header: str, name: str) -> str:
    """The text of `name:` in a header, up to the next field."""
    m = re.search(rf"^{name}:(.*?)(?=^(?:Offers|Uses|Calls ahead|Invariants):|\Z)", header,
                  re.M | re.S)
    return m.group(1) if m else ""


def _named_sections(field: str, known: set[str]) -> set[str]:
    return {n for n in SECTION_NAME.findall(field) if n in known}


def _code(text: str) -> str:
    """The section without comments and string literals (docstrings included)."""
    text = re.sub(r'"""(?:.|\n)*?"""', '""', text)
    text = re.sub(r"'''(?:.|\n)*?'''", "''", text)
    text = re.sub(r'[rbf]*"(?:[^"\\\n]|\\.)*"', '""', text)
    text = re.sub(r"[rbf]*'(?:[^'\\\n]|\\.)*'", "''", text)
    return re.sub(r"#.*", "", text)


_DEFINITIONS = [
    re.compile(r"^cdef (?:public |inline )*[\w\[\] ]+?[ *]\**(\w+)\(", re.M),  # C functions
    re.compile(r"^cdef class (\w+)", re.M),
    re.compile(r"^ctypedef struct (\w+)", re.M),
    re.compile(r"^ctypedef [\w ]+\(\*(\w+)\)", re.M),
    re.compile(r"^def (\w+)", re.M),
    re.compile(r"^(\w+)\s*=(?!=)", re.M),                                    # Python globals
]
_IMPORTS = [
    re.compile(r"^from [\w.]+ c?import \w+ as (\w+)", re.M),
    re.compile(r"^c?import [\w.]+ as (\w+)", re.M),
]


def _definitions(code: str) -> set[str]:
    """The names `code` defines at the top level (imports apart)."""
    names: set[str] = set()
    for pattern in _DEFINITIONS:
        names.update(pattern.findall(code))
    # C globals: cdef <type> NAME[...], NAME2 (no parenthesis: not a function)
    for m in re.finditer(r"^cdef (?!class|enum|extern|inline|struct)([\w\[\] ]+?) "
                         r"(\w[\w\[\], ]*?)\s*(?:=.*)?$", code, re.M):
        for part in m.group(2).split(","):
            names.add(re.sub(r"\[.*", "", part).strip())
    # enum members and extern declarations: the indented lines of their blocks
    blocks = r"^cdef (?:enum|extern from \*):\n((?:[ \t]+.*\n|\n)+)"
    for m in re.finditer(blocks, code + "\n", re.M):
        names.update(re.findall(r"^[ \t]+(\w+)\s*=", m.group(1), re.M))
        names.update(re.findall(r"^[ \t]+[\w ]+?(\w+)\(", m.group(1), re.M))
    return names


def _imports(code: str) -> set[str]:
    """The names `code` imports or cimports at the top level (a later section may import the
    same name again; one that does not uses the first section that did)."""
    names: set[str] = set()
    for pattern in _IMPORTS:
        names.update(pattern.findall(code))
    for m in re.finditer(r"^from [\w.]+ c?import ([\w, ]+)$", code, re.M):
        names.update(n.strip() for n in m.group(1).split(",") if " as " not in n)
    return names


def _sections() -> tuple[list[str], dict[str, set[str]], dict[str, str]]:
    """The include order; the names each section provides to the ones after it (its
    definitions, and the imports no earlier section made); each section's header."""
    order = _order()
    provided: dict[str, set[str]] = {}
    imported: set[str] = set()
    for s in order:
        code = _code(_text(s))
        own_imports = _imports(code) - imported
        provided[s] = _definitions(code) | own_imports
        imported |= own_imports
    return order, provided, {s: _header(_text(s)) for s in order}


def test_core_includes_every_section_once_and_nothing_else_includes():
    order = _order()
    on_disk = sorted(p.stem for p in CORE.glob("*.pxi"))
    assert sorted(order) == on_disk, "_core.pyx must include every .pxi section, once"
    for section in order:
        assert not INCLUDE.search(_text(section)), f"{section}.pxi includes another section"


@pytest.mark.parametrize("section", _order())
def test_section_header_states_offers_uses_invariants(section):
    header = _header(_text(section))
    for field in ("Offers", "Uses", "Invariants"):
        assert _field(header, field).strip(), f"{section}.pxi: its header has no {field}:"


def _uses(section: str, provided: dict[str, set[str]]) -> dict[str, set[str]]:
    """The other sections whose names `section` uses, with the names (a name the section
    defines or imports itself is its own)."""
    code = _code(_text(section))
    used = set(IDENT.findall(code)) - _definitions(code) - _imports(code)
    out: dict[str, set[str]] = {}
    for other, names in provided.items():
        if other != section and used & names:
            out[other] = used & names
    return out


def test_no_name_is_defined_in_two_sections():
    order = _order()
    seen: dict[str, str] = {}
    for section in order:
        for name in _definitions(_code(_text(section))):
            assert name not in seen, f"{name} is defined in {seen[name]}.pxi and {section}.pxi"
            seen[name] = section


@pytest.mark.parametrize("section", _order())
def test_section_uses_only_earlier_sections_and_says_which(section):
    order, defined, headers = _sections()
    known = set(order)
    uses = _uses(section, defined)
    stated = _named_sections(_field(headers[section], "Uses"), known)
    ahead = _named_sections(_field(headers[section], "Calls ahead"), known)
    position = order.index(section)
    for other, names in sorted(uses.items()):
        if order.index(other) > position:
            assert other in ahead, (f"{section}.pxi uses {sorted(names)} of {other}.pxi, "
                                    "which is included after it")
        else:
            assert other in stated, (f"{section}.pxi uses {sorted(names)} of {other}.pxi: "
                                     "its header's Uses: must name it")
    unused = sorted(stated - set(uses))
    assert not unused, f"{section}.pxi: its Uses: names {unused}, which it does not use"
    unused = sorted(ahead - set(uses))
    assert not unused, f"{section}.pxi: its Calls ahead: names {unused}, which it does not use"
    for other in ahead:
        assert order.index(other) > position, f"{section}.pxi: {other} is not ahead of it"
