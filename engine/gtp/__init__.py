"""The GTP front end: ``main()`` parses the command line, builds the session, and runs the
reader thread and the in-order worker of ``protocol`` over stdin/stdout.

Start-up order matters to GUIs, which send commands the moment the process starts: the
options are checked first (an absurd one is an argparse error, exit status 2), then the
loop starts answering at once while a background thread warms the compiled kernels up on
a throwaway position (numba loads or compiles each kernel on its first call; doing that
here means the first ``genmove`` is not a compile, and the reply path never waits for it
unless it needs the very kernel being compiled, which numba serialises safely).

Logs go to stderr only, through ``protocol.SafeStderr``.
"""

import argparse
import math
import os
import queue
import sys
import threading
import time

from .. import NAME, __version__
from ..game.registry import game
from ..scoring import ownership
from ..search import presets, registry
from ..search.base import Budget
from . import analysis, commands, extensions, gfx, reports
from .context import GAMES, Context, Settings
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


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text}")
    return value


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative, not {text}")
    return value


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
    return value


def _positive_float(text: str) -> float:
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, not {text}")
    return value


def _key_value(text: str) -> tuple[str, str]:
    try:
        return registry.parse_pair(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def argument_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="gtp_main.py", description=f"{NAME} {__version__}: a Go and Gobang GTP engine",
        epilog="With no options each game gets its strongest configuration (--preset strong: "
               "on Go heavy playouts, priors, RAVE and c=0, which won 79.5% of 200 games "
               "against GNU Go level 10 and 40 of 40 against the plain UCT of the papers "
               "(docs/strength.md); on Gobang the "
               "threat-aware playouts; every core where the back end can use them). "
               "--preset paper is the papers' plain back end, as the published tables ran "
               "it. Example: gtp_main.py --game go --size 9 --preset paper --algo uct "
               "--playouts 5000 --set c=0.5")
    ap.add_argument("--game", choices=GAMES, default="go")
    ap.add_argument("--size", type=int, help="board size (default 19 for Go, 15 for Gobang)")
    ap.add_argument("--komi", type=_finite, default=7.5, help="Go komi (default 7.5)")
    ap.add_argument("--rule", choices=("freestyle", "exact5"), default="freestyle",
                    help="Gobang: five or more wins (freestyle) or exactly five (exact5)")
    ap.add_argument("--superko", action=argparse.BooleanOptionalAction, default=True,
                    help="Go: positional superko (default) or simple ko only")
    ap.add_argument("--ponder", action=argparse.BooleanOptionalAction, default=False,
                    help="search on the opponent's time, between commands (default off; "
                         "switch at run time with nakade-ponder on|off)")
    ap.add_argument("--algo", default="uct", metavar="SPEC",
                    help="search back end as NAME[:key=value]..., e.g. "
                         "uct:playout=heavy:rave=1; names: " + ", ".join(registry.names()))
    ap.add_argument("--playouts", type=_positive_int,
                    help="playouts per move (default 10000 when --time is not given)")
    ap.add_argument("--time", type=_positive_float, metavar="SECONDS",
                    help="seconds per move; with --playouts the first limit reached stops")
    ap.add_argument("--preset", choices=presets.names(), default=presets.DEFAULT,
                    help="the back end's options unless --set or the spec say otherwise: "
                         "strong (the default: each game's strongest configuration) or "
                         "paper (the plain back end of the papers)")
    ap.add_argument("--seed", type=_count, default=0, help="seed of every random choice")
    ap.add_argument("--set", type=_key_value, action="append", default=[],
                    metavar="KEY=VALUE", help="back-end parameter (repeatable)")
    ap.add_argument("--resign-threshold", type=_finite, metavar="WINRATE",
                    help="resign below this win rate (0 never); a back-end parameter")
    ap.add_argument("--version", action="version", version=f"{NAME} {__version__}")
    return ap


def parse_settings(argv=None) -> tuple[Settings, object]:
    """Settings and the start-up back end from the command line; argparse error (exit 2)
    for anything the rules or the registry refuse."""
    ap = argument_parser()
    a = ap.parse_args(argv)
    options = list(a.set)
    if a.resign_threshold is not None:
        options.append(("resign_threshold", str(a.resign_threshold)))
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


def warm_up(settings: Settings):
    """Run every kernel a session uses once, on objects of its own."""
    start = time.monotonic()
    try:
        state = settings.new_state()
        # the rules first: a move the deadline guard answers while the search kernels
        # still compile is played with them (engine.search.deadline)
        state.play(int(state.empty_points()[0]))
        state.undo()
        searcher, _ = settings.make_searcher()
        result = searcher.search(state, Budget(playouts=WARM_UP_PLAYOUTS))
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


def serve(settings: Settings, searcher, stdin, stdout) -> None:
    """Answer GTP on binary streams until ``quit`` or end of input."""
    requests: queue.Queue = queue.Queue()
    Reader(stdin, requests).start()
    context = Context(settings, searcher)
    session = Session(build_table(), context, Output(stdout), idle=context.ponder)
    session.serve(requests)


def main(argv=None):
    settings, searcher = parse_settings(argv)
    sys.stderr = SafeStderr(sys.stderr)
    threading.Thread(target=warm_up, args=(settings,), name="warm-up", daemon=True).start()
    try:
        serve(settings, searcher, sys.stdin.buffer, sys.stdout.buffer)
    except BrokenPipeError:
        pass  # the client closed our output: nobody is left to answer
    sys.stderr.flush()
    # exit at once (responses are flushed as written): a warm-up still compiling must not
    # keep the client waiting, nor can it be interrupted cleanly at interpreter shutdown
    os._exit(0)
