"""Crash safety: SIGKILL ``arle selfplay``, ``datagen``, ``train`` and ``play`` at random
moments, and run them on a full disk, and check that nothing finished is lost.

    python bench/crash.py [--kills N] [--disk-runs N] [--seed S] [--no-disk] [--rlimit]
                          [--only COMMAND ...] [--keep]

For each command a run is killed (SIGKILL of the command's process only, as a crash would:
its workers must end by themselves) at a random moment, checked, and started again, until
a start finishes on its own; ``--kills`` kills a command. Before each kill the finished
pieces are copied as they are on the disk; after it, each must still be there:

- selfplay: every complete results line, byte for byte (the file read with the project's
  own reader); the resumed run's games are those of an uninterrupted run, line for line;
- datagen: every finished part ``OUT.parts/game-*.npz``, byte for byte, each readable; the
  resumed run's merged file holds the uninterrupted run's arrays, array for array;
- train: the ``-o`` weights are the old file or a whole new one that loads (never a cut one);
- play: the saved record loads and begins with the moves saved before the kill; the resumed
  game ends.

With ``--disk-runs`` (unless ``--no-disk``) a small tmpfs is mounted (as root) and filled but
for a random number of bytes (up to the command's whole output) before each command starts
or resumes there: the command must fail with the one ``arle:`` line and no traceback or
finish, leave what was there as it was, and finish once the space is freed. Where no tmpfs
can be mounted (not root), or with ``--rlimit``, a random RLIMIT_FSIZE (up to the size of
the command's largest file) stands in for the full disk: a write past it fails as on a full
disk (EFBIG rather than ENOSPC). Play's runs there resume a game saved before the disk
filled (issue 29's reproduction 1: the record was lost).
Worker processes still alive 10 s after their parent's SIGKILL are counted as orphans (and
then killed). Prints the figures; the exit status is 1 when a piece was lost or a check
failed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from arle_ai.formats.records import load_record
from arle_ai.learn import datagen
from arle_ai.search.net import load_weights

ARLE = [sys.executable, "-m", "arle_cli.entry"]
TRACE = "Traceback (most recent call last)"

SELFPLAY = ["selfplay", "--agents", "random", "greedy", "--games", "96", "--workers", "2",
            "--seed", "7", "--out"]
DATAGEN_GAMES = 12
DATAGEN = ["datagen", "--games", str(DATAGEN_GAMES), "--iterations", "20", "--workers", "2",
           "--seed", "11", "-o"]
TRAIN_EPOCHS = ["--epochs", "30", "--hidden", "16", "--seed", "3"]
PLAY = ["play", "--ai", "greedy", "--seed", "5"]
PLAY_INPUT = "1\n" * 4000  # always the first listed move, until the game ends
PLAY_SAVED = 30  # the moves of the game saved before a full-disk run resumes it


@dataclass
class Figures:
    """What one command went through."""

    kills: int = 0
    pieces_checked: int = 0  # finished pieces present before a kill, checked after it
    pieces_lost: int = 0
    starts: int = 0
    runs_finished: int = 0  # runs that ended by themselves (resumed after kills or not)
    compared: int = 0  # of those, compared with an uninterrupted run's output
    same: int = 0
    finished: bool = False  # (full disk) the run finished once the space was freed
    same_as_uninterrupted: bool | None = None
    orphans: int = 0
    full_disk_runs: int = 0
    disk: str = ""  # how the disk was full: "tmpfs" or "RLIMIT_FSIZE"
    full_disk_outcomes: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    def problem(self, text: str) -> None:
        self.problems.append(text)
        print(f"    PROBLEM: {text}", flush=True)


# ---- processes ----


def _children() -> dict[int, int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2:].split()
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    return parents


def _below(pid: int) -> set[int]:
    parents = _children()
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, pp in parents.items() if pp in frontier} - found
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return fields[fields.rindex(")") + 2] != "Z"


# the largest file the next commands started may write (RLIMIT_FSIZE), None for no limit
_file_size_limit: int | None = None


def _limit_file_size() -> None:  # in the child, before exec
    if _file_size_limit is not None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (_file_size_limit, _file_size_limit))


def _start(args: list[str], cwd: Path, stdin_text: str | None = None) -> subprocess.Popen:
    proc = subprocess.Popen([*ARLE, *args], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, stdin=subprocess.PIPE if stdin_text else
                            subprocess.DEVNULL, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"),
                            preexec_fn=_limit_file_size)
    if stdin_text:
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # a killed play reads no more
            proc.stdin.write(stdin_text.encode())
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        proc.stdin = None  # all written: communicate() has nothing more to send
    return proc


def _kill(proc: subprocess.Popen, fig: Figures) -> None:
    """SIGKILL the command's process alone; its workers must end by themselves."""
    below = _below(proc.pid)
    proc.kill()
    proc.wait()
    if proc.stderr is not None:
        proc.stderr.close()
    end = time.monotonic() + 10
    while any(_alive(p) for p in below) and time.monotonic() < end:
        time.sleep(0.05)
    left = [p for p in below if _alive(p)]
    fig.orphans += len(left)
    for p in left:  # started by this script: do not leave them running
        with contextlib.suppress(ProcessLookupError):
            os.kill(p, signal.SIGKILL)


