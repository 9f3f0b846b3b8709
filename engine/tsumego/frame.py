"""The tsumego frame: fill the board around a local Go problem so that the local fight,
and nothing else, decides who wins the game (the idea of the frames GNU Go's and KataGo's
users put around problems).  A whole-board search then reads the problem: every legal move
outside the region is pointless, and the win rate of a move is its local result.

Method (``tsumego_frame``):

1. Region R: a rectangle -- the bounding box of VW when the problem gives one, else of
   the problem's stones grown by ``margin`` points -- always grown to hold every problem
   stone and its four neighbours, and clipped to the board.  Nothing inside R changes.
2. Attacker A: the side that must kill.  The problem's goal says it (``kill``: the side to
   move; ``live``: its opponent); without one it is guessed from the stones
   (``stakes.stakes``: the colour that R's walls shut in defends).  D is the other colour.
3. The outside of R is split by Chebyshev distance from R: up to depth ``t`` it is A's
   (its inner ring is the wall that closes R), beyond it D's.  Each part is one solid
   chain with two single-point holes whose on-board eight neighbours are all its own
   stones: two true eyes, so by Benson's criterion both chains are unconditionally
   alive, a stone in the other side's hole is suicide, and neither side fills its own
   true eye (the playouts and the tree never do).  D's part never touches R.  ``t`` is
   the depth that best balances the two sides' areas among those where both parts can
   be built; when no part of D's fits, A takes the whole outside; when not even that
   fits (R covers nearly the whole board) there is no frame (``Frame.framed`` is False).
4. Komi: A wins by half a point exactly when A owns every point of R at the end, so
   the defender keeping anything there -- a living group, a seki -- wins the game:
   komi from A's side = |A's part| + |R| - |D's part| - 1/2.

The frame gives neither side ko threats, so a ko is won by whoever need not find the
first threat; the frame also seals R, so a group that would escape through its border
runs into A's wall.  Problems are written with this in mind (``problems/README.md``).
"""

from collections import deque
from dataclasses import dataclass

import numpy as np

from ..game.coords import point
from ..core.layout import BLACK, EMPTY, WHITE
from ..game.state import opponent
from ..game.go_state import GoState
from ..game.rules import GoRules
from .stakes import stakes

MARGIN = 1          # empty points kept around the problem's stones when there is no VW
HOLES = 2           # eyes per outside chain: two make it unconditionally alive
_NEIGHBOURS4 = ((-1, 0), (1, 0), (0, -1), (0, 1))
_NEIGHBOURS8 = _NEIGHBOURS4 + ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass
class Frame:
    state: GoState          # the framed position (a new state; the problem's is untouched)
    region: frozenset       # the padded points of R
    attacker: int
    framed: bool            # False: no room for a frame, ``state`` is a copy of the problem
    komi: float             # the framed state's komi (black's view)


def region_box(board: np.ndarray, region=None, margin: int = MARGIN) -> tuple[int, ...]:
    """R as (top, bottom, left, right), inclusive rows and columns."""
    n = board.shape[0]
    stones = np.argwhere(board != EMPTY)
    if region:
        given = np.array([divmod(p, n + 2) for p in region]) - 1
        lo, hi = given.min(axis=0), given.max(axis=0)
        if len(stones):   # the stones and their neighbours always belong to R
            lo = np.minimum(lo, stones.min(axis=0) - 1)
            hi = np.maximum(hi, stones.max(axis=0) + 1)
    elif len(stones):
        lo, hi = stones.min(axis=0) - max(margin, 1), stones.max(axis=0) + max(margin, 1)
    else:
        lo, hi = np.array([0, 0]), np.array([n - 1, n - 1])
    lo, hi = np.maximum(lo, 0), np.minimum(hi, n - 1)
    return int(lo[0]), int(hi[0]), int(lo[1]), int(hi[1])


def _box_points(n: int, box) -> frozenset:
    top, bottom, left, right = box
    return frozenset(point(r, c, n) for r in range(top, bottom + 1)
                     for c in range(left, right + 1))


def problem_region(problem, margin: int = MARGIN) -> frozenset:
    """The padded points of R for a problem of either game, from its VW and its stones
    alone: the region its frame keeps, and the one a restricted search answers in."""
    board = problem.state.board()
    return _box_points(board.shape[0], region_box(board, problem.region, margin))


def _distance(n: int, box) -> np.ndarray:
    """Chebyshev distance of every point to the rectangle (0 inside)."""
    top, bottom, left, right = box
    rows, cols = np.indices((n, n))
    dr = np.maximum(np.maximum(top - rows, rows - bottom), 0)
    dc = np.maximum(np.maximum(left - cols, cols - right), 0)
    return np.maximum(dr, dc)


