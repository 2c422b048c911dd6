"""The layer picture of a tree as text: each package's imports of the others, by layer.

    python bench/layer_picture.py [REV]

REV is a git revision of this repository (its ``src/`` is read from ``git archive``); without
one, the working tree's ``src/``. The tree is read by tests/test_layers.py's checker (the same
reader and layers, this checkout's rules): for each package, top layer first, its modules, its
source lines (the .py files; the engine's .pyx, .pxi and .pyi too) and the module pairs by
which it imports each package below it, ``engine._core`` (the private core) counted apart from
the engine's public modules; then the modules outside the engine that import the private core,
and how many imports break each rule of the checker.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tempfile
from collections import Counter, defaultdict
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import test_layers as checker  # noqa: E402  (tests/ is not a package)

CORE = "arle_ai.engine._core"
SHORT = {"arle_ai": "arle_ai (face)"}


def _short(package: str) -> str:
    return SHORT.get(package, package.removeprefix("arle_ai."))


def _target(module: str) -> str:
    """The column an imported module counts in: its package, the private core apart."""
    if module == CORE or module.startswith(CORE + "."):
        return "engine._core"
    found = checker.layer_of(module)
    return _short(found[1]) if found else module


def picture(src: Path, title: str) -> str:
    known, imports = checker.project_imports(src)
    packages = [p for rank in reversed(checker.LAYERS) for p in rank]
    modules_of: dict[str, list[str]] = defaultdict(list)
    lines: Counter[str] = Counter()
    for module, paths in known.items():
        found = checker.layer_of(module)
        package = found[1] if found else "(no layer)"
        modules_of[package].append(module)
        lines[package] += sum(len(p.read_text().splitlines()) for p in paths)
    pairs: dict[str, Counter[str]] = defaultdict(Counter)
    for module, imported in {(i.importer, i.imported) for i in imports if i.imported in known}:
        found = checker.layer_of(module)
        if found is None or _target(imported).split(".")[0] == _short(found[1]):
            continue  # within a package (the engine's own modules import its core)
        pairs[found[1]][_target(imported)] += 1
    order = [_short(p) for p in packages] + ["engine._core"]
    out = [f"The layer picture of {title}: {len(known)} modules, {sum(lines.values()):,} lines",
           "", f" {'package':<15} {'modules':>7} {'lines':>7}  imports of the others "
           "(module pairs)"]
    for package in packages:
        row = sorted(pairs[package].items(), key=lambda kv: order.index(kv[0])
                     if kv[0] in order else len(order))
        shown = " · ".join(f"{name} {n}" for name, n in row) or "-"
        out.append(f" {_short(package):<15} {len(modules_of[package]):>7} "
                   f"{lines[package]:>7,}  {shown}")
    outside = sorted({i.importer for i in imports if i.imported == CORE
                      and not i.importer.startswith("arle_ai.engine")})
    out += ["", f" the private core ({CORE}) imported from outside the engine: "
            f"{len(outside)} modules"]
    by_package: dict[str, list[str]] = defaultdict(list)
    for module in outside:
        found = checker.layer_of(module)
        by_package[_short(found[1]) if found else module].append(module.rsplit(".", 1)[-1])
    for package, names in by_package.items():
        out.append(f"   {package}: {', '.join(names)}")
    broken = checker.violations(src)
    kinds = {"upward": ": upward", "sideways": ": sideways", "private": ": private",
             "cycles": "import cycle", "in no layer": "is in no layer",
             "missing": "which does not exist"}
    out += ["", " breaches of the checker's rules: " + " · ".join(
        f"{kind} {sum(marker in line for line in broken)}" for kind, marker in kinds.items())]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    if argv and argv[0].startswith("-"):
        print(__doc__)
        return 2
    if not argv:
        print(picture(ROOT / "src", "the working tree"))
        return 0
    rev = argv[0]
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], check=True,
                          capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=BytesIO(data)) as tar:
            tar.extractall(tmp, filter="data")
        described = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h of %cs", rev],
                                   check=True, capture_output=True, text=True).stdout.strip()
        print(picture(Path(tmp) / "src", described))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