def _finish(proc: subprocess.Popen, timeout: float = 900) -> tuple[int, str]:
    _, err = proc.communicate(timeout=timeout)
    return proc.returncode, err.decode(errors="replace")


# ---- the pieces of each command ----


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _results_lines(path: Path) -> list[bytes]:
    """The complete lines of a results file (a cut-off last line left out)."""
    if not path.exists():
        return []
    return [line for line in path.read_bytes().splitlines(keepends=True) if line.endswith(b"\n")]


def _parts(out: Path) -> dict[str, str]:
    folder = datagen.parts_dir(out)
    if not folder.is_dir():
        return {}
    return {p.name: _digest(p) for p in sorted(folder.glob("game-*.npz"))}


def _record_moves(path: Path) -> list[str] | None:
    if not path.exists():
        return None
    return list(load_record(path).moves())


def _remove(d: Path, pattern: str) -> None:
    for p in d.glob(pattern):
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()


@dataclass
class Command:
    """How to run one command in a folder and what its finished pieces are."""

    name: str
    run: Callable[[Path], subprocess.Popen]
    snapshot: Callable[[Path], object]  # the finished pieces, as they are on the disk
    check: Callable[[Path, object, Figures], None]  # after a kill: the pieces are still there
    outputs: Callable[[Path], list[Path]]  # what it writes (to size a full disk)
    reset: Callable[[Path], None]  # remove a finished run's output (to start a new one)
    compare: Callable[[Path, Path], bool] | None = None  # finished run vs uninterrupted one


def _selfplay() -> Command:
    def check(d: Path, before: object, fig: Figures) -> None:
        assert isinstance(before, list)
        after = _results_lines(d / "r.jsonl")
        fig.pieces_checked += max(0, len(before) - 1)  # the header line is no game
        if after[:len(before)] != before:
            fig.pieces_lost += sum(1 for a, b in zip(before, after, strict=False) if a != b) + max(
                0, len(before) - len(after))
            fig.problem(f"selfplay: results lines changed or lost ({len(before)} -> {len(after)})")
        for n, line in enumerate(after, 1):
            try:
                json.loads(line)
            except ValueError:
                fig.problem(f"selfplay: line {n} is not JSON after a kill")

    def compare(d: Path, ref: Path) -> bool:
        return sorted(_results_lines(d / "r.jsonl")) == sorted(_results_lines(ref / "r.jsonl"))

    return Command("selfplay", lambda d: _start([*SELFPLAY, "r.jsonl"], d),
                   lambda d: _results_lines(d / "r.jsonl"), check,
                   lambda d: [d / "r.jsonl"], lambda d: _remove(d, "r.jsonl*"), compare)


def _datagen() -> Command:
    def check(d: Path, before: object, fig: Figures) -> None:
        assert isinstance(before, dict)
        after = _parts(d / "d.npz")
        fig.pieces_checked += len(before)
        for name, digest in before.items():
            if after.get(name) != digest:
                fig.pieces_lost += 1
                fig.problem(f"datagen: part {name} lost or changed by a kill")
        for name in after:  # every part on the disk reads back
            g = int(name.split("-")[1].split(".")[0])
            try:
                datagen._read_part(d / "d.npz", g)
            except ValueError as exc:
                fig.problem(f"datagen: {exc}")

    def compare(d: Path, ref: Path) -> bool:
        with np.load(d / "d.npz") as a, np.load(ref / "d.npz") as b:
            keys = sorted(k for k in a.files if k != "meta")
            return keys == sorted(k for k in b.files if k != "meta") and all(
                np.array_equal(a[k], b[k]) for k in keys)

    return Command("datagen", lambda d: _start([*DATAGEN, "d.npz"], d), lambda d: _parts(
        d / "d.npz"), check, lambda d: [d / "d.npz", datagen.parts_dir(d / "d.npz")],
        lambda d: _remove(d, "d.npz*"), compare)


