"""A hard deadline on one search, whatever the search does: it runs on a thread of its own
while the caller's thread watches the clock, and when the deadline passes (or ``stop`` is
set and the search does not end within ``STOP_GRACE``) the caller gets a fallback move
instead -- the best move of the search's last progress report, else a quick legal move of
``quick_move``, which needs no compiled code.

Why a thread and not just the search's own clock checks: the search checks its clock
between compiled chunks, but the first call of a kernel that is not compiled yet (a cold
numba cache, a back end or option used for the first time) compiles for seconds to a
minute before the chunk even starts.  numba compiles in Python and in LLVM calls that let
other threads run, so the watching thread gets the GIL back within a switch interval and
answers on time.  The orphaned search goes on until its compile and first chunk end, then
sees ``stop`` and returns; the caller must not touch its back end (or the position it was
given) until then, and ``GuardedSearch.abandoned`` tells it so -- the GTP session builds a
fresh back end rather than wait.  What the guard cannot shorten: a compiled chunk that holds
the GIL, bounded by the search's chunk size (``searcher.CHUNK_SECONDS``).
"""

import threading
import time
from typing import Callable

import numpy as np

from ..core.layout import BLACK, BOARD, EMPTY, GAME_GO, M_GAME, M_HASH, M_KO, PASS, WHITE
from . import registry
from .base import SearchResult

STOP_GRACE = 0.25     # seconds a stopped search gets to return before it is abandoned
                      # (a compiled chunk on a loaded machine; a compile takes seconds)
POLL_SECONDS = 0.005  # how often the watching thread looks at ``stop``


class GuardedSearch:
    """Run ``search(stop, progress) -> SearchResult`` on a daemon thread and wait for it
    until ``deadline`` (a ``time.monotonic()`` instant, None for none) or ``stop``; the
    search's progress reports are kept (``best_so_far``) and passed on to ``progress``."""

    def __init__(self, search: Callable, progress: Callable | None = None,
                 name: str = "search"):
        self._search = search
        self._forward = progress
        self._done = threading.Event()
        self._inner_stop = threading.Event()
        self._result: SearchResult | None = None
        self._error: BaseException | None = None
        self.best_so_far: SearchResult | None = None
        self.abandoned = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def _run(self):
        try:
            self._result = self._search(self._inner_stop, self._progress)
        except BaseException as exc:  # re-raised in the caller's thread
            self._error = exc
        finally:
            self._done.set()

    def _progress(self, result: SearchResult):
        self.best_so_far = result
        forward = self._forward
        if forward is not None:
            forward(result)

    def wait(self, deadline: float | None, stop: threading.Event | None = None
             ) -> SearchResult | None:
        """The search's result, or None when it was abandoned (deadline passed, or stopped
        and not ended within ``STOP_GRACE``); the search's exception is raised here."""
        self._thread.start()
        while not self._done.is_set():
            now = time.monotonic()
            if deadline is not None and now >= deadline:
                break
            if stop is not None and stop.is_set():
                self._inner_stop.set()
                self._done.wait(STOP_GRACE)
                break
            left = POLL_SECONDS if deadline is None else min(POLL_SECONDS, deadline - now)
            self._done.wait(max(left, 0.0))
        self._inner_stop.set()
        if not self._done.is_set():
            # an abandoned search still reports until it returns; its caller has moved on
            # (an analysis stream ended, another began), so its reports go nowhere
            self._forward = None
            self.abandoned = True
            return None
        if self._error is not None:
            raise self._error
        return self._result

    def join(self, timeout: float | None = None) -> bool:
        """Wait for an abandoned search to end; True when it has."""
        return self._done.wait(timeout)


def fresh_searcher(searcher):
    """A new back end configured as ``searcher`` (its tree and generator new): what takes
    the place of one left to an abandoned search: the registry's back end of its name,
    its parameters copied as they are (no round trip through text)."""
    return searcher.fresh(registry.back_end(searcher.name))


def quick_move(state, color: int, seed: int = 0) -> int:
    """A legal move chosen without compiled code, for when the search could not answer:
    Go, an empty point with an empty neighbour and no opponent neighbour (it captures
    nothing and is no suicide; the superko set is checked on the hash), fewest own
    neighbours first so it fills no eye of its own, most empty neighbours within two
    points first (open areas); Gobang, the empty point next to the most stones (the
    fight), the centre on an empty board.  Pass when nothing qualifies or the game is
    over.  Ties are broken by ``seed``."""
    s, meta = state.s, state.meta
    if state.is_terminal():
        return PASS
    board = s[BOARD]
    w = state.size + 2
    go = meta[M_GAME] == GAME_GO
    near = (1, -1, w, -w)
    around = [dr * w + dc for dr in range(-2, 3) for dc in range(-2, 3)
              if 0 < abs(dr) + abs(dc) <= 2]
    rng = np.random.default_rng(seed)
    best, best_key = PASS, None
    for p in np.flatnonzero(board == EMPTY):
        p = int(p)
        if go:
            adjacent = [int(board[p + d]) for d in near]
            if EMPTY not in adjacent or (3 - color) in adjacent or p == meta[M_KO]:
                continue
            if getattr(state.rules, "superko", False) and state.seen.get(
                    int(meta[M_HASH] ^ state.zob[color, p]), 0):
                continue
            key = (-adjacent.count(color),
                   sum(1 for d in around if 0 <= p + d < board.size and board[p + d] == EMPTY))
        else:
            stones = sum(1 for d in around if 0 <= p + d < board.size
                         and board[p + d] in (BLACK, WHITE))
            r, c = divmod(p, w)
            key = (stones, -abs(r - w / 2 + 0.5) - abs(c - w / 2 + 0.5))
        key = key + (rng.random(),)
        if best_key is None or key > best_key:
            best, best_key = p, key
    return best


def fallback_result(state, color: int, best_so_far: SearchResult | None, seconds: float,
                    seed: int = 0) -> SearchResult:
    """The answer of an abandoned search: its last progress report's decision (its move a
    root child of the same position, so legal; checking costs a rules kernel that may not
    be compiled yet), else ``quick_move``."""
    if best_so_far is not None:
        return SearchResult(best_so_far.move, best_so_far.winrate, best_so_far.playouts,
                            seconds, candidates=best_so_far.candidates)
    return SearchResult(quick_move(state, color, seed), 0.5, 0, seconds)
