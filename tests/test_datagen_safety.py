"""datagen keeps every finished game through crashes, damage and a second run on the same
OUT (issue 29, reproduction 9): the run holds OUT's lock, its settings stamp and parts are
written atomically (synced), a damaged part is named and its game played again, a damaged
stamp is named."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from arle_ai.learn.datagen import DatagenConfig, generate, parts_dir
from arle_cli.main import cli

TINY = DatagenConfig(games=3, seed=2, iterations=8, explore=2)
ARGS = ["--games", "3", "--seed", "2", "--iterations", "8", "--explore", "2"]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, np.ndarray]:
    return generate(tmp_path_factory.mktemp("ref") / "ref.npz", TINY)


def _same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> None:
    assert sorted(a) == sorted(b)
    for k in a:
        if k != "meta":
            assert np.array_equal(a[k], b[k]), k


@pytest.mark.parametrize("damage", ["truncated", "zeros", "empty", "garbage", "other game"])
def test_a_damaged_part_is_named_and_its_game_played_again(tmp_path, reference, damage):
    out = tmp_path / "d.npz"
    generate(out, TINY)
    part = parts_dir(out) / "game-000001.npz"
    raw = part.read_bytes()
    part.write_bytes({"truncated": raw[:len(raw) // 2], "zeros": bytes(len(raw)), "empty": b"",
                      "garbage": b"PK\x03\x04" + raw[200:],
                      "other game": (parts_dir(out) / "game-000002.npz").read_bytes()}[damage])
    result = CliRunner().invoke(cli, ["datagen", "-o", str(out), *ARGS])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output and "aborted" not in result.output
    warning = [line for line in result.output.splitlines() if "warning" in line]
    assert len(warning) == 1 and str(part) in warning[0], result.output
    assert warning[0].endswith("moved to game-000001.npz.damaged, the game is played again")
    assert (parts_dir(out) / "game-000001.npz.damaged").exists()
    with np.load(out) as z:
        _same(reference, {k: z[k] for k in z.files})


def test_parts_cut_short_are_not_counted_as_played(tmp_path, reference):
    """A resumed run said '3 of 3 games already played, 0 to play' and then played the games of
    the parts a power loss had cut short: such parts are set aside before counting now."""
    out = tmp_path / "d.npz"
    generate(out, TINY)
    out.unlink()
    cut, empty = parts_dir(out) / "game-000000.npz", parts_dir(out) / "game-000002.npz"
    cut.write_bytes(cut.read_bytes()[:300])
    empty.write_bytes(b"")
    result = CliRunner().invoke(cli, ["datagen", "-o", str(out), *ARGS])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line.split(": ")[2] for line in lines if "warning" in line] == [
        str(cut), str(empty)]
    resuming = [line for line in lines if "resuming" in line]
    assert resuming == [f"arle: resuming {out}: 1 of 3 games already played, 2 to play"]
    with np.load(out) as z:
        _same(reference, {k: z[k] for k in z.files})


def test_a_damaged_settings_stamp_is_named(tmp_path):
    out = tmp_path / "d.npz"
    generate(out, TINY)
    stamp = parts_dir(out) / "config.json"
    stamp.write_text('{"seed": 2, "iter')  # cut off by a power loss (before it was atomic)
    result = CliRunner().invoke(cli, ["datagen", "-o", str(out), *ARGS])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1].startswith(
        f"arle: error: {stamp} is damaged (malformed JSON: ")
    assert "delete it to go on with the settings given now" in result.output
    stamp.unlink()
    result = CliRunner().invoke(cli, ["datagen", "-o", str(out), *ARGS])
    assert result.exit_code == 0, result.output


def test_a_second_run_on_the_same_out_is_refused_at_once(tmp_path):
    out = tmp_path / "d.npz"
    first = subprocess.Popen([sys.executable, "-m", "arle_cli.entry", "datagen", "-o", str(out),
                              "--games", "50", "--iterations", "50"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        stamp = parts_dir(out) / "config.json"
        # the stamp is written under the lock: once it is there, the lock is held
        end = time.monotonic() + 120
        while not stamp.exists() and first.poll() is None and time.monotonic() < end:
            time.sleep(0.05)  # polling for the stamp, not waiting a guessed time
        assert stamp.exists(), first.stderr.read() if first.stderr else ""
        result = CliRunner().invoke(cli, ["datagen", "-o", str(out), "--games", "50",
                                          "--iterations", "50"])
        assert result.exit_code == 2, result.output
        assert (f"arle: error: {out} is being made by another datagen run (it holds "
                f"{parts_dir(out) / 'lock'})") in result.output
    finally:
        first.kill()
        first.wait()
    # the lock dies with its holder: the next run goes on
    result = CliRunner().invoke(cli, ["datagen", "-o", str(out), *ARGS])
    assert result.exit_code == 2 and "other settings" in result.output  # not the lock


def test_temporary_files_of_a_killed_writer_are_removed(tmp_path):
    out = tmp_path / "d.npz"
    parts_dir(out).mkdir()
    left = [parts_dir(out) / ".game-000000.npz.1a2b3c4d.tmp",
            parts_dir(out) / ".config.json.0a0b0c0d.tmp", tmp_path / ".d.npz.89abcdef.tmp"]
    other = tmp_path / ".e.npz.89abcdef.tmp"  # another output's
    for path in [*left, other]:
        path.write_bytes(b"half written")
    generate(out, DatagenConfig(games=1, seed=2, iterations=8, explore=2))
    assert [p for p in left if p.exists()] == [] and other.exists()
    assert sorted(p.name for p in parts_dir(out).iterdir()) == [
        "config.json", "game-000000.npz", "lock"]
