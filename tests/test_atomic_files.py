"""Every file the project writes is written atomically (arle_ai.base.files.atomic_writer): a
failure at any point (a full disk, an exception, a kill) leaves the old file byte for byte.

A full disk is made real with RLIMIT_FSIZE in a child process: a write past the limit fails
with EFBIG as a write to a full file system fails with ENOSPC (after the bytes that fit).
"""

from __future__ import annotations

import ast
import json
import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import arle_ai
from arle_ai.base import files
from arle_ai.base.npzfile import write_npz
from arle_ai.formats.records import GameRecord, load_record

SRC = Path(arle_ai.__file__).resolve().parent.parent
# The project's packages under SRC (src/ in a checkout, site-packages in an installed copy).
PACKAGES = ("arle_ai", "arle_cli")


def _small_disk(limit: int):
    """A preexec_fn: files of the child can grow to ``limit`` bytes, no further."""
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of a killing signal
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def run_on_small_disk(limit: int, *args: str, input: str = "", cwd: Path | None = None
                      ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, input=input, capture_output=True, text=True, timeout=300,
                          preexec_fn=_small_disk(limit), cwd=cwd)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# ---- the helper ----


def test_an_exception_while_writing_leaves_the_old_file_and_no_temporary_file(tmp_path):
    target = tmp_path / "kept.json"
    target.write_bytes(b"old contents\n")
    with pytest.raises(RuntimeError, match="midway"):
        with files.atomic_writer(target) as fh:
            fh.write(b"new contents, half of th")
            raise RuntimeError("midway")
    assert target.read_bytes() == b"old contents\n"
    assert _leftovers(tmp_path) == []


def test_a_full_disk_leaves_the_old_file_whole(tmp_path):
    target = tmp_path / "kept.bin"
    target.write_bytes(b"x" * 1000)
    code = (f"from arle_ai.base import files\n"
            f"files.write_bytes({str(target)!r}, b'y' * 5000)\n")
    done = run_on_small_disk(4096, sys.executable, "-c", code)
    assert done.returncode != 0 and "File too large" in done.stderr
    assert target.read_bytes() == b"x" * 1000
    assert _leftovers(tmp_path) == []


