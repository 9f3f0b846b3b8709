"""Alpha-beta (``ab``): Gobang's threat-aware alpha-beta (``engine.core.gobang_ab``) as a
back end, deepened one ply at a time until its budget is spent.

Each iteration is one compiled call; a watcher thread sets the kernel's stop flag at the
deadline or when the caller's ``stop`` event is set, so the move comes on time.  An
iteration cut short still gives its root's best move so far (the previous iteration's
best is searched first, and a root move only replaces it with a value searched in full).
The transposition table (``max_nodes`` entries, rounded down to a power of two, 16 bytes
each) is kept from move to move and cleared with ``reset``.  With ``threads`` above 1 the
search is lazy SMP: while this thread searches one depth, each helper searches a ply or two
deeper into the same table and stops when this one ends; the move is this thread's.  The
root steps of every back end run first (``threats_first``: the root VCF, ``near``).  Go is
not searched: alpha-beta needs an evaluation, and Go's is the playout.

Budget: ``seconds`` as every back end; ``playouts`` (and ``sim_moves``) count nodes, so
a node budget makes the search reproducible on any machine.  The reported win rate is
the score through a logistic of scale ``WINRATE_SCALE``, 1 or 0 for a proven result.
"""

import functools
import math
import threading
import time
from dataclasses import dataclass

import numpy as np

from ..core import gobang_ab
from ..core.gobang_kernels import exact_five
from ..core.layout import BLACK, BOARD, GOBANG_RENJU, M_RULE, M_TO_PLAY, RESIGN, WHITE
from .base import Candidate, SearchResult
from .options import CommonOptions, OptionConflict, option, threads_option
from .parallel import extra_threads
from .searcher import NO_LIMIT, TreeSearcher

TT_ENTRY_BYTES = 16     # key ^ data, data (score, move, depth, bound)
WINRATE_SCALE = 150.0   # a static edge of an open three (about 180) reads as 0.77


@dataclass
class AlphaBetaOptions(CommonOptions):
    depth: int = option(40, 1, gobang_ab.MAX_PLY // 2, help="Gobang: the deepest iteration, "
                        "in plies (forced blocks and the fours of the leaves not counted)")
    moves: int = option(15, 1, gobang_ab.MAX_MOVES, help="Gobang: the moves searched at a "
                        "node below the root, best by shape score first (every defence when "
                        "the opponent threatens an open four)")
    root_moves: int = option(0, 0, gobang_ab.MAX_MOVES, help="Gobang: the same at the root "
                             "(0: every point near a stone)")
    q_depth: int = option(12, 0, 100, help="Gobang: the plies of fours a leaf may play out "
                          "(a win by continuous fours of half as many fours is seen)")
    vct_depth: int = option(4, 0, 100, help="Gobang: of those plies, the first in which a "
                            "leaf may play open threes as well, each answered by a defence")
    vct_moves: int = option(6, 1, gobang_ab.MAX_MOVES, help="Gobang: the threes and fours "
                            "a leaf tries there, best by shape score first")
    lmr: int = option(3, 0, gobang_ab.MAX_MOVES, help="Gobang: the moves of a node searched "
                      "at full depth; later quiet ones one ply less, and two past three times "
                      "as many, unless they beat alpha (0: none reduced)")
    threads: int = threads_option()


