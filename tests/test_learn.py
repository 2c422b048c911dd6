"""``arle learn``: the loop of self-play, training and gated promotion in a run folder, its
resumption after SIGKILL at any moment, the ledger and the chart."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arle_ai.learn.chart import chart_svg, nice_ticks
from arle_ai.learn.loop import (
    LearnError,
    LearnRun,
    LearnSettings,
    chained_elo,
    file_digest,
)
from arle_ai.learn.train import TrainConfig
from arle_ai.play.tournament import Tournament
from arle_cli.main import cli

# A generation in about a second: 2 self-play games at 10 iterations, 1 epoch, a gate of at
# most 4 games at 8 iterations a decision (reproducible, unlike a time budget).
TINY = ["--games", "2", "--iterations", "10", "--explore", "4", "--gate-iterations", "8",
        "--gate-games", "4", "--epochs", "1", "--hidden", "8", "--seed", "3"]
TINY_SETTINGS = LearnSettings(games=2, iterations=10, explore=4, gate_time=None,
                              gate_iterations=8, gate_games=4, seed=3,
                              train=TrainConfig(hidden=8, epochs=1, weight_decay=0.001,
                                                target_blend=0.5,
                                                ignore=("in_play.", "available.")))
ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")

# Runs the loop and kills itself (SIGKILL: nothing is cleaned up) right after the
# `occurrence`-th time the piece `target` (a path in the run folder) is kept.
KILLER = """
import os, signal, sys
from arle_ai.learn.loop import LearnRun
run_dir, target, occurrence = sys.argv[1], sys.argv[2], int(sys.argv[3])
seen = 0
def saved(path):
    global seen
    if os.path.relpath(path, run_dir) == target:
        seen += 1
        if seen == occurrence:
            os.kill(os.getpid(), signal.SIGKILL)