def test_the_new_contents_replace_the_file_whole_keeping_its_permissions(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    files.write_text(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    umask = os.umask(0o022)
    try:
        files.write_text(fresh, "a")
    finally:
        os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # as open() makes it, not mkstemp's 600


def test_a_symbolic_link_stays_and_its_target_gets_the_contents(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    files.write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_a_stream_is_written_in_place(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    files.write_text(fifo, "through the pipe\n")
    assert reader.communicate(timeout=30)[0] == b"through the pipe\n"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_the_contents_are_synced_before_the_rename(tmp_path, monkeypatch):
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace",
                        lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    write_npz(tmp_path / "a.npz", {"x": np.arange(3)})
    assert events[:2] == ["fsync", "replace"]
    assert events[2:] == ["fsync"]  # the folder's entry too


def test_two_writers_of_one_file_use_different_temporary_files(tmp_path):
    target = tmp_path / "out.npz"
    with files.atomic_writer(target) as a, files.atomic_writer(target) as b:
        assert a.name != b.name
        a.write(b"a")
        b.write(b"b")
    assert target.read_bytes() in (b"a", b"b")
    assert _leftovers(tmp_path) == []


# ---- every writer of the project ----


def test_a_record_saved_on_a_full_disk_is_kept_whole(tmp_path):
    path = tmp_path / "game.json"
    record = GameRecord.new(4, "standard", players=["a", "b"])
    record.save(path)
    before = path.read_bytes()
    code = ("import arle_ai\n"
            "from arle_ai.formats.records import load_record\n"
            f"r = load_record({str(path)!r})\n"
            "s = r.final_state()\n"
            "for _ in range(40):\n"
            "    a = s.legal_actions()[0]; s.apply(a); r.actions.append(a)\n"
            f"r.save({str(path)!r})\n")
    done = run_on_small_disk(len(before) + 10, sys.executable, "-c", code)
    assert done.returncode != 0 and "File too large" in done.stderr
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_arle_play_resuming_a_record_on_a_full_disk_keeps_it(tmp_path):
    """Issue 29, reproduction 1: resuming a game and quitting on a full disk destroyed the
    record (truncated, then cut at the disk's end)."""
    path = tmp_path / "game.json"
    arle = Path(sys.executable).with_name("arle")
    first = subprocess.run([str(arle), "play", "--ai", "random", "--out", str(path)],
                           input="1\n" * 30 + "quit\n", capture_output=True, text=True,
                           timeout=300)
    assert first.returncode == 0, first.stderr
    before = path.read_bytes()
    done = run_on_small_disk(len(before), str(arle), "play", str(path), "--ai", "random",
                             input="1\n1\n1\nquit\n")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "cannot write the game record" in done.stderr and "Traceback" not in done.stderr
    assert path.read_bytes() == before
    assert load_record(path).actions  # still the game it was
    assert _leftovers(tmp_path) == []


def test_arle_edit_and_new_on_a_full_disk_keep_the_old_file(tmp_path):
    arle = str(Path(sys.executable).with_name("arle"))
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"not": "much"}))  # smaller than any position
    before = path.read_bytes()
    done = run_on_small_disk(len(before), arle, "new", "--seed", "3", "-o", str(path),
                             "--overwrite")
    assert done.returncode == 2 and "cannot write" in done.stderr, done.stderr
    assert path.read_bytes() == before
    subprocess.run([arle, "new", "-o", str(path), "--overwrite"], check=True, timeout=120)
    before = path.read_bytes()
    done = run_on_small_disk(len(before) - 1, arle, "edit", str(path), input="\n" * 2000)
    assert done.returncode == 2 and "cannot write" in done.stderr, done.stderr
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_weights_written_on_a_full_disk_keep_the_old_weights(tmp_path):
    path = tmp_path / "w.npz"
    write_npz(path, {"x": np.zeros(10)})
    before = path.read_bytes()
    code = ("import numpy as np\n"
            "from arle_ai.base.npzfile import write_npz\n"
            f"write_npz({str(path)!r}, {{'x': np.random.default_rng(0).random(100_000)}})\n")
    done = run_on_small_disk(len(before) + 100, sys.executable, "-c", code)
    assert done.returncode != 0 and "File too large" in done.stderr
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


# Writing is the business of base/files.py (and base/npzfile.py, which uses it). The results
# file of selfplay is the one exception: it is appended to a line per game (each synced) and
# its cut-off last line is dropped on resume, as a whole rewrite per game would cost O(n^2).
WRITERS = {"arle_ai/base/files.py", "arle_ai/base/npzfile.py"}
APPENDERS = {"arle_ai/play/tournament.py"}
BUILD_TOOLS = {"arle_ai/engine/_gen_tables.py"}  # run by setup.py: regenerated each build


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    """The lines of ``tree`` that write a file other than through base/files.py."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        owner = func.value if isinstance(func, ast.Attribute) else None
        owner_name = getattr(owner, "id", "") if owner is not None else ""
        if name in ("write_text", "write_bytes") and owner is not None and owner_name != "files":
            found.append((node.lineno, name))
        elif name in ("savez", "savez_compressed", "save", "dump") and \
                owner_name in ("np", "numpy", "os", "json", "pickle"):
            found.append((node.lineno, f"{owner_name}.{name}"))
        elif name == "open":
            modes = [a.value for a in node.args[1:2] if isinstance(a, ast.Constant)]
            modes += [k.value.value for k in node.keywords
                      if k.arg == "mode" and isinstance(k.value, ast.Constant)]
            if any(isinstance(m, str) and set(m) & set("wax+") for m in modes):
                found.append((node.lineno, f"open(..., {modes[0]!r})"))
    return found


def test_every_file_is_written_through_the_atomic_writer():
    bad = []
    for path in sorted(p for package in PACKAGES for p in (SRC / package).rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel in WRITERS | BUILD_TOOLS:
            continue
        for line, what in _writes(ast.parse(path.read_text(encoding="utf-8"))):
            if rel in APPENDERS and what.startswith("open("):
                continue
            bad.append(f"{rel}:{line}: {what}")
    assert bad == []
