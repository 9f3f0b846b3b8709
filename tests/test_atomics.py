"""The atomic intrinsics (``engine.core.atomics``) hammered from two threads at once: the
counts come out exact, where plain ``+=`` loses updates."""

import threading

import numpy as np
from numba import njit

from engine.core.atomics import atomic_add, atomic_cas, atomic_load, spin_lock, unlock

N = 2_000_000


@njit(nogil=True)
def _add_ints(a, g, n):
    for _ in range(n):
        atomic_add(a, 0, 1)
        atomic_add(g, (1, 2), np.int32(2))     # the 2-d form, on an int32 array


@njit(nogil=True)
def _add_floats(a, n):
    for _ in range(n):
        atomic_add(a, 0, 0.5)


@njit(nogil=True)
def _count_by_cas(a, n):
    """Increment a[0] by compare-and-swap retries."""
    for _ in range(n):
        while True:
            old = atomic_load(a, 0)
            if atomic_cas(a, 0, old, old + 1) == old:
                break


@njit(nogil=True)
def _locked_pair(lock, pair, n):
    """Under the lock, two plain increments that must stay equal."""
    for _ in range(n):
        spin_lock(lock, 0)
        pair[0] += 1
        pair[1] = pair[0]
        unlock(lock, 0)


def _hammer(kernel, *args):
    kernel(*[a.copy() for a in args[:-1]], 10)   # compile before the threads start
    threads = [threading.Thread(target=kernel, args=args) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_atomic_add_counts_exactly_from_two_threads():
    ints = np.zeros(1, dtype=np.int64)
    grid = np.zeros((3, 4), dtype=np.int32)
    _hammer(_add_ints, ints, grid, N)
    assert ints[0] == 2 * N
    assert grid[1, 2] == 4 * N and grid.sum() == 4 * N


def test_atomic_add_returns_the_old_value():
    a = np.array([5, 7], dtype=np.int64)

    @njit
    def add(a):
        return atomic_add(a, 1, 3)

    assert add(a) == 7 and a[1] == 10


def test_atomic_float_add_counts_exactly_from_two_threads():
    a = np.zeros(1)
    _hammer(_add_floats, a, N)
    assert a[0] == N   # halves sum exactly in binary


def test_compare_and_swap_retries_count_exactly():
    a = np.zeros(1, dtype=np.int64)
    _hammer(_count_by_cas, a, N)
    assert a[0] == 2 * N


def test_compare_and_swap_swaps_only_on_a_match():
    a = np.array([4], dtype=np.int32)

    @njit
    def cas(a, old, new):
        return atomic_cas(a, 0, old, new)

    assert cas(a, 3, 9) == 4 and a[0] == 4
    assert cas(a, 4, 9) == 4 and a[0] == 9


def test_the_spin_lock_keeps_a_critical_section_whole():
    lock = np.zeros(1, dtype=np.int64)
    pair = np.zeros(2, dtype=np.int64)
    _hammer(_locked_pair, lock, pair, N // 4)
    assert pair[0] == pair[1] == 2 * (N // 4) and lock[0] == 0
