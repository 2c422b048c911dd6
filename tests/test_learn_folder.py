"""``arle learn``'s run folder: it can be moved, renamed or reached by a symlink; bad input
(an --init, a RUN_DIR path) is refused before anything is written; learn.json comes first and
generation 0 is checked against it on every start; a damaged, replaced or missing piece is
named; the temporary files of killed writes are swept (docs/learning.md)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner, Result
from test_learn import TINY, TINY_SETTINGS, gate_lines

from arle_ai.base import files
from arle_ai.base.npzfile import write_npz
from arle_ai.learn.loop import SETTINGS_FILE, LearnError, LearnRun, file_digest
from arle_ai.play.tournament import TournamentError
from arle_ai.search.net import default_weights_path, load_weights, weights_digest
from arle_cli.main import cli
from helpers import assert_bad_input


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run of 2 finished generations (tests change copies of it)."""
    folder = tmp_path_factory.mktemp("learn") / "run"
    LearnRun(folder, TINY_SETTINGS).run(2)
    return folder


def copy_of(finished: Path, to: Path) -> Path:
    shutil.copytree(finished, to, symlinks=True)
    return to


def learn(*args: str) -> Result:
    return CliRunner().invoke(cli, ["learn", *args])


def gates(run: LearnRun) -> list[tuple[Any, ...]]:
    """What the run's decided gates say: (k, best before, W, D, L, accepted)."""
    return [(k, best, j["wins"], j["draws"], j["losses"], j["accepted"])
            for k, best, j in run.history()]


def variant_of_the_shipped_weights(path: Path, meta: dict[str, Any] | None = None,
                                   **arrays: np.ndarray) -> Path:
    """The shipped weights file with some arrays (or meta entries) replaced, written as is."""
    base, shipped_meta = load_weights(default_weights_path())
    out: dict[str, np.ndarray] = {k: np.asarray(v, np.float32) for k, v in base.items()}
    out.update(arrays)
    out["meta"] = np.array(json.dumps(shipped_meta | (meta or {})))
    write_npz(path, out)
    return path


# ---- D4: a run folder that moves ----

def test_a_run_folder_can_be_moved_renamed_or_reached_by_a_symlink(
        finished: Path, tmp_path: Path) -> None:
    run = copy_of(finished, tmp_path / "run")
    decided = gates(LearnRun(run))
    assert len(decided) == 2
    for k in (1, 2):  # the gates name their models by their place in the run folder
        head, *games = gate_lines(run / f"gen-{k:03d}" / "gate.jsonl")
        assert str(tmp_path) not in head and not any(str(tmp_path) in g for g in games)
        assert json.loads(head)["agents"][0].endswith(f"net=gen-{k:03d}/weights.npz")
    moved = tmp_path / "elsewhere" / "renamed"
    moved.parent.mkdir()
    run.rename(moved)
    assert gates(LearnRun(moved)) == decided
    link = tmp_path / "link"
    link.symlink_to(moved)
    ledger = LearnRun(link).run(3)  # one more generation, through the symlink
    assert [g["generation"] for g in ledger["generations"]] == [0, 1, 2, 3]
    assert ledger["generations"][3]["gate"]["decided"]
    assert LearnRun(moved).run(3) == ledger  # and by its own path: nothing left to do
    result = learn(str(moved), "--generations", "3")
    assert result.exit_code == 0, result.output
    assert "already has 3 generations" in result.output


def test_a_gate_named_by_absolute_paths_still_resumes(finished: Path, tmp_path: Path) -> None:
    """The gates of runs begun before runs could move name their models by the absolute
    paths of their weights files (where the run was then): the same models, the weights of
    the same generations. Such a gate, half played, resumes where the run is now, its new
    games named as its old ones."""
    run = copy_of(finished, tmp_path / "run")
    old = "/where/the/run/was"
    for k in (1, 2):
        gate = run / f"gen-{k:03d}" / "gate.jsonl"
        text = gate.read_text(encoding="utf-8")
        gate.write_text(text.replace("net=gen-", f"net={old}/gen-"), encoding="utf-8")
    decided = gates(LearnRun(finished))
    assert gates(LearnRun(run)) == decided
    gate = run / "gen-002" / "gate.jsonl"
    head, first, second, *_ = gate_lines(gate)  # the header and the first setup's two games
    gate.write_text("\n".join([head, first, second]) + "\n", encoding="utf-8")
    assert len(gates(LearnRun(run))) == 1
    LearnRun(run).run(2)
    assert gates(LearnRun(run)) == decided  # the same games (iteration budgets)
    head_agents = json.loads(gate_lines(gate)[0])["agents"]
    assert all(old in name for name in head_agents)
    for line in gate_lines(gate)[1:]:
        assert sorted(json.loads(line)["meta"]["agents"]) == sorted(head_agents)
    # the names of other generations' weights are another tournament's
    text = gate.read_text(encoding="utf-8").replace(f"{old}/gen-002", f"{old}/gen-001")
    gate.write_text(text, encoding="utf-8")
    with pytest.raises(TournamentError, match="holds another tournament"):
        LearnRun(run).history()


