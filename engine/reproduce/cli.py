"""``nakade reproduce`` / ``python scripts/reproduce.py``: rerun the published tables.

    nakade reproduce                        # every table: play what is missing, write all
    nakade reproduce --only shot-t1 linuct-t4 --workers 2
    nakade reproduce --report               # rewrite the markdown and plots, play nothing
    nakade reproduce --only 'shot-*' --dask tcp://scheduler:8786
    nakade reproduce --list                 # the tables and their cells' commands

Each table's results, markdown and plot are in ``results/reproduce/<table>/``, the verdict
table of every cell in ``results/reproduce/verdicts.md`` (``engine.reproduce``).  A run
resumes: only missing games and repetitions are played.
"""

import argparse
import shlex
import sys
from pathlib import Path

from ..cli_types import positive_int
from ..match.cells import select
from ..results_store import commit
from . import report
from .runs import Runner
from .tables import GAMES, TABLES

ROOT = Path("results/reproduce")
VERDICTS = "verdicts.md"


def main(argv=None) -> int:
    args_in = sys.argv[1:] if argv is None else list(argv)
    ap = argparse.ArgumentParser(prog=sys.argv[0], description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="TABLE", help="tables to run (keys, globs)")
    ap.add_argument("--dask", metavar="ADDRESS", help="run on this Dask scheduler")
    ap.add_argument("--workers", type=positive_int, default=2, help="local processes")
    ap.add_argument("--games", type=positive_int, default=GAMES,
                    help=f"games a match cell (default {GAMES}, the issue's minimum)")
    ap.add_argument("--report", action="store_true", help="write the tables, play nothing")
    ap.add_argument("--list", action="store_true", help="print the tables and cells")
    ap.add_argument("--root", type=Path, default=ROOT, help=f"results (default {ROOT})")
    args = ap.parse_args(args_in)
    tables = select(TABLES, args.only, key=lambda table: table.key, what="table")
    if args.list:
        for t in tables:
            print(f"{t.key}: {t.paper}: {t.title} ({t.kind})")
            for c in t.cells:
                print(f"  {c.name} (paper {c.published}): A: {c.a}\n    B: {c.b}")
            if t.spec:
                print(f"  {t.spec}")
        return 0
    command = " ".join([sys.argv[0]] + [shlex.quote(a) for a in args_in])
    runner = Runner(args.workers, args.dask, command)
    results = {}
    for t in tables:
        if not args.report:
            runner.run(t, args.root, args.games)
        results[t.key] = report.write(t, args.root)
        print(f"{t.key}: {args.root / t.key / report.TABLE_MD}", file=sys.stderr)
    published = [t for t in TABLES if t.kind != "mdp"]   # the MDP sweeps print no paper's
    everything = {t.key: results.get(t.key) or report.ROWS_OF[t.kind](t, args.root)
                  for t in published}
    (args.root / VERDICTS).write_text(
        f"# Verdicts of the published tables\n\nWritten at commit {commit()} by `{command}` "
        f"from the rows in `{args.root}/`.\n\n" + report.verdicts(published, everything))
    return 0
