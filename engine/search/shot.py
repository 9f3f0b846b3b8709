"""SHOT (ALGORITHMS.md section 3) behind the Searcher interface.  The search runs
compiled (``shot_kernels.shot``) on a worker thread with the GIL released, while the
calling thread watches the ``stop`` event and the deadline (raising the kernel's abort
flag) and reports ``progress`` from the live tree (a racy read: display only).

Budgets.  A playout budget alone is one call ``SHOT(root, playouts)``, exactly the
algorithm; should a call hand back part of its budget unused (below the root a node may
use less than it was given, and the root's last round can inherit that), a further call
spends the rest, so the search uses the budget exactly.  A wall-clock or simulated-moves
budget is turned into playouts from measured speed: each call gets the playouts that the
remaining time (or moves) should allow at the speed measured so far in this search -- or,
for the first call, at the previous search's speed on the same board size, or a small
calibration call of ``CALIBRATION_PLAYOUTS`` when there is none -- scaled by
``BUDGET_SAFETY``.  Speeds count only the playouts actually simulated: a terminal node
takes the whole budget it is given as playouts of its known result, at no cost, so a
speed of budget used per second grows with every call that meets one (a root with a
winning move: its share of the halving rounds is almost the whole call) and sizes the
next call larger still -- the calls grew until the counts overflowed.  Counted this way
a call's cost stays what its size predicts whatever part terminal nodes take, and a
call that simulates nothing (all of it known results) ends the search.  The reported
playouts stay the budget used, the count a playout budget is measured in.  Statistics
persist between calls, so a further call (while time is left) continues the same tree
with a larger total budget: the root counts ``budget_used_before + budget`` when it sizes
its halving rounds.  The deadline and the
simulated-moves limit stop a call that overruns.  With a ``progress`` callback (live
analysis) calls grow instead: each is capped at twice the playouts so far, so the reported
candidates evolve rather than wait on one long call (the sizes depend on counts only, so a
playout budget stays deterministic).

Threads (``threads``): the root's calls of a phase run at once, each thread taking them
one at a time (``shot_kernels``' docstring: the same calls with the same budgets as on one
thread, their playouts drawn from the threads' own random streams).  How much that gains
depends on the root's last round, two calls of unequal budgets, the first with the larger.

Options: the common ones, the playout policy's (``options.PlayoutOptions``) and
``threads``; SHOT has no tuning constant.
"""

import threading
import time
from dataclasses import dataclass

import numpy as np

from ..core import game
from ..core.layout import GAME_GO, M_GAME
from . import parallel, shot_kernels
from .base import MAX_VISITS
from .bundles import position
from .options import PlayoutOptions, threads_option
from .searcher import TreeSearcher
from .tree import T_CHOICE, VISITS

CALIBRATION_PLAYOUTS = 100
BUDGET_SAFETY = 0.9        # aim a call at this share of the time or moves left
MIN_CALL = 8               # the least playouts a call is worth starting for
MAX_LEVELS = 256           # scratch stack depth; deeper nodes are played out as leaves
POLL_SECONDS = 0.005       # how often the watching thread looks at stop and the clock
PROGRESS_SECONDS = 0.1
NO_LIMIT = np.iinfo(np.int64).max


@dataclass
class ShotOptions(PlayoutOptions):
    threads: int = threads_option()