# ---- D8: ',' or '=' in the path of RUN_DIR ----

@pytest.mark.parametrize("name", ["a,b", "x=y"])
def test_a_run_dir_whose_path_holds_a_comma_or_equals_is_refused_before_anything_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The gate's players are agent specs naming the models' files: a ',' or '=' in their path
    cannot be written in one. Refused at once (it was after the first generation's self-play
    and training), and from a working directory holding them only a RUN_DIR in it (every
    run was refused)."""
    folder = tmp_path / name / "run"
    with pytest.raises(LearnError, match=f"{name}/run: a run folder whose path holds"):
        LearnRun(folder, TINY_SETTINGS)
    assert_bad_input(learn(str(folder), "--generations", "1", *TINY), f"{name}/run", "',' or '='")
    assert not (tmp_path / name).exists()
    (tmp_path / name).mkdir()
    monkeypatch.chdir(tmp_path / name)
    assert_bad_input(learn("run", "--generations", "1", *TINY), f"{name}/run")
    assert not (tmp_path / name / "run").exists()
    result = learn(str(tmp_path / "run"), "--generations", "1", *TINY)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "run" / "gen-001" / "gate.jsonl").exists()


# ---- D7: a bad --init ----

def test_a_bad_init_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """NaN, inf, a wrong shape, a solo model: refused by name when the run is made (they were
    accepted, failed at self-play, and the folder then refused every other --init)."""
    shipped, _ = load_weights(default_weights_path())
    w1 = np.array(shipped["w1"], np.float32)
    w1[3, 5] = np.nan
    b2 = np.array(shipped["b2"], np.float32)
    b2[0] = np.inf
    bad = {
        "w1 holds a value that is not finite":
            variant_of_the_shipped_weights(tmp_path / "nan.npz", w1=w1),
        "b2 holds a value that is not finite":
            variant_of_the_shipped_weights(tmp_path / "inf.npz", b2=b2),
        "w0 must have shape (2, ":
            variant_of_the_shipped_weights(tmp_path / "shape.npz",
                                           w0=np.zeros((2, 5), np.float32)),
        "a solo model (trained on solo games), where a two-player model is needed":
            variant_of_the_shipped_weights(tmp_path / "solo.npz", meta={"players": 1}),
    }
    folder = tmp_path / "run"
    for words, path in bad.items():
        with pytest.raises(LearnError, match=re.escape(f"--init: {path}: {words}")):
            LearnRun(folder, TINY_SETTINGS, init=path)
        assert_bad_input(learn(str(folder), "--generations", "1", *TINY, "--init", str(path)),
                         path.name, words)
        assert not folder.exists()
    good = shutil.copy(default_weights_path(), tmp_path / "good.npz")
    ledger = LearnRun(folder, TINY_SETTINGS, init=good).run(1)
    assert ledger["generations"][0]["weights_digest"] == weights_digest(good)


# ---- D10: learn.json first, generation 0 checked against it ----

@pytest.mark.parametrize("stop_at", [1, 2, 3])
def test_a_start_interrupted_at_any_write_goes_on_with_what_learn_json_lists(
        finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop_at: int) -> None:
    """A new run writes learn.json, gen-000/weights.npz and gen-000/data.npz. Interrupted at
    any of these writes and started again without its init data, the run has the pieces its
    learn.json lists and no other (it trained on a gen-000/data.npz its settings did not
    list)."""
    data = finished / "gen-001" / "data.npz"
    folder = tmp_path / "run"
    writes = 0
    write_bytes = files.write_bytes

    def interrupted(path: Any, payload: bytes) -> None:
        nonlocal writes
        writes += 1
        if writes == stop_at:
            raise KeyboardInterrupt
        write_bytes(path, payload)

    monkeypatch.setattr(files, "write_bytes", interrupted)
    with pytest.raises(KeyboardInterrupt):
        LearnRun(folder, TINY_SETTINGS, init_data=data).run(1)
    monkeypatch.undo()
    LearnRun(folder, TINY_SETTINGS)._begin()
    head = json.loads((folder / SETTINGS_FILE).read_text(encoding="utf-8"))
    assert weights_digest(folder / "gen-000" / "weights.npz") == head["init_digest"]
    listed = "init_data_digest" in head
    assert (folder / "gen-000" / "data.npz").exists() == listed
    if listed:
        assert file_digest(folder / "gen-000" / "data.npz") == head["init_data_digest"]


def test_generation_0_is_checked_against_learn_json_on_every_start(
        finished: Path, tmp_path: Path) -> None:
    run = copy_of(finished, tmp_path / "run")
    first = run / "gen-000" / "weights.npz"
    shutil.copy(run / "gen-001" / "weights.npz", first)  # another good model
    with pytest.raises(LearnError, match=r"gen-000/weights.npz is not the run's first model"):
        LearnRun(run).run(2)
    assert_bad_input(learn(str(run), "--generations", "2"), "gen-000/weights.npz",
                     "not the run's first model")
    first.write_bytes(first.read_bytes()[:100])  # damaged
    assert_bad_input(learn(str(run), "--generations", "2"), "gen-000/weights.npz")
    first.unlink()  # missing: copied again from where the run began (the shipped weights)
    LearnRun(run).run(2)
    assert weights_digest(first) == weights_digest(default_weights_path())
    stray = run / "gen-000" / "data.npz"  # data learn.json does not list
    shutil.copy(run / "gen-001" / "data.npz", stray)
    assert_bad_input(learn(str(run), "--generations", "2"), "gen-000/data.npz",
                     "lists no init data")


def test_init_data_is_checked_against_learn_json_on_every_start(
        finished: Path, tmp_path: Path) -> None:
    data = tmp_path / "data.npz"
    shutil.copy(finished / "gen-001" / "data.npz", data)
    folder = tmp_path / "run"
    LearnRun(folder, TINY_SETTINGS, init_data=data)._begin()
    kept = folder / "gen-000" / "data.npz"
    shutil.copy(finished / "gen-002" / "data.npz", kept)
    assert_bad_input(learn(str(folder), "--generations", "1"), "gen-000/data.npz",
                     "not the run's init data")
    kept.unlink()  # missing: copied again from the file the run began with
    LearnRun(folder)._begin()
    assert file_digest(kept) == file_digest(data)
    kept.unlink()
    data.unlink()  # and that file gone too: the message says what to give
    assert_bad_input(learn(str(folder), "--generations", "1"), "gen-000/data.npz", "missing",
                     "--init-data")
    # an older version's start interrupted before learn.json: its pieces are no run
    stray = tmp_path / "stray"
    (stray / "gen-000").mkdir(parents=True)
    shutil.copy(default_weights_path(), stray / "gen-000" / "weights.npz")
    assert_bad_input(learn(str(stray), "--generations", "1", *TINY), "gen-000",
                     f"no {SETTINGS_FILE}")


# ---- D6, D11: damaged or missing pieces of finished generations ----

def test_a_damaged_weights_file_is_named_and_old_gates_are_judged_without_weights(
        finished: Path, tmp_path: Path) -> None:
    run = copy_of(finished, tmp_path / "run")
    decided = gates(LearnRun(run))
    for k in (1, 2):
        path = run / f"gen-{k:03d}" / "weights.npz"
        raw = bytearray(path.read_bytes())
        middle = len(raw) // 2
        raw[middle:middle + 64] = bytes(64)
        path.write_bytes(bytes(raw))
    # judging a decided gate reads its results only: no model is loaded
    assert gates(LearnRun(run)) == decided
    assert_bad_input(learn(str(run), "--generations", "3"), "gen-001/weights.npz", "damaged",
                     "generation 1")
    (run / "gen-001" / "weights.npz").write_bytes(b"")
    assert_bad_input(learn(str(run), "--generations", "3"), "gen-001/weights.npz")


def test_a_missing_data_file_is_named(finished: Path, tmp_path: Path) -> None:
    """The data of the generations in a candidate's window: named when missing (it was "RUN:
    No such file or directory")."""
    run = copy_of(finished, tmp_path / "run")
    (run / "gen-001" / "data.npz").unlink()
    assert_bad_input(learn(str(run), "--generations", "3"), "gen-001/data.npz", "missing",
                     "generation 3")


# ---- D13: temporary files ----

def test_the_temporary_files_of_killed_writes_are_swept(finished: Path, tmp_path: Path) -> None:
    run = copy_of(finished, tmp_path / "run")
    left = [run / ".chart.svg.0123abcd.tmp", run / ".ledger.json.89ab0123.tmp",
            run / ".learn.json.deadbeef.tmp", run / "gen-001" / ".data.npz.a1b2c3d4.tmp",
            run / "gen-002" / ".weights.npz.00ff00ff.tmp"]
    other = [run / "notes.tmp", run / "gen-001" / ".mine.tmp", tmp_path / ".chart.svg.1234abcd.tmp"]
    for path in left + other:
        path.write_bytes(b"half written")
    LearnRun(run).run(2)
    assert [p for p in left if p.exists()] == []
    assert all(p.exists() for p in other)
