"""Reading the user's files with a bound, and writing every file atomically.

Reading: positions, game records, results and weights files.

A path may name anything: a directory, a device such as /dev/zero (endless), a file of
gigabytes, a pipe. :func:`read_bytes` reads at most :data:`MAX_FILE_BYTES` of a file or a
stream (``/dev/stdin`` and ``<(...)`` stay usable for a position or record), refuses a
directory, and raises the caller's error class (a ValueError) with a message naming the path
and the problem; :func:`check_regular` requires a regular file, for the readers that seek or
append (numpy's ``.npz``, results files: a fifo would block them forever).

Writing: every file the project writes (positions, game records, datagen parts, stamps and
merged files, weights) goes through :func:`atomic_writer` (or :func:`write_bytes`,
:func:`write_text`): the bytes go to a new temporary file in the same folder, which is
flushed to the disk (fsync) and then renamed over the target, and the folder is synced. A
reader, a crash, a power loss or a full disk thus leaves the old file or the whole new one,
never a mix or a truncated file; on any failure the temporary file is removed and the old
file is untouched (a writer killed outright leaves it: :func:`temporary_files` finds them for
the lock holder to remove). A target that exists and is not a regular file (``/dev/stdout``, a fifo)
is written in place: it cannot be replaced by a rename, nor does it keep old contents.
"""

from __future__ import annotations

import glob
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

__all__ = ["MAX_FILE_BYTES", "atomic_writer", "check_regular", "fsync_folder", "kind_of",
           "lock_exclusive", "read_bytes", "read_text", "regular_or_missing",
           "temporary_files", "write_bytes", "write_text"]

# 64 MiB: thousands of times a position (~5 kB) or a game record (~10 kB). A results file
# grows by a line per game (~4 kB): it is read a line at a time, each line under this bound.
MAX_FILE_BYTES = 64 << 20


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, for messages (``a directory``, ...)."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a fifo (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def _stat(path: str | os.PathLike[str], error: type[ValueError]) -> os.stat_result:
    """``os.stat(path)``, or ``error`` naming the path and why it cannot be read."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except ValueError:  # a NUL character in the name
        raise error(f"{str(path)!r}: a file name cannot hold a NUL character") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    return st


def check_regular(path: str | os.PathLike[str], error: type[ValueError] = ValueError,
                  what: str = "file") -> os.stat_result:
    """``path``'s status if it is an existing regular file; ``error`` naming the problem
    otherwise (no such file, a directory or fifo or device, a name the system refuses)."""
    st = _stat(path, error)
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{path}: is {kind_of(st.st_mode)}, not a {what}")
    return st


def regular_or_missing(path: str | os.PathLike[str], error: type[ValueError] = ValueError,
                       what: str = "file") -> bool:
    """False when nothing is at ``path``; True when a regular file is; ``error`` naming the
    problem otherwise (a directory, fifo or device; a name the system refuses)."""
    if not os.path.lexists(path):
        try:
            os.lstat(path)
        except FileNotFoundError:
            return False
        except (OSError, ValueError):
            pass  # check_regular names it
    check_regular(path, error, what)
    return True


def read_bytes(path: str | os.PathLike[str], error: type[ValueError] = ValueError,
               what: str = "file", limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; ``error`` naming
    the path and the problem otherwise (see :func:`check_regular`; larger than the bound)."""
    st = _stat(path, error)
    if stat.S_ISDIR(st.st_mode):
        raise error(f"{path}: is a directory, not a {what}")
    try:
        with open(path, "rb") as fh:  # a file, or a stream: a pipe, /dev/stdin, a device
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{path}: larger than {limit >> 20} MiB, the most read from a {what}")
    return data


def read_text(path: str | os.PathLike[str], error: type[ValueError] = ValueError,
              what: str = "file", limit: int = MAX_FILE_BYTES) -> str:
    """:func:`read_bytes` decoded as UTF-8; ``error`` naming the first bad byte."""
    data = read_bytes(path, error, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None



def _target(path: str | os.PathLike[str]) -> str:
    """The file a write to ``path`` replaces: a symbolic link's target (the link stays)."""
    text = os.fspath(path)
    return os.path.realpath(text) if os.path.islink(text) else text


def fsync_folder(folder: str | os.PathLike[str]) -> None:
    """Flush a folder's entries (a rename, a new file) to the disk; where a folder cannot be
    opened for that (not POSIX), nothing is done."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:  # some file systems refuse fsync on a folder; the rename is done anyway
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path``'s new contents to: when the block ends normally the
    contents are synced to the disk and renamed over ``path`` (the old file or the whole new
    one, whatever happens); an exception in the block or in the writing (a full disk) removes
    the temporary file, leaves ``path`` as it was and propagates. OSError as the system
    gives it (its filename is ``path``'s temporary file or ``path``)."""
    target = _target(path)
    try:
        st = os.stat(target)
    except (FileNotFoundError, NotADirectoryError):
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):  # /dev/stdout, a fifo: in place
        with open(target, "wb") as fh:
            yield fh
        return
    folder, name = os.path.split(target)
    # a fresh name per writer: two runs writing one file never write into each other's
    tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "wb") as fh:
            if st is not None:  # a replaced file keeps its permissions
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_folder(folder or os.curdir)


def temporary_files(path: str | os.PathLike[str]) -> list[Path]:
    """The temporary files that writers of ``path`` (:func:`atomic_writer`) killed before
    their rename left next to it. Remove them only where no writer can be running (under the
    lock of whatever writes ``path``)."""
    folder, name = os.path.split(_target(path))
    return sorted(Path(folder or os.curdir).glob(f".{glob.escape(name)}.*.tmp"))


def write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_writer`)."""
    with atomic_writer(path) as fh:
        fh.write(data)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` atomically (:func:`atomic_writer`)."""
    write_bytes(path, text.encode("utf-8"))


def lock_exclusive(path: str | os.PathLike[str], error: type[ValueError], busy: str) -> BinaryIO:
    """An open handle on ``path`` (created if missing, its contents untouched) holding the
    file's exclusive lock until it is closed (or the process ends, however it ends): two runs
    writing one output would spoil each other's work. ``error(busy)`` when another process
    holds the lock; ``error`` naming the problem when the file cannot be opened. Where there
    is no ``flock`` (not POSIX) nothing is locked."""
    regular_or_missing(path, error)  # a fifo would block the open
    try:
        fh = open(path, "ab")  # appending nothing changes nothing
    except OSError as exc:
        raise error(f"{path}: cannot open: {exc.strerror or exc}") from None
    if fcntl is not None:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fh.close()
            raise error(busy) from None
    return fh
