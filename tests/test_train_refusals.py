"""``arle train`` never writes weights from data it cannot train on (issue 29, reproduction 8:
NaN or overflowing data exited 0 and overwrote -o with weights that eval=net then refused),
and running out of memory is a named error."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from arle_ai.base.npzfile import write_npz
from arle_ai.learn.datagen import DatagenConfig, generate
from arle_ai.learn.train import VALUE_BOUNDS
from arle_ai.search.net import NetError, load_weights, save_weights
from arle_cli.main import cli


@pytest.fixture(scope="module")
def datagen_file(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("train") / "d.npz"
    generate(out, DatagenConfig(games=4, iterations=8, explore=2))
    return str(out)


def _damaged(datagen_file: str, path, key: str, value: float) -> None:
    with np.load(datagen_file) as z:
        arrays = {k: z[k] for k in z.files}
    arrays[key] = arrays[key].copy()
    arrays[key].flat[len(arrays[key].flat) // 2] = value
    write_npz(path, arrays)


def _old_weights(tmp_path, datagen_file: str):
    out = tmp_path / "w.npz"
    result = CliRunner().invoke(cli, ["train", datagen_file, "-o", str(out), "--epochs", "1",
                                      "--hidden", "4"])
    assert result.exit_code == 0, result.output
    return out, out.read_bytes()


@pytest.mark.parametrize("key, value", [("features", np.nan), ("margin", np.inf),
                                        ("root_value", -np.inf)])
def test_non_finite_data_is_refused_and_the_old_weights_stay(tmp_path, datagen_file, key,
                                                             value):
    out, before = _old_weights(tmp_path, datagen_file)
    bad = tmp_path / "bad.npz"
    _damaged(datagen_file, bad, key, value)
    result = CliRunner().invoke(cli, ["train", str(bad), "-o", str(out), "--epochs", "1"])
    assert result.exit_code == 2, result.output
    assert f"{key} holds a value that is not finite" in result.output
    assert "Traceback" not in result.output and out.read_bytes() == before


@pytest.mark.parametrize("key, size", [("margin", 3e38), ("root_margin", 3e38),
                                       ("final_vp", 2e5), ("features", 1e30)])
def test_overflowing_data_is_refused_by_name_and_the_old_weights_stay(tmp_path, datagen_file,
                                                                       key, size):
    """Values near float32's largest trained to a model the core refuses ('b2 - w0 @ mean ...
    not finite'): it used to be written over -o all the same, then refused for a reason naming
    the model; the data is refused first now, by the array that no game could give."""
    out, before = _old_weights(tmp_path, datagen_file)
    with np.load(datagen_file) as z:
        arrays = {k: z[k] for k in z.files}
    arrays[key] = arrays[key].copy()
    arrays[key][::2] = size  # finite as float32, every other row
    write_npz(tmp_path / "huge.npz", arrays)
    result = CliRunner().invoke(cli, ["train", str(tmp_path / "huge.npz"), "-o", str(out),
                                      "--epochs", "2", "--hidden", "4", "--target-blend",
                                      "0.5"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1] == (
        f"arle: error: {tmp_path / 'huge.npz'}: {key} holds {size:.3g} in size, beyond any "
        f"game's (at most {VALUE_BOUNDS[key]:g}): refusing to train on it")
    assert "Traceback" not in result.output and out.read_bytes() == before


def test_weights_the_core_would_refuse_are_never_written(tmp_path, datagen_file):
    """The last guard, behind the data checks: a model that eval=net would refuse."""
    out, before = _old_weights(tmp_path, datagen_file)
    arrays, _ = load_weights(out)
    arrays = {k: v.copy() for k, v in arrays.items()}
    arrays["mean"][:] = 3e38
    arrays["w0"][:] = 3e38
    with pytest.raises(NetError, match="the model cannot be used, so it was not written"):
        save_weights(out, arrays)
    assert out.read_bytes() == before


def test_running_out_of_memory_is_named(tmp_path, datagen_file, monkeypatch):
    from arle_cli import train_cmd

    def no_memory(*args, **kwargs):
        raise MemoryError

    out, before = _old_weights(tmp_path, datagen_file)
    monkeypatch.setattr(train_cmd, "fit", no_memory)
    result = CliRunner().invoke(cli, ["train", datagen_file, "-o", str(out)])
    assert result.exit_code == 2 and "not enough memory to train on" in result.output
    assert out.read_bytes() == before
    monkeypatch.setattr(train_cmd, "load_datasets", no_memory)
    result = CliRunner().invoke(cli, ["train", datagen_file, "-o", str(out)])
    assert result.exit_code == 2 and "not enough memory to load" in result.output


@pytest.mark.parametrize("kind, change, words", [
    ("visit", lambda d: d.pop("visit_count"), "has visit_ptr, visit_action but not all"),
    ("visit", lambda d: d.update(visit_ptr=np.array([0, 2, 2, 3])), "visit_ptr is not a table"),
    ("visit", lambda d: d.update(visit_action=np.array([0, 673, 5])), "names no action id"),
    ("visit", lambda d: d.update(visit_count=np.array([1, 0, 4])), "or has no visit"),
    ("visit", lambda d: d.update(visit_count=np.array([1, 4])), "visit arrays of shapes"),
    ("policy", lambda d: d.pop("policy_mask"), "but not all of policy_ptr"),
    ("policy", lambda d: d.update(policy_ptr=np.array([0, 3, 3, 3])), "policy_ptr is not a"),
    ("policy", lambda d: d.update(policy_action=np.array([-1, 2, 5])), "names no action id"),
    ("policy", lambda d: d.update(policy_prob=np.array([0.5, np.nan, 1.0])),
     "or has no probability"),
    ("policy", lambda d: d.update(policy_mask=np.array([1, 2, 0])), "policy_mask holds"),
])
def test_malformed_visit_and_policy_tables_are_named(kind, change, words) -> None:
    """The root visits and the policy targets are tables of 3 positions here: each way of
    breaking one is named (and a well-formed one passes)."""
    from arle_ai.learn import dataset

    data = {"visit_ptr": np.array([0, 1, 2, 3]), "visit_action": np.array([0, 2, 5]),
            "visit_count": np.array([1, 3, 4]),
            "policy_ptr": np.array([0, 1, 2, 3]), "policy_action": np.array([0, 2, 5]),
            "policy_prob": np.array([1.0, 1.0, 1.0]), "policy_mask": np.array([1, 0, 1])}
    check = dataset._check_visits if kind == "visit" else dataset._check_targets
    check("d.npz", dict(data), 3)
    change(data)
    with pytest.raises(ValueError, match=words):
        check("d.npz", data, 3)
