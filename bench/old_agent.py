"""An agent that runs the MCTS of another build of arle-ai (for example commit 26a9462 built in
a second venv) in a subprocess, for matches old against new:

    arle selfplay --agents mcts:time=0.25 \\
        "py:bench.old_agent.OtherBuildMCTS:python='/work/wt/i12-old/.venv/bin/python',time=0.25" \\
        --games 100 --out bench/results/new-vs-old.jsonl

The position goes over a pipe in the documented position format; the other build searches it
with ``MCTS(time_limit=time, seed=seed)`` (its defaults otherwise, tree reuse included) and
answers the chosen action id. The search time is the other build's own; the pipe adds about a
millisecond a move outside it.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from arle_ai.engine import _core
from arle_ai.play.agents import Agent

_SERVER = r"""
import json, sys
from arle_ai import GameState
try:
    from arle_ai.search.mcts import MCTS
except ImportError:  # a build from before the layer packages (9884162 and older)
    from arle_ai.mcts import MCTS
options = json.loads(sys.argv[1])
search = MCTS(**options)
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("reset"):
        search = MCTS(**options)
        print(json.dumps({"ok": True}), flush=True)
        continue
    state = GameState.from_json(msg["position"])
    result = search.search(state)
    print(json.dumps({"action": result.best_action, "iterations": result.iterations}),
          flush=True)
"""


class OtherBuildMCTS(Agent):
    """MCTS of the arle-ai installed for the interpreter `python`, searching `time` seconds
    (or `iterations` simulations) a move."""

    name = "other-build-mcts"

    def __init__(self, seed: int = 0, python: str = "python", time: float | None = 0.25,
                 iterations: int | None = None) -> None:
        self.seed = seed
        self.python = python
        self.options: dict[str, Any] = {"seed": seed}
        if iterations is not None:
            self.options["iterations"] = iterations
        if time is not None and iterations is None:
            self.options["time_limit"] = time
        self.proc: subprocess.Popen | None = None
        self.iterations: list[int] = []

    def _ask(self, msg: dict) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            # -I (isolated): a PYTHONPATH meant for this build (a source tree) must not make
            # the other interpreter import this build's arle_ai instead of its own
            self.proc = subprocess.Popen(
                [self.python, "-I", "-c", _SERVER, json.dumps(self.options)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the other build ({self.python}) stopped answering")
        return json.loads(line)

    def select(self, state: _core.GameState) -> int:
        position = json.loads(state.to_json(indent=None))
        if position["setup"].get("players") == 2:
            # the two-player default, a field builds before the solo game (3e0284b) refuse
            del position["setup"]["players"]
        reply = self._ask({"position": json.dumps(position)})
        self.iterations.append(reply["iterations"])
        return reply["action"]

    def reset(self) -> None:
        if self.proc is not None:
            self._ask({"reset": True})

    def __getstate__(self) -> dict[str, Any]:
        return {"seed": self.seed, "python": self.python, "options": self.options}

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.seed = d["seed"]
        self.python = d["python"]
        self.options = d["options"]
        self.proc = None
        self.iterations = []

    def __del__(self) -> None:
        if getattr(self, "proc", None) is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except Exception:
                self.proc.kill()
