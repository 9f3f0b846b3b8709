"""Compiling the kernels a session uses at engine start, in parallel on an empty numba cache,
and saying so on stderr.

numba compiles a kernel with its callees in one process, one kernel at a time (its
compiler lock), and saves each to the on-disk cache, which is safe to share between
processes.  On an empty cache a worker process (``python -m engine.warmup``) compiles, for
the session's exact argument types, the kernels of the first search that are big and
independent of the rest (``worker_jobs``: the Go priors or the Gobang VCF reading when the
back end has them, the game's playout kernel, which the search kernels call through
``engine.core.game``, and on Go the heavy playout of the warm-up's scoring), while this
process compiles the rules and the search's other callees.  When this process reaches one
of the worker's kernels it waits for the worker to report it done and loads it from the
cache: each such dispatcher's ``compile`` is wrapped for the warm-up's duration, so a
``genmove`` arriving early, whose search compiles on its own thread, waits alike instead of
compiling it a second time.  Before its first wait it compiles what its first search
reaches after the playout and what a ``genmove`` calls after its search
(``waiting_jobs``), which would else be left to compile once the playout arrives, the one
stretch neither process can share.  A warm cache starts no worker: the playout's cache
entry is looked up first.

What a user sees: ``compiling ...`` on stderr when the cache is empty, a line per part
compiled, then ``kernels ready in N s``; a command that needs a kernel still compiling
waits for it (a timed ``genmove`` is answered by the deadline guard instead).
"""

import dataclasses
import json
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import asdict

import numpy as np
from numba import typeof
from numba.core.compiler_lock import global_compiler_lock

from . import scoring
from .core import game
from .core.go_playout import LIGHT, policy_playout
from .core.go_kernels import is_eye
from .core.gobang_vcf import find_vcf
from .core.layout import new_arrays, zobrist_table
from .core.rng import make_rng
from .game import registry
from .search import minimax
from .search.base import Budget
from .search.config import SearchConfig
from .search.go_priors import gives_priors, priors_call
from .search.threats_first import ThreatStep
from .search.tree import NodePool, restrict_children, subtree_order
from .search.uct_kernels import UctParams, backup

WORKER_TIMEOUT = 900.0   # seconds; a worker that takes longer is killed
HEARTBEAT = 5.0          # seconds between two "still compiling" lines on stderr
DONE = "compiled "       # the worker's stdout line after each kernel, then its name
# seconds to the first move on an empty cache, as README's start-up table measured them
FIRST_START = {"go": 30, "gobang": 25}


def playout_args(settings, searcher) -> tuple:
    """Arguments of the types ``tree_search``/``shot_kernels`` pass the game's playout
    kernel (``game.kernel(marker, "playout_winner")``, which they call through the inlined
    ``game.policy_playout_winner``) in a session of ``settings`` with this back end (an
    empty board: built without compiled code, so the cache can be asked before anything
    compiles)."""
    # the parameters' type is the policy's (``core.go_playout``); LinUCT plays light
    # playouts only
    uses_policy = hasattr(searcher.params, "playout")
    pat, par = searcher._playout_policy(settings.game == "go") if uses_policy else LIGHT
    s, meta = new_arrays(settings.size)
    return (s, meta, zobrist_table(settings.size), searcher.rng.copy(), float(settings.komi),
            np.zeros(s.shape[1], dtype=np.int32), pat, par)


def priors_job(settings, searcher) -> tuple | None:
    """(kernel, arguments of the types) of the priors the tree back ends set at the root
    and from their ``grow`` (``go_priors.priors_call``), or None when the session gives
    no priors."""
    if settings.game != "go" or not hasattr(searcher, "_knowledge_arrays"):
        return None
    know = searcher._knowledge_arrays(True)
    if not gives_priors(know.prior):
        return None
    s, meta = new_arrays(settings.size)
    return priors_call(np.zeros((1, 1), dtype=np.int32), np.zeros((1, 1)), 0, s, meta,
                       know.pat, know.prior, float(searcher._kernel_params().sa_stones))


def vcf_args(settings, searcher) -> tuple | None:
    """Arguments of the types the root's VCF (``threats_first.vcf_line``) and the tree's
    threat proofs (``solver.prove_by_threats``) pass ``gobang_vcf.find_vcf``, or None when
    the session reads no VCF."""
    proofs = getattr(searcher.params, "threat_nodes", 0) > 0
    if settings.game != "gobang" or not (proofs or searcher.step(ThreatStep).params.vcf):
        return None
    s, meta = new_arrays(settings.size)
    return (s, meta, 1, 1, 1, np.zeros(5, dtype=np.int32))


