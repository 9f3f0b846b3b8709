"""How much memory the brain holds and how much a search node takes, for sizing the node
pool from INFO ``max_memory``.

The pool gets what the limit leaves over the memory the process holds (its interpreter,
numba and the loaded kernels: about 150 MiB, docs/gomoku.md) less ``MEMORY_HEADROOM`` for
the search's scratch (measured: a 20x20 game at 5 s a move peaks about 45 MiB over the
resident memory before its first search with a pool of 1,000,000 nodes, 61 MiB, of which
the search touched part).  A limit never stops the brain playing: when it leaves less than
the configured pool the pool is cut, down to ``lo`` nodes (a few hundred KiB) whatever the
limit, and the brain says so in a MESSAGE.
"""

import os
import resource

from ..search.alphabeta import TT_ENTRY_BYTES, AlphaBetaSearcher
from ..search.linuct import DELTA_ENTRIES, LinuctSearcher
from ..search.tree import TF_ROWS, TI_ROWS

MEMORY_HEADROOM = 32 * 2**20       # bytes kept for a search's scratch besides its pool


def resident_bytes() -> int:
    """The process's resident memory now (Linux ``/proc``), else its peak so far."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def node_bytes(searcher) -> int:
    """Bytes of one node of ``searcher``'s pool: the int32 and float64 rows of
    ``engine.search.tree``, and for LinUCT one more int32 row and its delta entries; for
    alpha-beta, an entry of its transposition table (``max_nodes`` of them at most)."""
    if isinstance(searcher, AlphaBetaSearcher):
        return TT_ENTRY_BYTES
    size = 4 * TI_ROWS + 8 * TF_ROWS
    if isinstance(searcher, LinuctSearcher):
        size += 4 + 4 * DELTA_ENTRIES
    return size


def held_bytes(searcher) -> int:
    """What the process holds besides ``searcher``'s pool (which a new size replaces)."""
    pool = getattr(searcher, "pool", None)
    return resident_bytes() - (0 if pool is None else pool.capacity * node_bytes(searcher))


def pool_nodes(max_memory: int, held: int, per_node: int, lo: int, hi: int) -> int:
    """Nodes of ``per_node`` bytes that fit under ``max_memory`` with ``held`` bytes in use
    and the headroom kept: at most ``hi``, at least ``lo``."""
    free = max_memory - held - MEMORY_HEADROOM
    return max(lo, min(hi, free // per_node))
