"""Compressed numpy files (``.npz``): the one writer of datagen files, their per-game parts and
value-net weights, and the one bounded reader of them.

Writing is atomic (:func:`arle_ai.base.files.atomic_writer`): an interrupted run, a power loss
or a full disk never leaves a half-written file. It is reproducible: equal arrays give the same
bytes (a file's digest names its data).

Reading trusts nothing in the file before it is checked. numpy's own ``np.load`` reads a
member's ``.npy`` header and then allocates whatever it claims (a 27 KB file claiming 37 GiB
was a MemoryError traceback), inflates a zip bomb whole before noticing anything, and answers
random bytes with advice about ``allow_pickle``. :class:`NpzArchive` instead opens the zip
archive, reads every member's header first (a few hundred bytes each) and checks it: a plain
numeric or text dtype (no objects, no pickles), a shape whose bytes are what the archive
declares for the member, a compression ratio no real array reaches (a zip bomb is refused
before it is inflated) and the whole within the caller's bound and the memory this machine
has free. Only then is data read, into an array of the checked size; every failure, a
MemoryError too, is the caller's error class (a ValueError) naming the file and the problem.
"""

from __future__ import annotations

import math
import os
import zipfile
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np

from arle_ai.base.files import atomic_writer, check_regular

__all__ = ["MAX_RATIO", "NpzArchive", "NpyHeader", "free_memory", "read_npz", "write_npz"]

# deflate compresses at most ~1030:1 (a run of zeros); real arrays of this project stay under
# ~250:1 (a datagen file's game ids: runs of one value). A large member compressed more than
# this is a zip bomb, refused before it is inflated.
MAX_RATIO = 400
RATIO_FROM_BYTES = 16 << 20  # small members may be all zeros (a new model's biases)
MAX_HEADER = 10_000  # bytes of a .npy header (numpy's own bound)
NUMERIC_KINDS = "biufcUS"  # booleans, integers, floats, complex, text; never objects
CHUNK = 1 << 20

# numpy's savez_compressed stamps every member with the time of writing, so two runs that made
# the same arrays wrote different files; a fixed stamp (the zip format's earliest) makes the
# bytes depend on the arrays alone.
_STAMP = (1980, 1, 1, 0, 0, 0)


def write_npz(path: str | os.PathLike[str], arrays: Mapping[str, np.ndarray]) -> None:
    """Write `arrays` to `path` as a compressed .npz (what ``np.load`` reads, one ``NAME.npy``
    member per array in the given order): to a temporary file next to it first, synced to the
    disk, then renamed over `path` (a reader sees the old file or the whole new one). Equal
    arrays in the same order give a byte-identical file."""
    with atomic_writer(path) as fh, zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, value in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=_STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16  # as numpy's members: a regular file, rw
            with zf.open(info, "w", force_zip64=True) as member:  # zip64: as numpy
                np.lib.format.write_array(member, np.asanyarray(value), allow_pickle=False)


def free_memory() -> int | None:
    """Bytes of memory this process could still get (the system's available memory, less
    if an address-space limit is set); None when unknown."""
    free: int | None = None
    try:
        with open("/proc/meminfo", "rb") as fh:
            for line in fh:
                if line.startswith(b"MemAvailable:"):
                    free = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if free is None:
        try:
            free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, OSError, ValueError):
            free = None
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            free = soft if free is None else min(free, soft)
    except (ImportError, OSError, ValueError):
        pass
    return free


def _mib(n: int) -> str:
    """``n`` bytes for a message: 37.3 GiB, 76.3 MiB, 26.4 KiB, 80 bytes."""
    for unit, size in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n} bytes"


@dataclass(frozen=True)
class NpyHeader:
    """A member's checked header: the array it holds, before any of its data is read."""

    name: str
    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    fortran_order: bool
    offset: int  # bytes of the header in the member
    nbytes: int  # bytes of the data

    @property
    def rows(self) -> int | None:
        """The length of the first axis (None for a 0-d array)."""
        return self.shape[0] if self.shape else None


