"""A move chosen in milliseconds without a search, for when there is no time to search:
``INFO timeout_turn 0`` ("play as fast as possible"), a budget the safety margin leaves
nothing of, and the deadline guard's fallback (``engine.pbrain.thinker``).

A move that wins at once; else one that stops the opponent winning at once; else
``engine.search.deadline.quick_move`` (the empty point next to the most stones, the centre
on an empty board).  Wins are judged by the position's own rules (``GobangState.play``),
so exactly-five and any variant the state knows are respected; only the points near
stones are tried.
"""

from ..core.layout import BOARD, EMPTY
from ..game.state import opponent
from ..search import deadline

NEAR = 2     # a five through a new stone has a stone of its own within this distance


def _near_stones(state) -> list[int]:
    board = state.s[BOARD]
    w = state.size + 2
    steps = [dr * w + dc for dr in range(-NEAR, NEAR + 1) for dc in range(-NEAR, NEAR + 1)
             if dr or dc]
    empty = [p for p in range(board.size) if board[p] == EMPTY]
    return [p for p in empty
            if any(0 <= p + d < board.size and board[p + d] in (1, 2) for d in steps)]


def _wins(state, p: int, colour: int) -> bool:
    if not state.is_legal(p, colour):
        return False
    state.play(p, colour)
    won = state.winner() == colour
    state.undo()
    return won


def quick_move(state, seed: int = 0) -> int:
    """A legal point for the side to move (padded index); the position is unchanged."""
    me = state.to_play
    near = _near_stones(state)
    for colour in (me, opponent(me)):
        for p in near:
            if _wins(state, p, colour) and state.is_legal(p, me):
                return p
    return deadline.quick_move(state, me, seed)
