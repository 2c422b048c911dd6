"""Mutation check of the test suite: does breaking an important guarantee make a test fail?

    python bench/mutants.py [--only NAME ...] [--suite] [--list] [--keep]

Each mutant is one deliberate break of one guarantee (the search's memory ceiling, a rules
number read from rules.py, the illegal-action check, the position's JSON round trip, the
atomic write's rename, the order sustenance is paid in, grain paying a space's food, the
gate's verdict without an SPRT decision, PUCT's priors, ...), written as a text
replacement in one source file. The script copies the working tree (tracked and untracked,
not ignored files) and the compiled core into a scratch folder, checks that the named tests
pass there unchanged, then for each mutant applies it, rebuilds the core when a core file
changed (``setup.py build_ext --inplace``, about a minute of CPU each), runs the tests named
for it and restores the file. A mutant is *killed* when one of them fails. ``--suite`` runs
the whole suite on each mutant instead (slow: the suite's time per mutant) and reports every
test that failed. The exit status is 1 when a mutant survived or a baseline test failed.

The scratch tree is imported through PYTHONPATH (before the venv's editable install), so the
installed copy and the working tree are never touched.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE_DIR = Path("src/arle_ai/engine")


@dataclass(frozen=True)
class Mutant:
    name: str
    guarantee: str  # what the break breaks, in a few words
    path: str  # the file, from the repository's root
    old: str  # text found exactly once in it
    new: str  # what replaces it
    tests: tuple[str, ...]  # node ids expected to fail

    @property
    def in_core(self) -> bool:
        return self.path.endswith((".pxi", ".pyx"))


MUTANTS = [
    Mutant("memory-clamp", "the search tree stays within its memory ceiling",
           "src/arle_ai/engine/_search.pxi",
           "            extra = room // <int64_t>sizeof(Node)\n",
           "            pass  # mutant: the node array grows past the ceiling\n",
           ("tests/test_mcts.py::test_the_memory_ceiling_holds_at_every_ceiling",
            "tests/test_mcts.py::test_the_bytes_the_tree_reports_are_the_bytes_it_holds")),
    Mutant("memory-count", "the tree's reported bytes are the bytes it holds",
           "src/arle_ai/engine/_search.pxi",
           "        return (self.cap_nodes * sizeof(Node) + self.cap_edges * sizeof(Edge)\n",
           "        return (self.cap_nodes * sizeof(Node) + self.n_edges * sizeof(Edge)\n",
           ("tests/test_mcts.py::test_the_bytes_the_tree_reports_are_the_bytes_it_holds",)),
    Mutant("rules-number", "the core reads every rules number from rules.py",
           "src/arle_ai/engine/_data.pxi",
           "    SUSTENANCE_FOOD = r.SUSTENANCE_FOOD\n",
           "    SUSTENANCE_FOOD = 3  # mutant: today's value, no longer read\n",
           ("tests/test_rules_source.py::test_sustenance_food",)),
    Mutant("illegal-action", "an illegal action is refused, the state unchanged",
           "src/arle_ai/engine/_api.pxi",
           "                and is_legal(&self.s, a)):\n            raise self._illegal(a)\n"
           "        apply_action(&self.s, a)\n",
           "                and True):\n            raise self._illegal(a)\n"
           "        apply_action(&self.s, a)\n",
           ("tests/test_properties.py::test_an_illegal_action_is_rejected_and_changes_nothing",)),
    Mutant("sustenance-order", "sustenance is paid in food first, then grain",
           "src/arle_ai/engine/_engine.pxi",
           "    cdef int need = SUSTENANCE_FOOD, k, types = 0, t\n"
           "    k = p.goods[G_FOOD] if p.goods[G_FOOD] < need else need\n"
           "    p.goods[G_FOOD] -= k\n    need -= k\n"
           "    k = p.goods[G_GRAIN] if p.goods[G_GRAIN] < need else need\n"
           "    p.goods[G_GRAIN] -= k\n",
           "    cdef int need = SUSTENANCE_FOOD, k, types = 0, t\n"
           "    k = p.goods[G_GRAIN] if p.goods[G_GRAIN] < need else need\n"
           "    p.goods[G_GRAIN] -= k\n    need -= k\n"
           "    k = p.goods[G_FOOD] if p.goods[G_FOOD] < need else need\n"
           "    p.goods[G_FOOD] -= k\n",
           ("tests/rules/test_inventory.py::test_food_sustenance_substitutions",)),
    Mutant("json-round-trip", "a position read back from its JSON is the same position",
           "src/arle_ai/formats/position.py",
           "    special_by = -1 if sab is None else int(sab)\n",
           "    special_by = -1  # mutant: who took the special action is dropped\n",
           ("tests/test_position.py::test_round_trip_mid_game",)),
    Mutant("atomic-rename", "a failed save leaves the old file whole",
           "src/arle_ai/base/files.py",
           '    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")\n'
           "    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)",
           "    tmp = target  # mutant: written in place\n"
           "    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)",
           ("tests/test_atomic_files.py::test_a_full_disk_leaves_the_old_file_whole",)),
    Mutant("npz-bomb", "a zip bomb is refused before it is inflated",
           "src/arle_ai/base/npzfile.py",
           "                    and info.file_size > MAX_RATIO * max(1, info.compress_size)):",
           "                    and False):  # mutant",
           ("tests/test_npz_reading.py::test_a_zip_bomb_is_refused_before_it_is_inflated",)),
    Mutant("play-save", "arle play saves its record after every decision",
           "src/arle_cli/play_cmd.py",
           "            _save(game, out)\n    except QuitGame as stop:\n",
           "            pass  # mutant: saved only when the game stops\n"
           "    except QuitGame as stop:\n",
           ("tests/test_cli_play.py::"
            "test_a_hangup_a_kill_or_a_crash_loses_no_decision_of_the_game[SIGKILL]",)),
    Mutant("datagen-lock", "two datagen runs never share one output",
           "src/arle_ai/base/files.py",
           "            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)\n",
           "            pass  # mutant: no lock\n",
           ("tests/test_datagen_safety.py::test_a_second_run_on_the_same_out_is_refused_at_once",)),
    Mutant("grain-pays-food", "grain pays a space's food when it is exactly enough",
           "src/arle_ai/engine/_spaces.pxi",
           "(SPACE_GRAIN_PAYS[space] and p.goods[G_GRAIN] >= cost)\n",
           "(SPACE_GRAIN_PAYS[space] and p.goods[G_GRAIN] > cost)  # mutant\n",
           ("tests/rules/test_winter.py::test_wood_trader_exactly_one_grain_pays_when_no_food",)),
    Mutant("gate-interval", "a gate with no verdict accepts on its score's interval",
           "src/arle_ai/learn/loop.py",
           '            accepted = p["score_interval"][0] > expected_score(s.sprt[0])\n',
           '            accepted = p["score"] > expected_score(s.sprt[0])  # mutant\n',
           ("tests/test_learn.py::"
            "test_a_gate_without_a_verdict_accepts_on_the_score_interval_not_the_score",)),
    Mutant("puct-priors", "PUCT selects by its priors",
           "src/arle_ai/engine/_search.pxi",
           "                prior = priors[i] if priors != NULL else self._prior(node, &e[i])\n",
           "                prior = 1.0 / node.n  # mutant: PUCT ignores its priors\n",
           ("tests/test_mcts.py::"
            "test_puct_spends_its_visits_as_its_priors_say_when_the_values_say_nothing",
            "tests/test_policy.py::test_the_policy_moves_the_visits")),
]


def _copy_tree(scratch: Path) -> None:
    """The working tree's files (tracked and untracked, not ignored) and the built core."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True).stdout.decode()
    for rel in filter(None, listed.split("\0")):
        src = ROOT / rel
        if src.is_file():
            dst = scratch / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    built = sorted((ROOT / CORE_DIR).glob("_core*.so"))
    if not built:
        sys.exit("no compiled core in the working tree: build it first (pip install -e .)")
    for so in built:
        shutil.copy2(so, scratch / CORE_DIR / so.name)


