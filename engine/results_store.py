"""The integrity of a results folder, shared by the tsumego sweep and the match runner:
one writer at a time, rows that reach the disk whole, readers that survive what a crash,
a full disk or a careless user leaves behind.

* ``FolderLock``: an exclusive ``flock`` on ``DIR/.lock`` for as long as a run writes into
  ``DIR``.  The file names its holder (pid, host, command, start time), so a second run
  refuses with a message naming the first.  The kernel drops the lock when its holder dies,
  even by SIGKILL, so a stale file never blocks anyone.  Re-entrant within a process.
* ``append_line``: one ``write`` of a whole line to a file opened for appending, then
  ``fsync``; the only damage a kill can leave is a last line without its newline.
* ``read_lines``: the complete lines of a file with their numbers; a torn last line is left
  out (a writer may be finishing it) and reported.
* ``repair``: run by the lock holder: the torn tail and the lines its parser refused leave
  the file (kept in ``FILE.corrupt``), the rest is rewritten atomically, and it says so.
* ``NotAResultsFile``: something else where a results file should be.
* ``ResultsWriteError``: every ``OSError`` of writing (an unwritable folder, a full disk)
  as one line naming the file and what to do about it.
* ``code_version``: a digest of the engine's sources and data, recorded with every row so
  that results of different code are never mixed; ``commit``: the git commit of the
  checkout that ran it, so a reader can check the code out again.
"""

import fcntl
import json
import os
import socket
import subprocess
import sys
import time
from functools import lru_cache
from pathlib import Path

from . import __version__
from .source_digest import package_digest

LOCK_NAME = ".lock"
CORRUPT_SUFFIX = ".corrupt"


class OutputBusy(RuntimeError):
    """Another process holds the results folder."""


class NotAResultsFile(ValueError):
    """A file where a results file should be that is not one (another format, a device)."""


class ResultsWriteError(RuntimeError):
    """Writing a results file failed; the message is one line saying which and why."""


def write_error(path, exc: OSError) -> ResultsWriteError:
    hint = ("free some disk space" if exc.errno == 28 else
            "check its permissions or choose another output folder")
    return ResultsWriteError(f"cannot write {path}: {exc.strerror or exc}; {hint}")


@lru_cache(maxsize=1)
def commit() -> str | None:
    """The short hash of the checkout's HEAD, with ``-dirty`` when the package's files
    differ from it; None outside a git checkout (an installed copy), or without git."""
    here = str(Path(__file__).parent)
    try:
        head = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--", "."],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def code_version() -> str:
    """``VERSION+DIGEST``: the package version and the digest of every source and data file
    of the ``engine`` package, so any change of code that could change a result changes it."""
    return f"{__version__}+{package_digest()}"


class FolderLock:
    """``with FolderLock(dir):`` -- this process writes into ``dir`` (created), or
    OutputBusy naming the process that does."""

    _held: dict = {}   # resolved folder -> [fd, depth]: re-entrant within a process

    def __init__(self, folder):
        self.folder = Path(folder)

    def __enter__(self):
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            key = str(self.folder.resolve())
        except OSError as exc:
            raise write_error(self.folder, exc) from None
        held = self._held.get(key)
        if held is not None:
            held[1] += 1
            self._key = key
            return self
        path = self.folder / LOCK_NAME
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise write_error(path, exc) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise OutputBusy(f"{self.folder} is in use by {holder}; wait for it to finish "
                             f"or choose another output folder") from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, json.dumps(_holder()).encode() + b"\n")
        except OSError as exc:
            os.close(fd)
            raise write_error(path, exc) from None
        self._held[key] = [fd, 1]
        self._key = key
        return self

    def __exit__(self, *exc):
        held = self._held[self._key]
        held[1] -= 1
        if held[1] == 0:
            del self._held[self._key]
            os.close(held[0])   # closing drops the flock; the file stays, harmless


def _holder() -> dict:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "command": " ".join(sys.argv) or "python",
            "started": time.strftime("%Y-%m-%d %H:%M:%S")}


def _read_holder(fd: int) -> str:
    try:
        info = json.loads(os.pread(fd, 4096, 0).decode())
        return (f"process {info['pid']} on {info['host']} ({info['command']}, started "
                f"{info['started']})")
    except (OSError, ValueError, KeyError, TypeError):
        return "another process"


def append_line(path, line: str):
    """Append ``line`` (no newline in it) and its newline in one write, then fsync."""
    data = (line + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(28, "short write (disk full?)")
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        raise write_error(path, exc) from None


def replace_text(path, text: str):
    """Write ``path`` whole through a temporary file, so readers see the old or the new."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        raise write_error(path, exc) from None


def read_lines(path) -> tuple[list[tuple[int, str]], bool]:
    """(number, text) of every complete line (numbers from 1), and whether a torn last
    line (no newline) was left out.  No file: no lines; ValueError for something that is
    not a regular file (a device, a FIFO: reading it could block or never end)."""
    path = Path(path)
    if not path.exists():
        return [], False
    if not path.is_file():
        raise NotAResultsFile(f"{path} is not a regular file; move it away or choose "
                              f"another output folder")
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    text = data[:end].decode("utf-8", "replace")
    return list(enumerate(text.splitlines(), start=1)), end < len(data)


def repair(path, bad: list[int], torn: bool, log=None):
    """Take the lines numbered ``bad`` and a torn tail out of ``path`` (the caller holds
    its folder's lock): they go to ``path.corrupt``, the rest stays in order."""
    if not bad and not torn:
        return
    path = Path(path)
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    lines = data[:end].decode("utf-8", "replace").splitlines(keepends=True)
    dropped = set(bad)
    removed = [lines[n - 1] for n in sorted(dropped)]
    if torn:
        removed.append(data[end:].decode("utf-8", "replace") + "\n")
    try:
        with open(path.with_name(path.name + CORRUPT_SUFFIX), "a", encoding="utf-8") as f:
            f.writelines(removed)
    except OSError as exc:
        raise write_error(path.with_name(path.name + CORRUPT_SUFFIX), exc) from None
    replace_text(path, "".join(ln for n, ln in enumerate(lines, 1) if n not in dropped))
    what = [f"line{'s' if len(bad) > 1 else ''} {', '.join(map(str, sorted(bad)))} "
            f"unreadable"] if bad else []
    what += ["a torn last line"] if torn else []
    print(f"{path}: {' and '.join(what)}: moved to {path.name}{CORRUPT_SUFFIX}; the runs "
          f"they held will be run again",
          file=log or sys.stderr)


def first_of_each(rows, key) -> tuple[list, int]:
    """The rows whose ``key(row)`` was not seen before, in order, and how many were not."""
    seen, unique = set(), []
    for row in rows:
        k = key(row)
        if k not in seen:
            seen.add(k)
            unique.append(row)
    return unique, len(rows) - len(unique)
