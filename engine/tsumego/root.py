"""One search of one tsumego problem with its root laid out: the most visited moves and
the book's answers wherever they rank, each with its visits, win rate, proof and line.
The position is the one a restricted harness run searches (the frame, the region at the
root, the fight); moves played first (``after``) read how a move is answered.  The
research driver ``scripts/research/tsumego_root.py`` prints it."""

from ..game.coords import from_gtp, to_gtp
from ..search.base import Budget
from .solve import fight_target, position, region_mask, searcher

PROOF = {1: "won", -1: "lost", 0: ""}
TABLE_HEAD = ("| rank | move | visits | win rate | proof | book | line |\n"
              "|---:|---|---:|---:|---|---|---|")


def book_first_move(problem) -> str:
    """The book's first answer as a GTP vertex; ValueError when it gives none."""
    moves = sorted(p for p in problem.accept if p >= 0)
    if not moves:
        raise ValueError(f"{problem.name}: the book gives no move to play")
    return to_gtp(moves[0], problem.size)


def root_rows(problem, spec: str, budget: int, seed: int, after=(), top: int = 5):
    """(the side to move, rows (rank, vertex, visits, win rate, proof, book answer, line))
    of the search's root: the ``top`` most visited moves and the book's answers (these
    only when no move was played first: they are the first mover's)."""
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


def table(rows) -> str:
    """The rows as a markdown table."""
    lines = [TABLE_HEAD]
    for rank, move, visits, win, proof, answer, line in rows:
        lines.append(f"| {rank} | {move} | {visits} | {win:.3f} | {proof} | "
                     f"{'answer' if answer else ''} | {line} |")
    return "\n".join(lines)
