"""Worker processes that do not outlive the process that started them.

A pool worker (tsumego sweep, match runner) calls ``die_with_parent`` from its pool
initialiser.  When the parent goes -- even by SIGKILL, which runs none of its clean-up --
the worker gets SIGTERM (Linux ``PR_SET_PDEATHSIG``; a watcher thread that notices the
parent's pid change does the same elsewhere, within ``POLL_SECONDS``), kills the engines
it started (``cleanup``) and exits with status 128 + SIGTERM.  Without it the workers, and
the engines they talk to, would keep running under PID 1.
"""

import ctypes
import os
import signal
import sys
import threading

PR_SET_PDEATHSIG = 1
POLL_SECONDS = 1.0


def die_with_parent(parent_pid: int, cleanup=None):
    """Make this process exit when ``parent_pid`` is no longer its parent."""

    def on_term(signum, frame):
        if cleanup is not None:
            cleanup()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, on_term)
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM))
        except (OSError, AttributeError):
            pass   # the watcher below still notices

    def watch():
        while os.getppid() == parent_pid:
            threading.Event().wait(POLL_SECONDS)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()
