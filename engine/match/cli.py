"""``nakade match``: a match between two GTP engines (or two Gomocup brains), with win
rates and honest error bars.

    nakade match \\
        --a "python gtp_main.py --preset paper --algo shot --playouts 1000 --seed {seed}" \\
        --b "python gtp_main.py --preset paper --algo uct --playouts 1000 --seed {seed}" \\
        --game go --size 9 --komi 7 --games 100 --random-opening 2

    # the smoke path: two quick games of GNU Go against itself
    nakade match --a "/usr/games/gnugo --mode gtp --level 1" \\
        --b "/usr/games/gnugo --mode gtp --level 1" --games 2 --random-opening 2

    # Gomoku brains (the Gomocup protocol), 15x15 freestyle, 1 s a move
    nakade match --protocol brain --a "python -m engine.pbrain --seed {seed}" \\
        --b "python -m engine.pbrain --set playout=light --seed {seed}" \\
        --size 15 --move-time 1 --games 10 --random-opening 2

``--a``/``--b`` alternate colours game by game; ``--black``/``--white`` fix them.  Each
engine is any GTP command line (split like a shell does); ``{seed}`` in it becomes a seed
derived from ``--seed`` for each game.  The results (one JSON line a game, its moves
included) and a summary go to ``--out`` (default: ``matches/match-<hash of the
configuration>``); running the same command again resumes the match, and ``--sgf DIR``
writes every game recorded there as an SGF file (also for a match already finished).  One match at a time per output folder (a second one refuses, naming
the first); errors of the folder (busy, unwritable, disk full) are one line and exit
status 2; Ctrl-C keeps the finished games (exit status 130).  See docs/matches.md.
"""

import argparse
import os
import sys

from ..cli_types import clock_seconds, count, finite, positive_int, seconds, seed
from ..results_store import NotAResultsFile, OutputBusy, ResultsWriteError
from ..timecontrol import TimeSettings
from .brain_referee import BrainSetup
from .records import write_sgfs
from .referee import GameSetup
from .runner import (RESULTS_FILE, EngineSpec, MatchConfig, MatchMismatch, WarmUpFailed,
                     dask_backend, default_out_dir, local_executor, read_results, run_match,
                     warm_up)
from .stats import format_summary

DEFAULT_SIZE = {"go": 9, "gobang": 15}


def argument_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="nakade match",
                                 description=__doc__.split("\n\n")[0])
    pair = ap.add_argument_group("engines (one pair)")
    pair.add_argument("--a", metavar="CMD", help="engine A (colours alternate)")
    pair.add_argument("--b", metavar="CMD", help="engine B (colours alternate)")
    pair.add_argument("--black", metavar="CMD", help="engine A, always black")
    pair.add_argument("--white", metavar="CMD", help="engine B, always white")
    pair.add_argument("--names", nargs=2, metavar=("A", "B"), default=("", ""),
                      help="display names (default: the command lines)")
    ap.add_argument("--protocol", choices=("gtp", "brain"), default="gtp",
                    help="how the engines are spoken to: GTP, or the Gomocup brain "
                         "protocol (Gobang only; see docs/gomoku.md)")
    game = ap.add_argument_group("game")
    game.add_argument("--game", choices=("go", "gobang"),
                      help="default go (gobang with --protocol brain)")
    game.add_argument("--size", type=positive_int, help="board size (default 9 Go, 15 Gobang)")
    game.add_argument("--komi", type=finite, default=7.5)
    game.add_argument("--rule", choices=("freestyle", "exact5"), default="freestyle",
                      help="Gobang variant")
    game.add_argument("--superko", action=argparse.BooleanOptionalAction, default=True,
                      help="Go: positional superko (default) or simple ko")
    game.add_argument("--max-moves", type=positive_int,
                      help="moves before a game is stopped as a draw (default 3 x points)")
    game.add_argument("--handicap", type=int, default=0,
                      help="Go: black's fixed handicap stones, white moving first (use "
                           "--komi 0.5 for the usual handicap komi)")
    game.add_argument("--cleanup", action="store_true",
                      help="Go: kgs-genmove_cleanup phase after two passes, then area score")
    budget = ap.add_argument_group("budget and time")
    budget.add_argument("--playouts", type=positive_int,
                        help="per-move playouts, set with nakade-budget (our engines)")
    clock = budget.add_mutually_exclusive_group()
    clock.add_argument("--move-time", type=seconds, metavar="S",
                       help="seconds per move (sent as time_settings 0 S 1, or to brains "
                            "as INFO timeout_turn), enforced")
    clock.add_argument("--time-settings", type=clock_seconds, nargs=3,
                       metavar=("MAIN", "BYO", "STONES"),
                       help="Canadian clock per side, sent as time_settings, enforced")
    budget.add_argument("--match-time", type=seconds, metavar="S",
                        help="brains: seconds for a whole game (INFO timeout_match, "
                             "time_left before each move), enforced")
    budget.add_argument("--b-move-time", type=seconds, metavar="S",
                        help="brains: engine b's own INFO timeout_turn (time odds: "
                             "--move-time 1 --b-move-time 0.1 gives a ten times a's "
                             "time), enforced")
    budget.add_argument("--max-memory", type=positive_int, metavar="MIB",
                        help="brains: INFO max_memory (not enforced)")
    budget.add_argument("--time-grace", type=clock_seconds, default=0.5,
                        help="seconds a move may overrun its clock (default 0.5)")
    budget.add_argument("--move-timeout", type=seconds, default=600.0,
                        help="bound on a move without a clock (default 600 s)")
    budget.add_argument("--command-timeout", type=seconds, default=60.0)
    budget.add_argument("--startup-timeout", type=seconds, default=300.0)
    match = ap.add_argument_group("match")
    match.add_argument("--games", type=count, default=100)
    match.add_argument("--seed", type=seed, default=0, help="master seed of the match")
    openings = match.add_mutually_exclusive_group()
    openings.add_argument("--random-opening", type=count, default=0, metavar="K",
                          help="K random legal moves open each pair of games")
    openings.add_argument("--openings", metavar="FILE",
                          help="opening lines (GTP vertices), used in turn")
    match.add_argument("--out", help="output folder (default: matches/match-<hash>)")
    match.add_argument("--sgf", metavar="DIR",
                       help="write each recorded game as DIR/game-NNNN.sgf at the end")
    match.add_argument("--workers", type=positive_int, default=os.cpu_count() or 1,
                       help="games in parallel (default: the number of cores)")
    match.add_argument("--dask", metavar="ADDRESS",
                       help="run the games on a Dask scheduler (tcp://host:8786)")
    match.add_argument("--no-warm-up", action="store_true",
                       help="skip starting each engine once before the games")
    match.add_argument("--no-progress", action="store_true")
    return ap


