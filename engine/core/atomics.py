"""Atomic operations on one element of a numpy array, for compiled kernels that several
threads run at once over shared arrays (the tree parallelism of
``engine.search.parallel``).  numba has no CPU atomics of its own, so these are small
intrinsics that emit LLVM's ``atomicrmw``, ``cmpxchg`` and atomic ``load`` on the
element's address, all sequentially consistent: on x86 a locked instruction (or, for the
load, a plain one the compiler may not move).  Besides making the operation itself
indivisible they order the plain loads and stores around it, which is what publishes a
node's children to the other threads only once they are written.

``index`` is an integer for a 1-d array, a tuple of integers for an n-d one; no
wraparound and no bounds check (the callers index within their arrays).

  atomic_add(a, index, v)           a[index] += v, returns the old value (int or float)
  atomic_cas(a, index, old, new)    a[index] = new if it equals ``old``; returns what it
                                    held (== old: the swap happened); integer arrays
  atomic_load(a, index)             a[index], read whole and in order
  spin_lock(a, index), unlock(a, index)   a lock word (0 free, 1 held) in an integer array
"""

from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

ORDER = "seq_cst"


def _index_ok(ary, index) -> bool:
    if not isinstance(ary, types.Array):
        return False
    if isinstance(index, types.Integer):
        return ary.ndim == 1
    return (isinstance(index, types.BaseTuple) and len(index.types) == ary.ndim
            and all(isinstance(t, types.Integer) for t in index.types))


def _pointer(context, builder, aryty, ary, idxty, idx):
    """The address of ``ary[idx]``."""
    arr = context.make_array(aryty)(context, builder, ary)
    if isinstance(idxty, types.Integer):
        inds = [context.cast(builder, idx, idxty, types.intp)]
    else:
        inds = [context.cast(builder, v, t, types.intp)
                for v, t in zip(cgutils.unpack_tuple(builder, idx, len(idxty.types)),
                                idxty.types)]
    return cgutils.get_item_pointer(context, builder, aryty, arr, inds)


@intrinsic
def atomic_add(typingctx, ary, index, value):
    if not _index_ok(ary, index) or not isinstance(value, (types.Integer, types.Float)):
        return None
    dtype = ary.dtype
    if not isinstance(dtype, (types.Integer, types.Float)):
        return None
    op = "fadd" if isinstance(dtype, types.Float) else "add"

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], sig.args[1], args[1])
        v = context.cast(builder, args[2], sig.args[2], dtype)
        return builder.atomic_rmw(op, ptr, v, ORDER)

    return dtype(ary, index, value), codegen


@intrinsic
def atomic_cas(typingctx, ary, index, old, new):
    if not _index_ok(ary, index) or not isinstance(ary.dtype, types.Integer):
        return None
    dtype = ary.dtype

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], sig.args[1], args[1])
        expected = context.cast(builder, args[2], sig.args[2], dtype)
        desired = context.cast(builder, args[3], sig.args[3], dtype)
        pair = builder.cmpxchg(ptr, expected, desired, ORDER, ORDER)
        return builder.extract_value(pair, 0)

    return dtype(ary, index, old, new), codegen


@intrinsic
def atomic_load(typingctx, ary, index):
    if not _index_ok(ary, index):
        return None
    dtype = ary.dtype

    def codegen(context, builder, sig, args):
        ptr = _pointer(context, builder, sig.args[0], args[0], sig.args[1], args[1])
        align = context.get_abi_sizeof(context.get_value_type(dtype))
        return builder.load_atomic(ptr, ORDER, align)

    return dtype(ary, index), codegen


@njit(cache=True, nogil=True)
def spin_lock(ary, index):
    """Take the lock word ``ary[index]``, spinning while another thread holds it: for
    short critical sections only (a holder that the OS deschedules makes the others spin
    out their time slice)."""
    while atomic_cas(ary, index, 0, 1) != 0:
        while atomic_load(ary, index) != 0:
            pass   # wait on a plain read: a failing cmpxchg would bounce the cache line


@njit(cache=True, nogil=True)
def unlock(ary, index):
    atomic_cas(ary, index, 1, 0)
