"""``nakade solve``: the tsumego harness, a solve-rate sweep over problem files: back ends
x budgets x seeds.

    nakade solve problems/go --algo uct,shot \\
        --budgets 500,1000,2000,5000,10000,50000 --seeds 5 --out runs/tsumego \\
        [--workers N] [--dask tcp://host:8786] [--gtp "gnugo --mode gtp --level 10"] \\
        [--restrict] [--sequence] [--diagrams DIR]

PATHs are problem files (.sgf in the RIGHT convention, GNU Go .tst regression scripts)
or folders searched for them.  Writes into DIR:

* results.csv   one row per problem, back end, budget, seed and mode, appended as each
                run finishes; run the same command again to resume an interrupted sweep
                (columns problem,algo,budget,seed,move,correct,seconds,restrict, then
                the configuration: frame,options,command,version, then how the answer
                was reached: status,pv,stable_at, then sequence,lines of a
                --sequence run; docs/tsumego-results.md says what each holds)
* summary.json  solve rate and 95 % Wilson interval per back end and budget, plus what
                was loaded, skipped and unreadable, and whether the run was restricted
* per_problem.md  which back end solved which problem (solved seeds / seeds), after a
                table comparing every two series of one budget problem by problem (on
                how many problems each solved more of its runs, and the sign test's p;
                the command line prints that table too) and the solve rates by kind of
                fight (kill or live, the defender with or without outside stones)
* solve_rate.png  solve rate against budget (log scale), one line per back end

``--diagrams DIR`` also draws DIR/PROBLEM.svg for each Go problem a run missed (the
correct first moves, the wrong answer and its principal variation), from the rows: run
with the same arguments after a sweep has finished, it plays nothing and only draws.

``--algo`` takes back-end specs, ``NAME[:KEY=VALUE]...`` separated by commas, e.g.
``uct,uct:c=0.5,shot``: the options after the name go to that back end alone (over
``--option``), and the spec as written labels its rows, tables and plot line.  Every spec
is built once before anything runs, so an unknown back end or option stops the command
at once.  ``--gtp CMD`` adds an external engine as one more back end (named after its
program, e.g. ``gnugo``), asked once per Go problem with ``loadsgf`` + ``reg_genmove``.
``--restrict`` limits the back ends' answers to the problem's region (see its help);
restricted series are labelled ``SPEC+restrict``.  ``--algo best`` is the strongest
tsumego configuration (``engine/tsumego/best.py``), restricted to the region; its rows
carry the explicit spec it stands for.

Every row records the configuration it ran with (frame, options, the baseline's command
line, the code version), and a re-run counts only the rows of its own configuration:
changed flags or code run their jobs anew.  One sweep at a time per ``--out`` (a second
one refuses, naming the first); see docs/tsumego-sweeps.md.  Errors of the output
folder (unwritable, disk full, busy) are one line on stderr and exit status 2.
"""

import argparse
import shlex
import sys
from pathlib import Path

from ..cli_types import positive_int, seconds
from ..results_store import FolderLock, NotAResultsFile, OutputBusy, ResultsWriteError
from ..search.registry import names, parse_pair
from . import best
from .frame import MARGIN
from .problem import load_problems
from .report import miss_diagrams, pairs_table, rates_table, write_report
from .solve import searcher
from .sweep import ResultsFile, Settings, plan, run_sweep


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",") if v.strip()]