class ShotSearcher(TreeSearcher):
    name = "shot"
    Options = ShotOptions
    plans_budget = True     # one search of N playouts is not N/k searches k times over

    def reset(self):
        super().reset()
        self._speed: dict[int, float] = {}   # board points -> playouts/s of the last search

    def _preferred(self) -> list[int]:
        kids = self.pool.by_visits()
        choice = int(self.pool.tmeta[T_CHOICE])
        if choice in kids:
            kids.remove(choice)
            kids.insert(0, choice)
        return kids

    def _call_size(self, budget, done, simulated, sim, elapsed, n_points, growing) -> int:
        """Playouts for the next call; 0 when the budget is spent or the root's visits
        reached ``MAX_VISITS``.  ``done``: budget used so far, ``simulated``: the part of it
        that ran playouts (the speeds' measure)."""
        left = min((budget.playouts or NO_LIMIT) - done,
                   MAX_VISITS - int(self.pool.ti[VISITS, 0]))
        n = left
        if growing:
            n = min(n, max(CALIBRATION_PLAYOUTS, 2 * done))
        if budget.seconds is not None:
            speed = (simulated / elapsed if simulated > 0 and elapsed > 0
                     else self._speed.get(n_points))
            n = min(n, CALIBRATION_PLAYOUTS if speed is None
                    else int(speed * (budget.seconds - elapsed) * BUDGET_SAFETY))
        if budget.sim_moves is not None:
            n = min(n, CALIBRATION_PLAYOUTS if simulated == 0
                    else int((budget.sim_moves - sim) * simulated / max(sim, 1)
                             * BUDGET_SAFETY))
        return max(n, min(left, MIN_CALL)) if n > 0 else 0

    def _search(self, state, budget, stop, progress, allowed, target):
        t0 = time.perf_counter()
        cand = self._prepare(state, allowed)
        pool = self.pool
        n_points = state.s.shape[1]
        levels = min(MAX_LEVELS, n_points)
        scratch = new_scratch(state, levels, cand)
        threads = self.params.threads
        batch = shot_kernels.no_batch() if threads == 1 else shot_kernels.new_batch(n_points)
        # a task starts at level 0 on a child of the root: one level less below it
        tasks = [(new_scratch(state, levels - 1, np.empty_like(cand)), rng)
                 for rng in self.thread_rngs()] if threads > 1 else []
        tree = pool.arrays()
        pos = position(state)
        know = self._knowledge_arrays(state.meta[M_GAME] == GAME_GO)
        abort = np.zeros(1, dtype=np.uint8)
        counters = np.zeros(shot_kernels.N_COUNTERS, dtype=np.int64)
        max_sim = budget.sim_moves or NO_LIMIT
        shared = (batch, abort, counters, max_sim)
        per_thread = [(tree, pos, sc, know, rng) for sc, rng in tasks]
        if per_thread:
            # before the first batch, which a short search (the warm-up's, on Gobang's
            # empty board) may never make: else a timed move would compile it
            parallel.compile_here(shot_kernels.run_tasks, per_thread[0] + shared)
        deadline = None if budget.seconds is None else t0 + budget.seconds
        last_report = [t0]

        def watch():
            now = time.perf_counter()
            if (stop is not None and stop.is_set()) or (
                    deadline is not None and now >= deadline):
                abort[0] = 1
            if progress is not None and now - last_report[0] >= PROGRESS_SECONDS:
                progress(self._result(state, self._preferred(),
                                      int(counters[shot_kernels.PLAYOUTS]), now - t0,
                                      int(counters[shot_kernels.SIM_MOVES])))
                last_report[0] = now

        def call(n):
            """SHOT(root, n), the root's batches of calls run by the threads."""
            args = (tree, pos, scratch, know, self.rng, 0, n, abort, counters, max_sim, batch)
            shot_kernels.shot(*args)
            if batch.meta[shot_kernels.B_COUNT] > 0:
                with parallel.extra_threads(threads) as executor:
                    while batch.meta[shot_kernels.B_COUNT] > 0:
                        parallel.run_on_threads(shot_kernels.run_tasks, executor, per_thread,
                                                shared)
                        shot_kernels.shot(*args)

        # calls sized from speed (module docstring); a playout budget's calls spend it exactly
        by_speed = budget.seconds is not None or budget.sim_moves is not None
        live = not game.is_terminal(pos.game, state.s, state.meta)
        while live:
            watch()
            if abort[0] != 0:
                break
            done = int(counters[shot_kernels.PLAYOUTS])
            simulated = done - int(counters[shot_kernels.KNOWN])
            sim = int(counters[shot_kernels.SIM_MOVES])
            n = self._call_size(budget, done, simulated, sim, time.perf_counter() - t0,
                                n_points, progress is not None)
            if n <= 0 or sim >= max_sim:
                break
            game.copy_state(pos.game, state.s, state.meta, scratch.stack_s[0],
                            scratch.stack_meta[0])
            _run_watched(call, (n,), watch, abort)
            if counters[shot_kernels.PLAYOUTS] == done:
                break   # aborted before its first playout
            if by_speed and counters[shot_kernels.PLAYOUTS] - counters[
                    shot_kernels.KNOWN] == simulated:
                break   # only known results, at no cost: calls would repeat until the clock
        seconds = time.perf_counter() - t0
        done = int(counters[shot_kernels.PLAYOUTS])
        simulated = done - int(counters[shot_kernels.KNOWN])
        if simulated > 0 and seconds > 0:
            self._speed[n_points] = simulated / seconds
        return self._result(state, self._preferred(), done, seconds,
                            int(counters[shot_kernels.SIM_MOVES]))


def new_scratch(state, levels: int, cand: np.ndarray) -> shot_kernels.ShotScratch:
    """The stack of ``levels`` call frames and positions of one SHOT call on the board of
    ``state``; ``cand`` holds P + 1 moves."""
    n_points = state.s.shape[1]
    return shot_kernels.ShotScratch(
        stack_s=np.empty((levels,) + state.s.shape, dtype=state.s.dtype),
        stack_meta=np.empty((levels,) + state.meta.shape, dtype=state.meta.dtype),
        order=np.empty((levels, n_points + 1), dtype=np.int32),
        frames=np.empty((levels, shot_kernels.N_FRAME), dtype=np.int64),
        fblack=np.empty(levels), cand=cand)


def _run_watched(kernel, args, watch, abort):
    """Run ``kernel(*args)`` on a worker thread, calling ``watch()`` every POLL_SECONDS on
    this one until it returns; re-raise what the kernel raised.  Should ``watch`` raise
    (a progress callback failing, an interrupt), the kernel is aborted and joined first,
    so no search outlives its call."""
    failure = []

    def work():
        try:
            kernel(*args)
        except BaseException as e:   # handed to the calling thread
            failure.append(e)

    worker = threading.Thread(target=work, name="shot-kernel", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            watch()
            worker.join(POLL_SECONDS)
    finally:
        if worker.is_alive():
            abort[0] = 1
            worker.join()
    if failure:
        raise failure[0]
