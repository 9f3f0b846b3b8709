"""Tree parallelism (``engine.search.parallel``): a search on two threads leaves a tree
whose counts add up (every simulation counted once, virtual losses all taken off), whose
children blocks tile the pool (no node grown twice, no block past the pool's end), whose
proofs are true, and which stops on time; and the ``threads`` option reaches it from every
front end."""

import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from engine.game.registry import GameConfig
from engine.gtp import parse_settings
from engine.search import registry
from engine.search.base import Budget
from engine.search.linuct_deltas import D_USED, DELTA
from engine.search.tree import FIRST, NCHILD, T_VLOSS, VISITS, WINS
from test_solver import assert_children_proofs_exact, exact_value, random_ending

# LinUCT with the shared diagonal: the paper's phi_a per arm (width=arm) searches on one
# thread whatever ``threads`` says
BACK_ENDS = ["uct", "uct:playout=heavy:prior=1:rave=1:c=0", "linuct:width=gd",
             "linuct:rave=1:width=gd"]


def go9():
    return GameConfig("go", 9).new_state()


def check_tree(pool, playouts, expand_after, threads=2):
    """The invariants a tree grown by ``threads`` threads keeps."""
    ti, tf, used = pool.ti, pool.tf, pool.used
    assert used <= pool.capacity
    assert pool.tmeta[T_VLOSS] == 0
    nch = ti[NCHILD, :used]
    assert nch.min() >= 0, "a claim left behind"
    # the children blocks tile nodes 1 .. used - 1: each node has one parent, no node was
    # grown twice (its first block would be orphaned), no block overlaps another
    parents = np.flatnonzero(nch > 0)
    blocks = sorted((int(ti[FIRST, v]), int(ti[NCHILD, v])) for v in parents)
    end = 1
    for first, k in blocks:
        assert first == end
        end = first + k
    assert end == used
    # every simulation counted once at the root, which was expanded before the search
    kids = pool.children(0)
    assert ti[VISITS, 0] == playouts == ti[VISITS, kids].sum()
    for v in parents[parents > 0]:
        block = ti[VISITS, ti[FIRST, v]:ti[FIRST, v] + ti[NCHILD, v]]
        stopped = ti[VISITS, v] - block.sum()     # simulations that ended at v as a leaf
        # before it grew: expand_after, less one that arrived first but looked last
        assert expand_after - (threads - 1) <= stopped
        assert stopped >= 0
    visits = ti[VISITS, :used]
    assert (tf[WINS, :used] >= 0).all() and (tf[WINS, :used] <= visits + 1e-9).all()


@pytest.mark.parametrize("algo", BACK_ENDS)
def test_two_threads_grow_a_consistent_tree(algo):
    searcher = registry.make(f"{algo}:threads=2:expand_after=2", seed=5)
    result = searcher.search(go9(), Budget(playouts=3000))
    assert result.playouts == 3000
    check_tree(searcher.pool, 3000, expand_after=2)


def test_gobang_threat_proofs_on_two_threads_keep_the_tree_consistent():
    # the strong Gobang configuration: leaves proven by threats, each thread's own scratch
    state = GameConfig("gobang", 10).new_state()
    searcher = registry.make("uct:playout=heavy:solver=1:threat_nodes=50:threads=2:vcf=0",
                             seed=11)
    result = searcher.search(state, Budget(playouts=3000))
    check_tree(searcher.pool, result.playouts, expand_after=10)


def test_linuct_deltas_stay_inside_their_pool_on_two_threads():
    searcher = registry.make("linuct:rave=1:width=gd:threads=2:expand_after=1", seed=6)
    searcher.search(go9(), Budget(playouts=2000))
    pool = searcher.pool
    used, d_used = pool.used, int(pool.dmeta[D_USED])
    assert d_used <= pool.dpool.shape[0]
    offsets = pool.ti[DELTA, 1:used]
    ends = offsets + 2 + pool.dpool[offsets] + pool.dpool[offsets + 1]
    assert offsets.min() >= 0 and ends.max() <= d_used
    # no two nodes share a delta: their records are disjoint
    order = np.argsort(offsets)
    assert (offsets[order][1:] >= ends[order][:-1]).all()


@pytest.mark.parametrize("algo", ["uct", "linuct:width=gd"])
def test_a_full_pool_on_two_threads_stops_growing_without_overflow(algo):
    searcher = registry.make(f"{algo}:threads=2:expand_after=1:max_nodes=1000", seed=7)
    result = searcher.search(go9(), Budget(playouts=3000))
    assert result.playouts == 3000
    assert searcher.pool.used > 900          # it did fill up
    check_tree(searcher.pool, 3000, expand_after=1)


