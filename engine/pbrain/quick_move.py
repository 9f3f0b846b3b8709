"""A move chosen in milliseconds without a search, for when there is no time to search:
``INFO timeout_turn 0`` ("play as fast as possible") and the deadline guard of
``engine.pbrain.thinker`` (a search that cannot answer in time, say while numba still
compiles on a cold cache).

Order: a move that wins at once; else one that stops the opponent winning at once; else
the empty point with the most stones around it (within two points, nearer ones counting
more), ties to the point nearest the centre; the centre on an empty board.  Wins are
judged by the position's own rules (``GobangState.play``), so exactly-five and any variant
the state knows are respected.
"""

import numpy as np

from ..game.coords import point
from ..game.state import opponent

NEAR_WEIGHTS = np.array([[1, 1, 1, 1, 1],
                         [1, 3, 3, 3, 1],
                         [1, 3, 0, 3, 1],
                         [1, 3, 3, 3, 1],
                         [1, 1, 1, 1, 1]])


def _winning_points(state, candidates, colour) -> list[int]:
    wins = []
    for p in candidates:
        if not state.is_legal(p, colour):
            continue
        state.play(p, colour)
        if state.winner() == colour:
            wins.append(p)
        state.undo()
    return wins


def _crowding(board: np.ndarray) -> np.ndarray:
    """For every point, the weighted count of stones within two points."""
    n = board.shape[0]
    stones = np.pad((board != 0).astype(np.int64), 2)
    score = np.zeros((n, n), dtype=np.int64)
    for dy in range(5):
        for dx in range(5):
            score += NEAR_WEIGHTS[dy, dx] * stones[dy:dy + n, dx:dx + n]
    return score


def quick_move(state) -> int:
    """A legal point for the side to move (padded index); the position is unchanged."""
    n = state.size
    board = state.board()
    crowd = _crowding(board)
    empty = [(r, c) for r in range(n) for c in range(n) if board[r, c] == 0]
    near = [point(r, c, n) for r, c in empty if crowd[r, c] > 0]
    me = state.to_play
    for colour in (me, opponent(me)):
        found = _winning_points(state, near, colour)
        legal = [p for p in found if state.is_legal(p, me)]
        if legal:
            return legal[0]
    centre = (n - 1) / 2
    ranked = sorted(empty, key=lambda rc: (-crowd[rc], abs(rc[0] - centre)
                                           + abs(rc[1] - centre), rc))
    for r, c in ranked:
        p = point(r, c, n)
        if state.is_legal(p, me):
            return p
    raise ValueError("no legal move")
