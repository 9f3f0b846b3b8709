"""The AMAF record of one simulation, for RAVE: for each point, the colour that played
there first and the game ply at which it did, packed in one int32 (colour + 4 * ply;
0: no stone yet).  The ply is what lets RAVE weigh a move played early in the
simulation above one played near its end (``uct_kernels.backup``, ``rave_distance``):
an early move is more nearly the tree move it stands in for.  An empty array keeps no
record (the playouts of a search without RAVE)."""

from numba import njit

from .layout import M_MOVES


@njit(cache=True, nogil=True, inline="always")
def note_first(amaf, p, color, meta):
    """Record ``color`` playing ``p`` now (the ply ``meta`` is at), unless the point was
    already played in this simulation or there is no record."""
    if amaf.shape[0] > 0 and amaf[p] == 0:
        amaf[p] = color + 4 * meta[M_MOVES]


@njit(cache=True, nogil=True, inline="always")
def first_color(entry):
    """The colour of a record's entry (0: not played)."""
    return entry & 3


@njit(cache=True, nogil=True, inline="always")
def first_ply(entry):
    """The game ply of a record's entry."""
    return entry >> 2
