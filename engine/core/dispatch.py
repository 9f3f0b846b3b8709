"""A kernel chosen by the numba type of an argument while its caller compiles, handed to
the caller as a value that it calls: ``pick(x)(arguments...)`` calls ``select(numba type
of x)`` with the arguments, directly, as if the caller had named that kernel.

Why not ``numba.extending.overload(stub, inline='always')`` with a body that calls the
kernel, which reads the same: numba compiles an overload's body as a function of its own
before it inlines it (``_OverloadFunctionTemplate._build_impl``), LLVM's passes and
machine code included, and the caller's compile then throws that function away.  A body
that calls a kernel links the kernel's whole code into it, so each such call site cost a
cold start a compile of everything below it again (the Go playout's 0.6 s, on the compile
worker's lane).  The body here returns the kernel and calls nothing: it compiles in a
millisecond and links nothing, and the caller's call of the value is a direct call of the
kernel (numba types a function value by the function itself).
"""

from numba import njit
from numba.extending import overload


def chosen(select):
    """For compiled code: ``f(x)`` is the kernel (a numba dispatcher) ``select(numba type
    of x)``, to be called."""
    def stub(x):
        raise NotImplementedError("compiled code only")

    @overload(stub, inline="always")
    def _pick(x):
        kernel = select(x)
        return lambda x: kernel

    return stub


def constant(value):
    """A kernel of any arguments that returns ``value`` (a choice that does nothing)."""
    return njit(nogil=True)(lambda *args: value)
