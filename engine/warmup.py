"""Compiling the kernels a session uses at engine start, in parallel on an empty numba cache,
and saying so on stderr.

numba compiles a kernel with its callees in one process, one kernel at a time (its
compiler lock), and saves each to the on-disk cache, which is safe to share between
processes.  The search kernels reach the playout through one dispatch
(``engine.core.game.policy_playout_winner``), about half the compile time of a search and
independent of the rest; so on an empty cache a worker process (``python -m
engine.warmup``) compiles the playout for the session's exact argument types while this
process compiles the rules and the search's other callees.  When the search's compile
reaches the playout it waits for the worker and loads the playout from the cache: the
playout dispatcher's ``compile`` is wrapped for the warm-up's duration, so a ``genmove``
arriving early, whose search compiles on its own thread, waits alike instead of compiling
the playout a second time.  A warm cache starts no worker: the playout's cache entry is
looked up first.

What a user sees: ``compiling ...`` on stderr when the cache is empty, a line per part
compiled, then ``kernels ready in N s``; a command that needs a kernel still compiling
waits for it (a timed ``genmove`` is answered by the deadline guard instead).
"""

import json
import os
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import asdict

import numpy as np
from numba import typeof

from .core import game
from .core.go_playout import LIGHT
from .core.layout import new_arrays, zobrist_table

WORKER_TIMEOUT = 900.0   # seconds; a worker that takes longer is killed
HEARTBEAT = 5.0          # seconds between two "still compiling" lines on stderr


def playout_args(settings, searcher) -> tuple:
    """Arguments of the types ``tree_search``/``shot_kernels`` pass
    ``game.policy_playout_winner`` in a session of ``settings`` with this back end (an
    empty board: built without compiled code, so the cache can be asked before anything
    compiles)."""
    # the pattern table and parameters differ between policies, their types do not;
    # LinUCT plays light playouts only
    uses_policy = hasattr(searcher.params, "playout")
    pat, par = searcher._playout_policy() if uses_policy else LIGHT
    s, meta = new_arrays(settings.size)
    return (s, meta, zobrist_table(settings.size), searcher.rng.copy(), float(settings.komi),
            np.zeros(s.shape[1], dtype=np.int8), pat, par)


def playout_cached(args) -> bool:
    """Whether the playout kernel for ``args``' types is in the on-disk cache: its key in
    the cache's index, which is read without loading the kernel (the search loads it)."""
    kernel = game.policy_playout_winner
    sig = tuple(typeof(a) for a in args)
    try:   # numba's private cache interface: when it moves, compile as if cold
        cache = kernel._cache
        key = cache._index_key(sig, kernel.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:
        return False


def compile_playout(settings):
    """The worker's part: one call of the playout kernel with the session's argument types
    (it compiles and lands in the cache; the call plays one playout from an empty board)."""
    searcher, _ = settings.make_searcher()
    args = playout_args(settings, searcher)
    state = settings.new_state()
    args[0][:, :] = state.s
    args[1][:] = state.meta
    game.policy_playout_winner(*args)


def start_worker(settings) -> subprocess.Popen:
    spec = json.dumps(asdict(settings))
    return subprocess.Popen([sys.executable, "-m", "engine.warmup", spec],
                            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)


@contextmanager
def parallel_compile(settings, searcher, log):
    """Around the warm-up (the session's first position, its rules, its first search): on
    an empty cache, a worker process compiles the playout meanwhile; the search's compile,
    when it reaches the playout, waits for the worker and loads the playout from the cache
    (whichever thread compiles the search: the playout dispatcher's ``compile`` is wrapped
    meanwhile).  Progress goes to ``log``.  A warm cache starts nothing."""
    if playout_cached(playout_args(settings, searcher)):
        yield
        return
    start = time.monotonic()
    log(f"compiling the {settings.game} kernels on an empty numba cache (first start "
        f"only, about a minute on 2 cores): the playouts in a second process")
    worker = start_worker(settings)
    kernel = game.policy_playout_winner
    original = kernel.compile
    waited = []

    def compile_after_worker(sig):
        if not waited:
            log(f"compiled the rules and the tree in {time.monotonic() - start:.1f} s; "
                f"waiting for the playouts")
            waited.append(_wait(worker, start, log))
        return original(sig)

    kernel.compile = compile_after_worker
    try:
        yield
    finally:
        del kernel.compile
        if not waited:
            _wait(worker, start, log)


def _wait(worker, start: float, log) -> str:
    """Wait for the worker, a line on ``log`` every ``HEARTBEAT`` seconds."""
    while True:
        try:
            err = worker.communicate(timeout=HEARTBEAT)[1]
            break
        except subprocess.TimeoutExpired:
            if time.monotonic() - start > WORKER_TIMEOUT:
                worker.kill()
                err = "timed out"
                break
            log(f"compiling: the search waits for the playouts, "
                f"{time.monotonic() - start:.0f} s")
    if worker.returncode == 0:
        log(f"compiled the playouts in {time.monotonic() - start:.1f} s")
    else:   # the search compiles the playout itself
        log(f"playout worker failed: {(err or '').strip().splitlines()[-1:]}")
    return err


def _settings_from_json(text: str):
    from .gtp.context import Settings
    fields = json.loads(text)
    fields["options"] = tuple(tuple(kv) for kv in fields["options"])
    return Settings(**fields)


if __name__ == "__main__":
    compile_playout(_settings_from_json(sys.argv[1]))
