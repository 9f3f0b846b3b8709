"""The GTP front end: ``main()`` parses the command line, builds the session, and runs the
reader thread and the in-order worker of ``protocol`` over stdin/stdout.

Start-up order matters to GUIs, which send commands the moment the process starts: the
options are checked first (an absurd one is an argparse error, exit status 2), then the
loop starts answering at once while a background thread warms the compiled kernels up on
a throwaway position (numba loads or compiles each kernel on its first call; doing that
here means the first ``genmove`` is not a compile, and the reply path never waits for it
unless it needs the very kernel being compiled, which numba serialises safely).

Logs go to stderr only, through ``protocol.SafeStderr``, which never lets a closed or full
stderr take the protocol down.

Signals: SIGINT (Ctrl-C) or SIGTERM stops the search being run -- it is answered with the
best move found so far -- and the engine then exits without reading further commands,
with exit status 128 + the signal (130 for SIGINT, 143 for SIGTERM).  A second signal
exits at once with the same status.  Status 0 is ``quit`` or the end of input.
"""

import argparse
import os
import queue
import signal
import sys
import threading
import time

from .. import NAME, __version__, warmup
from ..cli_types import finite, key_value, positive_float, positive_int, seed, threads_option
from ..game.registry import game
from ..game.rules import GOBANG_VARIANTS
from ..scoring import ownership
from ..search import presets, registry
from . import analysis, commands, extensions, gfx, reports
from .context import GAMES, Context, Settings
from .option_reference import reference
from .protocol import CommandTable, Output, Reader, SafeStderr, Session, log

WARM_UP_PLAYOUTS = 64


def build_table() -> CommandTable:
    table = CommandTable()
    commands.register(table)
    extensions.register(table)
    analysis.register(table)
    gfx.register(table)
    reports.register(table)
    return table


def argument_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="nakade gtp", description=f"{NAME} {__version__}: a Go and Gobang GTP engine",
        epilog="With no options each game gets its strongest configuration (--preset strong: "
               "on Go heavy playouts, priors, RAVE and c=0, which won 79.5% of 200 games "
               "against GNU Go level 10 and 40 of 40 against the plain UCT of the papers "
               "(docs/strength.md); on Gobang the "
               "threat-aware playouts; every core where the back end can use them). "
               "--preset paper is the papers' plain back end, as the published tables ran "
               "it. Example: nakade gtp --game go --size 9 --preset paper --algo uct "
               "--playouts 5000 --set c=0.5. Every back-end option: --list-options.")
    ap.add_argument("--game", choices=GAMES, default="go", help="go (default) or gobang")
    ap.add_argument("--size", type=int, help="board size (default 19 for Go, 15 for Gobang)")
    ap.add_argument("--komi", type=finite, default=7.5, help="Go komi (default 7.5)")
    ap.add_argument("--rule", choices=GOBANG_VARIANTS, default="freestyle",
                    help="Gobang: five or more wins (freestyle), exactly five (exact5), or "
                         "renju (black: exactly five, no overline, double four or double "
                         "three)")
    ap.add_argument("--superko", action=argparse.BooleanOptionalAction, default=True,
                    help="Go: positional superko (default) or simple ko only")
    ap.add_argument("--ponder", action=argparse.BooleanOptionalAction, default=False,
                    help="search on the opponent's time, between commands (default off; "
                         "switch at run time with nakade-ponder on|off)")
    ap.add_argument("--algo", default="uct", metavar="SPEC",
                    help="search back end as NAME[:key=value]..., e.g. "
                         "uct:playout=heavy:rave=1; names: " + ", ".join(registry.names()))
    ap.add_argument("--playouts", type=positive_int,
                    help="playouts per move (default 10000 when --time is not given)")
    ap.add_argument("--time", type=positive_float, metavar="SECONDS",
                    help="seconds per move; with --playouts the first limit reached stops")
    ap.add_argument("--preset", choices=presets.names(), default=presets.DEFAULT,
                    help="the back end's options unless --set or the spec say otherwise: "
                         "strong (the default: each game's strongest configuration) or "
                         "paper (the plain back end of the papers)")
    ap.add_argument("--seed", type=seed, default=0, help="seed of every random choice")
    ap.add_argument("--threads", type=positive_int,
                    help="search threads (default: every core under --preset strong, 1 "
                         "under paper; a back end option, also --set threads=N)")
    ap.add_argument("--set", type=key_value, action="append", default=[],
                    metavar="KEY=VALUE", help="back-end parameter (repeatable)")
    ap.add_argument("--resign-threshold", type=finite, metavar="WINRATE",
                    help="resign below this win rate (0 never); a back-end parameter")
    ap.add_argument("--version", action="version", version=f"{NAME} {__version__}")
    ap.add_argument("--list-options", action="store_true",
                    help="print every back end's options (docs/options.md) and exit")
    return ap