def scoring_args(settings) -> tuple | None:
    """Arguments of the types ``scoring.playout_outcomes`` passes
    ``go_playout.policy_playout`` (the heavy playout of the shipped knowledge, which a
    light session's search does not compile), or None on Gobang, whose warm-up scores
    nothing."""
    if settings.game != "go":
        return None
    s, meta = new_arrays(settings.size)
    return (s, meta, zobrist_table(settings.size), make_rng(0), np.zeros(0, dtype=np.int32),
            *scoring.playout_policy())


def worker_jobs(settings, searcher) -> list[tuple[str, object, tuple]]:
    """(name, kernel, arguments) the worker compiles, in the order the session's first
    search reaches them: the Go priors or the Gobang VCF (called at the root before the
    iterations), then the playout (reached while the iterations compile), then what the
    warm-up calls after its search (the heavy playout of its Go scoring)."""
    vcf, scoring = vcf_args(settings, searcher), scoring_args(settings)
    return [(name, *job) for name, job in (
        ("priors", priors_job(settings, searcher)),
        ("VCF reading", vcf and (find_vcf, vcf)),
        ("playouts", (game.kernel(registry.game(settings.game).kernels, "playout_winner"),
                      playout_args(settings, searcher))),
        ("scoring playouts", scoring and (policy_playout, scoring))) if job is not None]


def backup_jobs(searcher, pool) -> list[tuple[object, tuple]]:
    """(kernel, arguments of the types ``tree_search.run`` passes it, ``pool``'s arrays
    among them) for UCT's backups, which ``run`` reaches after the playout
    (``uct_kernels.observe``: the counts' and the minimax values'); none for the other
    back ends."""
    params = searcher._kernel_params() if hasattr(searcher, "_kernel_params") else None
    if not isinstance(params, UctParams):
        return []
    path = np.zeros(1, dtype=np.int32)
    return [(backup, (pool.ti, pool.tf, path, 0, 0, 0, params.rave,
                      np.zeros(0, dtype=np.int32), 0, params.rave_distance, 0, 0)),
            (minimax.backup, (pool.ti, pool.tf, path, 0, params.minimax,
                              params.minimax_visits))]


def move_args(settings, pool) -> list[tuple[object, tuple]]:
    """(kernel, arguments of the types it gets, ``pool``'s arrays among them) for what a
    ``genmove`` calls after its search: the tree's re-rooting into the move played
    (``NodePool.follow``) and on Go the final choice's eye test (``decide.choose``); and
    what the next search of a kept tree calls first (``NodePool.begin``), which the
    warm-up's second search would else compile while the first ``genmove`` searches."""
    s, meta = new_arrays(settings.size)
    order = np.zeros(1, dtype=np.int64)
    marker = registry.game(settings.game).kernels
    jobs = [(subtree_order, (pool.ti, 0, order, order)),
            (game.play, (marker, s, meta, zobrist_table(settings.size), 0, 0)),
            (restrict_children, (pool.ti, pool.tf, 0, np.zeros(1, dtype=np.uint8)))]
    if settings.game == "go":
        jobs.append((is_eye, (s, 0, 0, 0)))
    return jobs


def waiting_jobs(settings, searcher) -> list[tuple[object, tuple]]:
    """(kernel, arguments) this process compiles before its first wait for the worker:
    what the first search reaches after the playout, and what the first ``genmove`` calls
    after its search."""
    pool = NodePool(1)   # its arrays' types; building it runs compiled code, once
    return backup_jobs(searcher, pool) + move_args(settings, pool)


def search_twice(searcher, state, playouts: int):
    """Search ``state`` twice and return the second result: the second search keeps the
    first's tree, the path every later move of a game takes, whose kernels would otherwise
    compile in the middle of a timed game (and cost its moves to the deadline guard)."""
    searcher.search(state, Budget(playouts=playouts))
    return searcher.search(state, Budget(playouts=playouts))


def _signature(args) -> tuple:
    return tuple(typeof(a) for a in args)