@pytest.mark.parametrize("algo", ["uct", "linuct:rave=1:width=gd"])
@pytest.mark.parametrize("stones, seed", [(18, 1), (15, 14)])
def test_two_threads_prove_what_exact_minimax_proves(algo, stones, seed):
    state = random_ending(np.random.default_rng(seed), stones=stones)
    searcher = registry.make(f"{algo}:solver=1:expand_after=1:vcf=0:threads=2", seed=seed)
    searcher.search(state, Budget(playouts=50000))
    pool = searcher.pool
    truth = exact_value(state)
    root = pool.proven(0)
    if truth != 0:
        assert root == (-1 if truth == 1 else 1), "a decided ending left unproven"
    assert_children_proofs_exact(state, pool)


def search_threads_alive() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith("search")]


@pytest.mark.parametrize("algo", ["uct", "linuct:width=gd"])
def test_a_clock_and_a_stop_end_every_thread_at_once(algo):
    searcher = registry.make(f"{algo}:threads=2", seed=8)
    searcher.search(go9(), Budget(playouts=100))        # compiled before the timing
    t = time.perf_counter()
    result = searcher.search(go9(), Budget(seconds=0.3))
    # chunks are 25 ms of both threads.  A thread that missed the clock or the stop would
    # run on without end (or to the 30 s budget); the bound, ten times the budget, leaves
    # room for a machine loaded by other work, where 1 s once failed
    assert time.perf_counter() - t < 3.0 and result.playouts > 0
    assert not search_threads_alive()
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    t = time.perf_counter()
    searcher.search(go9(), Budget(seconds=30), stop=stop)
    assert time.perf_counter() - t < 3.0
    assert not search_threads_alive()


def test_one_thread_repeats_itself_and_two_are_a_sample_of_the_same_search():
    def visits(threads, seed):
        searcher = registry.make(f"uct:threads={threads}", seed=seed)
        searcher.search(go9(), Budget(playouts=2000))
        return searcher.pool.ti[VISITS, searcher.pool.children(0)].copy()

    assert (visits(1, 3) == visits(1, 3)).all()
    two = visits(2, 3)
    assert two.sum() == 2000 and len(two) == 82


def test_the_threads_option_reaches_the_back_end_from_every_front_end():
    _, searcher = parse_settings(["--size", "9", "--threads", "2"])
    assert searcher.options()["threads"] == 2
    _, searcher = parse_settings(["--size", "9", "--preset", "paper"])
    assert searcher.options()["threads"] == 1
    _, searcher = parse_settings(["--size", "9", "--algo", "linuct:threads=3"])
    assert searcher.options()["threads"] == 3
    _, searcher = parse_settings(["--size", "9", "--set", "threads=2", "--algo", "uct"])
    assert searcher.options()["threads"] == 2
    with pytest.raises(ValueError, match="threads"):
        registry.make("uct:threads=0")


COLD_COMPILE = """
import sys, threading
from numba.core import event
from engine.game.registry import GameConfig
from engine.search import registry, tree_search
from engine.search.base import Budget

threads_seen = set()

class Listener(event.Listener):
    def on_start(self, ev):
        if ev.data["dispatcher"] is tree_search.run:
            threads_seen.add(threading.current_thread().name)
    def on_end(self, ev):
        pass

event.register("numba:compile", Listener())
searcher = registry.make("uct:threads=2", seed=1)
result = searcher.search(GameConfig("go", 9).new_state(), Budget(playouts=500))
print(result.playouts, sorted(threads_seen))
"""


@pytest.mark.slow
def test_on_a_cold_cache_the_search_compiles_once_on_the_calling_thread(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", COLD_COMPILE], env=env, capture_output=True,
                         text=True, timeout=1200, check=True).stdout
    assert out.split() == ["500", "['MainThread']"]


def test_shot_on_two_threads_spends_its_budget_exactly_on_a_consistent_tree():
    searcher = registry.make("shot:threads=2", seed=9)
    result = searcher.search(go9(), Budget(playouts=3000))
    pool = searcher.pool
    ti, used = pool.ti, pool.used
    assert result.playouts == 3000 == ti[VISITS, 0] == ti[VISITS, pool.children(0)].sum()
    nch = ti[NCHILD, :used]
    blocks = sorted((int(ti[FIRST, v]), int(ti[NCHILD, v])) for v in np.flatnonzero(nch > 0))
    end = 1
    for first, k in blocks:     # the threads' blocks tile the pool, as on one thread
        assert first == end
        end = first + k
    assert end == used
    for v in np.flatnonzero(nch > 0):
        assert ti[VISITS, v] >= ti[VISITS, ti[FIRST, v]:ti[FIRST, v] + ti[NCHILD, v]].sum()
    assert result.move in [c.move for c in result.candidates]


def test_shot_on_two_threads_stops_on_time():
    searcher = registry.make("shot:threads=2", seed=10)
    searcher.search(go9(), Budget(playouts=300))
    t = time.perf_counter()
    result = searcher.search(go9(), Budget(seconds=0.3))
    assert time.perf_counter() - t < 1.0 and result.playouts > 0
    assert not search_threads_alive()
