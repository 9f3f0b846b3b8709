"""UCT (ALGORITHMS.md section 1): UCB1 tree policy with optional RAVE, light playouts, tree
reuse between moves.  The iterations run compiled (``uct_kernels.run``); this module calls
them in chunks of about ``CHUNK_SECONDS`` so that the wall-clock budget, the ``stop`` event
and ``progress`` are served between chunks.  Chunking does not change the result: the same
seed and playout budget give the same tree whatever the chunk sizes.

Options (``UctOptions``, plus the common ones):
  c             exploration constant C of UCB1 (rewards in [0, 1]); default 0.7, between
                the textbook sqrt(2) and the 0.3-0.5 Go engines use with stronger playouts
  expand_after  a leaf gets its children once it has this many visits; default 10, the
                LinUCT paper's threshold, so UCT and LinUCT compare on equal trees (it
                also keeps the pool small: an expansion allocates a child per legal move)
  final         visits: the most visited root child; mean: the highest mean
  rave          0/1: mix AMAF values into selection (see ``uct_kernels``)
  rave_k        RAVE equivalence parameter k of beta = sqrt(k / (3 n + k))
"""

import time
from dataclasses import dataclass

import numpy as np

from ..core import game
from . import uct_kernels
from .options import CommonOptions, option
from .tree import TreeSearcher

CHUNK_SECONDS = 0.025      # one compiled call; bounds the reaction time to stop/deadline
FIRST_CHUNK = 32           # playouts in the first call, before the speed is known
PROGRESS_SECONDS = 0.1     # least time between two progress reports
NO_LIMIT = np.iinfo(np.int64).max


@dataclass
class UctOptions(CommonOptions):
    c: float = option(0.7, 0.0, 100.0)
    expand_after: int = option(10, 1, 1_000_000)
    final: str = option("visits", choices=("visits", "mean"))
    rave: bool = option(False)
    rave_k: float = option(1000.0, 1e-6, 1e12)


class UctSearcher(TreeSearcher):
    name = "uct"
    Options = UctOptions

    def _kernel_params(self) -> np.ndarray:
        p = np.zeros(uct_kernels.N_PARAMS)
        p[uct_kernels.C] = self.params.c
        p[uct_kernels.EXPAND_AFTER] = self.params.expand_after
        p[uct_kernels.RAVE] = float(self.params.rave)
        p[uct_kernels.RAVE_K] = self.params.rave_k
        return p

    def _preferred(self) -> list[int]:
        kids = self.pool.by_visits()
        if self.params.final == "mean":
            kids.sort(key=lambda c: -self.pool.mean(c))   # stable: ties keep the visit order
        return kids

    def search(self, state, budget, stop=None, progress=None):
        t0 = time.perf_counter()
        cand = self._prepare(state)
        pool = self.pool
        n_points = state.s.shape[1]
        ss, smeta = np.empty_like(state.s), np.empty_like(state.meta)
        amaf = np.zeros(n_points, dtype=np.int8)
        path = np.empty(4 * n_points, dtype=np.int32)
        params = self._kernel_params()
        max_playouts = budget.playouts or NO_LIMIT
        max_sim = budget.sim_moves or NO_LIMIT
        done = sim = 0
        chunk = FIRST_CHUNK
        last_report = t0
        live = not game.is_terminal(state.s, state.meta)
        while live and done < max_playouts and sim < max_sim:
            if stop is not None and stop.is_set():
                break
            start = time.perf_counter()
            # one small first chunk always runs, so a nearly spent clock still searches
            if done > 0 and budget.seconds is not None and start - t0 >= budget.seconds:
                break
            n = min(chunk, max_playouts - done)
            d, m = uct_kernels.run(pool.ti, pool.tf, pool.tmeta, state.s, state.meta,
                                   state.zob, self.rng, state.komi, params, n,
                                   max_sim - sim, ss, smeta, amaf, path, cand)
            done += d
            sim += m
            now = time.perf_counter()
            rate = d / max(now - start, 1e-6)
            chunk = max(1, int(rate * CHUNK_SECONDS))
            if budget.seconds is not None:
                chunk = max(1, min(chunk, int(rate * (budget.seconds - (now - t0))) + 1))
            if progress is not None and now - last_report >= PROGRESS_SECONDS:
                progress(self._result(state, self._preferred(), done, now - t0, sim))
                last_report = now
        return self._result(state, self._preferred(), done, time.perf_counter() - t0, sim)
