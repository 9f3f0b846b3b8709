"""The Gomocup "brain" front end (``nakade-pbrain``, ``python -m engine.pbrain``): Gobang for
Gomoku managers (Piskvork, c-gomoku-cli, liskvork) over stdin/stdout.

``protocol`` reads and writes the protocol's lines, ``session`` runs the loop, ``brain`` is
the engine side (the game, the back end, the limits), ``limits`` turns INFO into a rule, a
move's seconds and ``memory`` into a node pool, ``thinker`` searches under a hard deadline
and ``quick_move`` answers when there is no time to search.  docs/gomoku.md says how to use
it.

Start-up: the options are checked first (a bad one is an argparse error, exit status 2);
then a background thread loads the rule and search kernels from numba's cache on a
throwaway position while the loop already answers; on an empty cache a child process
compiles them first (``kernels``: compiling in the brain would double its memory).  START
waits for the kernels, up to ``START_WAIT_SECONDS``: loading them takes a second or two
with a warm cache, and a first search that loads them itself answers late (the loading
holds the interpreter lock, so not even the deadline guard wakes up in time).  A cold cache
takes about 25 s on 2 idle cores; past the wait every move is a quick move until the
kernels are there.

stdout carries protocol lines only: ``sys.stdout`` is pointed at stderr, so a stray print
cannot reach the manager.
"""

import argparse
import os
import sys
import threading
import time

from .. import NAME, __version__
from ..cli_types import key_value, positive_int, seconds, seed, threads_option
from ..search import presets, registry
from .brain import Brain, BrainSettings
from .kernels import compile_in_child, is_cold, warm
from .session import Session, log

START_WAIT_SECONDS = 30.0
# the back end that does best against Rapfi (docs/gomoku.md measures it against UCT's)
DEFAULT_ALGO = "ab"


def argument_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="nakade pbrain",
        description=f"{NAME} {__version__}: a Gomoku brain for the Gomocup protocol "
                    f"(stdin/stdout)",
        epilog="Example: nakade-pbrain --algo uct --set c=0.5 --seed 7")
    ap.add_argument("--algo", default=DEFAULT_ALGO, metavar="SPEC",
                    help=f"search back end as NAME[:key=value]... (default {DEFAULT_ALGO}: "
                         "alpha-beta, the strongest against Rapfi); names: "
                         + ", ".join(registry.names()))
    ap.add_argument("--preset", choices=presets.names(), default=presets.DEFAULT,
                    help="the back end's options unless --set says otherwise: strong "
                         "(default) or paper (the papers' plain back end)")
    ap.add_argument("--set", type=key_value, action="append", default=[],
                    metavar="KEY=VALUE", help="back-end parameter (repeatable)")
    ap.add_argument("--seed", type=seed, default=0, help="seed of every random choice")
    ap.add_argument("--threads", type=positive_int,
                    help="search threads (back ends with a threads option)")
    ap.add_argument("--playouts", type=positive_int,
                    help="at most this many playouts a move (the clock still rules)")
    ap.add_argument("--time", type=seconds, metavar="SECONDS",
                    help="at most this many seconds a move (the clock still rules)")
    ap.add_argument("--version", action="version", version=f"{NAME} {__version__}")
    return ap


def parse_settings(argv=None) -> tuple[BrainSettings, object]:
    ap = argument_parser()
    a = ap.parse_args(argv)
    options = list(a.set)
    options += threads_option(ap, a.algo, a.threads)
    settings = BrainSettings(algo=a.algo, seed=a.seed, options=tuple(options),
                             playouts=a.playouts, seconds=a.time, preset=a.preset)
    try:
        searcher, _ = settings.make_searcher()
    except ValueError as exc:
        ap.error(str(exc))
    return settings, searcher


def warm_up(settings: BrainSettings, argv: list[str], ready: threading.Event):
    """Load the rule and search kernels on objects of its own (compiled by a child process
    first when the cache is cold), then set ``ready`` (also when that fails: the brain
    still works, only slower at first)."""
    start = time.monotonic()
    try:
        if is_cold(settings):
            compile_in_child(argv, log)
        warm(settings, log)
    except Exception as exc:
        log(f"warm-up failed: {exc!r}")
        return
    finally:
        ready.set()
    log(f"kernels ready in {time.monotonic() - start:.1f} s")


def _lines(stream):
    for raw in stream:
        yield raw.decode("utf-8", "replace").rstrip("\r\n")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    settings, searcher = parse_settings(argv)
    out = sys.stdout.buffer
    sys.stdout = sys.stderr
    ready = threading.Event()
    threading.Thread(target=warm_up, args=(settings, argv, ready), name="warm-up",
                     daemon=True).start()
    try:
        Session(Brain(settings, searcher, ready), out, (ready, START_WAIT_SECONDS)).serve(
            _lines(sys.stdin.buffer))
    except BrokenPipeError:
        pass   # the manager closed our output: nobody is left to answer
    sys.stderr.flush()
    # exit at once: a warm-up still compiling must not hold the manager up (END asks for a
    # prompt exit), nor can it be interrupted cleanly at interpreter shutdown
    os._exit(0)