def _train(data: Path) -> Command:
    def snapshot(d: Path) -> object:
        return _digest(d / "w.npz") if (d / "w.npz").exists() else None

    def check(d: Path, before: object, fig: Figures) -> None:
        w = d / "w.npz"
        if before is None and not w.exists():
            return
        fig.pieces_checked += 1
        if not w.exists():
            fig.pieces_lost += 1
            fig.problem("train: the weights file is gone after a kill")
            return
        if _digest(w) == before:
            return
        try:  # a new file: whole
            load_weights(w)
        except (ValueError, OSError) as exc:
            fig.pieces_lost += 1
            fig.problem(f"train: the weights after a kill do not load: {exc}")

    return Command("train", lambda d: _start(["train", str(data), "-o", "w.npz",
                                              *TRAIN_EPOCHS], d),
                   snapshot, check, lambda d: [d / "w.npz"], lambda d: None)


def _play() -> Command:
    def run(d: Path) -> subprocess.Popen:
        game = d / "game.json"
        if game.exists():  # resume the saved record
            return _start([*PLAY, str(game)], d, PLAY_INPUT)
        return _start([*PLAY, "--out", str(game)], d, PLAY_INPUT)

    def snapshot(d: Path) -> object:
        try:
            return _record_moves(d / "game.json")
        except ValueError:
            return "unreadable"

    def check(d: Path, before: object, fig: Figures) -> None:
        if before is None:
            return
        fig.pieces_checked += 1
        if before == "unreadable":
            fig.problem("play: the record did not load before a kill")
            return
        assert isinstance(before, list)
        try:
            after = _record_moves(d / "game.json")
        except ValueError as exc:
            fig.pieces_lost += 1
            fig.problem(f"play: the record does not load after a kill: {exc}")
            return
        if after is None or after[:len(before)] != before:
            fig.pieces_lost += 1
            fig.problem("play: moves saved before a kill are gone")

    return Command("play", run, snapshot, check, lambda d: [d / "game.json"],
                   lambda d: _remove(d, "game.json"))


# ---- the runs ----


def _finished_ok(cmd: Command, d: Path) -> bool:
    """The command's output is complete (a finished game for play)."""
    if cmd.name == "play":
        rec = load_record(d / "game.json")
        return rec.final_state().is_terminal()
    return all(p.exists() for p in cmd.outputs(d)[:1])


def _verify_finished(cmd: Command, d: Path, ref: Path | None, fig: Figures) -> None:
    """A run that ended by itself: complete, and as an uninterrupted run's output."""
    fig.runs_finished += 1
    if not _finished_ok(cmd, d):
        fig.problem(f"{cmd.name}: a run that exited 0 left its output incomplete")
        return
    if cmd.compare is not None and ref is not None:
        fig.compared += 1
        if cmd.compare(d, ref):
            fig.same += 1
        else:
            fig.problem(f"{cmd.name}: a resumed run's output differs from an uninterrupted "
                        f"run's")


def kill_runs(cmd: Command, d: Path, ref: Path | None, kills: int, seconds: float,
              rng: random.Random) -> Figures:
    """Start ``cmd`` in ``d`` and SIGKILL it at a random moment in 0.2..``seconds`` s,
    checking the finished pieces after each kill and starting it again (it resumes), until
    ``kills`` kills; a run that ends first is checked whole and its output removed for the
    next. The last run resumed is let finish."""
    fig = Figures()
    while True:
        if cmd.name == "play" and (d / "game.json").exists() and _finished_ok(cmd, d):
            # the game ended and was saved by a run killed before it exited: nothing to resume
            _verify_finished(cmd, d, ref, fig)
            if fig.kills >= kills:
                break
            cmd.reset(d)
        proc = cmd.run(d)
        fig.starts += 1
        if fig.kills >= kills:
            code, err = _finish(proc)
            if code != 0 or TRACE in err:
                fig.problem(f"{cmd.name}: the resumed run failed ({code}): {err[-400:]}")
            else:
                _verify_finished(cmd, d, ref, fig)
            break
        at = time.monotonic() + rng.uniform(0.2, seconds)
        before = cmd.snapshot(d)
        while time.monotonic() < at and proc.poll() is None:
            before = cmd.snapshot(d)  # as late as possible: what is on the disk now
            time.sleep(0.02)
        if proc.poll() is not None:  # it ended before the moment came
            code, err = _finish(proc)
            if code != 0 or TRACE in err:
                fig.problem(f"{cmd.name}: exit {code} before the kill: {err[-400:]}")
                break
            cmd.check(d, before, fig)
            _verify_finished(cmd, d, ref, fig)
            cmd.reset(d)
            continue
        _kill(proc, fig)
        fig.kills += 1
        cmd.check(d, before, fig)
    return fig


