"""How well the playouts alone read Go problems, for one or more knowledge files: after
each first move in a problem's region, the share of plain playouts the side to move wins
(``engine.tsumego.playout_reading``), and how the book's answers rank among the moves.

    .venv/bin/python scripts/playout_reading.py PROBLEMS... [--knowledge builtin,K.txt] \
        [--playouts 200] [--seed 1] [--per-problem]

Prints a markdown table, one row per knowledge file: the problems read, the mean share
after the best of the book's answers and after the other moves, the mean rank score (the
fraction of the other moves an answer's share beats), and on how many problems an answer
has the highest share.  Bad input (an unreadable problem, an unknown knowledge file, a
bad number) gives one line on stderr and exit status 2.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.go_knowledge import KnowledgeError, load  # noqa: E402
from engine.tsumego.playout_reading import read_problems  # noqa: E402
from engine.tsumego.problem import ProblemError, load_problems  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problems", nargs="+", type=Path)
    ap.add_argument("--knowledge", default="builtin",
                    help="comma-separated knowledge files ('builtin': the shipped one)")
    ap.add_argument("--playouts", type=int, default=200, help="playouts after each move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--per-problem", action="store_true")
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
        results = {name: read_problems(problems, name, args.playouts, args.seed)
                   for name in files}
    except (OSError, KnowledgeError, ProblemError, ValueError) as exc:
        print(f"playout_reading.py: {exc}", file=sys.stderr)
        return 2
    print(f"{len(problems)} problems, {args.playouts} playouts a move, seed {args.seed}\n")
    print("| knowledge | problems | share after the answer | after the other moves "
          "| rank score | answer on top |\n|---|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        n = max(len(rows), 1)
        answer, other, rank = (sum(getattr(r, f) for r in rows) / n
                               for f in ("answer_share", "other_share", "rank_score"))
        top = sum(r.rank_score == 1.0 for r in rows)
        print(f"| {name} | {len(rows)} | {answer:.3f} | {other:.3f} | {rank:.3f} | {top} |")
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