class AlphaBetaSearcher(TreeSearcher):
    name = "ab"
    Options = AlphaBetaOptions
    games = ("gobang",)
    # the watcher stops the kernel within its 5 ms poll (the kernel reads the flag every
    # 1,024 nodes, under a millisecond): searches of 0.2 s and 0.8 s overran by 3 ms at most
    landing = 0.01

    def reset(self):
        super().reset()
        entries = 1 << max(10, int(self.params.max_nodes).bit_length() - 1)
        self.tt = (np.zeros(entries, dtype=np.int64), np.zeros(entries, dtype=np.int64))

    def notify_play(self, state, move, color):
        """The table's entries stay valid whatever is played: nothing to do."""

    def _search(self, state, budget, stop, progress, allowed, target):
        if state.game not in self.games:
            raise OptionConflict("back end ab plays Gobang only")
        t0 = time.perf_counter()
        if state.is_terminal():   # nothing to search: the game is decided
            return SearchResult(move=RESIGN, winrate=0.0, playouts=0, seconds=0.0)
        cells, through, count = gobang_ab.window_tables(state.size)
        rule = int(state.meta[M_RULE])
        color = int(state.meta[M_TO_PLAY])
        mask = np.zeros(0, dtype=np.uint8) if allowed is None else allowed
        flag = np.zeros(1, dtype=np.uint8)
        done = threading.Event()
        watcher = threading.Thread(target=self._watch, daemon=True,
                                   args=(flag, done, stop, budget.seconds, t0))
        watcher.start()
        limit = min(budget.playouts or NO_LIMIT, budget.sim_moves or NO_LIMIT)
        p = self.params
        run = functools.partial(gobang_ab.search, state.s[BOARD], state.size + 2,
                                exact_five(rule, BLACK), exact_five(rule, WHITE),
                                rule == GOBANG_RENJU, color)
        rest = (p.moves, p.root_moves, p.q_depth, p.vct_depth, p.vct_moves, p.lmr, mask,
                cells, through, count, state.zob, *self.tt)
        pv = np.zeros(gobang_ab.MAX_PLY, dtype=np.int32)
        nodes = 0
        found = None   # (move, score, pv) of the deepest iteration that gave one
        try:
            # a node budget is kept, and repeats, on this thread alone
            threads = p.threads if limit == NO_LIMIT else 1
            with extra_threads(threads) as executor:
                for depth in range(1, p.depth + 1):
                    move, score, n, complete, n_pv = self._one_depth(
                        run, rest, depth, executor, threads, flag, limit - nodes, pv)
                    nodes += n
                    if move >= 0:
                        found = (int(move), int(score), [int(m) for m in pv[:n_pv]])
                    elapsed = time.perf_counter() - t0
                    if not complete or nodes >= limit:
                        break
                    # a proof is settled once two more plies than its length confirm it:
                    # a cheap guard, now that a node counts as lost only once every near
                    # point loses (``moves`` cut no defence off)
                    if abs(score) > gobang_ab.MATE and \
                            depth >= gobang_ab.WIN - abs(score) + 2:
                        break
                    if progress is not None:
                        progress(self._answer(found, nodes, elapsed))
        finally:
            done.set()
        return self._answer(found, nodes, time.perf_counter() - t0, state)

    def _one_depth(self, run, rest, depth, executor, threads, flag, node_limit, pv):
        """The kernel's result for one iteration, its nodes those of every thread.  Lazy
        SMP: while this thread searches ``depth``, each helper searches a ply or two deeper
        into the shared table, and stops when this one ends."""
        helpers_stop = np.zeros(1, dtype=np.uint8)
        helpers = [executor.submit(run, depth + 1 + (i - 1) % 2, *rest, helpers_stop,
                                   NO_LIMIT, np.zeros_like(pv))
                   for i in range(1, threads)]
        try:
            move, score, n, complete, n_pv = run(depth, *rest, flag, node_limit, pv)
        finally:
            helpers_stop[0] = 1
            helper_nodes = sum(int(h.result()[2]) for h in helpers)
        return move, score, n + helper_nodes, complete, n_pv

    @staticmethod
    def _watch(flag, done, stop, seconds, t0):
        """Set ``flag`` at the deadline or when ``stop`` is set, whichever comes first,
        unless the search is ``done`` before."""
        deadline = None if seconds is None else t0 + seconds
        while not done.is_set():
            if stop is not None and stop.is_set():
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
            left = 0.005 if deadline is None else min(0.005, deadline - time.perf_counter())
            done.wait(max(left, 0.0))
        flag[0] = 1

    @staticmethod
    def _answer(found, nodes, seconds, state=None) -> SearchResult:
        if found is None:   # stopped before one root move was searched: any empty point
            move = int(state.empty_points()[0]) if state is not None else -1
            return SearchResult(move=move, winrate=0.5, playouts=nodes, seconds=seconds,
                                nodes=nodes, candidates=[Candidate(move, nodes, 0.5)])
        move, score, line = found
        proven = 1 if score > gobang_ab.MATE else (-1 if score < -gobang_ab.MATE else 0)
        winrate = (proven + 1) / 2 if proven else 1.0 / (1.0 + math.exp(-score / WINRATE_SCALE))
        return SearchResult(move=move, winrate=winrate, playouts=nodes, seconds=seconds,
                            nodes=nodes, sim_moves=nodes,
                            candidates=[Candidate(move=move, visits=nodes, winrate=winrate,
                                                  pv=line, proven=proven)])
