"""The brain's kernels, loaded before its first move, compiled in a process of their own.

Compiling keeps memory: numba holds on to each kernel's LLVM module, and the allocator does
not hand the compiler's freed heap back, so a brain that compiled its own kernels holds
about 300 MiB, and one that only loaded them from the cache about 150 MiB (measured by
``scripts/research/pbrain_footprint.py``, docs/gomoku.md).  Under Gomocup's 350 MB limit
that difference is the node pool.  So on an empty cache (the playout kernel's entry is
looked up, as ``engine.warmup`` does) a child process (``child_main``, with the brain's own
arguments) plays the warm-up and exits, and the brain then loads the
kernels it saved; if the child fails, the brain compiles them itself, as before.
"""

import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from ..game.gobang_state import GobangState
from ..game.rules import GobangRules
from ..warmup import cached, parallel_compile, search_twice, worker_jobs
from .quick_move import quick_move

WARM_UP_PLAYOUTS = 64
WARM_UP_SIZE = 15          # the board of the warm-up (the kernels serve every size)
CHILD_TIMEOUT = 900.0      # seconds; a child that takes longer is killed
# the child imports this very package: run from the folder that holds it
PACKAGE_PARENT = Path(__file__).resolve().parents[2]
CHILD = "import sys; from engine.pbrain.kernels import child_main; child_main(sys.argv[1:])"


def warm(settings, log):
    """Compile (or load) the rule and search kernels on a throwaway position."""
    settings = replace(settings, size=WARM_UP_SIZE)
    searcher = settings.make_searcher()[0]
    state = GobangState(GobangRules(size=WARM_UP_SIZE, variant="freestyle"))
    state.play(quick_move(state))
    state.play(quick_move(state))
    with parallel_compile(settings, searcher, log):
        search_twice(searcher, state, WARM_UP_PLAYOUTS)


def is_cold(settings) -> bool:
    """Whether the on-disk cache lacks the brain's kernels."""
    settings = replace(settings, size=WARM_UP_SIZE)
    searcher = settings.make_searcher()[0]
    jobs = worker_jobs(settings, searcher)
    return not cached(*next(job for job in jobs if job[0] == "playouts")[1:])


def compile_in_child(argv: list[str], log) -> bool:
    """Run ``warm`` in a child process with the brain's arguments; whether it succeeded.
    Its stdout is dropped (only the brain speaks the protocol), its stderr is ours."""
    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, *argv], cwd=PACKAGE_PARENT,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                              timeout=CHILD_TIMEOUT).returncode == 0
    except (OSError, subprocess.TimeoutExpired) as exc:
        log(f"compile process failed: {exc!r}")
        return False
    log(f"kernels compiled in a child process in {time.monotonic() - start:.1f} s"
        if done else "compile process failed: the brain compiles its kernels itself")
    return done


def child_main(argv: list[str]):
    """The child's work: the brain's settings from ``argv``, then ``warm``."""
    from . import parse_settings   # the package imports this module: not at its top
    from .session import log
    warm(parse_settings(argv)[0], log)