def parse_settings(argv=None) -> tuple[Settings, object]:
    """Settings and the start-up back end from the command line; argparse error (exit 2)
    for anything the rules or the registry refuse."""
    ap = argument_parser()
    a = ap.parse_args(argv)
    if a.list_options:
        print(reference(ap), end="")
        sys.exit(0)
    options = list(a.set)
    if a.resign_threshold is not None:
        options.append(("resign_threshold", str(a.resign_threshold)))
    options += threads_option(ap, a.algo, a.threads)
    size = game(a.game).default_size if a.size is None else a.size
    settings = Settings(game=a.game, size=size, komi=a.komi, rule=a.rule, superko=a.superko,
                        algo=a.algo, seed=a.seed, playouts=a.playouts, seconds=a.time,
                        options=tuple(options), ponder=a.ponder, preset=a.preset)
    try:
        settings.rules()
    except ValueError as exc:
        ap.error(str(exc))
    try:
        searcher, _ = settings.make_searcher()
    except ValueError as exc:
        ap.error(str(exc))
    return settings, searcher


def warm_up(settings: Settings, done: threading.Event | None = None):
    """Run every kernel a session uses once, on objects of its own; ``done`` is set when
    that ends, however it ends (``nakade-ready`` waits for it)."""
    try:
        _warm_up(settings)
    finally:
        if done is not None:
            done.set()


def _warm_up(settings: Settings):
    start = time.monotonic()
    try:
        searcher, _ = settings.make_searcher()
        with warmup.parallel_compile(settings, searcher, log):
            state = settings.new_state()
            # the rules first: a move the deadline guard answers while the search kernels
            # still compile is played with them (engine.search.deadline)
            state.play(int(state.empty_points()[0]))
            state.undo()
            result = warmup.search_twice(searcher, state, WARM_UP_PLAYOUTS)
        if result.move >= 0:
            searcher.notify_play(state, result.move, state.to_play)
            state.play(result.move)
            state.undo()
        if settings.game == "go":
            ownership(state, playouts=2)
    except Exception as exc:  # the session still works, only its first moves are slower
        log(f"warm-up failed: {exc!r}")
        return
    log(f"kernels ready in {time.monotonic() - start:.1f} s")


def serve(settings: Settings, searcher, stdin, stdout, on_session=None,
          warmed: threading.Event | None = None) -> Session:
    """Answer GTP on binary streams until ``quit``, end of input or ``Session.stop``;
    ``on_session(session)`` is called before the first request is read; ``warmed`` is the
    warm-up's end (None: nothing to wait for)."""
    requests: queue.Queue = queue.Queue()
    context = Context(settings, searcher)
    context.warmed = warmed
    session = Session(build_table(), context, Output(stdout), idle=context.ponder)
    if on_session is not None:
        on_session(session)
    Reader(stdin, requests).start()
    session.serve(requests)
    return session


def stop_on_signals(session: Session):
    """SIGINT and SIGTERM call ``session.stop`` (see the module docstring).  The handlers
    only wake a thread through the signal wakeup pipe; the thread does the stopping, so no
    lock is ever taken inside a signal handler."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *args: None)

    def watch():
        while True:
            signum = os.read(read_end, 1)[0]
            if session.signal is not None:
                os._exit(128 + session.signal)
            log(f"signal {signal.Signals(signum).name}: stopping")
            session.stop(signum)

    threading.Thread(target=watch, name="signals", daemon=True).start()


def main(argv=None):
    settings, searcher = parse_settings(argv)
    sys.stderr = SafeStderr(sys.stderr)   # None (stderr closed) included
    warmed = threading.Event()
    threading.Thread(target=warm_up, args=(settings, warmed), name="warm-up",
                     daemon=True).start()
    session = None
    try:
        session = serve(settings, searcher, sys.stdin.buffer, sys.stdout.buffer,
                        on_session=stop_on_signals, warmed=warmed)
    except BrokenPipeError:
        pass  # the client closed our output: nobody is left to answer
    sys.stderr.flush()
    # exit at once (responses are flushed as written): a warm-up still compiling must not
    # keep the client waiting, nor can it be interrupted cleanly at interpreter shutdown
    os._exit(0 if session is None or session.signal is None else 128 + session.signal)
