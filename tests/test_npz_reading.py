"""Reading .npz files (weights, datagen data and parts) checks every member's header before
its data (arle_ai.base.npzfile): forged headers, zip bombs, pickles and random bytes are
refused with a message naming the file and the problem, never a MemoryError or numpy's advice
to use allow_pickle (issue 29, reproduction 7)."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from arle_ai.base import npzfile
from arle_ai.base.npzfile import NpzArchive, read_npz, write_npz
from arle_ai.engine import _core
from arle_ai.learn.train import load_data
from arle_ai.search.net import WEIGHT_ARRAYS, NetError, load_weights
from arle_cli.main import cli


def npy(shape, dtype, data: bytes | None = None) -> bytes:
    """A .npy member: a header claiming ``shape`` and ``dtype``, then ``data`` (default: the
    bytes the header claims, zeros)."""
    dt = np.dtype(dtype)
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": np.lib.format.dtype_to_descr(dt),
                                               "fortran_order": False, "shape": shape})
    if data is None:
        data = bytes(int(np.prod(shape)) * dt.itemsize)
    return buf.getvalue() + data


def archive(path, members: dict[str, bytes], method=zipfile.ZIP_DEFLATED) -> None:
    with zipfile.ZipFile(path, "w", method) as z:
        for name, body in members.items():
            z.writestr(name + ".npy", body)


def weights_members(**override: bytes) -> dict[str, bytes]:
    n, h = _core.NUM_FEATURES, 4
    shapes = {"mean": (n,), "inv_std": (n,), "w0": (2, n), "w1": (h, n), "b1": (h,),
              "w2": (2, h), "b2": (2,)}
    members = {k: npy(s, "<f4") for k, s in shapes.items()}
    meta = np.array('{"format": "arle-value-net/1"}')
    buf = io.BytesIO()
    np.lib.format.write_array(buf, meta)
    members["meta"] = buf.getvalue()
    members.update(override)
    return members


def data_members(rows: int = 3, **override: bytes) -> dict[str, bytes]:
    members = {"features": npy((rows, _core.NUM_FEATURES), "<f4")}
    for k in ("player", "half_year", "winner"):
        members[k] = npy((rows,), "i1")
    members["game"] = npy((rows,), "<i4")
    members["margin"] = npy((rows,), "<f4")
    members.update(override)
    return members


class CountingReads:
    """Counts the bytes zipfile inflates (every member read goes through ZipExtFile.read)."""

    def __init__(self, monkeypatch) -> None:
        self.total = 0
        real = zipfile.ZipExtFile.read

        def read(this, n=-1):
            data = real(this, n)
            self.total += len(data)
            return data

        monkeypatch.setattr(zipfile.ZipExtFile, "read", read)


# ---- forged headers ----


def test_a_forged_header_claiming_gibibytes_is_named_not_a_memory_error(tmp_path):
    """A 27 KB file claiming 37 GiB was a MemoryError traceback."""
    path = tmp_path / "forged.npz"
    huge = npy((10_000_000, 1000), "<f4", data=bytes(27_000))  # claims 37 GiB
    archive(path, weights_members(w1=huge))
    with pytest.raises(NetError, match=r"forged.npz: damaged: member 'w1' claims float32 "
                                       r"values of shape \(10000000, 1000\) \(37.3 GiB\), the "
                                       r"archive holds 26.4 KiB for it"):
        load_weights(path)
    archive(path, data_members(features=npy((10_000_000, _core.NUM_FEATURES), "<f4",
                                            data=bytes(27_000))))
    with pytest.raises(ValueError, match="damaged: member 'features' claims"):
        load_data(path)


def test_a_consistent_file_larger_than_the_memory_free_is_refused_before_reading(
        tmp_path, monkeypatch):
    path = tmp_path / "big.npz"
    write_npz(path, {"x": np.zeros(1000, dtype=np.float64)})
    monkeypatch.setattr(npzfile, "free_memory", lambda: 4000)
    reads = CountingReads(monkeypatch)
    with pytest.raises(ValueError, match=r"big.npz: its arrays need 7.8 KiB of memory and "
                                         r"3.9 KiB are free"):
        read_npz(path, ["x"])
    assert reads.total < 1000  # the headers only


def test_a_memory_error_while_reading_is_named(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    write_npz(path, {"x": np.arange(10)})

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(npzfile.np, "empty", no_memory)
    with pytest.raises(ValueError, match=r"w.npz: not enough memory for its 'x' array"):
        read_npz(path, ["x"])


def test_the_weights_bound_refuses_a_consistent_but_oversized_model(tmp_path, monkeypatch):
    from arle_ai.search import net

    assert net.MAX_WEIGHTS_BYTES == 64 << 20
    monkeypatch.setattr(net, "MAX_WEIGHTS_BYTES", 1 << 20)  # a 64 MiB file takes long to make
    path = tmp_path / "w.npz"
    rows = (2 << 20) // (4 * _core.NUM_FEATURES)
    noise = np.random.default_rng(0).random((rows, _core.NUM_FEATURES)).astype("<f4")
    archive(path, weights_members(w1=npy(noise.shape, "<f4", noise.tobytes())))
    reads = CountingReads(monkeypatch)
    with pytest.raises(NetError, match="more than the 1.0 MiB a value-net weights file may"):
        load_weights(path)
    assert reads.total < 10_000  # the headers only


# ---- zip bombs ----


def test_a_zip_bomb_is_refused_before_it_is_inflated(tmp_path, monkeypatch):
    """A 1 MB bomb cost 3 GB of memory before it was refused."""
    path = tmp_path / "bomb.npz"
    rows = (256 << 20) // (4 * _core.NUM_FEATURES)
    archive(path, data_members(rows, features=npy((rows, _core.NUM_FEATURES), "<f4")))
    assert path.stat().st_size < 1 << 20
    reads = CountingReads(monkeypatch)
    with pytest.raises(ValueError, match=r"bomb.npz: member 'features' would inflate "
                                         r"\d+.\d KiB to 256.0 MiB \(more than 400:1\): a zip "
                                         r"bomb, not a datagen file"):
        load_data(path)
    assert reads.total == 0


# ---- not numbers, not an archive ----


def test_random_bytes_as_weights_are_named_without_pickle_advice(tmp_path):
    path = tmp_path / "random.npz"
    path.write_bytes(np.random.default_rng(0).bytes(5000))
    with pytest.raises(NetError) as exc:
        load_weights(path)
    assert str(exc.value) == (f"{path}: not a value-net weights file (not a .npz archive: "
                              f"not a zip file)")
    result = CliRunner().invoke(cli, ["datagen", "-o", str(tmp_path / "d.npz"), "--games",
                                      "1", "--leaf", "net", "--net", str(path)])
    assert result.exit_code == 2 and "allow_pickle" not in result.output
    assert "not a zip file" in result.output and "Traceback" not in result.output


def test_a_pickled_member_is_refused_by_its_dtype(tmp_path):
    path = tmp_path / "pickle.npz"
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    archive(path, weights_members(w1=buf.getvalue()))
    with pytest.raises(NetError, match="member 'w1' holds object values, not numbers"):
        load_weights(path)


@pytest.mark.parametrize("body, problem", [
    (b"\x93NUMPY\x01\x00" + b"\xff\xff" + b"{", "has no valid .npy header"),
    (b"not an array at all", "has no valid .npy header"),
    (npy((3,), "<f4", data=bytes(8)), "claims float32 values of shape (3,)"),
    (npy((3,), "<f4", data=bytes(16)), "claims float32 values of shape (3,)"),
])
def test_damaged_members_are_named(tmp_path, body, problem):
    path = tmp_path / "d.npz"
    archive(path, {"x": body})
    with pytest.raises(ValueError) as exc:
        read_npz(path, ["x"])
    assert str(exc.value).startswith(f"{path}: ") and problem in str(exc.value)


def test_a_member_damaged_after_its_header_is_named(tmp_path):
    path = tmp_path / "d.npz"
    write_npz(path, {"x": np.random.default_rng(1).random(50_000)})
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF  # one flipped byte in the compressed data
    path.write_bytes(bytes(raw))
    with pytest.raises(ValueError, match=r"d.npz: damaged: member 'x'"):
        read_npz(path, ["x"])


def test_arle_train_on_a_forged_file_exits_2_naming_it(tmp_path):
    path = tmp_path / "forged.npz"
    archive(path, data_members(features=npy((10**9, _core.NUM_FEATURES), "<f4",
                                            data=bytes(1000))))
    result = CliRunner().invoke(cli, ["train", str(path), "-o", str(tmp_path / "w.npz")])
    assert result.exit_code == 2, result.output
    assert "damaged: member 'features' claims" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "w.npz").exists()


# ---- what it reads is what numpy wrote ----


arrays = hnp.arrays(
    dtype=st.sampled_from([np.dtype(t) for t in ("<f4", ">f8", "<i2", ">i8", "u1", "?",
                                                  "<c8", "<U3")]),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["a", "b", "c"]), arrays, min_size=1),
       st.booleans())
def test_every_array_reads_back_as_numpy_wrote_it(tmp_path_factory, data, fortran):
    path = tmp_path_factory.mktemp("npz") / "x.npz"
    data = {k: np.asfortranarray(v) if fortran else v for k, v in data.items()}
    write_npz(path, data)
    back = read_npz(path, list(data))
    for k, v in data.items():
        assert back[k].dtype == v.dtype and back[k].shape == v.shape
        np.testing.assert_array_equal(back[k], v)
    with np.load(path) as z, NpzArchive(path) as mine:
        assert sorted(z.files) == sorted(mine.headers)


def test_weights_written_by_save_weights_load_unchanged(tmp_path):
    from arle_ai.search.net import save_weights

    rng = np.random.default_rng(2)
    n = _core.NUM_FEATURES
    params = {"mean": rng.random(n), "inv_std": rng.random(n), "w0": rng.random((2, n)),
              "w1": rng.random((3, n)), "b1": rng.random(3), "w2": rng.random((2, 3)),
              "b2": rng.random(2)}
    save_weights(tmp_path / "w.npz", params, {"note": "x"})
    arrays, meta = load_weights(tmp_path / "w.npz")
    assert meta["note"] == "x"
    for k in WEIGHT_ARRAYS:
        np.testing.assert_array_equal(arrays[k], params[k].astype(np.float32))
