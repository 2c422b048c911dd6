"""Fuzz the ``arle`` commands: random and bad arguments, malformed files, odd answers at the
prompts; every run must end with exit 0, 1 or 2 (2 with one ``arle: error:`` line), print no
traceback, and leave the input files as they were.

    python bench/fuzz_cli.py [--runs N] [--seconds S] [--seed N] [--command NAME ...]

Runs in-process (click's CliRunner) in a scratch folder with a corpus of good and damaged
files: positions, game records, results files, training data, plus a directory, a fifo, an
empty file, binary noise, truncated and retyped JSON, deep nesting, long names, /dev/zero.
Budget options get small valid values (so runs stay short) or invalid ones. ``arle serve``
binds its socket but does not serve. A failure prints the reproducing command line and the
end of its traceback; the exit status is 1 when any run failed.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import hashlib
import json
import math
import os
import random
import shlex
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner

import arle_ai
from arle_ai.formats.records import GameRecord
from arle_ai.play.agents import RandomAgent

SLOW_SECONDS = 30.0  # one run longer than this is stopped and counted as slow, not failed

BUDGETS = {"--games", "--iterations", "--epochs", "--hint-iterations", "--explore", "--batch",
           "--hidden", "--top", "--max-memory", "--workers", "--time", "--ply"}
AGENT_SPECS = [
    "random", "greedy", "mcts:iterations=5", "mcts:time=0.05", "RANDOM", " random ",
    "mcts:iterations=nan", "mcts:iterations=0", "mcts:iterations=-3", "mcts:time=nan",
    "mcts:time=inf", "mcts:time=-1", "mcts:iterations=99999999999999999999999", "mcts:c=nan",
    "mcts:bogus=1", "mcts:iterations", "mcts:,,,", "mcts:iterations=5,iterations=6", "", ":",
    "py:", "py:nonexistent_mod.Agent", "py:os.path", "py:os.system", "py:exiting_import.Agent",
    "py:exiting_agent.Exit", "py:exiting_agent.ExitInInit", "py:exiting_agent.Interrupt",
    "py:exiting_agent.Raises", "py:exiting_agent.Illegal", "py:exiting_agent.Exit:x=1",
    "py:exiting_agent.Exit:x=(", "py:" + "a." * 200 + "X", "human", "x" * 5000, "\x00", "é",
    "mcts:eval=net", "mcts:eval=net,net=/dev/zero", "mcts:eval=net,net=binary.bin",
    "mcts:eval=bogus",
]
HOSTS = ["127.0.0.1", "localhost", "::1", "", "a" * 300, "a." * 100, "999.1.1.1", "-", "é",
         "xn--", "\x00", "a" * 63 + ".b", "bad host", "[::1]", "localhost:80", "0.0.0.0"]
NAMES = ["Fisherman", "fisherman", "carpenter", "ox", "horse", "cart", "", " ", "x" * 10_000,
         "\x00", "é", "Farmer's House", "'", "%s", "{}", "peat", "nonexistent thing", "-"]
STRINGS = ["", " ", "-", "--", "x" * 10_000, "\x00", "\udcff", "é", "%n", "{0}", "nan", "1e999"]
FLOATS = ["nan", "-nan", "inf", "-inf", "1e309", "-1", "0", "-0.0", "1e-320", "0.5", "2", "101",
          "1e6", "", "x", "0x10", "1_0"]
ANSWERS = ["", "quit", "q", "1", "2", "0", "-1", "999999", "hint", "undo", "show", "list", "log",
           "help", "x" * 20_000, "\x00", "é", "1 2 3", "timber 2", "food 999999999999999999",
           "P0 Fisherman; P1 Grocer", "place", "%s", "yes", "no", "9" * 400]


def make_corpus(root: Path, seed: int) -> dict[str, list[str]]:
    """Write the good and damaged files into ``root``; return them by what they should be."""
    rng = random.Random(seed)
    pos = arle_ai.new_game(seed=1)
    (root / "pos.json").write_text(pos.to_json())
    rec = GameRecord.new(seed=4, players=["random", "random"])
    state, agent = rec.start.copy(), RandomAgent(seed=4)
    while not state.is_terminal():
        a = agent.select(state)
        state.apply(a)
        rec.actions.append(a)
    rec.save(root / "rec.json")
    half = copy.deepcopy(json.loads((root / "rec.json").read_text()))
    half["moves"] = half["moves"][: len(half["moves"]) // 2]
    (root / "half.json").write_text(json.dumps(half))

    from arle_ai.play.tournament import Tournament

    Tournament(["random", "greedy"], 2, seed=3).run(out=root / "results.jsonl")
    from arle_ai.learn.datagen import DatagenConfig, generate

    generate(root / "data.npz", DatagenConfig(games=2, seed=0, iterations=5, explore=2))

    (root / "exiting_import.py").write_text("import sys\nsys.exit(3)\n")
    (root / "exiting_agent.py").write_text(
        "import sys\nfrom arle_ai.play.agents import Agent\n\n"
        "class Exit(Agent):\n    def __init__(self, seed=0, x=0):\n        pass\n"
        "    def select(self, state):\n        sys.exit(4)\n\n"
        "class ExitInInit(Agent):\n    def __init__(self, seed=0):\n        sys.exit(5)\n"
        "    def select(self, state):\n        return state.legal_actions()[0]\n\n"
        "class Interrupt(Agent):\n    def __init__(self, seed=0):\n        pass\n"
        "    def select(self, state):\n        raise KeyboardInterrupt\n\n"
        "class Raises(Agent):\n    def __init__(self, seed=0):\n        pass\n"
        "    def select(self, state):\n        raise MemoryError('x')\n\n"
        "class Illegal(Agent):\n    def __init__(self, seed=0):\n        pass\n"
        "    def select(self, state):\n        return 10**30\n")

    good = {"position": ["pos.json"], "record": ["rec.json", "half.json"],
            "results": ["results.jsonl"], "data": ["data.npz"]}
    bad: list[str] = []

    def write(name: str, data: bytes | str) -> None:
        p = root / name
        if isinstance(data, str):
            p.write_text(data, encoding="utf-8")
        else:
            p.write_bytes(data)
        bad.append(name)

    write("empty.json", b"")
    write("binary.bin", bytes(rng.randrange(256) for _ in range(4096)))
    write("nul.json", b'{"a": "\x00"}\x00')
    write("bom.json", "\ufeff" + pos.to_json())
    write("utf16.json", pos.to_json().encode("utf-16"))
    write("latin1.json", '{"x": "\xe9"}'.encode("latin-1"))
    write("deep.json", "[" * 100_000 + "]" * 100_000)
    write("deepobj.json", '{"a":' * 5000 + "1" + "}" * 5000)
    write("bignum.json", "1" * 100_000)
    write("floatbig.json", '{"half_year": 1e999}')
    write("array.json", "[]")
    write("null.json", "null")
    write("string.json", '"position"')
    write("number.json", "3")
    write("nan.json", "NaN")
    write("dupkeys.json", '{"format": 1, "format": 2}')
    write("results_bad.jsonl", (root / "results.jsonl").read_text()[:-40] + "\n{not json\n")
    write("results_types.jsonl", "\n".join(['{"format": 1}', "[]", "null", '"x"']))
    for base in ("pos.json", "rec.json", "half.json", "results.jsonl"):
        text = (root / base).read_text()
        for k in range(3):
            cut = rng.randrange(1, len(text))
            write(f"trunc{k}_{base}", text[:cut])
            flip = bytearray(text.encode())
            i = rng.randrange(len(flip))
            flip[i] ^= 1 << rng.randrange(8)
            write(f"flip{k}_{base}", bytes(flip))
        if base.endswith(".json"):
            for k in range(6):
                write(f"retyped{k}_{base}", json.dumps(retype(json.loads(text), rng)))
    data = (root / "data.npz").read_bytes()
    write("trunc_data.npz", data[: len(data) // 2])
    write("notnpz.npz", b"PK\x03\x04" + bytes(100))
    import numpy as np

    np.savez(root / "wrongarrays.npz", player=np.zeros(3), x=np.array(["a"]))
    bad.append("wrongarrays.npz")
    np.savez(root / "objarrays.npz", player=np.array([{}], dtype=object))
    bad.append("objarrays.npz")
    (root / "adir").mkdir()
    bad.append("adir")
    os.mkfifo(root / "fifo")
    os.symlink("nowhere", root / "dangling")
    bad.extend(["dangling", "missing.json", "x" * 300, "adir/../missing/x.json", "/dev/zero",
                "/dev/null", "/proc/self/status", "a\x00b", "", "-", "é.json", "/"])
    return {**good, "bad": bad}


def retype(value: Any, rng: random.Random) -> Any:
    """``value`` with one node somewhere inside replaced by a value of another type."""
    odd = [None, True, -1, 2**70, 1e308, -0.0, "x", "", [], {}, [1, "a"], {"a": None},
           "ox" * 1000, 10**30]
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        value[key] = retype(value[key], rng)
        if rng.random() < 0.1:
            value[rng.choice(["x", "", "__proto__", key.upper()])] = rng.choice(odd)
        return value
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        value[i] = retype(value[i], rng)
        return value
    return rng.choice(odd)


def pick_value(option: click.Parameter, rng: random.Random, files: dict[str, list[str]],
               bad_rate: float = 0.5) -> list[str]:
    """Text for one option or argument: a bad value with probability ``bad_rate``."""
    bad_turn = rng.random() < bad_rate
    name = option.opts[0]
    t = option.type
    if isinstance(option, click.Option) and option.is_flag:
        return [name]
    if isinstance(t, click.Path):
        good_kind = {"record": "record", "data": "data"}.get(option.name or "", rng.choice(
            ["position", "record"]))
        pool = files["bad"] if bad_turn else files[good_kind]
        if name in ("-o", "--out", "--output", "file"):
            fresh = [f"new{rng.randrange(10**6)}.json"]
            pool = (pool + ["adir", "fifo", "/dev/full", "x" * 300 + ".json", "missing/x.json",
                            "/proc/version"]) if bad_turn else fresh + pool
        return [rng.choice(pool)]
    if isinstance(t, click.Choice):
        return [rng.choice(["bogus", "", "STANDARD"] if bad_turn else list(t.choices))]
    if isinstance(t, click.Tuple):
        return [rng.choice(FLOATS if bad_turn else ["-10", "0", "10", "5"]) for _ in t.types]
    if name in ("--ai", "--agents"):
        return [rng.choice(AGENT_SPECS if bad_turn else AGENT_SPECS[:4])]
    if name == "--host":
        return [rng.choice(HOSTS)]
    if name == "--address":
        return [rng.choice(["auto", "", "127.0.0.1:1", "x" * 300, "ray://nowhere:1"])]
    if option.name == "name":
        return [rng.choice(NAMES)]
    if isinstance(t, (click.IntRange, click.FloatRange)) or t.name in ("integer", "seconds"):
        lo = getattr(t, "min", None)
        hi = getattr(t, "max", None)
        bad = ["-1", "1.5", "x", "", "1e3", str(2**64), str(-(2**64)), "nan", " 2", "0"]
        if lo is not None:
            bad.append(str(lo - 1))
        if hi is not None:
            bad += [str(hi + 1), str(hi * 10)]
        if name in BUDGETS or option.name == "time":
            good = ["1", "2", "3"] if name not in ("--time",) else ["0.05", "0.1"]
            if name == "--games":
                good = ["2", "1"]
            if name == "--workers":
                good = ["1", "2"]
        else:
            good = [str(x) for x in (lo, hi, 1) if x is not None and not (
                isinstance(x, float) and not math.isfinite(x))]
        if isinstance(t, click.FloatRange) or t.name == "seconds":
            bad += FLOATS
        return [rng.choice(bad if bad_turn else good)]
    return [rng.choice(STRINGS)]


def make_args(command: click.Command, rng: random.Random, files: dict[str, list[str]]
              ) -> list[str]:
    """A random argument list for ``command``: each parameter present or not, some twice,
    now and then an unknown option or a stray argument. A run is all good values, a few
    bad ones or many (most runs with many stop at the first)."""
    bad_rate = rng.choice([0.0, 0.0, 0.1, 0.5])
    args: list[str] = []
    for p in command.params:
        if isinstance(p, click.Argument):
            if p.required or rng.random() < 0.7:
                args += pick_value(p, rng, files, bad_rate)
            continue
        if p.required or rng.random() < 0.4:
            for _ in range(2 if rng.random() < 0.05 else 1):
                opt = rng.choice(p.opts)
                value = pick_value(p, rng, files, bad_rate)
                args += value if value == [opt] else [opt, *value]
                if p.name == "agents" and rng.random() < 0.8:
                    args.append(rng.choice(AGENT_SPECS[:6]))
    if command.name in ("suggest", "analyze") and "--iterations" not in args and (
            "--time" not in args):
        args += ["--iterations", "5"]  # keep the default time budgets out of the runs
    if command.name == "play" and "--ai" not in args:
        args += ["--ai", "random"]
    if command.name == "selfplay" and "--games" not in args:
        args += ["--games", "2"]
    if command.name == "datagen":  # the defaults are 100 games of 200 iterations
        args += [] if "--games" in args else ["--games", "1"]
        args += [] if "--iterations" in args else ["--iterations", "3"]
    if bad_rate and rng.random() < 0.05:
        args.insert(rng.randrange(len(args) + 1), rng.choice(["--bogus", "-z", "stray", "--"]))
    if rng.random() < 0.03:
        args.append(rng.choice(["--help", "-h"]))
    return args


def make_input(rng: random.Random) -> str:
    """Answers for the prompts of play and edit (they end with end of input)."""
    lines = [rng.choice(ANSWERS) for _ in range(rng.randrange(0, 30))]
    if rng.random() < 0.4:  # Enter keeps a value: enough of them reach the end of edit
        lines += [""] * 200
    if rng.random() < 0.3:
        lines.append("quit")
    return "\n".join(lines) + ("\n" if rng.random() < 0.5 else "")


class Slow(BaseException):
    """A run over SLOW_SECONDS, stopped by the alarm."""


def _alarm(signum: int, frame: Any) -> None:
    raise Slow()


def digest(root: Path) -> dict[str, str]:
    """The content hash of every regular file in the corpus folder."""
    out = {}
    for p in root.rglob("*"):
        if p.is_file() and not p.is_symlink():
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@contextlib.contextmanager
def no_serving() -> Iterator[None]:
    """``arle serve`` checks and binds as usual, then returns instead of serving forever."""
    try:
        import uvicorn
    except ModuleNotFoundError:
        yield
        return

    async def serve(self: Any, sockets: Any = None) -> None:
        return None

    real = uvicorn.Server.serve
    uvicorn.Server.serve = serve  # type: ignore[method-assign]
    try:
        yield
    finally:
        uvicorn.Server.serve = real  # type: ignore[method-assign]


def outputs(args: list[str], command: str, cmd: click.Command) -> set[str]:
    """The files a run may write: its -o/--out/--output value, edit's FILE, play's record,
    datagen's parts, selfplay's lock."""
    out = set()
    for i, a in enumerate(args[:-1]):
        if a in ("-o", "--out", "--output"):
            out.add(args[i + 1])
    if command in ("edit", "play"):
        out.update(positionals(cmd, args[1:])[:1])
    return out


def positionals(cmd: click.Command, tokens: list[str]) -> list[str]:
    """The positional arguments among ``tokens`` as click reads them: not an option, not an
    option's value (``--seed 5``), and everything after ``--``."""
    valued = {o for p in cmd.params if isinstance(p, click.Option) and not p.is_flag
              and not p.count for o in p.opts}
    found, i = [], 0
    while i < len(tokens):
        token = tokens[i]
        if token == "--":
            return found + tokens[i + 1:]
        if token.startswith("-") and token != "-":
            i += 1 if token in valued else 0  # its value follows, unless written --opt=value
        else:
            found.append(token)
        i += 1
    return found


