"""How well the playouts alone read Go problems, for one or more knowledge files: after
each first move in a problem's region, the share of plain playouts the side to move wins
(``engine.tsumego.playout_reading``), and how the book's answers rank among the moves.

    .venv/bin/python scripts/research/playout_reading.py PROBLEMS... [--knowledge builtin,K.txt] \
        [--playouts 200] [--seed 1] [--per-problem] \
        [--against results.csv [--series LABEL] [--budget N]]

Prints a markdown table, one row per knowledge file: the problems read, the mean share
after the best of the book's answers and after the other moves, the mean rank score (the
fraction of the other moves an answer's share beats), and on how many problems an answer
has the highest share.  ``--against`` a harness's results file: the same means, per
knowledge file, over the problems grouped by how many runs of one of its series (``best``
restricted by default, at ``--budget``) solved them -- whether the playouts' reading
tracks what the search solves (problems without such a run are left out).  Bad input
(an unreadable problem, an unknown knowledge file, a bad number or results file) gives
one line on stderr and exit status 2.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.go_knowledge import KnowledgeError, load  # noqa: E402
from engine.tsumego import best  # noqa: E402
from engine.tsumego.stats import label  # noqa: E402
from engine.tsumego.playout_reading import means, read_problems, solved_runs  # noqa: E402
from engine.tsumego.problem import ProblemError, load_problems  # noqa: E402


def print_means(rows, first: str):
    m = means(rows)
    print(f"| {first} | {len(rows)} | {m.answer_share:.3f} | {m.other_share:.3f} | "
          f"{m.rank_score:.3f} | {m.on_top} |")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problems", nargs="+", type=Path)
    ap.add_argument("--knowledge", default="builtin",
                    help="comma-separated knowledge files ('builtin': the shipped one)")
    ap.add_argument("--playouts", type=int, default=200, help="playouts after each move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-problem", action="store_true")
    ap.add_argument("--against", type=Path, help="a results.csv of nakade solve")
    ap.add_argument("--series", default=label(best.SPEC, best.RESTRICT),
                    help="the series of --against (default: best's)")
    ap.add_argument("--budget", type=int, default=50000, help="the budget of --against")
    args = ap.parse_args(argv)
    if args.playouts < 1:
        ap.error("--playouts must be positive")
    files = args.knowledge.split(",")
    try:
        for name in files:
            load(name)
        report = load_problems(args.problems)
        if report.errors:
            where, why = report.errors[0]
            raise ValueError(f"{where}: {why}")
        problems = [p for p in report.problems if p.game == "go"]
        if not problems:
            raise ValueError("no Go problem to read")
        solved = (solved_runs(args.against, args.series, args.budget) if args.against
                  else None)
        results = {name: read_problems(problems, name, args.playouts, args.seed)
                   for name in files}
    except (OSError, KnowledgeError, ProblemError, ValueError) as exc:
        print(f"playout_reading.py: {exc}", file=sys.stderr)
        return 2
    print(f"{len(problems)} problems, {args.playouts} playouts a move, seed {args.seed}\n")
    print("| knowledge | problems | share after the answer | after the other moves "
          "| rank score | answer on top |\n|---|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        print_means(rows, name)
    if solved is not None:
        print(f"\nby runs of {args.series} at {args.budget} playouts that solved the "
              f"problem ({args.against}):\n\n| knowledge, runs solved | problems | "
              "share after the answer | after the other moves | rank score | answer on top "
              "|\n|---|---:|---:|---:|---:|---:|")
        for name, rows in results.items():
            for k in sorted({solved[r.problem] for r in rows if r.problem in solved}):
                print_means([r for r in rows if solved.get(r.problem) == k], f"{name}, {k}")
    if args.per_problem:
        print("\n| problem | knowledge | moves | answer | others | rank score |\n"
              "|---|---|---:|---:|---:|---:|")
        for name, rows in results.items():
            for r in rows:
                print(f"| {r.problem} | {name} | {r.moves} | {r.answer_share:.3f} | "
                      f"{r.other_share:.3f} | {r.rank_score:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