def _connected(mask: np.ndarray) -> bool:
    cells = np.argwhere(mask)
    if len(cells) == 0:
        return False
    n = mask.shape[0]
    seen = np.zeros_like(mask)
    start = tuple(cells[0])
    seen[start] = True
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for dr, dc in _NEIGHBOURS4:
            q = (r + dr, c + dc)
            if 0 <= q[0] < n and 0 <= q[1] < n and mask[q] and not seen[q]:
                seen[q] = True
                queue.append(q)
    return int(seen.sum()) == len(cells)


def _holes(zone: np.ndarray, order: np.ndarray) -> list | None:
    """HOLES points of ``zone`` whose on-board eight neighbours are all zone stones and
    whose removal keeps the rest one chain, tried in ``order``; None if they do not fit."""
    if not _connected(zone):
        return None
    n = zone.shape[0]
    stones = zone.copy()
    chosen = []
    for r, c in order:
        if not stones[r, c]:
            continue
        around = [(r + dr, c + dc) for dr, dc in _NEIGHBOURS8
                  if 0 <= r + dr < n and 0 <= c + dc < n]
        if not all(stones[q] for q in around):
            continue
        stones[r, c] = False
        if _connected(stones):
            chosen.append((r, c))
            if len(chosen) == HOLES:
                return chosen
        else:
            stones[r, c] = True
    return None


def _split(n: int, dist: np.ndarray):
    """The best (A's part, A's holes, D's part, D's holes) over the wall depths, or None."""
    outside = dist > 0
    # holes far from R first: the eyes stay out of the way of the fight
    cells = np.argwhere(outside)
    order = cells[np.lexsort((cells[:, 1], cells[:, 0], -dist[outside]))]
    r_area = int((~outside).sum())
    best, best_gap = None, None
    for depth in range(1, int(dist.max()) + 1):
        a_zone, d_zone = outside & (dist <= depth), dist > depth
        a_holes = _holes(a_zone, order)
        if a_holes is None:
            continue
        if d_zone.any():
            d_holes = _holes(d_zone, order)
            if d_holes is None:
                continue
        else:
            d_holes = []
        gap = abs(int(a_zone.sum()) + r_area - int(d_zone.sum()))
        if best_gap is None or gap < best_gap:
            best, best_gap = (a_zone, a_holes, d_zone, d_holes), gap
    return best


def tsumego_frame(state: GoState, region=None, attacker: int | None = None,
                  goal: str | None = None, margin: int = MARGIN) -> Frame:
    """Frame the position of ``state`` (see the module docstring).  ``region``: padded
    points of interest (VW) or None; ``attacker`` overrides what ``goal`` and the guess say.
    """
    n = state.size
    board = state.board()
    box = region_box(board, region, margin)
    dist = _distance(n, box)
    r_points = _box_points(n, box)
    if attacker is None:
        attacker = stakes(board, box, state.to_play, goal)[0]
    split = _split(n, dist)
    if split is None:
        copy = state.clone()
        return Frame(state=copy, region=r_points, attacker=attacker, framed=False,
                     komi=copy.komi)
    a_zone, a_holes, d_zone, d_holes = split
    for r, c in a_holes:
        a_zone[r, c] = False
    for r, c in d_holes:
        d_zone[r, c] = False
    a_area = int(a_zone.sum()) + len(a_holes)
    d_area = int(d_zone.sum()) + len(d_holes)
    komi_a = a_area + len(r_points) - d_area - 0.5
    komi = komi_a if attacker == BLACK else -komi_a
    stones = {BLACK: [], WHITE: []}
    for colour in (BLACK, WHITE):
        stones[colour] += [point(int(r), int(c), n) for r, c in np.argwhere(board == colour)]
    stones[attacker] += [point(int(r), int(c), n) for r, c in np.argwhere(a_zone)]
    stones[opponent(attacker)] += [point(int(r), int(c), n) for r, c in np.argwhere(d_zone)]
    rules = GoRules(size=n, komi=komi, superko=state.rules.superko,
                    suicide=state.rules.suicide)
    framed = GoState(rules)
    framed.setup(black=stones[BLACK], white=stones[WHITE])
    framed.to_play = state.to_play
    return Frame(state=framed, region=r_points, attacker=attacker, framed=True, komi=komi)


def frame_problem(problem, margin: int = MARGIN) -> Frame:
    """The frame of a Go ``Problem`` (its VW region and goal)."""
    return tsumego_frame(problem.state, problem.region, goal=problem.goal, margin=margin)
