"""How well the playouts alone read a Go problem: after each candidate first move, the
share of plain playouts (no tree) that the side to move wins, judged by the problem's
fight (``solver.fight_result``), in the position a restricted harness run searches.

After a correct answer the mover wins with best play, after a wrong one it loses, so a
playout policy reads a problem well when the book's answers get a higher share than the
other moves.  Per problem (``Reading``): the best share among the book's answers, the
mean share of the other moves, and the answers' *rank score*: the fraction of the other
moves whose share is lower (ties count half), 1 when an answer leads them all.  A
search grows its tree on top of these values, so a policy change that lifts the rank
score is worth a sweep; one that lowers it is not.  A tree search measures more than
this and costs thousands of times as much: this is a quick check, not a solve rate.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.go_playout import heavy_par
from ..core.rng import stream_rng
from ..go_knowledge import load
from ..search.solver import fight_playouts
from .solve import fight_target, position, region_mask
from .stats import per_problem
from .sweep import ResultsFile


@dataclass(frozen=True)
class Reading:
    problem: str
    answer_share: float     # the best share of playouts won after one of the book's answers
    other_share: float      # the mean share after the other moves of the region
    rank_score: float       # the fraction of the other moves the best answer beats
    moves: int              # the region's legal moves, answers included


def move_shares(problem, knowledge: str, playouts: int, seed: int) -> dict[int, float]:
    """For each legal first move in the problem's region (pass left out): the share of
    ``playouts`` playouts that the side to move wins after it.  The random streams
    follow ``seed`` and the move, so a share repeats whatever else is measured."""
    state = position(problem)
    fight = fight_target(problem)
    if fight is None:
        raise ValueError(f"{problem.name}: not a Go problem with a fight to read")
    kn = load(knowledge)
    par = heavy_par(kn.playout)
    target = np.array(fight.points, dtype=np.int64)
    mover = state.to_play
    shares = {}
    for p in np.flatnonzero(region_mask(problem, state)):
        p = int(p)
        if not state.is_legal(p, mover):
            continue
        after = state.clone()
        after.play(p)
        won = fight_playouts(after.s, after.meta, after.zob, stream_rng(seed, p), target,
                             fight.attacker, playouts, kn.patterns, par)
        mover_won = won if mover == fight.attacker else playouts - won
        shares[p] = mover_won / playouts
    return shares


def read_problems(problems, knowledge: str, playouts: int, seed: int) -> list[Reading]:
    """The ``Reading`` of every problem whose answer is a move of its region."""
    readings = (reading(p, move_shares(p, knowledge, playouts, seed)) for p in problems)
    return [r for r in readings if r is not None]


@dataclass(frozen=True)
class Means:
    """A set of problems' ``Reading``s in sum: the mean shares and rank score, and on how
    many problems an answer beats every other move."""
    answer_share: float
    other_share: float
    rank_score: float
    on_top: int


def means(readings: list[Reading]) -> Means:
    n = max(len(readings), 1)
    answer, other, rank = (sum(getattr(r, f) for r in readings) / n
                           for f in ("answer_share", "other_share", "rank_score"))
    return Means(answer, other, rank, sum(r.rank_score == 1.0 for r in readings))


def reading(problem, shares: dict[int, float]) -> Reading | None:
    """The problem's ``Reading`` from its ``move_shares``; None when no answer of the
    book is among the moves (an answer outside the region, or a pass)."""
    answers = [shares[p] for p in problem.accept if p in shares]
    if not answers:
        return None
    best = max(answers)
    others = [v for p, v in shares.items() if p not in problem.accept]
    beaten = sum(1.0 if v < best else 0.5 if v == best else 0.0 for v in others)
    return Reading(problem.name, best, float(np.mean(others)) if others else 0.0,
                   beaten / len(others) if others else 1.0, len(shares))


def solved_runs(path: Path, series: str, budget: int) -> dict[str, int]:
    """Problem -> runs of ``series`` at ``budget`` that solved it, from a results file."""
    if not path.is_file():
        raise ValueError(f"{path}: no such results file")
    solved = {problem: cells[(series, budget)][0]
              for problem, cells in per_problem(ResultsFile(path).rows()).items()
              if (series, budget) in cells}
    if not solved:
        raise ValueError(f"{path}: no run of {series} at {budget} playouts")
    return solved