def check_run(command: str, args: list[str], result: Any, before: dict[str, str],
              after: dict[str, str], cmd: click.Command) -> str | None:
    """What is wrong with one run, or None."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-3:])
        return f"uncaught {type(exc).__name__}: {exc}\n{tb}"
    text = result.output + (result.stderr if result.stderr_bytes is not None else "")
    if "Traceback" in text:
        return "printed a traceback:\n" + text[text.index("Traceback"):][-1500:]
    if result.exit_code not in (0, 1, 2, 130):
        return f"exit code {result.exit_code}: {text[-500:]}"
    if result.exit_code == 2 and not any(
            line.startswith("arle: error: ") for line in result.stderr.splitlines()):
        if "Usage:" not in result.stderr:  # bare group: click's help, as documented
            return f"exit 2 without an 'arle: error:' line: {result.stderr[-500:]!r}"
    written = outputs(args, command, cmd)
    for name, h in before.items():
        if after.get(name) != h and name not in written and not name.endswith(".lock") and (
                ".parts" not in name):
            return f"changed the input file {name}"
    if result.exit_code == 2:
        for name in written:
            if name in before and after.get(name) != before[name]:
                return f"exit 2 but {name} was changed"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300, help="runs at the most")
    parser.add_argument("--seconds", type=float, default=120, help="time budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--command", action="append", help="only these commands")
    parser.add_argument("--verbose", action="store_true",
                        help="print every run and the last line of its output")
    opts = parser.parse_args()
    from arle_cli.main import cli

    rng = random.Random(opts.seed)
    commands = sorted(opts.command or cli.commands)
    for c in commands:
        if c not in cli.commands:
            parser.error(f"no command {c!r}")
    failures: dict[str, tuple[str, list[str]]] = {}
    codes: Counter[tuple[str, int | str]] = Counter()
    start = time.perf_counter()
    old_cwd = os.getcwd()
    signal.signal(signal.SIGALRM, _alarm)
    import resource

    limit = 4 << 30  # an unbounded read (of /dev/zero, say) fails here, not the machine
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    with tempfile.TemporaryDirectory(prefix="arle-fuzz-") as tmp, no_serving():
        root = Path(tmp)
        os.chdir(root)
        sys.path.insert(0, str(root))
        try:
            files = make_corpus(root, opts.seed)
            runner = CliRunner()
            for run in range(opts.runs):
                if time.perf_counter() - start > opts.seconds:
                    break
                name = rng.choice(commands)
                args = [name, *make_args(cli.commands[name], rng, files)]
                stdin = make_input(rng) if name in ("play", "edit") else None
                before = digest(root)
                signal.setitimer(signal.ITIMER_REAL, SLOW_SECONDS)
                try:
                    result = runner.invoke(cli, args, input=stdin, catch_exceptions=True)
                except Slow:
                    codes[(name, "slow")] += 1
                    print(f"slow (> {SLOW_SECONDS:g} s): arle {shlex.join(args)}", flush=True)
                    continue
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                if isinstance(result.exception, Slow):
                    codes[(name, "slow")] += 1
                    print(f"slow (> {SLOW_SECONDS:g} s): arle {shlex.join(args)}", flush=True)
                    continue
                codes[(name, result.exit_code)] += 1
                if opts.verbose:
                    last = (result.output.strip().splitlines() or [""])[-1][:160]
                    print(f"{result.exit_code} arle {shlex.join(args)[:200]}\n    {last!r}")
                problem = check_run(name, args, result, before, digest(root), cli.commands[name])
                if problem is not None:
                    key = problem.splitlines()[0][:120]
                    if key not in failures:
                        failures[key] = (problem, args)
                        print(f"FAIL run {run}: arle {shlex.join(args)}"
                              + (f"  (stdin {stdin[:200]!r})" if stdin else "")
                              + f"\n  {problem.strip()[:2000]}", flush=True)
        finally:
            os.chdir(old_cwd)
    took = time.perf_counter() - start
    total = sum(codes.values())
    print(f"\n{total} runs in {took:.0f} s (seed {opts.seed}); exit codes by command:")
    for c in commands:
        row = {k[1]: v for k, v in codes.items() if k[0] == c}
        print(f"  {c:9} " + "  ".join(f"{code}: {n}" for code, n in sorted(
            row.items(), key=lambda kv: str(kv[0]))))
    print(f"{len(failures)} distinct failures")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
