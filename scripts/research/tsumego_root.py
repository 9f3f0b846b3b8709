"""One search of one tsumego problem, and its root laid out (``engine.tsumego.root``):
``--after`` plays moves first, to read how a move is answered, and ``--after-answer``
plays the book's first answer before them (the root is then the opponent's: its best
reply's win rate is what the search makes of the answer).

    .venv/bin/python scripts/research/tsumego_root.py PROBLEM.sgf --algo best --budget 50000 \
        [--seed N] [--after-answer] [--after F18 E18] [--top 5]

``--algo best`` is ``engine.tsumego.best``'s configuration; the seed is the searcher's
own (not the harness's seed index), so a run repeats with the same one.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine.tsumego.best import resolve  # noqa: E402
from engine.tsumego.problem import ProblemError, load_sgf_problem  # noqa: E402
from engine.tsumego.root import book_first_move, root_rows, table  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("problem", type=Path)
    ap.add_argument("--algo", default="best")
    ap.add_argument("--budget", type=int, default=50000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--after", nargs="*", default=[], help="moves played first (GTP vertices)")
    ap.add_argument("--after-answer", action="store_true",
                    help="play the book's first answer before --after's moves")
    ap.add_argument("--top", type=int, default=5)
    args = ap.parse_args(argv)
    if args.budget < 1 or args.top < 1:
        ap.error("--budget and --top must be positive")
    try:
        problem = load_sgf_problem(args.problem)
        if args.after_answer:
            args.after = [book_first_move(problem)] + args.after
        side, rows = root_rows(problem, resolve([args.algo])[0][0], args.budget, args.seed,
                               args.after, args.top)
    except (OSError, ProblemError, ValueError) as exc:
        print(f"tsumego_root.py: {exc}", file=sys.stderr)
        return 2
    played = f" after {' '.join(args.after)}" if args.after else ""
    print(f"{problem.name}{played}: {side} to play, {args.budget} playouts, seed {args.seed}")
    print("\n" + table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
