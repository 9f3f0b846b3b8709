"""One search of one tsumego problem, and its root laid out: the most visited moves, the
book's answers wherever they rank, each with its visits, win rate, proof and line.  The
position is the one a restricted harness run searches (the frame, the region at the root,
the fight); ``--after`` plays moves first, to read how a move is answered, and
``--after-answer`` plays the book's first answer before them (the root is then the
opponent's: its best reply's win rate is what the search makes of the answer).

    .venv/bin/python scripts/tsumego_root.py PROBLEM.sgf --algo best --budget 50000 \
        [--seed N] [--after-answer] [--after F18 E18] [--top 5]

``--algo best`` is ``engine.tsumego.best``'s configuration; the seed is the searcher's
own (not the harness's seed index), so a run repeats with the same one.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game.coords import from_gtp, to_gtp  # noqa: E402
from engine.search.base import Budget  # noqa: E402
from engine.tsumego.best import resolve  # noqa: E402
from engine.tsumego.problem import ProblemError, load_sgf_problem  # noqa: E402
from engine.tsumego.solve import fight_target, position, region_mask, searcher  # noqa: E402

PROOF = {1: "won", -1: "lost", 0: ""}


def root_rows(problem, spec: str, budget: int, seed: int, after=(), top: int = 5):
    """(the side to move, rows (rank, vertex, visits, win rate, proof, book answer, line))
    of the search's root: the ``top`` most visited moves and the book's answers."""
    state = position(problem)
    n = state.size
    for vertex in after:
        p = from_gtp(vertex, n)
        if not state.is_legal(p, state.to_play):
            raise ValueError(f"--after {vertex}: not a legal move there")
        state.play(p)
    result = searcher(spec, seed).search(state, Budget(playouts=budget),
                                         allowed=region_mask(problem, state),
                                         target=fight_target(problem))
    ranked = sorted(result.candidates, key=lambda c: -c.visits)
    book = problem.accept if not after else frozenset()
    rows = [(rank, to_gtp(c.move, n), c.visits, c.winrate, PROOF[c.proven], c.move in book,
             " ".join(to_gtp(m, n) for m in c.pv[:10]))
            for rank, c in enumerate(ranked, 1) if rank <= top or c.move in book]
    return "BW"[state.to_play - 1], rows


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
            moves = sorted(p for p in problem.accept if p >= 0)
            if not moves:
                raise ValueError(f"{args.problem}: the book gives no move to play")
            args.after = [to_gtp(moves[0], problem.size)] + args.after
        side, rows = root_rows(problem, resolve([args.algo])[0][0], args.budget, args.seed,
                               args.after, args.top)
    except (OSError, ProblemError, ValueError) as exc:
        print(f"tsumego_root.py: {exc}", file=sys.stderr)
        return 2
    played = f" after {' '.join(args.after)}" if args.after else ""
    print(f"{problem.name}{played}: {side} to play, {args.budget} playouts, seed {args.seed}")
    print("\n| rank | move | visits | win rate | proof | book | line |\n"
          "|---:|---|---:|---:|---|---|---|")
    for rank, move, visits, win, proof, answer, line in rows:
        print(f"| {rank} | {move} | {visits} | {win:.3f} | {proof} | "
              f"{'answer' if answer else ''} | {line} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
