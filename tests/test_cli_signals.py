"""The commands that play many games end on SIGTERM (``kill``, a shutdown) and SIGHUP (the
terminal closed, an SSH connection dropped) as on Ctrl-C: exit 130, one line saying what is
kept and that the same command resumes, every worker process gone, nothing of Ray's on the
way out (issue 29, item 10: ``--backend ray`` answered SIGTERM with Ray core's crash report,
``*** SIGTERM received ...`` and a stack of addresses, exit 15; the local pool died silently
with exit 143, a hangup the same).

Linux only: the processes are found through /proc.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import alive, descendants, wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds processes through /proc")

ARLE = [sys.executable, "-m", "arle_cli.entry"]


def finished_games(out: Path) -> int:
    """Games kept so far by selfplay (results lines after the header) or datagen (parts)."""
    if out.suffix == ".jsonl":
        return max(0, len(out.read_text().splitlines()) - 1) if out.exists() else 0
    parts = out.with_name(out.name + ".parts")
    return len(list(parts.glob("game-*.npz"))) if parts.exists() else 0


def stop_and_check(args: list[str], out: Path, sig: signal.Signals, tmp_path: Path,
                   workers_end: float = 30) -> str:
    """Run ``arle ARGS`` until it has kept a game, send ``sig``, and check how it ends (every
    process below it gone within ``workers_end`` seconds, a bound for a hang); its stderr."""
    err = tmp_path / "stderr"
    with open(err, "wb") as fh:
        proc = subprocess.Popen([*ARLE, *args], stdout=subprocess.DEVNULL, stderr=fh,
                                cwd=tmp_path)
    try:
        wait_for(lambda: finished_games(out) >= 1 or proc.poll() is not None, 180,
                 "a finished game")
        assert proc.poll() is None, err.read_text()
        below = descendants(proc.pid)
        proc.send_signal(sig)
        code = proc.wait(120)
        wait_for(lambda: not any(alive(p) for p in below), workers_end, "the workers' end")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p in descendants(proc.pid):  # do not leave them to the next test
            os.kill(p, signal.SIGKILL)
    text = err.read_text()
    assert code == 130, text
    lines = [line for line in text.splitlines() if line.strip()]
    assert lines[-1].startswith("arle: interrupted: ") and lines[-1].endswith(
        "the same command resumes"), text
    assert "Traceback" not in text and "SIGTERM received" not in text, text
    return lines[-1]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_selfplay_with_workers_ends_as_on_ctrl_c(tmp_path, sig):
    out = tmp_path / "r.jsonl"
    last = stop_and_check(["selfplay", "--agents", "mcts:iterations=300", "greedy", "--games",
                           "40", "--workers", "2", "--out", str(out)], out, sig, tmp_path)
    kept = finished_games(out)
    assert f"holds the {kept} finished games of 40" in last and kept >= 1


def test_datagen_with_workers_ends_as_on_ctrl_c(tmp_path):
    out = tmp_path / "d.npz"
    last = stop_and_check(["datagen", "-o", str(out), "--games", "12", "--iterations", "60",
                           "--workers", "2"], out, signal.SIGTERM, tmp_path)
    assert f"{finished_games(out)} of 12 games are saved in" in last


def test_selfplay_on_a_ray_it_started_ends_as_on_ctrl_c(tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "r.jsonl"
    # the local Ray cluster's own processes (raylet, GCS, workers) end with ray.shutdown(), in
    # seconds when idle; under CI's load once more than 30 s (a clean clone, 2026-12-05)
    stop_and_check(["selfplay", "--agents", "mcts:iterations=300", "greedy", "--games", "40",
                    "--backend", "ray", "--workers", "2", "--out", str(out)], out,
                   signal.SIGTERM, tmp_path, workers_end=90)


def test_learn_with_workers_ends_as_on_ctrl_c(tmp_path):
    run = tmp_path / "run"
    last = stop_and_check(["learn", str(run), "--generations", "1", "--games", "12",
                           "--iterations", "60", "--workers", "2"],
                          run / "gen-001" / "data.npz", signal.SIGTERM, tmp_path)
    assert f"{run} keeps every finished piece" in last