def _options(pairs: list[str]) -> tuple:
    try:
        return tuple(parse_pair(pair) for pair in pairs)
    except ValueError as exc:
        raise SystemExit(f"--option: {exc}") from None


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="nakade solve", description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--algo", default="uct,shot", metavar="SPEC,...",
                    help="comma-separated back-end specs NAME[:KEY=VALUE]..., e.g. "
                         f"uct,uct:c=0.5 (names: {', '.join(names())}), or "
                         f"'{best.NAME}': the strongest tsumego configuration, restricted "
                         f"to the region ({best.SPEC})")
    ap.add_argument("--budgets", default="500,1000,2000,5000,10000,50000",
                    help="comma-separated playout budgets")
    ap.add_argument("--seeds", type=positive_int, default=5,
                    help="runs per problem and budget")
    ap.add_argument("--out", required=True, help="output folder (created)")
    ap.add_argument("--workers", type=positive_int, default=None,
                    help="local worker processes (default: one per core; 1: no pool)")
    ap.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler")
    ap.add_argument("--gtp", metavar="CMD", help="an external GTP engine as a baseline")
    ap.add_argument("--gtp-timeout", type=seconds, default=300.0, metavar="S",
                    help="seconds the --gtp engine may take over one command before it is "
                         "killed and its job counted as failed (default 300)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="an option for every back end, which each must know "
                         "(repeatable); NAME:KEY=VALUE in --algo sets one back end's")
    ap.add_argument("--no-frame", action="store_true",
                    help="search the bare problem position, without a tsumego frame")
    ap.add_argument("--restrict", action="store_true",
                    help="restrict the back ends' moves at the root (the answer) to the "
                         "problem's region of interest, pass allowed: the bounding box of "
                         "the SGF's VW points when the file has them, else of the problem's "
                         f"stones grown by {MARGIN} point, always holding every stone and "
                         "its neighbours (the region R the tsumego frame keeps, taken from "
                         "the problem, framed or not); the tree below the root and the "
                         "playouts are not restricted, nor is the --gtp engine.  Off by "
                         "default, so results compare with unrestricted sweeps")
    ap.add_argument("--sequence", action="store_true",
                    help="whole-sequence checking: after its first move each of our back "
                         "ends plays the problem's answer tree out (every defence the "
                         "file gives, a fresh search of the same budget at each of its "
                         "own turns) and a run is correct only when every line ends right "
                         "(column lines: RIGHT/ALL); a file of first moves only is one "
                         "line.  The --gtp engine still answers the first move")
    ap.add_argument("--diagrams", metavar="DIR",
                    help="draw DIR/PROBLEM.svg for every Go problem a run missed")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    args.algos, args.restricted = best.resolve(
        [a.strip() for a in args.algo.split(",") if a.strip()])
    if not args.algos:
        ap.error("--algo names no back end")
    args.options = _options(args.option)
    for spec in args.algos:   # every spec built once: a bad one stops us before any run
        try:
            searcher(spec, 0, dict(args.options))
        except ValueError as e:
            ap.error(f"--algo {spec}: {e}")
    try:
        args.budget_list = _ints(args.budgets)
    except ValueError:
        ap.error(f"--budgets: not a list of integers: {args.budgets}")
    if not args.budget_list or min(args.budget_list) <= 0:
        ap.error("budgets must be positive")
    return args


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        with FolderLock(args.out):
            return sweep(args, argv)
    except (OutputBusy, ResultsWriteError) as exc:
        print(f"nakade solve: {exc}", file=sys.stderr)
        return 2


def sweep(args, argv) -> int:
    out = Path(args.out)
    report = load_problems(args.paths)
    print(f"problems: {len(report.problems)} loaded, {len(report.errors)} unreadable",
          file=sys.stderr)
    if report.tests_read:
        skipped = ", ".join(f"{k} {v}" for k, v in sorted(report.skipped.items()))
        print(f".tst: {report.tests_read} reg_genmove tests read; other commands skipped: "
              f"{sum(report.skipped.values())} ({skipped or 'none'})", file=sys.stderr)
    for where, why in report.errors:
        print(f"unreadable: {where}: {why}", file=sys.stderr)
    if not report.problems:
        return 1
    settings = Settings(use_frame=not args.no_frame, options=args.options, gtp=args.gtp,
                        gtp_timeout=args.gtp_timeout, sequence=args.sequence)
    jobs = plan(report.problems, args.algos, args.budget_list, args.seeds, args.gtp,
                restrict=args.restrict, restricted=args.restricted)
    try:
        rows, failures = run_sweep(report.problems, jobs, ResultsFile(out / "results.csv"),
                                   workers=args.workers, dask=args.dask, settings=settings,
                                   progress=not args.no_progress)
    except NotAResultsFile as exc:
        print(f"nakade solve: {exc}", file=sys.stderr)
        return 2
    command = " ".join(shlex.quote(a) for a in (sys.argv if argv is None else argv))
    rates = write_report(out, command, report, settings, args.restrict, jobs, rows, failures)
    if args.diagrams:
        drawn = miss_diagrams(Path(args.diagrams), rows, report.problems)
        print(f"diagrams of {drawn} missed problems in {args.diagrams}", file=sys.stderr)
    print(rates_table(rates))
    pairs = pairs_table(rows)
    if pairs:
        print("\n" + pairs)
    print(f"\nper-problem table: {out / 'per_problem.md'}; rows: {len(rows)} of {len(jobs)} "
          f"jobs; failed: {len(failures)}", file=sys.stderr)
    return 0 if not failures else 2