def cached(kernel, args) -> bool:
    """Whether ``kernel`` for ``args``' types is in the on-disk cache: its key in the
    cache's index, which is read without loading the kernel (the search loads it)."""
    try:   # numba's private cache interface: when it moves, compile as if cold
        cache = kernel._cache
        key = cache._index_key(_signature(args), kernel.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:
        return False


def compile_jobs(settings):
    """The worker's part: compile each of ``worker_jobs`` for its argument types (numba
    saves it to the cache), a line on stdout after each."""
    searcher, _ = settings.make_searcher()
    for name, kernel, args in worker_jobs(settings, searcher):
        kernel.compile(_signature(args))
        print(DONE + name, flush=True)


class Worker:
    """The worker process and what it has reported done."""

    def __init__(self, settings, names, start: float, log):
        self.start, self.log = start, log
        self.done = {name: threading.Event() for name in names}
        self.output: list[str] = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine.warmup", json.dumps(asdict(settings))],
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True)
        self.reader = threading.Thread(target=self._read, name="compile-worker",
                                       daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            name = line.strip()[len(DONE):] if line.startswith(DONE) else None
            if name in self.done:
                self.log(f"compiled the {name} in {time.monotonic() - self.start:.1f} s")
                self.done[name].set()
            else:
                self.output.append(line.rstrip())
        self.process.wait()
        if self.process.returncode != 0:   # this process compiles what is left itself
            self.log(f"compile worker failed: {self.output[-1:]}")
        for event in self.done.values():
            event.set()

    def wait_for(self, name: str):
        """Until the worker has compiled ``name`` (or ended), a line on the log every
        ``HEARTBEAT`` seconds."""
        while not self.done[name].wait(HEARTBEAT):
            if time.monotonic() - self.start > WORKER_TIMEOUT:
                self.process.kill()
            self.log(f"compiling: waiting for the {name}, "
                     f"{time.monotonic() - self.start:.0f} s")

    def finish(self):
        self.reader.join()


@contextmanager
def parallel_compile(settings, searcher, log):
    """Around the warm-up (the session's first position, its rules, its first search): on
    an empty cache, a worker process compiles ``worker_jobs`` meanwhile; this process, when
    it reaches one of them (whichever thread compiles: each one's ``compile`` is wrapped
    meanwhile), waits for the worker and loads it from the cache.  Progress goes to
    ``log``.  A warm cache starts nothing."""
    jobs = worker_jobs(settings, searcher)
    if cached(*next(job for job in jobs if job[0] == "playouts")[1:]):
        yield
        return
    start = time.monotonic()
    names = [name for name, _, _ in jobs]
    log(f"compiling the {settings.game} kernels on an empty numba cache (first start "
        f"only, about {FIRST_START[settings.game]} s on 2 cores): the "
        f"{' and '.join(names)} in a second process")
    worker = Worker(settings, names, start, log)
    meanwhile = []
    for name, kernel, _ in jobs:
        kernel.compile = _after(worker, name, kernel.compile, start, log, meanwhile)
    try:
        # after the wrappers: building these arguments runs compiled code (a node pool's),
        # and a genmove arriving meanwhile would else compile a worker's kernel itself
        meanwhile.extend(waiting_jobs(settings, searcher))
        yield
    finally:
        for _, kernel, _ in jobs:
            del kernel.compile
        worker.finish()


def _after(worker, name, compile_kernel, start, log, meanwhile):
    """``compile_kernel`` that first waits for the worker to have compiled ``name``;
    before the first wait of all, ``meanwhile``'s kernels are compiled (and the list
    emptied: it is shared by all the wrappers)."""
    said = []

    def compile_after_worker(sig):
        if not worker.done[name].is_set():
            # under numba's lock, all at once: a second thread (an early genmove) waits
            # for the batch, instead of taking a job of it and then the lock after the search
            with global_compiler_lock:
                while meanwhile:
                    kernel, args = meanwhile.pop()
                    kernel.compile(_signature(args))
            if not said and not worker.done[name].is_set():
                # once, though two threads (warm-up, an early genmove) may wait
                said.append(name)
                log(f"compiled the rest in {time.monotonic() - start:.1f} s so far; "
                    f"waiting for the {name}")
            worker.wait_for(name)
        return compile_kernel(sig)
    return compile_after_worker


def _settings_from_json(text: str) -> SearchConfig:
    """The search configuration a session handed its worker: its ``SearchConfig`` fields
    (a front end's own, the budget say, stay behind)."""
    fields = json.loads(text)
    kept = {f.name: fields[f.name] for f in dataclasses.fields(SearchConfig)}
    for key in ("options", "defaults"):
        kept[key] = tuple(tuple(kv) for kv in kept[key])
    return SearchConfig(**kept)


if __name__ == "__main__":
    compile_jobs(_settings_from_json(sys.argv[1]))
