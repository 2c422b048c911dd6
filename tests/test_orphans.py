"""Worker processes end when their parent dies, however it dies (issue 29, reproduction 6):
SIGKILL of a parallel selfplay orphaned its workers and multiprocessing's resource tracker,
which finished a game and then waited forever. Each pool is checked: selfplay's, datagen's,
the parallel search's and the web server's search processes (via the forkserver).

Linux only: the processes are found through /proc.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import alive, descendants, wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="finds processes through /proc")

ARLE = [sys.executable, "-m", "arle_cli.entry"]


def kill_and_check(parent: subprocess.Popen, workers: int, within: float = 60.0) -> None:
    """Wait until ``parent`` has ``workers`` processes below it, SIGKILL it, and check that
    every one of them ends by itself (``within`` seconds: a bound for a hang on a loaded
    machine, far below the work left to them, not a measurement: orphans block forever)."""
    wait_for(lambda: len(descendants(parent.pid)) >= workers, 120, f"{workers} workers")
    below = descendants(parent.pid)
    parent.kill()
    parent.wait()
    end = time.monotonic() + within
    while any(alive(p) for p in below) and time.monotonic() < end:
        time.sleep(0.05)
    left = sorted(p for p in below if alive(p))
    for p in left:  # do not leave them to the next test
        os.kill(p, signal.SIGKILL)
    assert left == [], f"{len(left)} of {len(below)} processes outlived their parent"


def test_selfplay_workers_and_resource_tracker_end_with_a_killed_parent(tmp_path):
    p = subprocess.Popen([*ARLE, "selfplay", "--agents", "mcts:iterations=400", "greedy",
                          "--games", "40", "--workers", "2", "--out", str(tmp_path / "r.jsonl")],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kill_and_check(p, 3)  # two workers and the resource tracker


def test_datagen_workers_end_with_a_killed_parent(tmp_path):
    p = subprocess.Popen([*ARLE, "datagen", "-o", str(tmp_path / "d.npz"), "--games", "20",
                          "--iterations", "3000", "--workers", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kill_and_check(p, 2)


def test_search_pool_workers_end_with_a_killed_parent():
    p = subprocess.Popen([*ARLE, "suggest", "--time", "120", "--workers", "2"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kill_and_check(p, 2)


def test_web_searches_end_with_a_killed_server():
    """An AI move's search sends nothing until it is done: it used to run its 30 s."""
    p = subprocess.Popen([*ARLE, "serve", "--port", "0"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    try:
        assert p.stderr is not None
        line = p.stderr.readline()
        url = re.search(r"open (http://\S+/)", line)
        assert url, line
        base = url.group(1)

        def post(path: str, body: dict, timeout: float = 60) -> dict:
            req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "Origin": base.rstrip("/")})
            with urllib.request.urlopen(req, timeout=timeout) as reply:
                return json.loads(reply.read())

        gid = post("api/games", {"seed": 1})["id"]
        asking = threading.Thread(target=lambda: _ignore_errors(
            post, f"api/games/{gid}/ai", {"ai": {"kind": "mcts", "seconds": 30}}),
            daemon=True)
        asking.start()
        # the forkserver and the AI's search; an orphaned search would end after its 30 s:
        # the bound stays well under that
        kill_and_check(p, 2, within=15)
        asking.join(60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


def _ignore_errors(call: Callable[..., object], *args: object) -> None:
    try:
        call(*args)
    except OSError:  # the server was killed under the request
        pass
