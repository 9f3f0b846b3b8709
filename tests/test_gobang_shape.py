"""Gobang shape scores (``engine.core.gobang_shape``) against a plain-Python recount of the
five-cell windows on random boards, and the shape priors that rank a node's children
(``engine.search.shape_priors``)."""

import numpy as np

from engine.core import gobang_shape as gs
from engine.core.layout import BLACK, BOARD, EMPTY, GOBANG_FREESTYLE, M_TO_PLAY, WHITE
from engine.game.coords import point
from engine.search.shape_priors import HIGH, LOW, apply_shape_priors
from engine.search.tree import FIRST, MOVE, NCHILD, PRIOR_N, PRIOR_W
from test_gobang_threats import LINES, grid_of, position, random_position

N = 9


def windows(n):
    """Every five-cell window of the n x n board, as a list of (row, col) cells."""
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in LINES:
                cells = [(r + j * dr, c + j * dc) for j in range(5)]
                if all(0 <= rr < n and 0 <= cc < n for rr, cc in cells):
                    out.append(cells)
    return out


def recount(grid, r, c, color):
    """The oracle: ATTACK by ``color``'s stones, DEFEND by the other's, over the live
    windows through (r, c)."""
    total = 0.0
    for cells in windows(len(grid)):
        if (r, c) not in cells:
            continue
        stones = [grid[rr][cc] for rr, cc in cells]
        for who, table in ((color, gs.ATTACK), (3 - color, gs.DEFEND)):
            if 3 - who not in stones:
                total += table[stones.count(who)]
    return total


def value_recount(grid, to_move):
    total = 0.0
    for cells in windows(len(grid)):
        stones = [grid[rr][cc] for rr, cc in cells]
        for who in (to_move, 3 - to_move):
            k = stones.count(who)
            if k >= 1 and 3 - who not in stones:
                total += gs.ATTACK[k] * (gs.TEMPO if who == to_move else -1.0)
    return total


def test_point_scores_and_board_value_match_a_recount_on_random_boards():
    rng = np.random.default_rng(7)
    for trial in range(30):
        s, meta, _ = random_position(rng, N, GOBANG_FREESTYLE, int(rng.integers(0, 30)))
        grid = grid_of(s, N)
        color = int(meta[M_TO_PLAY])
        moves = np.array([point(r, c, N) for r in range(N) for c in range(N)
                          if grid[r][c] == EMPTY], dtype=np.int32)
        out = np.zeros(len(moves))
        gs.move_scores(s, meta, moves, len(moves), out)
        for p, got in zip(moves, out):
            r, c = divmod(int(p), N + 2)
            assert got == recount(grid, r - 1, c - 1, color)
        assert gs.board_value(s, meta) == value_recount(grid, color)


def test_a_four_outscores_an_open_three_which_outscores_a_quiet_move():
    # black: three in a row on the middle line, white elsewhere
    black = [point(4, c, N) for c in (3, 4, 5)]
    white = [point(0, 0, N), point(8, 8, N), point(0, 8, N)]
    s, meta, _ = position(N, GOBANG_FREESTYLE, black, white, BLACK)
    moves = np.array([point(4, 6, N), point(4, 7, N), point(7, 1, N)], dtype=np.int32)
    out = np.zeros(3)
    gs.move_scores(s, meta, moves, 3, out)
    assert out[0] > out[1] > out[2]
    # white to move: the block next to the three beats the quiet point too
    meta[M_TO_PLAY] = WHITE
    gs.move_scores(s, meta, moves, 3, out)
    assert out[0] > out[2]


def test_shape_priors_give_the_best_move_the_high_mean_and_keep_the_order():
    black = [point(4, c, N) for c in (3, 4, 5)]
    s, meta, _ = position(N, GOBANG_FREESTYLE, black, [point(0, 0, N), point(8, 8, N)],
                          WHITE)
    moves = [point(4, 6, N), point(7, 1, N), point(4, 2, N)]
    ti = np.zeros((8, 4), dtype=np.int32)
    tf = np.zeros((4, 4))
    ti[FIRST, 0], ti[NCHILD, 0] = 1, 3
    ti[MOVE, 1:4] = moves
    apply_shape_priors(ti, tf, 0, s, meta, 10.0, np.zeros(s.shape[1]))
    means = tf[PRIOR_W, 1:4] / ti[PRIOR_N, 1:4]
    assert list(ti[PRIOR_N, 1:4]) == [10, 10, 10]
    assert max(means) == HIGH and min(means) >= LOW
    assert means[0] > means[1] and means[2] > means[1]   # the blocks before the quiet move
    assert s[BOARD, moves[0]] == EMPTY   # the board is read, not changed


def test_the_shape_playout_takes_a_five_blocks_one_and_stops_at_its_depth():
    from engine.core.layout import M_MOVES, M_WINNER, new_arrays, zobrist_table
    from engine.core.rng import make_rng
    none = np.zeros(0, dtype=np.int8)
    # black to move with four in a row: the playout's first move is the five
    black = [point(4, c, N) for c in (2, 3, 4, 5)]
    white = [point(0, 0, N), point(8, 8, N), point(0, 8, N)]
    s, meta, zob = position(N, GOBANG_FREESTYLE, black, white, BLACK)
    gs.shape_playout(s, meta, zob, make_rng(1), none, 1.0, 12)
    assert meta[M_WINNER] == BLACK and meta[M_MOVES] == 8
    # white to move: it blocks, and black (no five left) does not win at once
    s, meta, zob = position(N, GOBANG_FREESTYLE, black[:3] + [point(4, 6, N)],
                            white, WHITE)
    gs.shape_playout(s, meta, zob, make_rng(1), none, 1.0, 1)
    assert s[BOARD, point(4, 5, N)] == WHITE and meta[M_WINNER] == 0
    # the same seed plays the same moves; an empty board starts at the centre
    boards = []
    for _ in range(2):
        s, meta = new_arrays(N)
        from engine.core import gobang_kernels as gbk
        gbk.clear_board(s, meta, N, GOBANG_FREESTYLE)
        amaf = np.zeros(s.shape[1], dtype=np.int32)
        played = gs.shape_playout(s, meta, zobrist_table(N), make_rng(5), amaf, 1.0, 6)
        assert played == 6 and amaf[point(4, 4, N)] == BLACK + 4 * 0   # black, at ply 0
        boards.append(s[BOARD].copy())
    assert (boards[0] == boards[1]).all()
    winner, _ = gs.shape_playout_winner(s, meta, zobrist_table(N), make_rng(5), none,
                                        gs.SHAPE)
    assert winner in (BLACK, WHITE)