def _env(scratch: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(scratch / "src"), PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTEST_ADDOPTS", None)
    return env


def _check_imports_scratch(scratch: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-c", "import arle_ai.engine._core as c; print(c.__file__)"],
        cwd=scratch, env=_env(scratch), capture_output=True, text=True)
    if out.returncode != 0 or not out.stdout.strip().startswith(str(scratch)):
        sys.exit(f"the scratch tree is not the one imported: {out.stdout.strip()} "
                 f"{out.stderr[-500:]}")


def _build(scratch: Path) -> tuple[bool, str]:
    out = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                         cwd=scratch, env=_env(scratch), capture_output=True, text=True)
    return out.returncode == 0, out.stdout[-1500:] + out.stderr[-1500:]


def _pytest(scratch: Path, tests: list[str]) -> tuple[int, list[str], str]:
    """(pytest's exit code, the failed node ids, the end of its output)."""
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfE",
                          "-o", "addopts=", *tests],
                         cwd=scratch, env=_env(scratch), capture_output=True, text=True)
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", out.stdout, re.M)
    return out.returncode, failed, out.stdout[-1200:] + out.stderr[-600:]


def _named(failed: str, tests: tuple[str, ...]) -> bool:
    """Whether a failed node id is one of ``tests`` (a test named without its parameters
    stands for all of them)."""
    return any(failed == t or failed.startswith(t + "[") for t in tests)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    parser.add_argument("--suite", action="store_true",
                        help="run the whole suite on each mutant (slow), not only its tests")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    mutants = [m for m in MUTANTS if not args.only or m.name in args.only]
    if args.only and len(mutants) != len(set(args.only)):
        known = sorted(m.name for m in MUTANTS)
        sys.exit(f"unknown mutant in {args.only}; known: {known}")
    for m in mutants:  # every mutant still finds its text (the code moves on)
        count = (ROOT / m.path).read_text(encoding="utf-8").count(m.old)
        if count != 1:
            sys.exit(f"mutant {m.name}: its text occurs {count} times in {m.path}, not once")
    if args.list:
        for m in mutants:
            print(f"{m.name:18} {m.path}: {m.guarantee}")
        return 0

    scratch = Path(tempfile.mkdtemp(prefix="arle-mutants-"))
    survived = 0
    try:
        _copy_tree(scratch)
        _check_imports_scratch(scratch)
        built = {p.name: p.read_bytes() for p in (scratch / CORE_DIR).glob("_core*.so")}
        named = sorted({t for m in mutants for t in m.tests})
        code, failed, tail = _pytest(scratch, named)
        print(f"baseline: {len(named)} named tests on the unchanged tree: "
              f"{'pass' if code == 0 else 'FAIL'}", flush=True)
        if code != 0:
            print(tail)
            return 1
        print(f"{'mutant':18} {'verdict':9} {'seconds':>7}  failing tests", flush=True)
        for m in mutants:
            target = scratch / m.path
            original = target.read_text(encoding="utf-8")
            target.write_text(original.replace(m.old, m.new), encoding="utf-8")
            start = time.monotonic()
            try:
                if m.in_core:
                    ok, log = _build(scratch)
                    if not ok:
                        print(f"{m.name:18} {'no build':9}  {log}")
                        survived += 1
                        continue
                code, failed, tail = _pytest(scratch, ["tests"] if args.suite else list(m.tests))
            finally:
                target.write_text(original, encoding="utf-8")
                if m.in_core:
                    for so in (scratch / CORE_DIR).glob("_core*.so"):
                        so.unlink()
                    for name, data in built.items():
                        (scratch / CORE_DIR / name).write_bytes(data)
            killed_by = failed if args.suite else [t for t in failed if _named(t, m.tests)]
            verdict = "killed" if code == 1 and killed_by else "SURVIVED"
            survived += verdict != "killed"
            shown = ", ".join(killed_by[:4])
            if len(killed_by) > 4:
                shown += f" (+{len(killed_by) - 4})"
            seconds = time.monotonic() - start
            print(f"{m.name:18} {verdict:9} {seconds:7.0f}  {shown or tail[-300:]}", flush=True)
        print(f"{len(mutants) - survived} of {len(mutants)} mutants killed")
        return 1 if survived else 0
    finally:
        if args.keep:
            print(f"scratch tree kept: {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
