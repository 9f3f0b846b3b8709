"""Searching under a hard deadline.  The search runs in a worker thread on a copy of the
position; if it has not answered ``GUARD_SECONDS`` after its budget (numba still compiling
the search on a cold cache, an overloaded machine), the thinker stops it and answers
``quick_move`` instead, so a manager never sees a move late.

The searcher is not thread-safe, so nothing touches it while a worker holds it: a late
worker is left to finish on its own (its ``stop`` is set, it returns at its next chunk),
moves played meanwhile are not announced to it, and the next search first waits for it
(within that move's own deadline) and resets its tree.
"""

import threading
import time

from ..search.base import Budget
from .quick_move import quick_move

GUARD_SECONDS = 0.1    # how long past its budget a search may run before the fallback


class Thinker:
    def __init__(self, searcher):
        self.searcher = searcher
        self._worker: threading.Thread | None = None
        self._stale = False          # the tree missed moves while a worker ran late
        self.last = None             # the last SearchResult, None after a fallback

    def busy(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def _free(self, deadline: float) -> bool:
        """Wait for a late worker until ``deadline``; True when the searcher is free."""
        if self.busy():
            self._worker.join(max(0.0, deadline - time.monotonic()))
        if self.busy():
            return False
        if self._stale:
            self.searcher.reset()
            self._stale = False
        return True

    def notify_play(self, state, move: int, colour: int):
        """``move`` is about to be played on ``state``: the tree follows it when it can."""
        if self.busy() or self._stale:
            self._stale = True
        else:
            self.searcher.notify_play(state, move, colour)

    def reset(self):
        """The position changed other than by a move."""
        if self.busy():
            self._stale = True
        else:
            self.searcher.reset()

    def think(self, state, seconds: float, playouts: int | None = None) -> int:
        """A move for ``state``'s side to move within ``seconds`` (hard): the search's, or
        ``quick_move``'s when the search cannot answer in time or ``seconds`` is 0."""
        self.last = None
        start = time.monotonic()
        deadline = start + seconds + GUARD_SECONDS
        if seconds <= 0 or not self._free(start + seconds):
            return quick_move(state)
        left = seconds - (time.monotonic() - start)
        if left <= 0:
            return quick_move(state)
        stop = threading.Event()
        root = state.clone()
        box = {}

        def run():
            box["result"] = self.searcher.search(root, Budget(playouts=playouts,
                                                              seconds=left), stop=stop)

        self._worker = threading.Thread(target=run, name="search", daemon=True)
        self._worker.start()
        self._worker.join(max(0.0, deadline - time.monotonic()))
        if self.busy():
            stop.set()
            self._stale = True
            return quick_move(state)
        result = box.get("result")
        if result is None or result.move < 0 or not state.is_legal(result.move):
            return quick_move(state)   # the search failed (logged) or gave up
        self.last = result
        return result.move