@contextlib.contextmanager
def tmpfs(size: int, mount: bool = True) -> Iterator[Path | None]:
    """A tmpfs of ``size`` bytes (None where one cannot be mounted: not root, no mount)."""
    where = Path(tempfile.mkdtemp(prefix="arle-crash-disk-"))
    mounted = False
    try:
        if mount and os.geteuid() == 0:
            out = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                                  str(where)], capture_output=True, text=True)
            mounted = out.returncode == 0
        yield where if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", str(where)], check=False)
        shutil.rmtree(where, ignore_errors=True)


def _fill(disk: Path, leave: int) -> Path:
    """Fill ``disk`` but for about ``leave`` bytes (with a file that can be removed)."""
    filler = disk / "filler"
    st = os.statvfs(disk)
    free = st.f_bavail * st.f_frsize
    with open(filler, "ab", buffering=0) as fh:
        chunk = b"\0" * 4096
        todo = max(0, free - leave)
        with contextlib.suppress(OSError):
            while todo > 0:
                fh.write(chunk[:min(len(chunk), todo)])
                todo -= len(chunk)
    return filler


def _size(paths: list[Path]) -> int:
    total = 0
    for p in paths:
        if p.is_dir():
            total += sum(q.stat().st_size for q in p.rglob("*") if q.is_file())
        elif p.exists():
            total += p.stat().st_size
    return total


def _largest_file(paths: list[Path]) -> int:
    sizes = [0]
    for p in paths:
        if p.is_dir():
            sizes += [q.stat().st_size for q in p.rglob("*") if q.is_file()]
        elif p.exists():
            sizes.append(p.stat().st_size)
    return max(sizes)


@contextlib.contextmanager
def _full_disk(disk: Path, tmpfs_mounted: bool, leave: int) -> Iterator[None]:
    """The disk (a tmpfs) filled but for ``leave`` bytes, or (no tmpfs) no file larger than
    ``leave`` bytes for the commands started meanwhile; freed after."""
    global _file_size_limit
    if tmpfs_mounted:
        filler = _fill(disk, leave)
        try:
            yield
        finally:
            filler.unlink()
    else:
        _file_size_limit = leave
        try:
            yield
        finally:
            _file_size_limit = None


