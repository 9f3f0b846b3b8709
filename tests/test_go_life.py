"""Unconditional life (``engine.core.go_life``, Benson's algorithm) against a plain
set-based reference written here, on hand-made positions and on random ones."""

import numpy as np
import pytest

from engine.core.layout import BLACK, WHITE
from engine.game.coords import point
from engine.game.go_state import GoState
from engine.game.rules import GoRules

TWO_EYES = """
. X . X O .
X X X X O .
O O O O O .
. . . . . .
. . . . . .
. . . . . .
"""
ONE_EYE = """
. X X X O .
X X X X O .
O O O O O .
. . . . . .
. . . . . .
. . . . . .
"""
# two eyes, one of them holding a white stone whose every empty neighbour is a black
# liberty: still vital, so black lives unconditionally
EYE_WITH_INVADER = """
. X . . X O .
X X . O X O .
X X X X X O .
O O O O O O .
. . . . . . .
. . . . . . .
. . . . . . .
"""
# seki: neither side is alive unconditionally
SEKI = """
X O . O X . .
X O O O X . .
X X X X X . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def reference_alive(state: GoState, color: int) -> set:
    """Benson's algorithm the slow, obvious way: sets of points."""
    n = state.size
    pts = [(r, c) for r in range(n) for c in range(n)]
    grid = state.board()

    def nbrs(p):
        r, c = p
        return [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= r + dr < n and 0 <= c + dc < n]

    def components(members):
        left, out = set(members), []
        while left:
            todo, comp = [left.pop()], set()
            while todo:
                p = todo.pop()
                comp.add(p)
                for q in nbrs(p):
                    if q in left:
                        left.remove(q)
                        todo.append(q)
            out.append(frozenset(comp))
        return out

    chains = components([p for p in pts if grid[p] == color])
    regions = components([p for p in pts if grid[p] != color])
    libs = {c: {q for p in c for q in nbrs(p) if grid[q] == 0} for c in chains}
    touch = {g: {c for c in chains if any(q in c for p in g for q in nbrs(p))}
             for g in regions}
    alive, standing = set(chains), set(regions)
    while True:
        before = (len(alive), len(standing))
        alive = {c for c in alive
                 if sum(1 for g in standing if c in touch[g]
                        and all(p in libs[c] for p in g if grid[p] == 0)) >= 2}
        standing = {g for g in standing if touch[g] <= alive}
        if (len(alive), len(standing)) == before:
            break
    return {point(r, c, n) for chain in alive for (r, c) in chain}


def alive_stones(state, color) -> set:
    return set(np.flatnonzero(state.pass_alive(color) == 1).tolist())


@pytest.mark.parametrize("picture, black_lives", [(TWO_EYES, True), (ONE_EYE, False),
                                                  (EYE_WITH_INVADER, True), (SEKI, False)])
def test_hand_made_positions(go_board, picture, black_lives):
    state = go_board(picture)
    black = set(np.flatnonzero(state.s[0] == BLACK).tolist())
    got = alive_stones(state, BLACK)
    assert got == (black if black_lives else set())
    assert got == reference_alive(state, BLACK)
    assert alive_stones(state, WHITE) == reference_alive(state, WHITE)


def test_the_regions_of_a_living_group_are_its_for_good(go_board):
    state = go_board(TWO_EYES)
    marks = state.pass_alive(BLACK)
    n = state.size
    assert marks[point(0, 0, n)] == 2 and marks[point(0, 2, n)] == 2
    assert marks[point(3, 3, n)] == 0     # the open area could still hold a white group


def test_an_empty_board_has_no_living_chain():
    assert not GoState(GoRules(size=5)).pass_alive(BLACK).any()


@pytest.mark.parametrize("size", [5, 7, 9])
def test_random_positions_match_the_reference(size):
    """Late positions of random games (many eyes, many small regions)."""
    np_rng = np.random.default_rng(size)
    checked = 0
    for _ in range(30):
        state = GoState(GoRules(size=size, superko=False))
        for _ in range(int(np_rng.integers(size * size // 2, 3 * size * size))):
            legal = [p for p in state.legal_moves() if not state.is_eye(int(p), state.to_play)]
            if not legal:
                state.play(-1)
                continue
            state.play(int(legal[int(np_rng.integers(len(legal)))]))
        for color in (BLACK, WHITE):
            assert alive_stones(state, color) == reference_alive(state, color)
            checked += 1
    assert checked == 60
