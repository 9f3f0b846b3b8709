"""A second reading of a tsumego sweep's answers: GNU Go's owl code
(``engine.tsumego.oracle.gnugo_judgement``, the reader that checks our collection) asked
of the book's answers and of every move a run answered wrongly.

    .venv/bin/python scripts/research/owl_check.py RESULTS.csv PATHS [--algo SPEC] [--budget N] \\
        [--frame] [--gtp "/usr/games/gnugo --mode gtp --level 10"]

RESULTS.csv is a ``nakade solve`` results file, PATHS the SGF problems it ran
on (rows of other problems are left out).  ``--algo`` keeps the rows of one series (the
``algo`` column as written; ``+restrict`` is not part of it), ``--budget`` those of one
budget.  A book problem with no goal is asked the goal its fight implies (``kill`` when
the side to move attacks).  GNU Go judges every first move of the problem's region
(``owl_does_attack`` / ``owl_does_defend``), in the problem as the file gives it, or with
``--frame`` in its tsumego frame, the position our searches read (a corner problem's
outside is otherwise an empty board, where the defender may run away), and each move
asked is ``works`` (GNU Go's code 1), ``ko`` (2 or 3) or ``fails`` (anything else, or no
legal point of the region).  Prints one line per missed (problem, move), then
a table: GNU Go's verdicts on the book's answers (how far it agrees with the book, so how
far to trust it on the rest) and on the missed moves, and the runs solved by the book and
by either the book or GNU Go's reading.
"""

import argparse
import csv
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.game.coords import to_gtp  # noqa: E402
from engine.tsumego.oracle import gnugo_framed_judgement, gnugo_judgement  # noqa: E402
from engine.tsumego.problem import load_problems  # noqa: E402
from engine.tsumego.solve import GtpEngine, fight_target  # noqa: E402

GNUGO = "/usr/games/gnugo --mode gtp --level 10"
VERDICTS = {1: "works", 2: "ko", 3: "ko"}


def judged_moves(engine, problem, framed: bool = False) -> dict:
    """GTP vertex -> verdict for every legal first move of the problem's region, in the
    problem's position or (``framed``) in its frame."""
    if problem.goal is None:
        attacks = fight_target(problem).attacker == problem.to_play
        problem = replace(problem, tags=problem.tags + ("kill" if attacks else "live",))
    if framed:
        codes = gnugo_framed_judgement(engine, problem)["codes"]
    else:
        codes = gnugo_judgement(engine, Path(problem.source).resolve(), problem,
                                problem.state)["codes"]
    return {to_gtp(p, problem.size): VERDICTS.get(code, "fails") for p, code in codes.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--algo", help="only the rows of this series (the algo column)")
    ap.add_argument("--budget", type=int, help="only the rows of this budget")
    ap.add_argument("--frame", action="store_true",
                    help="judge the moves in the problem's tsumego frame")
    ap.add_argument("--gtp", default=GNUGO, help="the GNU Go command (default: %(default)s)")
    args = ap.parse_args(argv)
    problems = {p.name: p for p in load_problems(args.paths).problems
                if p.game == "go" and p.kind == "sgf" and p.accept}
    try:
        with open(args.results, newline="") as f:
            rows = [r for r in csv.DictReader(f) if r["problem"] in problems
                    and (args.algo is None or r["algo"] == args.algo)
                    and (args.budget is None or int(r["budget"]) == args.budget)]
    except (OSError, KeyError, ValueError) as exc:
        print(f"owl_check.py: cannot read {args.results}: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print("owl_check.py: no rows of those problems and filters", file=sys.stderr)
        return 2
    try:
        with GtpEngine(args.gtp) as engine:
            judged = {name: judged_moves(engine, problems[name], args.frame)
                      for name in sorted({r["problem"] for r in rows})}
    except (OSError, RuntimeError) as exc:   # not started, crashed, timed out, refused
        print(f"owl_check.py: {args.gtp}: {exc}", file=sys.stderr)
        return 2
    verdict = lambda name, move: judged[name].get(move, "fails")   # noqa: E731
    book = Counter(verdict(name, to_gtp(m, problems[name].size))
                   for name in judged for m in problems[name].accept)
    missed = sorted({(r["problem"], r["move"]) for r in rows if r["correct"] != "1"})
    for name, move in missed:
        print(f"{name:50s} {move:5s} {verdict(name, move)}")
    misses = Counter(verdict(*key) for key in missed)
    solved = sum(r["correct"] == "1" for r in rows)
    either = sum(r["correct"] == "1" or verdict(r["problem"], r["move"]) == "works"
                 for r in rows)
    print("\n| moves | checked | works | ko | fails |\n|---|---:|---:|---:|---:|")
    for what, count in (("the book's answers", book), ("missed moves", misses)):
        print(f"| {what} | {sum(count.values())} | {count['works']} | {count['ko']} "
              f"| {count['fails']} |")
    print(f"\nruns: {len(rows)}; solved by the book: {solved}; by the book or by GNU Go's "
          f"reading of the move: {either}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
