"""Tree parallelism for UCT and LinUCT (SHOT's use of threads: ``shot_kernels``):
``threads`` Python threads run the compiled iteration (``tree_search.run``, ``nogil``) at
once on the one shared tree, each with its own scratch arrays (simulated position, path,
candidates) and its own random generator: thread 0 the searcher's, thread i stream i of
the seed (``rng.stream_rng``).  The calling thread is thread 0; the others come from a
``ThreadPoolExecutor`` that lives as long as one search.  Every chunk of
``TreeSearcher._search_in_chunks`` runs on all threads and ends when all have returned,
so ``stop``, the clock, progress reports and the deadline guard see one search, stopped
at once between chunks as before.  The kernel is compiled (or loaded from the cache) on
the calling thread before any other starts.

No locks on the tree, in the manner of Pachi and Fuego; what each shared field does:

* Iterations are handed out one at a time from the pool's ``T_LEFT`` (an atomic
  decrement), so a chunk does exactly its playouts whichever thread is faster; moves
  simulated are summed in ``T_SIM`` for a moves budget.
* Virtual loss: a descent adds ``VIRTUAL_LOSS`` to the visits of each node as it enters
  it, before it knows the result; the backup adds the real visit and takes the virtual
  loss off (``record``'s ``visit = 1 - VIRTUAL_LOSS``, here 0), so after the search the
  counts are exactly the visits.  Meanwhile the node looks like a loss to the other
  threads (one more visit, no more reward: its mean drops by about 1/n), which steers
  them to other lines instead of all playing out the same leaf.  One is enough on two to
  a few cores: the threads' descents overlap only by the few nodes near the root.
* Visits and rewards are atomic adds (``engine.core.atomics``), so no count is lost and
  a parent's visits stay the sum of its children's plus the simulations that stopped at
  it.  A thread reading a node in the middle of another's update sees the visit without
  its reward, or the reverse: a mean off by one simulation, a choice any other ordering
  of the threads could have made.  AMAF counts are plain adds: one lost now and then is a
  sample less in an estimate of thousands.
* Expansion: the first thread to find a leaf ripe claims it by compare-and-swap of its
  ``NCHILD`` from 0 to ``CLAIMED``; the others stop their descent there and play out from
  it (the node is still a leaf for them).  The claimer reserves the children's block by
  compare-and-swap on ``T_USED`` (never past the pool's end), fills it, gives it its
  priors or LinUCT deltas, and publishes ``NCHILD`` last by an atomic compare-and-swap,
  past which no earlier write may move; a reader loads ``NCHILD`` atomically before it
  reads any child, so it never sees a half-made block.  No node is expanded twice; the
  pool cannot overflow.
* The solver's proofs are facts (a proven value never changes back), so a thread may
  write one whenever it finds it; a parent settled from children read a moment apart is
  settled from true values.
* LinUCT's shared linear model is updated under a spin lock in the pool (``T_LOCK``):
  an observation rewrites many entries (the reservoir, the lazy scale, Sherman-Morrison's
  A^-1) that must move together; the per-thread alternative, each thread accumulating its
  own steps, does not exist for a stochastic-gradient model whose next step reads the
  last.  Selections read the model without the lock: a step seen half made gives a score
  slightly off, never an index out of its arrays (those come from the tree's deltas).
  Plain LinUCT's policy uses no visit counts, so virtual loss does not spread its threads:
  they follow the model's one best line and differ by their playouts.

What stays reproducible: with ``threads=1`` everything (nothing above runs, the same seed
and playout budget give the same tree, bit for bit).  With more, the seed fixes each
thread's stream of random numbers, but the threads interleave as the operating system
schedules them, so which thread expands which leaf, and hence the tree and the move, vary
from run to run; the result is a sample of the same search.
"""

import os
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

from numba import typeof

from . import tree_search
from .tree import T_LEFT, T_SIM, T_VLOSS

VIRTUAL_LOSS = 1


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:   # not on Linux
        return os.cpu_count() or 1


@contextmanager
def extra_threads(threads: int):
    """The executor of a search's threads beyond the calling one (None for one thread);
    none is left running afterwards."""
    if threads == 1:
        yield None
    else:
        with ThreadPoolExecutor(max_workers=threads - 1,
                                thread_name_prefix="search") as executor:
            yield executor


@contextmanager
def search_threads(tmeta, threads: int):
    """Mark the pool (its ``tmeta``) for a search on ``threads`` threads and yield the
    executor of the extra ones (``extra_threads``); afterwards the pool is a one-thread
    pool again."""
    tmeta[T_VLOSS] = VIRTUAL_LOSS if threads > 1 else 0
    try:
        with extra_threads(threads) as executor:
            yield executor
    finally:
        tmeta[T_VLOSS] = 0


def compile_here(kernel, args):
    """Compile ``kernel`` for ``args`` (or load it from the cache) on this thread, so that
    threads starting next find it ready instead of queueing on numba's compiler lock."""
    kernel.compile(tuple(typeof(a) for a in args))


def run_on_threads(kernel, executor, per_thread, shared):
    """``kernel(*per_thread[i], *shared)`` on thread i (0: this one) for every entry of
    ``per_thread``, all at once; returns their results in order once all have ended."""
    futures = [executor.submit(kernel, *args, *shared) for args in per_thread[1:]]
    try:
        first = kernel(*per_thread[0], *shared)
    finally:
        wait(futures)   # none outlives the call, even when this one failed
    return [first] + [f.result() for f in futures]


def chunk_runner(tree, pos, scratches, models, know, params, rngs, executor):
    """The ``run_chunk(playouts, max_sim) -> (playouts, moves)`` of
    ``TreeSearcher._search_in_chunks`` for ``len(scratches)`` threads: thread i runs
    ``tree_search.run`` with ``scratches[i]``, ``models[i]`` (LinUCT's model with a scratch
    of its own, or None) and ``rngs[i]``."""
    n = len(scratches)

    def one(i, playouts, max_sim):
        return tree_search.run(tree, pos, scratches[i], models[i], know, params, rngs[i],
                               playouts, max_sim)

    if n == 1:
        return lambda playouts, max_sim: one(0, playouts, max_sim)
    compile_here(tree_search.run, (tree, pos, scratches[0], models[0], know, params, rngs[0],
                                   1, 1))
    tmeta = tree.tmeta

    def run_chunk(playouts, max_sim):
        tmeta[T_LEFT] = playouts
        tmeta[T_SIM] = 0
        results = run_on_threads(one, executor, [(i,) for i in range(n)], (playouts, max_sim))
        return sum(d for d, _ in results), sum(m for _, m in results)

    return run_chunk
