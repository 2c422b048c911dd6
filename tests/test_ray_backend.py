"""``arle selfplay --backend ray``: a small tournament on a local Ray gives the local results."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arle_ai.adapters.ray_backend import RayBackendError, RayRunner
from arle_ai.play import tournament
from arle_ai.play.tournament import Tournament, TournamentError
from arle_cli.main import cli

ray = pytest.importorskip("ray")
# the jobs defined here go to Ray's workers by value (they cannot import this test module)
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray (2 CPUs) for the tests that run tournaments through RayRunner."""
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 1024 * 1024,
             log_to_driver=False, logging_level="warning")
    yield
    ray.shutdown()


def run(*args: str):
    return CliRunner().invoke(cli, ["selfplay", *args], catch_exceptions=False)


def lines(path: Path) -> tuple[str, list[str]]:
    head, *games = path.read_text(encoding="utf-8").splitlines()
    return head, sorted(games, key=lambda g: json.loads(g)["meta"]["game"])


def test_cli_on_a_ray_it_starts_gives_the_local_results(tmp_path):
    args = ["--agents", "random", "greedy", "py:sample_agents.FirstMove:index=2",
            "--games", "2", "--seed", "5", "--json"]
    local_out, ray_out = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    was_running = ray.is_initialized()
    local = run(*args, "--out", str(local_out))
    on_ray = run(*args, "--out", str(ray_out), "--backend", "ray", "--workers", "2")
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0, on_ray.output
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)
    assert lines(ray_out) == lines(local_out)  # same header, same records byte for byte
    assert ray.is_initialized() == was_running  # a Ray started for the run is stopped


RAYLET_LINE = "(raylet) worker_pool.cc:564: Started worker process with pid 1"


def noisy_job(job: int) -> int:
    """A job as Ray runs it: it prints, and (job 0) a message reaches every driver from Ray's
    side, as the agent of a raylet that died sends its last log lines."""
    print("a Ray worker's own print")
    if job == 0:
        from ray._private import utils, worker
        utils.publish_error_to_driver(
            "raylet_died", f"Raylet is terminated. Last lines:\n    [I 1] {RAYLET_LINE}",
            gcs_client=worker.global_worker.gcs_client)
    else:
        time.sleep(2)  # room for the driver to print the message if it would
    return job


def test_ray_output_stays_out_of_the_driver_unless_asked(capfd, monkeypatch):
    """Issue 29 item 10: a run on a Ray it starts prints only its own output: not Ray's
    warnings, not its processes' INFO lines (RAY_LOG_TO_STDERR=1 made them inherit stderr),
    not the workers' prints, not Ray's messages to the driver ("(raylet) ..." on stdout)."""
    assert not ray.is_initialized()
    monkeypatch.setenv("RAY_LOG_TO_STDERR", "1")
    results: list[int] = []
    sigterm = signal.getsignal(signal.SIGTERM)
    RayRunner(num_cpus=2).run(noisy_job, [0, 1], results.append)
    assert signal.getsignal(signal.SIGTERM) == sigterm  # not Ray's handler any more
    out, err = capfd.readouterr()
    assert sorted(results) == [0, 1]
    assert not ray.is_initialized()
    assert out == "" and err == "", (out + err)[:2000]
    assert os.environ["RAY_LOG_TO_STDERR"] == "1"  # the caller's environment is left as it was
    from ray._private import worker
    assert worker._worker_logs_enabled  # a later ray.init in this process prints as Ray does


def test_ray_logs_asks_ray_for_its_output(monkeypatch):
    seen: list[dict] = []

    def init(**kwargs):
        seen.append(kwargs)
        raise ConnectionError("no cluster here")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    for show in (False, True):
        with pytest.raises(RayBackendError, match="no cluster here"):
            RayRunner(address="HOST:6379", show_logs=show).run(noisy_job, [0], print)
    assert [(s["log_to_driver"], s["logging_level"]) for s in seen] == [
        (False, "error"), (True, "info")]


def stopped_after_the_first(runner: RayRunner, monkeypatch) -> tuple[list[int], int]:
    """Run 200 quick jobs, stopped (as by Ctrl-C) when the first result is in: the results
    handed over, and how many jobs ``ray.cancel`` was asked to stop (recorded, not sent)."""
    cancelled: list[object] = []
    monkeypatch.setattr(ray, "cancel", lambda ref, **kw: cancelled.append(ref))
    results: list[int] = []

    def finish(result: int) -> None:
        results.append(result)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(abs, range(200), finish)
    return results, len(cancelled)


def test_a_stop_sends_no_cancel_to_a_ray_the_run_started(monkeypatch):
    """A cancel that meets a job's reply aborts the driver in Ray's core ("Tried to complete
    task that was not pending"; an interrupted ``arle selfplay --backend ray`` died with a
    stack trace, 2 of 10 stops of quick games before): the Ray a run started ends its jobs
    with ``ray.shutdown`` instead."""
    assert not ray.is_initialized()
    results, cancels = stopped_after_the_first(RayRunner(num_cpus=2), monkeypatch)
    assert len(results) == 1 and cancels == 0
    assert not ray.is_initialized()


