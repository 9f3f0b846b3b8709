"""One compile of a kernel however many processes need it at once.

Processes that import the package side by side on an empty numba cache -- two engines
under gogui-twogtp, a process pool's workers, the test run's workers -- would each compile
every kernel they reach: numba's compiler lock holds within one process only, and its disk
cache is read before a compile but written after it.  ``compile_kernels_once`` wraps
numba's ``Dispatcher.compile`` so that a kernel of the package is compiled under an
exclusive ``flock`` on a file beside its cache index: the first process to reach the kernel
compiles and saves it; one that reaches it meanwhile waits on the lock, then finds it in
the cache (``compile`` looks there first) and loads it.

Deadlock-free by construction: the file lock is taken under numba's in-process compiler
lock (so two threads of one process never hold file locks against each other), and a
kernel's compile only ever waits for the kernels it calls, whose own compiles wait only for
theirs: the call graph has no cycle (and a process never waits on a lock it holds).  A lock
file that cannot be opened or locked (a read-only cache folder, where nothing is saved
anyway; a network mount without locks) means a compile without the lock.  An ``flock`` is
dropped when its process dies, so a killed compile leaves nothing stale.
"""

import fcntl
import functools
import hashlib
import os
from contextlib import contextmanager

from numba.core import sigutils
from numba.core.compiler_lock import global_compiler_lock
from numba.core.dispatcher import Dispatcher

from .numba_cache import PackageStampLocator

LOCK_SUFFIX = ".lock"


def lock_path(dispatcher, args) -> str | None:
    """The lock file of a package kernel for argument types ``args``: its cache index's
    name, a digest of the types, ``LOCK_SUFFIX``; None for any other function and for a
    kernel without an on-disk cache.  One lock a signature, so that two processes compile
    two signatures of one kernel side by side."""
    try:   # numba's private cache layout: when it moves, no lock
        cache = dispatcher._cache
        if not isinstance(cache._impl.locator, PackageStampLocator):
            return None
        index = cache._cache_file._index_path
    except AttributeError:
        return None
    digest = hashlib.sha1(repr(tuple(args)).encode()).hexdigest()[:16]
    return f"{index}.{digest}{LOCK_SUFFIX}"


_HELD: set[str] = set()   # the locks this process holds; read and changed under numba's lock


@contextmanager
def _exclusive(path: str | None):
    """The file lock at ``path`` for this process, unless it holds it already (a compile
    that reaches, through another kernel, a signature it is itself compiling)."""
    fd = None
    if path is not None and path not in _HELD:
        try:   # numba makes the cache folder only when it first saves a kernel
            os.makedirs(os.path.dirname(path), exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:   # read-only, or a file system without locks: no lock
            if fd is not None:
                os.close(fd)
            fd = None
    try:
        if fd is not None:
            _HELD.add(path)
        yield
    finally:
        if fd is not None:
            _HELD.discard(path)
            os.close(fd)   # closing drops the flock; the empty file stays, harmless


def compile_kernels_once():
    """Wrap ``Dispatcher.compile`` (once) as the module docstring says."""
    if getattr(Dispatcher.compile, "compiles_once", False):
        return
    compile_here = Dispatcher.compile

    @functools.wraps(compile_here)
    def compile_once(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        if tuple(args) in self.overloads:   # numba types every call site through here
            return compile_here(self, sig)
        with global_compiler_lock, _exclusive(lock_path(self, args)):
            return compile_here(self, sig)
    compile_once.compiles_once = True
    Dispatcher.compile = compile_once