LearnRun(run_dir).run(1, on_saved=saved)
"""


def arle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arle_cli.entry", *args], env=ENV,
                          capture_output=True, text=True, timeout=120)


def kill_at(run_dir: Path, target: str, occurrence: int = 1) -> None:
    p = subprocess.run([sys.executable, "-c", KILLER, str(run_dir), target, str(occurrence)],
                       env=ENV, capture_output=True, text=True, timeout=120)
    assert p.returncode == -signal.SIGKILL, p.stderr


def stamps(run_dir: Path) -> dict[str, tuple[int, int]]:
    """(inode, mtime) of every kept piece: a piece redone would get a new one."""
    out = {}
    for p in run_dir.rglob("*"):
        if p.is_file() and p.name not in ("ledger.json", "chart.svg") \
                and not p.name.endswith(".tmp"):
            st = p.stat()
            out[p.relative_to(run_dir).as_posix()] = (st.st_ino, st.st_mtime_ns)
    return out


def gate_lines(path: Path) -> list[str]:
    head, *games = path.read_text(encoding="utf-8").splitlines()
    return [head, *sorted(games, key=lambda g: json.loads(g)["meta"]["game"])]


def gate_games(path: Path) -> list[tuple[int, list[str], list[int]]]:
    """(game, moves, scores) of a gate's games, in game order (the agents' names hold the
    run folder)."""
    return [(r["meta"]["game"], r["moves"], r["meta"]["scores"])
            for r in map(json.loads, gate_lines(path)[1:])]


def test_one_generation_resumes_after_sigkill_at_each_piece(tmp_path: Path) -> None:
    ref, run = tmp_path / "ref", tmp_path / "run"
    whole = arle("learn", str(ref), "--generations", "1", *TINY)
    assert whole.returncode == 0, whole.stderr
    assert "best: generation" in whole.stdout
    # a new run is started by the CLI (its settings), then killed right after pieces are kept
    started = subprocess.Popen([sys.executable, "-m", "arle_cli.entry", "learn", str(run),
                                "--generations", "1", *TINY], env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (run / "gen-001" / "data.npz.parts" / "game-000000.npz").exists():
        assert started.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    started.kill()
    started.wait()
    kept = stamps(run)
    for target, occurrence in (("gen-001/data.npz.parts", 1), ("gen-001/data.npz", 1),
                               ("gen-001/weights.npz", 1), ("gen-001/gate.jsonl", 2)):
        kill_at(run, target, occurrence)
        now = stamps(run)
        changed = {k for k in kept if k in now and now[k] != kept[k]}
        assert changed <= {"gen-001/gate.jsonl"}, changed  # appended to, never rewritten
        assert set(kept) <= set(now)
        kept = now
    assert (run / "gen-001" / "weights.npz").exists()
    assert len(gate_lines(run / "gen-001" / "gate.jsonl")) == 3  # header and 2 games
    resumed = arle("learn", str(run), "--generations", "1")
    assert resumed.returncode == 0, resumed.stderr
    now = stamps(run)
    assert {k for k in kept if now[k] != kept[k]} <= {"gen-001/gate.jsonl"}
    # the pieces are those of the run that was never interrupted
    mine, theirs = (json.loads((d / "ledger.json").read_text()) for d in (run, ref))
    for a, b in zip(mine["generations"], theirs["generations"], strict=True):
        assert a.get("weights_digest") == b.get("weights_digest")
        assert a.get("data", {}).get("digest") == b.get("data", {}).get("digest")
        gate_a, gate_b = a.get("gate"), b.get("gate")
        if gate_a is not None:
            assert gate_b is not None
            assert [gate_a[k] for k in ("wins", "draws", "losses", "decided", "accepted")] \
                == [gate_b[k] for k in ("wins", "draws", "losses", "decided", "accepted")]
    assert gate_games(run / "gen-001" / "gate.jsonl") == \
        gate_games(ref / "gen-001" / "gate.jsonl")
    assert len(mine["generations"]) == 2 and mine["generations"][1]["gate"]["decided"]
    assert (run / "chart.svg").read_text().startswith("<svg")
    again = arle("learn", str(run), "--generations", "1")
    assert again.returncode == 0 and "already has 1 generations" in again.stdout


def test_ledger_holds_each_generations_figures(tmp_path: Path) -> None:
    run = LearnRun(tmp_path / "run", TINY_SETTINGS)
    messages: list[str] = []

    class Log:
        def step(self, generation: int, name: str, done: int, total: int) -> None:
            messages.append(f"{generation} {name} {done}/{total}")

        def advance(self, done: int, note: str = "") -> None:
            pass

        def message(self, text: str) -> None:
            messages.append(text)

    ledger = run.run(2, reporter=Log())  # type: ignore[arg-type]
    assert [m.split()[1] for m in messages[:3]] == ["self-play", "training", "gate"]
    assert messages[3].startswith("generation 1 against generation 0: ")
    gens = ledger["generations"]
    assert [g["generation"] for g in gens] == [0, 1, 2]
    first = gens[1]
    assert first["data"]["games"] == 2 and first["data"]["positions"] > 100
    assert first["data"]["digest"] == file_digest(tmp_path / "run" / "gen-001" / "data.npz")
    assert 20 < first["data"]["mean_vp"] < 200
    report = first["train"]["report"]
    assert report["train_games"] == 1 and report["val_games"] == 1
    assert len(report["epochs"]) == 1 and report["val_margin_mae"] > 0
    assert first["train"]["data"] == ["gen-001/data.npz"]
    # the window: generation 2 trains on both generations' data
    assert gens[2]["train"]["data"] == ["gen-001/data.npz", "gen-002/data.npz"]
    for g in gens[1:]:
        gate = g["gate"]
        assert gate["decided"] and gate["played"] == gate["games"] == 4
        assert gate["wins"] + gate["draws"] + gate["losses"] == 4
        best = g["best_before"]
        assert gate["agents"][1].endswith(f"gen-{best:03d}/weights.npz")
        # the self-play data was searched by the best model of its time
        assert g["data"]["model"] == best
    assert ledger["best"] == max([0] + [g["generation"] for g in gens[1:] if g["promoted"]])
    on_disk = json.loads((tmp_path / "run" / "ledger.json").read_text())
    assert on_disk == json.loads(json.dumps(ledger))
    # a later call with more generations goes on from there; the same settings or none
    assert len(LearnRun(tmp_path / "run").history()) == 2
    with pytest.raises(LearnError, match=r"other settings: games 2 \(now 4\)"):
        LearnRun(tmp_path / "run", LearnSettings(**{**TINY_SETTINGS.__dict__, "games": 4}))


def fake_result(game: int, setup: int, cand_wins: bool) -> dict[str, Any]:
    seats = [0, 1] if game % 2 == 0 else [1, 0]
    winner_agent = 0 if cand_wins else 1
    return {"meta": {"game": game, "setup_index": setup, "pairing": [0, 1], "seats": seats,
                     "agents": ["a", "b"], "scores": [100, 90] if seats[0] == winner_agent
                     else [90, 100], "winner": seats.index(winner_agent),
                     "winner_agent": winner_agent, "start_player": 0, "tied": False}}


def judge(tmp_path: Path, outcomes: list[bool], settings: LearnSettings) -> dict[str, Any]:
    run = LearnRun(tmp_path / "j", settings)
    t = Tournament(["random", "greedy"], settings.gate_games)
    results = [fake_result(g, g // 2, won) for g, won in enumerate(outcomes)]
    return run._judge(t, results)


def test_the_gate_counts_whole_setups_and_decides_by_sprt(tmp_path: Path) -> None:
    s = LearnSettings(gate_games=40, sprt=(0.0, 100.0))
    # 20 wins and 4 losses: LLR past the upper bound (2.94), H1
    j = judge(tmp_path, [True] * 10 + [False, True] * 4 + [True] * 6, s)
    assert j["verdict"] == "H1" and j["accepted"] and j["decided"] and j["games"] == 24
    # a game whose seat-swapped twin is not played yet is not counted
    j2 = judge(tmp_path, [True] * 10 + [False, True] * 4 + [True] * 6 + [False], s)
    assert j2["games"] == 24 and j2["played"] == 25 and j2["llr"] == j["llr"]
    lost = judge(tmp_path, [False] * 12 + [True, False] * 4, s)
    assert lost["verdict"] == "H0" and lost["decided"] and not lost["accepted"]
    few = judge(tmp_path, [True, False] * 3, s)
    assert few["verdict"] == "continue" and not few["decided"] and not few["accepted"]
    # every game played without a verdict: the score interval decides (all won: accepted)
    small = LearnSettings(gate_games=8, sprt=(0.0, 100.0))
    assert judge(tmp_path, [True] * 8, small)["accepted"]
    assert not judge(tmp_path, [True, False] * 4, small)["accepted"]
    assert judge(tmp_path, [True, False] * 4, small)["decided"]


def test_a_gate_without_a_verdict_accepts_on_the_score_interval_not_the_score(
        tmp_path: Path) -> None:
    """Every game played and no SPRT verdict: the candidate is accepted only if the Wilson
    95% interval of its score lies above H0's expected score, not when the score alone does
    (5 of 8 won is 62.5%, its interval [30.6%, 86.3%])."""
    s = LearnSettings(gate_games=8, sprt=(0.0, 100.0))
    j = judge(tmp_path, [True, True, True, False, True, False, True, False], s)
    assert (j["wins"], j["losses"], j["verdict"], j["decided"]) == (5, 3, "continue", True)
    assert j["score"] == 0.625 and j["score_interval"][0] == pytest.approx(0.3057, abs=1e-4)
    assert not j["accepted"]
    # 8 of 8: its interval's low end (67.6%) is above 50%
    j = judge(tmp_path, [True] * 8, s)
    assert j["verdict"] == "continue" and j["score_interval"][0] > 0.5 and j["accepted"]


def test_chained_elo_adds_the_gates_along_the_promotions() -> None:
    def gen(k: int, w: int, lo: int, promoted: bool) -> dict[str, Any]:
        return {"generation": k, "promoted": promoted,
                "gate": {"wins": w, "draws": 0, "losses": lo}}

    chain = chained_elo([{"generation": 0}, gen(1, 30, 10, True), gen(2, 10, 30, False),
                         gen(3, 30, 10, True)])
    assert [p["generation"] for p in chain] == [0, 1, 3]
    step = 400 * __import__("math").log10(30 / 10)  # 75%: +190.8 Elo
    assert chain[1]["elo"] == pytest.approx(step) and chain[2]["elo"] == pytest.approx(2 * step)
    # the intervals widen along the chain: variances add
    w1 = chain[1]["high"] - chain[1]["low"]
    w2 = chain[2]["high"] - chain[2]["low"]
    assert w2 == pytest.approx(w1 * 2 ** 0.5)
    assert chain[1]["low"] < step < chain[1]["high"]
    # a gate won in every game is finite (one virtual draw)
    sweep = chained_elo([{"generation": 0}, gen(1, 8, 0, True)])
    assert 0 < sweep[1]["elo"] < 1000 and sweep[1]["low"] < sweep[1]["elo"]


def test_chart_is_an_svg_of_the_promoted_generations() -> None:
    ledger = {"generations": [{"generation": 0}, {"generation": 1, "gate": {"decided": True}},
                              {"generation": 2, "gate": {"decided": True}}],
              "elo": [{"generation": 0, "elo": 0.0, "low": 0.0, "high": 0.0},
                      {"generation": 2, "elo": 120.0, "low": 40.0, "high": 200.0}]}
    svg = chart_svg(ledger)
    import xml.dom.minidom

    doc = xml.dom.minidom.parseString(svg)
    assert doc.documentElement.tagName == "svg"
    assert svg.count("<circle") == 2 and "+120" in svg
    assert svg.count("&#215;</text>") == 1  # generation 1, rejected
    assert nice_ticks(-12, 230) == [-50, 0, 50, 100, 150, 200, 250]
    assert nice_ticks(0, 0)[0] < 0 < nice_ticks(0, 0)[-1]


def test_cli_settings_and_errors(tmp_path: Path) -> None:
    def run(*args: str) -> Any:
        return CliRunner().invoke(cli, ["learn", *args], catch_exceptions=False)

    bad = [(["--generations", "1", "--gate-time", "1", "--gate-iterations", "5"], "one budget"),
           (["--generations", "1", "--sprt", "50", "0"], "ELO0 < ELO1"),
           (["--generations", "1", "--gate-games", "5"], "gate_games must be even"),
           (["--generations", "1", "--agent", "bogus=1"], "unknown option 'bogus'"),
           (["--generations", "1", "--agent", "net=x.npz"], "the run's settings"),
           (["--generations", "1", "--games", "1"], "--games"),
           (["--generations", "1", "--address", "auto"], "--address needs --backend ray")]
    for args, message in bad:
        result = run(str(tmp_path / "r"), *args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert not (tmp_path / "r" / "learn.json").exists()
    not_weights = tmp_path / "w.npz"
    not_weights.write_bytes(b"junk")
    result = run(str(tmp_path / "r"), "--generations", "1", "--init", str(not_weights))
    assert result.exit_code == 2 and "w.npz" in result.stderr
    # an existing run: options must agree with its settings
    LearnRun(tmp_path / "r", TINY_SETTINGS)._begin()
    result = run(str(tmp_path / "r"), "--generations", "1", "--games", "6", "--seed", "3")
    assert result.exit_code == 2
    assert "--games 6 (the run has 2)" in result.stderr and "--seed" not in result.stderr
    result = run(str(tmp_path / "r"), "--generations", "1", "--init", str(not_weights))
    assert result.exit_code == 2 and "has begun" in result.stderr
    (tmp_path / "f").write_text("x")
    assert run(str(tmp_path / "f"), "--generations", "1").exit_code == 2


def test_a_run_folder_is_run_by_one_process_at_a_time(tmp_path: Path) -> None:
    import fcntl

    run = LearnRun(tmp_path / "run", TINY_SETTINGS)
    (tmp_path / "run").mkdir()
    fd = os.open(tmp_path / "run", os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as another `arle learn` holds it
        with pytest.raises(LearnError, match="being run by another process"):
            run.run(1)
    finally:
        os.close(fd)
    assert not (tmp_path / "run" / "learn.json").exists()


def test_the_search_settings_reach_self_play_and_the_gate(tmp_path: Path) -> None:
    s = LearnSettings(puct=True, c=1.25, root_noise="gumbel", temperature=0.5,
                      full_share=0.25, cheap_iterations=100)
    spec = s.gate_spec(tmp_path / "w.npz")
    assert spec == f"mcts:time=0.25,eval=net,net={tmp_path / 'w.npz'},puct=1,c=1.25"
    d = s.datagen_config(seed=7, net="x.npz")
    assert (d.puct, d.c, d.root_noise, d.temperature, d.full_share, d.cheap_iterations) == \
        (True, 1.25, "gumbel", 0.5, 0.25, 100)
    # the gate's search is the run's: not an agent option
    for bad in ("puct=1", "c=2"):
        with pytest.raises(LearnError, match="the run's settings"):
            LearnSettings(agent=bad)
    with pytest.raises(LearnError, match="needs PUCT"):
        LearnSettings(root_noise="dirichlet", puct=False)
    assert LearnSettings().gate_spec("w.npz").endswith("w.npz")  # PUCT as the model allows
    assert LearnSettings(puct=False, root_noise="none").gate_spec("w.npz").endswith(",puct=0")
    with pytest.raises(LearnError, match="cheap_iterations"):
        LearnSettings(full_share=0.5)
    # a run's learn.json from before these settings reads with their defaults
    head = {"format": "arle-learn-run/1", "settings": {"games": 4, "gate_time": 0.5}}
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "learn.json").write_text(json.dumps(head))
    old = LearnRun(tmp_path / "old").settings
    assert old.games == 4 and old.puct is None and old.root_noise == "none"


def test_init_data_is_generation_0s_data_in_the_first_windows(tmp_path: Path) -> None:
    """--init-data: a datagen file kept as gen-000/data.npz, trained on by the candidates
    while it is in their window; refused by name when it is not data, or for a run that
    has begun."""
    first = LearnRun(tmp_path / "first", TINY_SETTINGS)
    first.run(1)
    data = tmp_path / "first" / "gen-001" / "data.npz"
    settings = LearnSettings(**{**TINY_SETTINGS.__dict__, "window": 2})
    run = LearnRun(tmp_path / "run", settings, init_data=data)
    ledger = run.run(2)
    gens = ledger["generations"]
    assert gens[0]["data"]["digest"] == file_digest(data) == \
        file_digest(tmp_path / "run" / "gen-000" / "data.npz")
    assert gens[1]["train"]["data"] == ["gen-000/data.npz", "gen-001/data.npz"]
    assert gens[2]["train"]["data"] == ["gen-001/data.npz", "gen-002/data.npz"]
    # the command that started the run resumes it; other files are refused by name
    assert len(LearnRun(tmp_path / "run", settings, init_data=data).history()) == 2
    other = tmp_path / "run" / "gen-002" / "data.npz"
    with pytest.raises(LearnError, match="begun from another init data than .*gen-002"):
        LearnRun(tmp_path / "run", init_data=other)
    with pytest.raises(LearnError, match="begun from another init than .*gen-001"):
        LearnRun(tmp_path / "run", init=tmp_path / "run" / "gen-001" / "weights.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(LearnError, match="--init-data: .*bad.npz"):
        LearnRun(tmp_path / "other", settings, init_data=bad)
    assert not (tmp_path / "other").exists()