def test_a_stop_cancels_the_running_jobs_on_the_callers_ray(local_ray, monkeypatch):
    results, cancels = stopped_after_the_first(RayRunner(max_in_flight=4), monkeypatch)
    assert len(results) == 1 and cancels == 3  # the 3 still out: its Ray would play them on
    assert ray.is_initialized()


def test_resume_on_ray_plays_only_the_missing_games(tmp_path, local_ray, monkeypatch):
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    t = Tournament(["random", "greedy"], 6, seed=3)
    whole = t.run(out=full)
    text = full.read_text(encoding="utf-8").splitlines(keepends=True)
    # the header, 2 finished games and a third cut off mid-line, as an interrupted run leaves it
    cut.write_text("".join(text[:3]) + text[3][:40], encoding="utf-8")
    played: list[int] = []
    real = tournament.play_game

    def counting(task):
        played.append(task["game"])
        return real(task)

    monkeypatch.setattr(tournament, "play_game", counting)
    jobs: list[int] = []

    class Spy(RayRunner):
        def run(self, fn, tasks, finish):
            tasks = list(tasks)
            jobs.extend(task["game"] for task in tasks)
            super().run(fn, tasks, finish)

    again = Tournament(["random", "greedy"], 6, seed=3)
    resumed = again.run(out=cut, runner=Spy())
    assert again.resumed == 2 and again.played == 4
    assert sorted(jobs) == sorted(set(range(6)) - {json.loads(x)["meta"]["game"]
                                                   for x in text[1:3]})
    assert played == []  # the games ran in Ray workers, not in this process
    assert resumed == whole
    assert lines(cut) == lines(full)


def test_a_failing_game_raises_its_own_error_after_the_finished_ones(tmp_path, local_ray):
    out = tmp_path / "bad.jsonl"
    t = Tournament(["random", "py:sample_agents.Cheater"], 2, seed=0)
    with pytest.raises(TournamentError, match="not a legal action"):
        t.run(out=out, runner=RayRunner(max_in_flight=1))
    head, games = lines(out)
    assert json.loads(head)["agents"] == ["random", "py:sample_agents.Cheater"]
    assert games == []


def test_cli_errors_exit_2():
    result = run("--agents", "random", "greedy", "--games", "2", "--address", "auto")
    assert result.exit_code == 2
    assert result.stderr.strip() == "arle: error: --address needs --backend ray"
    result = run("--agents", "random", "greedy", "--games", "2", "--backend", "dask")
    assert result.exit_code == 2
    result = run("--agents", "random", "greedy", "--games", "2", "--backend", "ray",
                 "--address", " ")
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    result = run("--agents", "random", "greedy", "--games", "2", "--ray-logs")
    assert result.exit_code == 2
    assert result.stderr.strip() == "arle: error: --ray-logs needs --backend ray"


def die(job: int) -> int:
    os._exit(3)  # the worker process dies, as a node lost or the OOM killer does


def test_a_job_ray_lost_is_a_named_error(local_ray):
    with pytest.raises(RayBackendError, match=r"Ray lost a job \(WorkerCrashedError\): .*died"):
        RayRunner().run(die, [0], print)


def test_runner_rejects_bad_settings():
    with pytest.raises(ValueError, match="max_in_flight"):
        RayRunner(max_in_flight=0)
    with pytest.raises(ValueError, match="num_cpus"):
        RayRunner(num_cpus=0)


def test_datagen_on_ray_writes_the_local_file_byte_for_byte(tmp_path):
    """The same seed and iteration budget give the same data file on either backend."""
    args = ["--games", "3", "--iterations", "10", "--explore", "3", "--seed", "11"]
    local, on_ray = tmp_path / "local.npz", tmp_path / "ray.npz"
    done = CliRunner().invoke(cli, ["datagen", "-o", str(local), *args],
                              catch_exceptions=False)
    assert done.exit_code == 0, done.output
    done = CliRunner().invoke(cli, ["datagen", "-o", str(on_ray), *args, "--backend", "ray",
                                    "--workers", "2"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert on_ray.read_bytes() == local.read_bytes()
    # the finished games were written here, by the driver, from what the Ray workers sent
    assert sorted(p.name for p in (tmp_path / "ray.npz.parts").iterdir()) == [
        "config.json", "game-000000.npz", "game-000001.npz", "game-000002.npz", "lock"]


def test_learn_on_ray_gives_the_local_generation(tmp_path, local_ray):
    from arle_ai.learn.loop import LearnRun, LearnSettings
    from arle_ai.learn.train import TrainConfig

    settings = LearnSettings(games=2, iterations=8, explore=2, gate_time=None,
                             gate_iterations=6, gate_games=2, seed=4,
                             train=TrainConfig(hidden=4, epochs=1))
    local = LearnRun(tmp_path / "local", settings).run(1)
    on_ray = LearnRun(tmp_path / "ray", settings).run(1, runner=RayRunner())
    for a, b in zip(local["generations"], on_ray["generations"], strict=True):
        assert a.get("data", {}).get("digest") == b.get("data", {}).get("digest")
        assert a.get("weights_digest") == b.get("weights_digest")
        for key in ("wins", "draws", "losses", "accepted"):
            assert a.get("gate", {}).get(key) == b.get("gate", {}).get(key)
