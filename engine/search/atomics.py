"""Atomic operations on numpy array elements for compiled code run by several threads at
once (``engine.search.threads``): numba has none for the CPU, so these emit LLVM's
``atomicrmw``, ``cmpxchg`` and ordered loads and stores.  An element is named by its array
and one index (1-d) or two (2-d); indices are not wrapped or checked.

Orderings: ``add`` and ``cas`` are sequentially consistent (on x86 a locked instruction
either way); ``load_acquire`` and ``store_release`` publish an expansion: the stores made
before a release store are seen by any thread whose acquire load sees the stored value.
"""

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


def _pointer(context, builder, aryty, ary, idxtys, idxs):
    array = context.make_array(aryty)(context, builder, ary)
    idxs = [context.cast(builder, i, t, types.intp) for i, t in zip(idxs, idxtys)]
    return cgutils.get_item_pointer(context, builder, aryty, array, idxs, wraparound=False)


def _check(ary, idxs):
    if not isinstance(ary, types.Array) or ary.ndim != len(idxs):
        raise TypeError("an array and one index per dimension")


@intrinsic
def add(typingctx, ary, i, j, val):
    """ary[i, j] += val (j None for a 1-d array), atomically; returns the old value."""
    idxtys = (i,) if isinstance(j, types.NoneType) else (i, j)
    _check(ary, idxtys)
    sig = ary.dtype(ary, i, j, ary.dtype)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, ary, args[0], idxtys, args[1:1 + len(idxtys)])
        op = "fadd" if isinstance(ary.dtype, types.Float) else "add"
        return builder.atomic_rmw(op, ptr, args[3], "seq_cst")

    return sig, codegen


@intrinsic
def cas(typingctx, ary, i, j, expected, new):
    """ary[i, j] = new if it holds ``expected`` (j None for a 1-d array), atomically;
    returns whether it did."""
    idxtys = (i,) if isinstance(j, types.NoneType) else (i, j)
    _check(ary, idxtys)
    sig = types.boolean(ary, i, j, ary.dtype, ary.dtype)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, ary, args[0], idxtys, args[1:1 + len(idxtys)])
        pair = builder.cmpxchg(ptr, args[3], args[4], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 1)

    return sig, codegen


@intrinsic
def load_acquire(typingctx, ary, i, j):
    """ary[i, j] (j None for a 1-d array), read with acquire ordering."""
    idxtys = (i,) if isinstance(j, types.NoneType) else (i, j)
    _check(ary, idxtys)
    sig = ary.dtype(ary, i, j)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, ary, args[0], idxtys, args[1:1 + len(idxtys)])
        align = context.get_abi_sizeof(context.get_value_type(ary.dtype))
        return builder.load_atomic(ptr, "acquire", align)

    return sig, codegen


@intrinsic
def store_release(typingctx, ary, i, j, val):
    """ary[i, j] = val (j None for a 1-d array), written with release ordering."""
    idxtys = (i,) if isinstance(j, types.NoneType) else (i, j)
    _check(ary, idxtys)
    sig = types.void(ary, i, j, ary.dtype)

    def codegen(context, builder, signature, args):
        ptr = _pointer(context, builder, ary, args[0], idxtys, args[1:1 + len(idxtys)])
        align = context.get_abi_sizeof(context.get_value_type(ary.dtype))
        builder.store_atomic(args[3], ptr, "release", align)
        return context.get_dummy_value()

    return sig, codegen
