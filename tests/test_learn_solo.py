"""``arle learn --players 1`` (issue 33, item 5): a solo run learns from its own solo games, its
first generation searching without a model, each candidate gated by a one-sided paired test
on the same setups; and the window counted in games."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from test_learn import ENV, arle, stamps

from arle_ai.learn.loop import LearnError, LearnRun, LearnSettings, solo_scores
from arle_ai.learn.train import TrainConfig
from arle_ai.play.tournament import Tournament
from arle_ai.search.net import load_weights, weights_digest

# a solo generation in a few seconds: 4 solo games at 10 iterations, 1 epoch, a gate of 3
# setups each played by both models at 8 iterations a decision (reproducible)
SOLO = ["--players", "1", "--games", "4", "--iterations", "10", "--explore", "4",
        "--gate-iterations", "8", "--gate-games", "3", "--epochs", "1", "--hidden", "8",
        "--seed", "5"]


def test_a_solo_run_learns_a_solo_model_and_gates_it_on_paired_setups(tmp_path: Path) -> None:
    start = time.monotonic()
    run = tmp_path / "solo"
    done = arle("learn", str(run), "--generations", "1", *SOLO)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 60
    head = json.loads((run / "learn.json").read_text())
    assert head["settings"]["players"] == 1 and head["init_digest"] is None
    assert not (run / "gen-000" / "weights.npz").exists()      # no solo model is shipped
    _, meta = load_weights(run / "gen-001" / "weights.npz")
    assert meta["players"] == 1                                  # a solo model
    ledger = json.loads((run / "ledger.json").read_text())
    gate = ledger["generations"][1]["gate"]
    assert gate["players"] == 1 and gate["setups"] == 3 and gate["decided"]
    # the verdict is the paired test's on the scores in the gate's results
    results = [json.loads(line) for line in
               (run / "gen-001" / "gate.jsonl").read_text().splitlines()[1:]]
    by = {(r["meta"]["pairing"][0], r["meta"]["setup_index"]): r["meta"]["scores"][0]
          for r in results}
    diffs = [by[(0, k)] - by[(1, k)] for k in range(3)]
    assert gate["mean_difference"] == pytest.approx(float(np.mean(diffs)))
    assert gate["accepted"] == (gate["p"] < 0.05) and gate["alpha"] == 0.05
    assert gate["verdict"] == ("H1" if gate["accepted"] else "H0")
    table = done.stdout.splitlines()
    assert table[0].split()[:7] == ["gen", "model", "self-play", "VP", "val", "score", "MAE"]
    assert table[1].split()[0] == "1" and table[1].split()[-1] in ("promoted", "rejected")
    assert f"{gate['mean_difference']:+.2f}" in table[1]
    assert ("no model: the search's own solo value" in table[-1]) != gate["accepted"]
    assert "one-sided paired t-test, alpha 0.05" in done.stderr
    # the same setups for both: the gate is a solo tournament of the two specs
    t_head = json.loads((run / "gen-001" / "gate.jsonl").read_text().splitlines()[0])
    assert t_head["players"] == 1 and t_head["agents"][1] == "mcts:iterations=8"
    assert "solo_net=gen-001/weights.npz" in t_head["agents"][0]
    # the chart shows scores, not Elo
    assert "Mean score" in (run / "chart.svg").read_text()
    assert ledger["solo_scores"][0]["generation"] == 0


def test_a_solo_run_resumes_after_sigkill(tmp_path: Path) -> None:
    run = tmp_path / "solo"
    started = subprocess.Popen([sys.executable, "-m", "arle_cli.entry", "learn", str(run),
                                "--generations", "1", *SOLO], env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while not (run / "gen-001" / "data.npz.parts" / "game-000001.npz").exists():
        assert started.poll() is None and time.monotonic() < deadline
        time.sleep(0.01)
    started.send_signal(signal.SIGKILL)
    started.wait()
    kept = stamps(run)
    resumed = arle("learn", str(run), "--generations", "1")
    assert resumed.returncode == 0, resumed.stderr
    now = stamps(run)
    # the games played before the kill are not played again
    for name, stamp in kept.items():
        if name.startswith("gen-001/data.npz.parts/game-"):
            assert now.get(name, stamp) == stamp
    assert (run / "gen-001" / "gate.jsonl").exists()
    # and it is the run a single command makes
    ref = tmp_path / "ref"
    assert arle("learn", str(ref), "--generations", "1", *SOLO).returncode == 0
    assert (run / "gen-001/data.npz").read_bytes() == (ref / "gen-001/data.npz").read_bytes()
    # the model's arrays (its meta holds the training's seconds, which differ run to run)
    assert weights_digest(run / "gen-001/weights.npz") == \
        weights_digest(ref / "gen-001/weights.npz")


def test_solo_settings_and_refusals(tmp_path: Path) -> None:
    with pytest.raises(LearnError, match="players must be 1 .a solo run. or 2"):
        LearnSettings(players=3)
    with pytest.raises(LearnError, match="window_games must be a positive integer"):
        LearnSettings(window_games=0)
    solo = LearnSettings(players=1, gate_games=3, gate_time=None, gate_iterations=8)
    assert solo.gate_spec(None) == "mcts:iterations=8"
    assert solo.gate_spec("gen-002/weights.npz") == \
        "mcts:iterations=8,solo_net=gen-002/weights.npz"
    assert solo.datagen_config(seed=1, net=None).leaf == "heuristic"
    assert solo.datagen_config(seed=1, net="w.npz").players == 1
    with pytest.raises(LearnError, match="solo_net"):
        LearnSettings(players=1, agent="solo_net=x.npz")
    # a two-player model is refused as a solo run's first model, before anything is written
    from arle_ai.search.net import default_weights_path
    with pytest.raises(LearnError, match="--init: .*a two-player model, where a solo model"):
        LearnRun(tmp_path / "x", solo, init=default_weights_path())
    assert not (tmp_path / "x").exists()
    # an old learn.json (before these settings) reads as a two-player run of 4 generations
    old = LearnSettings.from_dict({"games": 10})
    assert old.players == 2 and old.window_games is None


def test_the_window_counted_in_games(tmp_path: Path) -> None:
    settings = LearnSettings(games=300, window_games=1000, gate_time=None, gate_iterations=8,
                             train=TrainConfig(hidden=8, epochs=1))
    run = LearnRun(tmp_path / "w", settings)
    run.folder.mkdir()
    (run.folder / "learn.json").write_text(json.dumps({"format": "arle-learn-run/1",
                                                       "settings": settings.as_dict(),
                                                       "init": "x", "init_digest": "y"}))
    # 300 games a generation: the newest 4 hold 1,200 >= 1,000 (3 would hold 900)
    assert run.window_generations(1) == [1]
    assert run.window_generations(3) == [1, 2, 3]
    assert run.window_generations(7) == [4, 5, 6, 7]
    exact = LearnRun(tmp_path / "w", None)
    assert exact.window_generations(5) == [2, 3, 4, 5]
    by_gens = LearnSettings(games=300, window=2, gate_time=None, gate_iterations=8)
    assert LearnRun(tmp_path / "v", by_gens).settings.window_games is None


def test_solo_scores_chain() -> None:
    gens = [{"generation": 0},
            {"generation": 1, "best_before": 0, "promoted": True,
             "gate": {"decided": True, "setups": 4, "sd": 2.0, "mean_score": 110.0,
                      "best_score": 100.0, "mean_difference": 10.0}},
            {"generation": 2, "best_before": 1, "promoted": False,
             "gate": {"decided": True, "setups": 4, "sd": 2.0, "mean_score": 109.0,
                      "best_score": 110.0, "mean_difference": -1.0}}]
    chain = solo_scores(gens)
    assert [p["generation"] for p in chain] == [0, 1]
    assert chain[0]["score"] == 100.0 and chain[1]["score"] == 110.0
    assert chain[1]["low"] == pytest.approx(110 - 1.96) and chain[1]["high"] == \
        pytest.approx(110 + 1.96)


def test_a_solo_gate_is_a_solo_tournament_of_the_two_models(tmp_path: Path) -> None:
    t = Tournament(["mcts:iterations=8,solo_net=a.npz", "mcts:iterations=8"], 3, seed=1,
                   players=1, play_as=["mcts:iterations=8", "mcts:iterations=8"])
    assert t.total == 6 and t.players == 1


def test_self_play_with_the_model_alone(tmp_path: Path) -> None:
    """leaf "model": self-play searches with the model valuing each leaf (no rollout)."""
    settings = LearnSettings(leaf="model", gate_time=None, gate_iterations=8)
    config = settings.datagen_config(seed=2, net=None)
    assert config.leaf == "model" and config.search_config(0).net_horizon is None
    assert LearnSettings().datagen_config(seed=2, net=None).search_config(0).net_horizon == 2
    with pytest.raises(LearnError, match="leaf must be one of"):
        LearnSettings(leaf="heuristic")
    from arle_ai.learn.datagen import DatagenConfig, generate

    data = generate(tmp_path / "m.npz", DatagenConfig(games=2, seed=1, iterations=12,
                                                     explore=2, leaf="model"))
    meta = json.loads(str(data["meta"]))
    assert meta["search"]["net_horizon"] is None and "net_digest" in meta["search"]
