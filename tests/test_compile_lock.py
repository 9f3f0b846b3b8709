"""Processes side by side on an empty numba cache compile a kernel once
(``engine.compile_lock``): one that reaches a kernel another process is compiling waits for
it and loads it from the cache."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from engine.compile_lock import _HELD, _exclusive, compile_kernels_once, lock_path
from engine.core import go_kernels
from numba.core.dispatcher import Dispatcher

ROOT = Path(__file__).resolve().parent.parent

# a child that takes the lock of go_kernels.clear_board for the types below, and compiles it
# under that lock (numba's own compile) only when told, by a line on stdin
HOLDER = """
import fcntl, os, sys
from numba import typeof
from numba.core.dispatcher import Dispatcher
from engine.compile_lock import lock_path
from engine.core import go_kernels
from engine.core.layout import new_arrays
args = (*new_arrays(5), 5)
types = tuple(typeof(a) for a in args)
fd = os.open(lock_path(go_kernels.clear_board, types), os.O_RDWR | os.O_CREAT)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
sys.stdin.readline()
Dispatcher.compile.__wrapped__(go_kernels.clear_board, types)
os.close(fd)
"""
# a child that calls the kernel and reports whether it compiled it or loaded it
CALLER = """
import json
from numba import typeof
from engine.core import go_kernels
from engine.core.layout import new_arrays
args = (*new_arrays(5), 5)
types = tuple(typeof(a) for a in args)
print("calling", flush=True)
go_kernels.clear_board(*args)
stats = go_kernels.clear_board.stats
print(json.dumps([sum(stats.cache_misses.values()), sum(stats.cache_hits.values())]))
"""


def child(code: str, cache: Path) -> subprocess.Popen:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)


def test_a_process_waits_for_the_kernel_another_one_compiles_and_loads_it(tmp_path):
    holder = child(HOLDER, tmp_path)
    caller = None
    try:
        assert holder.stdout.readline().strip() == "locked", holder.stderr.read()
        caller = child(CALLER, tmp_path)
        assert caller.stdout.readline().strip() == "calling", caller.stderr.read()
        # the caller finds nothing in the cache and waits on the lock; without the lock
        # it would compile the kernel itself now, before the holder saves it
        time.sleep(1.0)
        assert caller.poll() is None
        holder.communicate("go\n", timeout=120)
        assert holder.returncode == 0
        out, err = caller.communicate(timeout=120)
        assert caller.returncode == 0, err
        assert json.loads(out) == [0, 1]      # no compile of its own: loaded from the cache
    finally:
        for process in (holder, caller):
            if process is not None and process.poll() is None:
                process.kill()


def test_the_lock_is_for_package_kernels_with_a_cache_and_one_a_signature():
    from numba import njit, types
    installed = Dispatcher.compile       # installed when engine was imported
    assert getattr(installed, "compiles_once", False)
    compile_kernels_once()
    assert Dispatcher.compile is installed   # a second install wraps nothing again
    one = lock_path(go_kernels.clear_board, (types.int64,))
    two = lock_path(go_kernels.clear_board, (types.int32,))
    assert one != two and one.endswith(".lock")
    assert Path(one).parent == Path(go_kernels.clear_board.stats.cache_path)
    assert lock_path(njit(lambda x: x), (types.int64,)) is None   # no cache, not ours


def test_a_process_takes_a_lock_it_holds_again_without_waiting(tmp_path):
    # numba's compile of a kernel may reach, through a callee, a signature this process is
    # itself compiling: waiting on its own lock would hang it for good
    path = str(tmp_path / "kernel.nbi.0.lock")
    entered = []

    def nested():
        with _exclusive(path), _exclusive(path):
            entered.append(path)
    thread = threading.Thread(target=nested, daemon=True)
    thread.start()
    thread.join(10)
    assert entered == [path] and not thread.is_alive()
    assert not _HELD            # both released


def test_a_lock_that_cannot_be_made_leaves_the_compile_unlocked(tmp_path):
    (tmp_path / "file").write_text("")     # a cache folder that cannot be made
    path = str(tmp_path / "file" / "kernel.nbi.0.lock")
    with _exclusive(path):
        assert path not in _HELD
