"""Every relative link of README.md and docs/*.md resolves: to a file of the repository and,
for ``#anchor``, to a heading of it (GitHub's anchors: the heading in lower case, punctuation
left out, spaces as hyphens, ``-1``, ``-2``... after a repeated one)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)  # an inline code span
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)


def prose(text: str) -> str:
    """TEXT without its fenced blocks and inline code (links there are not links)."""
    return CODE.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = re.sub(r"[^\w\- ]", "", text.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        base = anchor(heading)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(page: Path) -> list[str]:
    return [m for m in LINK.findall(prose(page.read_text(encoding="utf-8")))
            if not re.match(r"[a-z][a-z+.-]*:", m)]  # http:, https:, mailto: ... are not ours


def test_anchors_are_githubs():
    assert anchor("`arle suggest`: the best moves") == "arle-suggest-the-best-moves"
    assert anchor("The solo game: `--players 1`") == "the-solo-game---players-1"
    assert anchor("Root exploration: why Gumbel") == "root-exploration-why-gumbel"
    assert anchor("The learned model: value, policy and auxiliary heads") == (
        "the-learned-model-value-policy-and-auxiliary-heads")


def test_the_pages_link():
    assert sum(len(links(page)) for page in PAGES) > 50


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        file = (page.parent / unquote(path)).resolve() if path else page
        if not file.is_relative_to(ROOT) or not file.exists():
            broken.append(f"{target}: no file {file}")
        elif fragment and file.suffix == ".md" and unquote(fragment) not in anchors(file):
            broken.append(f"{target}: no heading #{fragment} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)
