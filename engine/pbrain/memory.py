"""How much memory the brain holds and how much a search node takes, for sizing the node
pool from INFO ``max_memory`` (``limits.pool_nodes``)."""

import os
import resource

from ..search.linuct import DELTA_ENTRIES, LinuctSearcher
from ..search.tree import TF_ROWS, TI_ROWS


def resident_bytes() -> int:
    """The process's resident memory now (Linux ``/proc``), else its peak so far."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def node_bytes(searcher) -> int:
    """Bytes of one node of ``searcher``'s pool: the int32 and float64 rows of
    ``engine.search.tree``, and for LinUCT one more int32 row and its delta entries."""
    size = 4 * TI_ROWS + 8 * TF_ROWS
    if isinstance(searcher, LinuctSearcher):
        size += 4 + 4 * DELTA_ENTRIES
    return size


MEMORY_HEADROOM = 96 * 2**20       # bytes kept for a search's scratch and the interpreter


def pool_nodes(max_memory: int, resident: int, per_node: int, lo: int, hi: int) -> int:
    """Nodes of ``per_node`` bytes that fit under ``max_memory`` with ``resident`` bytes in
    use and the headroom kept, at most ``hi``; ValueError when not even ``lo`` fit."""
    free = max_memory - resident - MEMORY_HEADROOM
    if free < lo * per_node:
        raise ValueError(f"max_memory {max_memory // 2**20} MiB is too small: this brain "
                         f"already holds {resident // 2**20} MiB and needs "
                         f"{(MEMORY_HEADROOM + lo * per_node) // 2**20 + 1} MiB more to "
                         f"search")
    return min(hi, free // per_node)
