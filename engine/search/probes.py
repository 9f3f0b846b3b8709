"""What the research drivers measure searches on: a few 9x9 positions with what a strong
player would play there (``positions``), and the shape of a searched tree
(``tree_shape``).  Used by ``scripts/research/linuct_diagnostics.py`` and
``linuct_depth.py`` and by their tests."""

import numpy as np

from ..core.layout import BLACK
from ..game.board_text import parse
from ..game.coords import from_gtp
from ..game.go_state import GoState
from ..game.rules import GoRules
from .tree import FIRST, NCHILD, VISITS

SEMEAI = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
X X X X X X X X X
O O O O O O O O .
X X X X X X X X .
O O O O O O O O O
. . . . . . . . .
. . . . . . . . .
"""


def positions() -> dict[str, tuple[GoState, str]]:
    """name -> (position, what a strong player would play there)."""
    empty = GoState(GoRules(size=9, komi=7.5))
    opening = GoState(GoRules(size=9, komi=7.5))
    for move in "E5 C4 G4 D6 F7 C7".split():
        opening.play(from_gtp(move, 9))
    n, black, white = parse(SEMEAI)
    semeai = GoState(GoRules(size=n, komi=7.5))
    semeai.setup(black=black, white=white)
    semeai.to_play = BLACK
    return {"empty": (empty, "E5 or near it"), "opening": (opening, "a move near the stones"),
            "semeai": (semeai, "J5 (captures, wins the race)")}


def tree_shape(pool) -> tuple[int, float, float]:
    """(most visited line's length, visit-weighted mean depth below the root, the most
    visited root child's share of the root's children's visits)."""
    ti = pool.ti
    line, node = 0, 0
    while ti[NCHILD, node] > 0:
        kids = np.arange(ti[FIRST, node], ti[FIRST, node] + ti[NCHILD, node])
        visits = ti[VISITS, kids]
        if visits.max() == 0:
            break
        node = int(kids[np.argmax(visits)])
        line += 1
    weighted, total, stack = 0.0, 0, [(0, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 0:
            weighted += depth * ti[VISITS, node]
            total += ti[VISITS, node]
        first, n = ti[FIRST, node], ti[NCHILD, node]
        stack.extend((int(c), depth + 1) for c in range(first, first + max(n, 0))
                     if ti[VISITS, c] > 0)
    root = ti[VISITS, ti[FIRST, 0]:ti[FIRST, 0] + ti[NCHILD, 0]]
    share = float(root.max() / max(root.sum(), 1))
    return line, weighted / max(total, 1), share
