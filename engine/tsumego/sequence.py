"""Whole-sequence checking: the engine plays a problem out against the file's answer tree
(``Problem.lines``) and is right only if every line ends where the file says it is right.

The walk, from the problem's position (framed as for a first-move run):

* the problem's side to move (the solver's side) searches the position afresh, with the
  same back end, budget, fight and region as the first move; its move must be one of the
  file's variations there that are marked right (RIGHT in their subtree), and the line
  goes on below it -- any other move ends the line as a miss;
* at the other side's turn every variation marked right in the file is played, each a
  line of its own (the file's defences, all of which the answer must beat);
* a line whose file variation ends is right (it got there along right moves).

A problem whose file has first moves only is one line: the first-move check.  A row of a
``--sequence`` run holds the first search's move, status and PV as usual, ``lines`` as
``RIGHT/ALL`` (lines ended right, lines played), and is ``correct`` only when every line
is.  The searches of a line are seeded from the run's seed and the moves so far, so a
row can be reproduced like any other.
"""

from ..game.coords import from_gtp
from .solve import (fight_target, job_seed, position, region_mask, search_in_steps,
                    searcher, solve)


def walk(state, lines, choose, played=()) -> tuple[int, int]:
    """(lines right, lines played) below ``state``, the solver's side to move with the
    file's variations ``lines`` there; ``choose(state, played)`` is the solver's move
    after the moves ``played`` from the problem's position."""
    if not lines:
        return 1, 1
    move = choose(state, played)
    chosen = next((below for m, right, below in lines if m == move and right), None)
    if chosen is None:
        return 0, 1
    after = state.clone()
    after.play(move)
    replies = [(m, below) for m, right, below in chosen if right]
    if not replies:
        return 1, 1
    good = total = 0
    for reply, below in replies:
        then = after.clone()
        then.play(reply)
        g, t = walk(then, below, choose, played + (move, reply))
        good, total = good + g, total + t
    return good, total


def line_seed(seed: int, played) -> int:
    """The seed of the search after the moves ``played``: the run's seed and the line
    (stable across runs and machines)."""
    h = seed
    for m in played:
        h = (h * 1_000_003 + int(m) + 7) % (1 << 62)
    return h


def solve_sequence(problem, algo: str, budget: int, seed_index: int,
                   options: dict | None = None, use_frame: bool = True, state=None,
                   restrict: bool = False, mask=None):
    """The first-move run of ``solve.solve``, then the walk of the module docstring below
    its move; returns its ``Outcome`` with ``lines`` set and ``correct`` = every line
    right."""
    state = position(problem, use_frame) if state is None else state
    allowed = (region_mask(problem, state) if mask is None else mask) if restrict else None
    first = solve(problem, algo, budget, seed_index, options, use_frame, state, restrict,
                  allowed)
    target = fight_target(problem)
    seed = job_seed(problem.name, algo, budget, seed_index)

    def choose(now, played):
        if not played:
            return from_gtp(first.move, state.size)
        search = searcher(algo, line_seed(seed, played), options)
        return search_in_steps(search, now, budget, allowed, target)[0].move

    good, total = walk(state, problem.lines, choose)
    first.lines = f"{good}/{total}"
    first.correct = good == total
    return first
