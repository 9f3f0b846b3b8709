"""A move's search under a hard deadline, with ``engine.search.deadline``'s guard (the one
the GTP session uses): the search runs on a thread of its own, on a copy of the position,
and if it has not answered ``GUARD_SECONDS`` past its budget (numba still compiling on a
cold cache, an overloaded machine) the brain answers the search's last progress report,
else ``quick_move``.  The back end left to the orphaned search is replaced by a fresh one
configured the same (its tree is lost, nothing else).

Until the kernels are loaded (``ready``, set by the start-up's warm-up) every move is a
quick move: a search started earlier would compile the kernels in the brain itself, which
the start-up leaves to a child process on a cold cache (``engine.pbrain.kernels``), and
would not answer in time anyway.

The search aims its back end's ``landing`` short of its budget (``TreeSearcher.landing``).
"""

import time

from ..search.base import Budget
from ..search.deadline import GuardedSearch, fresh_searcher
from .quick_move import quick_move

GUARD_SECONDS = 0.05   # how long past its budget a search may run before the fallback


class Thinker:
    def __init__(self, searcher, seed: int = 0, ready=None):
        """``ready``: an Event set once the kernels are loaded, or None (loaded on use)."""
        self.searcher = searcher
        self.seed = seed
        self.ready = ready
        self.last = None             # the last SearchResult; None after a quick move

    def notify_play(self, state, move: int, colour: int):
        """``move`` is about to be played on ``state``: the tree follows it."""
        self.searcher.notify_play(state, move, colour)

    def reset(self):
        """The position changed other than by a move."""
        self.searcher.reset()

    def think(self, state, seconds: float, playouts: int | None = None) -> int:
        """A move for ``state``'s side to move within ``seconds`` (hard): the search's, its
        best so far when it overruns, or ``quick_move``'s when ``seconds`` is 0 or the
        search had nothing to say in time."""
        self.last = None
        if seconds <= 0 or (self.ready is not None and not self.ready.is_set()):
            return quick_move(state, self.seed)
        deadline = time.monotonic() + seconds + GUARD_SECONDS
        root, searcher = state.clone(), self.searcher
        budget = Budget(playouts=playouts, seconds=max(seconds - searcher.landing,
                                                       seconds / 2))
        guard = GuardedSearch(lambda stop, report: searcher.search(root, budget, stop=stop,
                                                                  progress=report))
        result = guard.wait(deadline)
        if result is None:
            self.searcher = fresh_searcher(searcher)
            result = guard.best_so_far
        if result is None or result.move < 0 or not state.is_legal(result.move):
            return quick_move(state, self.seed)
        self.last = result
        return result.move