class NpzArchive:
    """An ``.npz`` file opened for bounded reading: ``headers`` holds every member's checked
    header (by name, without ``.npy``), :meth:`read` one member's data. Use it as a context
    manager, or :func:`read_npz` for the common case.

    ``error`` (a ValueError subclass) is raised for every problem, its message starting with
    the path; ``what`` names the kind of file in messages ("weights file"); ``max_bytes``
    bounds the uncompressed bytes of the whole file."""

    def __init__(self, path: str | os.PathLike[str], error: type[ValueError] = ValueError,
                 what: str = ".npz file", max_bytes: int | None = None) -> None:
        self.path, self.error, self.what = path, error, what
        check_regular(path, error, what)  # a fifo would block the open
        try:
            self._zip = zipfile.ZipFile(path)
        except FileNotFoundError:
            raise self._fail("no such file") from None
        except zipfile.BadZipFile:
            raise self._not_ours("not a .npz archive: not a zip file") from None
        except (OSError, ValueError, EOFError) as exc:
            raise self._not_ours(f"cannot be read as a .npz archive: {exc}") from None
        try:
            self.headers = self._read_headers(max_bytes)
        except BaseException:
            self._zip.close()
            raise

    # ---- errors ----

    def _fail(self, problem: str) -> ValueError:
        return self.error(f"{self.path}: {problem}")

    def _not_ours(self, problem: str) -> ValueError:
        return self._fail(f"not a {self.what} ({problem})")

    # ---- headers ----

    def _read_headers(self, max_bytes: int | None) -> dict[str, NpyHeader]:
        headers: dict[str, NpyHeader] = {}
        total = 0
        for info in self._zip.infolist():
            if info.is_dir():
                continue
            if not info.filename.endswith(".npy"):
                raise self._not_ours(f"member {info.filename[:60]!r} is not a .npy array")
            name = info.filename[:-4]
            if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
                raise self._not_ours(f"member {name!r} is compressed with method "
                                     f"{info.compress_type}, not deflate")
            if (info.file_size >= RATIO_FROM_BYTES
                    and info.file_size > MAX_RATIO * max(1, info.compress_size)):
                raise self._fail(f"member {name!r} would inflate {_mib(info.compress_size)} "
                                 f"to {_mib(info.file_size)} (more than {MAX_RATIO}:1): a zip "
                                 f"bomb, not a {self.what}")
            header = self._header(info, name)
            total += header.nbytes
            headers[name] = header
        if max_bytes is not None and total > max_bytes:
            raise self._fail(f"its arrays hold {_mib(total)}, more than the {_mib(max_bytes)} "
                             f"a {self.what} may hold")
        free = free_memory()
        if free is not None and total > free:
            raise self._fail(f"its arrays need {_mib(total)} of memory and {_mib(free)} are "
                             f"free")
        return headers

    def _header(self, info: zipfile.ZipInfo, name: str) -> NpyHeader:
        try:
            with self._zip.open(info) as fh:
                major, _ = np.lib.format.read_magic(fh)
                read = (np.lib.format.read_array_header_1_0 if major == 1
                        else np.lib.format.read_array_header_2_0)
                shape, fortran, dtype = read(fh, max_header_size=MAX_HEADER)
                offset = fh.tell()
        except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error) as exc:
            raise self._not_ours(f"member {name!r} has no valid .npy header: "
                                 f"{' '.join(str(exc).split())[:200]}") from None
        if dtype.hasobject or dtype.fields is not None or dtype.kind not in NUMERIC_KINDS:
            raise self._not_ours(f"member {name!r} holds {dtype} values, not numbers or "
                                 f"text")
        if not isinstance(shape, tuple) or not all(
                isinstance(n, int) and n >= 0 for n in shape):
            raise self._not_ours(f"member {name!r} has shape {shape!r}")
        nbytes = math.prod(shape) * dtype.itemsize
        if offset + nbytes != info.file_size:
            raise self._fail(f"damaged: member {name!r} claims {dtype} values of shape "
                             f"{shape} ({_mib(nbytes)}), the archive holds "
                             f"{_mib(max(0, info.file_size - offset))} for it")
        return NpyHeader(name, shape, dtype, bool(fortran), offset, nbytes)

    # ---- data ----

    def require(self, names: Iterable[str]) -> None:
        """``error`` naming the members of ``names`` the file lacks."""
        missing = [n for n in names if n not in self.headers]
        if missing:
            raise self._not_ours(f"missing {', '.join(missing)}")

    def read(self, name: str) -> np.ndarray:
        """The array of member ``name`` (checked against its header as it is read)."""
        if name not in self.headers:
            raise self._not_ours(f"missing {name}")
        head = self.headers[name]
        try:
            out = np.empty(head.shape, dtype=head.dtype,
                           order="F" if head.fortran_order else "C")
        except MemoryError:
            raise self._fail(f"not enough memory for its {name!r} array "
                             f"({_mib(head.nbytes)})") from None
        flat = out.reshape(-1, order="A").view(np.uint8)  # the array's own memory
        try:
            with self._zip.open(name + ".npy") as fh:
                fh.read(head.offset)  # the header, checked already
                done = 0
                while done < head.nbytes:
                    chunk = fh.read(min(CHUNK, head.nbytes - done))
                    if not chunk:
                        raise EOFError(f"its data ends after {done} of {head.nbytes} bytes")
                    flat[done:done + len(chunk)] = np.frombuffer(chunk, dtype=np.uint8)
                    done += len(chunk)
                if fh.read(1):
                    raise ValueError("more data than its header says")
        except MemoryError:
            raise self._fail(f"not enough memory to read its {name!r} array") from None
        except (ValueError, EOFError, OSError, zipfile.BadZipFile, zlib.error) as exc:
            raise self._fail(f"damaged: member {name!r}: "
                             f"{' '.join(str(exc).split())[:200]}") from None
        return out

    def close(self) -> None:
        self._zip.close()

    def __enter__(self) -> NpzArchive:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_npz(path: str | os.PathLike[str], need: Iterable[str],
             error: type[ValueError] = ValueError, what: str = ".npz file",
             optional: Iterable[str] = (),
             max_bytes: int | None = None) -> dict[str, np.ndarray]:
    """The members ``need`` (all required) and those of ``optional`` the file has, read with
    every check of :class:`NpzArchive`."""
    need = list(need)
    with NpzArchive(path, error, what, max_bytes) as z:
        z.require(need)
        names = need + [n for n in optional if n in z.headers and n not in need]
        return {n: z.read(n) for n in names}