def disk_runs(cmd: Command, ref: Path, runs: int, rng: random.Random,
              prepare: Callable[[Path], None], mount: bool = True) -> Figures:
    """Run ``cmd`` on a tmpfs filled but for a random share of its output (or under a random
    RLIMIT_FSIZE), ``runs`` times, then free the space and let it finish."""
    fig = Figures()
    whole = _size(cmd.outputs(ref))
    with tmpfs(whole * 2 + (1 << 20), mount) as mounted:
        fig.disk = "tmpfs" if mounted is not None else "RLIMIT_FSIZE"
        disk = mounted if mounted is not None else Path(tempfile.mkdtemp(
            prefix="arle-crash-rlimit-"))
        most = whole if mounted is not None else _largest_file(cmd.outputs(ref))
        try:
            prepare(disk)
            code = 1
            for _ in range(runs):
                before = cmd.snapshot(disk)
                with _full_disk(disk, mounted is not None, rng.randrange(0, max(4096, most))):
                    code, err = _finish(cmd.run(disk))
                fig.full_disk_runs += 1
                last = err.strip().splitlines()[-1] if err.strip() else ""
                if TRACE in err:
                    fig.problem(f"{cmd.name} on a full disk printed a traceback: {err[-600:]}")
                    fig.full_disk_outcomes["traceback"] += 1
                elif code == 0:
                    fig.full_disk_outcomes["finished"] += 1
                elif last.startswith("arle:"):
                    fig.full_disk_outcomes["one-line error"] += 1
                else:
                    fig.problem(f"{cmd.name} on a full disk: exit {code}, {last!r}")
                    fig.full_disk_outcomes[f"exit {code}"] += 1
                cmd.check(disk, before, fig)
                if code == 0:
                    break
            if code != 0:  # not finished on the full disk: again with the space freed
                code, err = _finish(cmd.run(disk))
                fig.starts += 1
                if code != 0:
                    fig.problem(f"{cmd.name} with the space freed: exit {code}: {err[-400:]}")
            fig.finished = code == 0 and _finished_ok(cmd, disk)
            if cmd.compare is not None and fig.finished:
                fig.same_as_uninterrupted = cmd.compare(disk, ref)
                if not fig.same_as_uninterrupted:
                    fig.problem(f"{cmd.name}: the run finished after a full disk differs from "
                                f"an uninterrupted run's")
        finally:
            if mounted is None:
                shutil.rmtree(disk, ignore_errors=True)
    return fig


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=8, help="SIGKILLs per command")
    parser.add_argument("--disk-runs", type=int, default=3, help="full-disk runs per command")
    parser.add_argument("--seed", type=int, default=0, help="seeds the kill moments")
    parser.add_argument("--no-disk", action="store_true", help="no full-disk runs")
    parser.add_argument("--rlimit", action="store_true",
                        help="a file size limit (RLIMIT_FSIZE) for the full disk, not a tmpfs")
    parser.add_argument("--only", nargs="+", choices=["selfplay", "datagen", "train", "play"])
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    if not Path("/proc/self/stat").exists():
        sys.exit("needs Linux's /proc (to find the killed commands' workers)")
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="arle-crash-"))
    failed = False
    print(f"work folder {work}; load {os.getloadavg()[0]:.1f}", flush=True)
    try:
        # uninterrupted runs: the reference outputs, the training data and the run times
        ref = work / "reference"
        ref.mkdir()
        times = {}
        for name, args_ in (("selfplay", [*SELFPLAY, "r.jsonl"]), ("datagen", [*DATAGEN, "d.npz"])):
            start = time.monotonic()
            code, err = _finish(_start(args_, ref))
            times[name] = time.monotonic() - start
            if code != 0:
                sys.exit(f"the uninterrupted {name} failed: {err[-800:]}")
        data = ref / "d.npz"
        start = time.monotonic()
        code, err = _finish(_start(["train", str(data), "-o", "w.npz", *TRAIN_EPOCHS], ref))
        times["train"] = time.monotonic() - start
        if code != 0:
            sys.exit(f"the uninterrupted train failed: {err[-800:]}")
        start = time.monotonic()
        code, err = _finish(_start([*PLAY, "--out", str(ref / "game.json")], ref, PLAY_INPUT))
        times["play"] = time.monotonic() - start
        if code != 0:
            sys.exit(f"the uninterrupted play failed: {err[-800:]}")
        print("uninterrupted runs (wall s): " + ", ".join(f"{k} {v:.1f}" for k, v in times.items()),
              flush=True)

        commands = {"selfplay": _selfplay(), "datagen": _datagen(), "train": _train(data),
                    "play": _play()}
        chosen = args.only or list(commands)
        for name in chosen:
            cmd = commands[name]
            d = work / f"kill-{name}"
            d.mkdir()
            if name == "train":  # an old weights file to keep or replace whole
                shutil.copy2(ref / "w.npz", d / "w.npz")
            fig = kill_runs(cmd, d, ref, args.kills, max(0.5, times[name] * 1.2), rng)
            failed |= bool(fig.problems) or not fig.runs_finished
            same = f", {fig.same} of {fig.compared} as uninterrupted" if fig.compared else ""
            print(f"{name:9} SIGKILL: {fig.kills} kills, {fig.pieces_checked} finished pieces "
                  f"checked, {fig.pieces_lost} lost, {fig.orphans} orphans; {fig.starts} starts, "
                  f"{fig.runs_finished} runs finished{same}", flush=True)
        if not args.no_disk:
            for name in chosen:
                cmd = commands[name]

                def prepare(disk: Path, name: str = name) -> None:
                    if name == "train":  # old weights, to be kept whole or replaced whole
                        shutil.copy2(ref / "w.npz", disk / "w.npz")
                    if name == "play":  # a game saved so far, to be resumed on the full disk
                        code, err = _finish(_start([*PLAY, "--out", str(disk / "game.json")],
                                                   disk, PLAY_INPUT[:2 * PLAY_SAVED] + "quit\n"))
                        if code != 0:
                            sys.exit(f"play could not save a game to resume: {err[-800:]}")

                fig = disk_runs(cmd, ref, args.disk_runs, rng, prepare, not args.rlimit)
                failed |= bool(fig.problems) or not fig.finished
                outcomes = ", ".join(f"{k} {v}" for k, v in sorted(fig.full_disk_outcomes.items()))
                print(f"{name:9} full disk ({fig.disk}): {fig.full_disk_runs} runs ({outcomes}), "
                      f"{fig.pieces_checked} finished pieces checked, {fig.pieces_lost} lost, "
                      f"finished once freed {fig.finished}, same as uninterrupted "
                      f"{fig.same_as_uninterrupted}", flush=True)
        print(f"load {os.getloadavg()[0]:.1f}; {'FAILED' if failed else 'all checks passed'}")
        return 1 if failed else 0
    finally:
        if args.keep:
            print(f"work folder kept: {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
