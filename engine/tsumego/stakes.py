"""What a Go problem is about when it does not say: which side must kill (the attacker)
and which stones are at stake (the fight's target).

Published problems ("Black to play", a region, the correct first moves) name neither.
The group at stake is the one shut in: the defender's stones sit in the corner or on the
side, walled off from the open part of the board by the attacker's stones, while stones
of either colour that reach the open part are outside the fight (the attacker's wall,
the defender's own outside stones).

``reach(board, box, colour)``: how many steps each stone of ``colour`` in the region's
box is from an *open side* of the box (a side that is not the board's edge), going
through its own stones and empty points, where an empty point next to an opponent stone
blocks the way (a one-point gap in a wall is no way out: the opponent closes it).  A
stone that cannot get there is *shut in*.

``stakes``: the attacker is the goal's when the problem gives one; else the colour with
fewer stones shut in (the other colour is the one walled off), and when both have as
many (none at all, mostly: a wall that leaks) the guess of ``attacker_of`` from the
stones' depth.  The target is every defender chain but those ``OUTSIDE`` steps or fewer
from an open side, which are the defender's outside stones -- unless such a chain has
``WEAK`` liberties or fewer: a cutting stone in atari is what the fight is about.  When
that leaves nothing, every defender stone is the target.
"""

from collections import deque

import numpy as np

from ..core.layout import BLACK, EMPTY, WHITE
from ..game.coords import point
from ..game.state import opponent

_NEIGHBOURS4 = ((-1, 0), (1, 0), (0, -1), (0, 1))
OUTSIDE = 2     # a defender chain this few steps from an open side is outside the fight,
WEAK = 2        # unless it has this few liberties: then it is itself in danger


def open_sides(n: int, box) -> np.ndarray:
    """Mask of the box's points on a side that is not the board's edge."""
    top, bottom, left, right = box
    side = np.zeros((n, n), dtype=bool)
    if top > 0:
        side[top, left:right + 1] = True
    if bottom < n - 1:
        side[bottom, left:right + 1] = True
    if left > 0:
        side[top:bottom + 1, left] = True
    if right < n - 1:
        side[top:bottom + 1, right] = True
    return side


def reach(board: np.ndarray, box, colour: int) -> np.ndarray:
    """Steps from an open side of the box (0 on it) for ``colour``'s stones and the points
    it may pass (module docstring), -1 where it cannot get: the points of the box it
    cannot reach, and everything off the box.  A box with no open side is reached nowhere:
    there is no outside."""
    n = board.shape[0]
    top, bottom, left, right = box
    inside = np.zeros((n, n), dtype=bool)
    inside[top:bottom + 1, left:right + 1] = True
    touched = np.zeros((n, n), dtype=bool)      # points next to an opponent stone
    for r, c in np.argwhere(board == opponent(colour)):
        for dr, dc in _NEIGHBOURS4:
            if 0 <= r + dr < n and 0 <= c + dc < n:
                touched[r + dr, c + dc] = True
    passable = inside & ((board == colour) | ((board == EMPTY) & ~touched))
    steps = np.full((n, n), -1, dtype=np.int32)
    starts = np.argwhere(passable & open_sides(n, box))
    steps[tuple(starts.T)] = 0
    queue = deque(map(tuple, starts))
    while queue:
        r, c = queue.popleft()
        for dr, dc in _NEIGHBOURS4:
            q = (r + dr, c + dc)
            if 0 <= q[0] < n and 0 <= q[1] < n and passable[q] and steps[q] < 0:
                steps[q] = steps[r, c] + 1
                queue.append(q)
    return steps


def attacker_of(goal: str | None, to_play: int, board: np.ndarray) -> int:
    """The killing side: from the goal of the side to move, else guessed from the stones."""
    if goal == "kill":
        return to_play
    if goal == "live":
        return opponent(to_play)
    n = board.shape[0]
    rows, cols = np.indices(board.shape)
    edge = np.minimum(np.minimum(rows, cols), np.minimum(n - 1 - rows, n - 1 - cols))
    depth = {c: edge[board == c].mean() if (board == c).any() else -1.0
             for c in (BLACK, WHITE)}
    if depth[BLACK] == depth[WHITE]:
        return opponent(to_play)
    return BLACK if depth[BLACK] > depth[WHITE] else WHITE


def _chains(board: np.ndarray, colour: int) -> list[list[tuple[int, int]]]:
    n = board.shape[0]
    seen = np.zeros((n, n), dtype=bool)
    chains = []
    for start in map(tuple, np.argwhere(board == colour)):
        if seen[start]:
            continue
        seen[start] = True
        chain, queue = [], deque([start])
        while queue:
            r, c = queue.popleft()
            chain.append((r, c))
            for dr, dc in _NEIGHBOURS4:
                q = (r + dr, c + dc)
                if 0 <= q[0] < n and 0 <= q[1] < n and board[q] == colour and not seen[q]:
                    seen[q] = True
                    queue.append(q)
        chains.append(chain)
    return chains


def _liberties(board: np.ndarray, chain) -> int:
    n = board.shape[0]
    return len({(r + dr, c + dc) for r, c in chain for dr, dc in _NEIGHBOURS4
                if 0 <= r + dr < n and 0 <= c + dc < n and board[r + dr, c + dc] == EMPTY})


def stakes(board: np.ndarray, box, to_play: int, goal: str | None = None):
    """(attacker, target points) of the problem on ``board`` with region ``box`` (module
    docstring); the points are padded indices of the defender's stones at stake."""
    n = board.shape[0]
    steps = {c: reach(board, box, c) for c in (BLACK, WHITE)}
    shut = {c: int(((board == c) & (steps[c] < 0)).sum()) for c in (BLACK, WHITE)}
    if goal is not None or shut[BLACK] == shut[WHITE]:
        attacker = attacker_of(goal, to_play, board)
    else:
        attacker = BLACK if shut[BLACK] < shut[WHITE] else WHITE
    defender = opponent(attacker)
    far = [chain for chain in _chains(board, defender)
           if _liberties(board, chain) <= WEAK
           or all(not 0 <= steps[defender][q] <= OUTSIDE for q in chain)]
    chosen = far or _chains(board, defender)
    return attacker, tuple(sorted(point(int(r), int(c), n) for chain in chosen
                                  for r, c in chain))