def read_openings(path: str) -> tuple:
    """Non-empty lines of a file, ``#`` comments dropped."""
    with open(path) as f:
        lines = (line.split("#", 1)[0].strip() for line in f)
        return tuple(line for line in lines if line)


def config_from(args, ap) -> MatchConfig:
    if args.a and args.b and not (args.black or args.white):
        commands, alternate = (args.a, args.b), True
    elif args.black and args.white and not (args.a or args.b):
        commands, alternate = (args.black, args.white), False
    else:
        ap.error("give --a and --b, or --black and --white")
    if args.time_settings:
        main, byo, stones = args.time_settings
        time = TimeSettings(main, byo, int(stones))
    elif args.move_time:
        time = TimeSettings(0.0, args.move_time, 1)
    else:
        time = None
    brain = args.protocol == "brain"
    game = args.game or ("gobang" if brain else "go")
    if not brain and (args.match_time or args.max_memory or args.b_move_time):
        ap.error("--match-time, --max-memory and --b-move-time are for --protocol brain")
    if brain and (args.time_settings or args.playouts or args.cleanup or args.handicap):
        ap.error("--protocol brain takes --move-time and --match-time, not --time-settings, "
                 "--playouts, --cleanup or --handicap")
    common = dict(game=game, size=args.size or DEFAULT_SIZE[game], komi=args.komi,
                  rule=args.rule, superko=args.superko, max_moves=args.max_moves,
                  time_grace=args.time_grace, move_timeout=args.move_timeout,
                  command_timeout=args.command_timeout, startup_timeout=args.startup_timeout)
    try:
        if brain:
            setup = BrainSetup(**common, timeout_turn=args.move_time,
                               b_timeout_turn=args.b_move_time,
                               timeout_match=args.match_time,
                               max_memory=args.max_memory and args.max_memory * 2**20)
        else:
            setup = GameSetup(**common, time=time, cleanup=args.cleanup,
                              playouts=args.playouts, handicap=args.handicap)
        return MatchConfig(
            a=EngineSpec("a", commands[0], args.names[0]),
            b=EngineSpec("b", commands[1], args.names[1]), setup=setup, games=args.games,
            alternate=alternate, seed=args.seed, random_opening=args.random_opening,
            openings=read_openings(args.openings) if args.openings else ())
    except (ValueError, OSError) as exc:
        ap.error(str(exc))


def main(argv=None) -> int:
    ap = argument_parser()
    args = ap.parse_args(argv)
    config = config_from(args, ap)
    out = args.out or default_out_dir(config)
    print(f"results in {out}", file=sys.stderr)
    warm = None if args.no_warm_up else warm_up
    try:
        if args.dask:
            import distributed
            with distributed.Client(args.dask) as client:
                executor, dask_warm = dask_backend(client)
                summary = run_match(config, out, executor, None if warm is None else dask_warm,
                                    progress=not args.no_progress)
        else:
            with local_executor(args.workers) as executor:
                summary = run_match(config, out, executor, warm,
                                    progress=not args.no_progress)
    except (MatchMismatch, WarmUpFailed, OutputBusy, ResultsWriteError,
            NotAResultsFile) as exc:
        print(f"nakade match: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"nakade match: interrupted; the finished games are in {out}: run the same "
              f"command to resume", file=sys.stderr)
        return 130
    print(format_summary(summary))
    if args.sgf:
        return _write_sgfs(out, args.sgf)
    return 0


def _write_sgfs(out, sgf_dir) -> int:
    header, rows, _, _ = read_results(f"{out}/{RESULTS_FILE}", log=sys.stderr)
    try:
        written, skipped = write_sgfs(header, rows, sgf_dir)
    except (OSError, ValueError) as exc:
        print(f"nakade match: cannot write the SGF files: {exc}", file=sys.stderr)
        return 2
    older = f" ({skipped} rows recorded without their moves)" if skipped else ""
    print(f"{written} SGF files in {sgf_dir}{older}", file=sys.stderr)
    return 0
