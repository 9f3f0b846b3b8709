"""Threat-aware Gobang playouts (engine.core.gobang_threats) against a whole-board
reference: at every move the kernel's threat lists hold exactly the winning points a full
scan finds, and the move is a win when the mover has one, else a block when the opponent
has one, else any empty point; freestyle and exact five, draws, AMAF, seeds, the driver."""

import numpy as np
import pytest

from engine.game.board_text import parse
from engine.game.coords import PASS, point, row_col
from engine.core import gobang_kernels as gbk
from engine.core import gobang_threats as gbt
from engine.core.layout import (BLACK, BOARD, DRAW, EMPTY, GOBANG_EXACT5,
                                GOBANG_FREESTYLE, M_LAST, M_MOVES, M_N_EMPTY, M_TO_PLAY,
                                M_WINNER, OFFBOARD, WHITE, new_arrays, zobrist_table)
from engine.core.rng import make_rng
from gobang_boards import DRAWN_5, fill_order

LINES = ((0, 1), (1, 0), (1, 1), (1, -1))
VARIANTS = {"freestyle": GOBANG_FREESTYLE, "exact5": GOBANG_EXACT5}
NO_AMAF = np.zeros(0, dtype=np.int8)


# -- the reference: scan every empty point of the board, no cleverness ----------------------

def reference_winning_points(grid, color, exact):
    """Padded points where a ``color`` stone would make five (exactly five when ``exact``,
    five or more otherwise) along some line."""
    n = len(grid)
    found = set()
    for r in range(n):
        for c in range(n):
            if grid[r][c] != EMPTY:
                continue
            for dr, dc in LINES:
                run = 1
                for sign in (1, -1):
                    rr, cc = r + sign * dr, c + sign * dc
                    while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] == color:
                        run += 1
                        rr, cc = rr + sign * dr, cc + sign * dc
                if run == 5 or (run > 5 and not exact):
                    found.add(point(r, c, n))
                    break
    return found


def grid_of(s, n):
    return [[int(s[BOARD, point(r, c, n)]) for c in range(n)] for r in range(n)]


# -- positions ------------------------------------------------------------------------------

def position(n, variant, black=(), white=(), to_play=BLACK):
    """Kernel arrays holding the given stones, undecided, ``to_play`` to move."""
    s, meta = new_arrays(n)
    gbk.clear_board(s, meta, n, variant)
    zob = zobrist_table(n)
    for color, pts in ((BLACK, black), (WHITE, white)):
        for p in pts:
            gbk.play(s, meta, zob, p, color)
    assert meta[M_WINNER] == 0
    meta[M_TO_PLAY] = to_play
    return s, meta, zob


def from_picture(text, variant=GOBANG_FREESTYLE, to_play=BLACK):
    n, black, white = parse(text)
    return (n,) + position(n, variant, black, white, to_play)


def random_position(rng, n, variant, stones):
    """Up to ``stones`` stones, alternating colours, each usually within two steps of its own
    colour so that fours, open fours and overlines are common; stops short of a win."""
    s, meta = new_arrays(n)
    gbk.clear_board(s, meta, n, variant)
    zob = zobrist_table(n)
    for _ in range(stones):
        color = int(meta[M_TO_PLAY])
        grid = grid_of(s, n)
        empties = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == EMPTY]
        near = [(r, c) for r, c in empties
                for dr, dc in LINES for k in (1, 2, -1, -2)
                if 0 <= r + k * dr < n and 0 <= c + k * dc < n
                and grid[r + k * dr][c + k * dc] == color] if rng.random() < 0.8 else []
        p = point(*(near or empties)[rng.integers(len(near or empties))], n)
        trial_s, trial_meta = s.copy(), meta.copy()
        gbk.play(trial_s, trial_meta, zob, p, color)
        if trial_meta[M_WINNER] != 0:
            break
        s, meta = trial_s, trial_meta
    return s, meta, zob


def threat_lists(s, meta):
    pts, cnt = gbt.new_threat_lists(s.shape[1])
    gbt.find_threats(s, meta, pts, cnt)
    return pts, cnt


def live_threats(s, meta, pts, cnt, color):
    k = gbt.prune_threats(s, meta, pts, cnt, color)
    listed = [int(p) for p in pts[color, :k]]
    assert len(listed) == len(set(listed))
    return set(listed)


# -- every move of a playout against the reference ----------------------------------------

@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_move_wins_else_blocks_else_plays_anywhere(variant):
    code = VARIANTS[variant]
    exact = code == GOBANG_EXACT5
    rng = np.random.default_rng(31 + exact)
    seen = {"win": 0, "block": 0, "block one of several": 0, "free": 0, "draw": 0}
    overline_points_ignored = 0
    for n, games in ((5, 20), (6, 16), (7, 12), (9, 10), (12, 6), (15, 4)):
        for game in range(games):
            s, meta, zob = random_position(rng, n, code, int(rng.integers(0, n * n // 2)))
            start_s, start_meta = s.copy(), meta.copy()
            seed = 1000 * n + game
            kernel_rng = make_rng(seed)
            amaf = np.zeros(s.shape[1], dtype=np.int8)
            pts, cnt = threat_lists(s, meta)
            while meta[M_WINNER] == 0:
                grid = grid_of(s, n)
                mover = int(meta[M_TO_PLAY])
                wins = {c: reference_winning_points(grid, c, exact) for c in (BLACK, WHITE)}
                for c in (BLACK, WHITE):
                    assert live_threats(s, meta, pts, cnt, c) == wins[c], (n, game, c)
                if exact:
                    loose = reference_winning_points(grid, mover, False)
                    overline_points_ignored += len(loose - wins[mover]) > 0
                gbt.threat_step(s, meta, zob, kernel_rng, pts, cnt, amaf)
                p = int(meta[M_LAST])
                r, c = row_col(p, n)
                assert grid[r][c] == EMPTY
                if wins[mover]:
                    assert p in wins[mover] and meta[M_WINNER] == mover
                    seen["win"] += 1
                    continue
                assert meta[M_WINNER] in (0, DRAW)  # no winning point, so no win
                if wins[3 - mover]:
                    assert p in wins[3 - mover]
                    seen["block"] += 1
                    seen["block one of several"] += len(wins[3 - mover]) > 1
                else:
                    seen["free"] += 1
                seen["draw"] += meta[M_WINNER] == DRAW

            # the playout kernel is these steps: same seed, same game
            ps, pmeta = start_s.copy(), start_meta.copy()
            pamaf = np.zeros(s.shape[1], dtype=np.int8)
            playout_rng = make_rng(seed)
            p_pts, p_cnt = gbt.new_threat_lists(s.shape[1])
            moves = gbt.threat_playout(ps, pmeta, zob, playout_rng, pamaf, p_pts, p_cnt)
            assert moves == meta[M_MOVES] - start_meta[M_MOVES]
            assert np.array_equal(ps[BOARD], s[BOARD]) and np.array_equal(pmeta, meta)
            assert np.array_equal(pamaf, amaf) and playout_rng[0] == kernel_rng[0]
    assert min(seen.values()) > 0, seen
    assert seen["block"] > 50 and seen["win"] > 20, seen
    if exact:
        assert overline_points_ignored > 5


# -- hand-made positions --------------------------------------------------------------------

OPEN_FOUR = """
    . . . . . . . . . .
    . . . . . . . . . .
    . . . O . . . O . .
    . . . . . . . . . .
    . . X X X X . . . .
    . . . . . . . . . .
    . . . O . . . . . .
    . . . . . . . . . .
    . . . . . . . O . .
    . . . . . . . . . .
"""


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_an_open_four_always_wins(variant):
    for to_play, moves in ((BLACK, 1), (WHITE, 2)):
        n, s, meta, zob = from_picture(OPEN_FOUR, VARIANTS[variant], to_play)
        ends = {point(4, 1, n), point(4, 6, n)}
        for seed in range(40):
            ps, pmeta = s.copy(), meta.copy()
            amaf = np.zeros(s.shape[1], dtype=np.int8)
            assert gbt.threat_playout_winner(ps, pmeta, zob, make_rng(seed), amaf) == \
                (BLACK, 0.0)
            assert pmeta[M_MOVES] - meta[M_MOVES] == moves
            assert set(np.flatnonzero(amaf).tolist()) <= ends  # white blocked an end


FACING_A_FOUR = """
    . . . . . . . . .
    . O . . . . . . .
    . . O . . . X . .
    . . . O . . . . .
    . . . . O . . . .
    . . . . . . . X .
    . X . . . . . . .
    . . . . . X . . .
    . . . . . . . . .
"""


def test_black_without_a_win_blocks_white():
    n, s, meta, zob = from_picture(FACING_A_FOUR)
    block, other = point(5, 5, n), point(0, 0, n)  # both ends of white's four win
    chosen = set()
    for seed in range(60):
        ps, pmeta = s.copy(), meta.copy()
        pts, cnt = threat_lists(ps, pmeta)
        p = gbt.threat_move(ps, pmeta, make_rng(seed), pts, cnt)
        assert p in (block, other)
        chosen.add(int(p))
    assert chosen == {block, other}  # several points: one of them, at random

    # with the corner filled white has exactly one winning point: black always takes it
    _, black, white = parse(FACING_A_FOUR)
    s, meta, zob = position(n, GOBANG_FREESTYLE, black + [other], white)
    for seed in range(60):
        ps, pmeta = s.copy(), meta.copy()
        pts, cnt = threat_lists(ps, pmeta)
        gbt.threat_step(ps, pmeta, zob, make_rng(seed), pts, cnt, NO_AMAF)
        assert pmeta[M_LAST] == block and pmeta[M_WINNER] == 0


def test_a_win_comes_before_a_block():
    n, s, meta, zob = from_picture("""
        . . . . . . . .
        . X X X X . . .
        . . . . . . . .
        . O O O O . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
    """)
    for seed in range(30):
        ps, pmeta = s.copy(), meta.copy()
        assert gbt.threat_playout_winner(ps, pmeta, zob, make_rng(seed), NO_AMAF)[0] == BLACK
        assert pmeta[M_LAST] in (point(1, 0, n), point(1, 5, n))


EXACT5_OVERLINES = """
    . . . . . . . . . .
    . O O O . O O . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . X X . X X X . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
    . . . . . . . . . .
"""


def test_exact5_overline_points_are_neither_wins_nor_threats():
    white_gap, black_gap = point(1, 4, 10), point(4, 3, 10)
    for variant in (GOBANG_FREESTYLE, GOBANG_EXACT5):
        n, s, meta, zob = from_picture(EXACT5_OVERLINES, variant)
        pts, cnt = threat_lists(s, meta)
        free = variant == GOBANG_FREESTYLE
        assert live_threats(s, meta, pts, cnt, BLACK) == ({black_gap} if free else set())
        assert live_threats(s, meta, pts, cnt, WHITE) == ({white_gap} if free else set())
        moves = set()
        for seed in range(40):
            ps, pmeta = s.copy(), meta.copy()
            pts, cnt = threat_lists(ps, pmeta)
            moves.add(int(gbt.threat_move(ps, pmeta, make_rng(seed), pts, cnt)))
        assert (moves == {black_gap}) if free else (len(moves) > 10)


def test_exact5_a_stone_making_an_overline_and_an_exact_five_is_a_win():
    n, s, meta, zob = from_picture("""
        . . . . . . . . . .
        . . . . X . . . . .
        . . . . X . . . . .
        . . . . X . . . . .
        . . . . X . . . . .
        X X X X . X . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """, GOBANG_EXACT5)
    pts, cnt = threat_lists(s, meta)
    assert live_threats(s, meta, pts, cnt, BLACK) == {point(5, 4, n), point(0, 4, n)}
    moves = meta[M_MOVES]
    assert gbt.threat_playout_winner(s, meta, zob, make_rng(3), NO_AMAF) == (BLACK, 0.0)
    assert meta[M_MOVES] == moves + 1


def test_an_overline_can_spoil_an_exact_five_already_listed():
    # white's own stone just beyond (2, 5) turns that winning end of its four into an
    # overline point under exact five: the listed entry must go
    n, s, meta, zob = from_picture("""
        . . . . . . . . .
        . . . . . . . . .
        . O O O O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """, GOBANG_EXACT5)
    pts, cnt = threat_lists(s, meta)
    end = point(2, 5, n)
    assert live_threats(s, meta, pts, cnt, WHITE) == {point(2, 0, n), end}
    gbk.play(s, meta, zob, point(2, 0, n), BLACK)
    gbk.play(s, meta, zob, point(2, 6, n), WHITE)
    gbt.note_stone(s, meta, pts, cnt, point(2, 6, n), WHITE)
    assert live_threats(s, meta, pts, cnt, WHITE) == set()


# -- AMAF, draws, decided positions, seeds --------------------------------------------------

@pytest.mark.parametrize("variant", list(VARIANTS))
def test_amaf_records_the_colour_and_ply_of_every_stone_the_playout_placed(variant):
    n = 9
    rng = np.random.default_rng(5)
    for game in range(10):
        s, meta, zob = random_position(rng, n, VARIANTS[variant], 12)
        before, moves_before = s[BOARD].copy(), meta[M_MOVES]
        amaf = np.zeros(s.shape[1], dtype=np.int32)
        winner, score = gbt.threat_playout_winner(s, meta, zob, make_rng(game), amaf)
        assert score == 0.0 and winner == (0 if meta[M_WINNER] == DRAW else meta[M_WINNER])
        placed = (before == EMPTY) & (s[BOARD] != EMPTY)
        assert np.array_equal(amaf[placed] & 3, s[BOARD][placed])
        assert not amaf[~placed].any()
        # no stone is ever taken off: one stone a ply, each ply once
        assert sorted(amaf[placed] >> 2) == list(range(moves_before, meta[M_MOVES]))
        assert placed.sum() == meta[M_MOVES] - moves_before > 0


def test_a_full_board_without_five_is_a_draw_and_a_decided_game_plays_nothing():
    n, order = fill_order(DRAWN_5)
    s, meta = new_arrays(n)
    gbk.clear_board(s, meta, n, GOBANG_FREESTYLE)
    zob = zobrist_table(n)
    for p in order[:-1]:
        gbk.play(s, meta, zob, p, meta[M_TO_PLAY])
    assert gbt.threat_playout_winner(s, meta, zob, make_rng(1), NO_AMAF) == (0, 0.0)
    assert meta[M_WINNER] == DRAW and meta[M_N_EMPTY] == 0
    pts, cnt = gbt.new_threat_lists(s.shape[1])
    assert gbt.threat_playout(s, meta, zob, make_rng(1), NO_AMAF, pts, cnt) == 0
    assert gbt.threat_move(s, meta, make_rng(1), pts, cnt) == PASS

    n, s, meta, zob = from_picture(OPEN_FOUR)
    gbk.play(s, meta, zob, point(4, 6, n), BLACK)
    before = s.copy()
    assert gbt.threat_playout_winner(s, meta, zob, make_rng(1), NO_AMAF) == (BLACK, 0.0)
    assert np.array_equal(s, before)


def test_the_playout_is_deterministic_for_a_seed():
    n = 10
    finals = []
    for _ in range(2):
        s, meta, zob = random_position(np.random.default_rng(8), n, GOBANG_EXACT5, 20)
        rng = make_rng(4242)
        amaf = np.zeros(s.shape[1], dtype=np.int8)
        gbt.threat_playout_winner(s, meta, zob, rng, amaf)
        finals.append((s, meta, amaf, rng))
    (s1, m1, a1, r1), (s2, m2, a2, r2) = finals
    assert np.array_equal(s1, s2) and np.array_equal(m1, m2) and np.array_equal(a1, a2)
    assert r1[0] == r2[0]


def test_run_threat_playouts_is_the_sum_of_single_playouts():
    n = 10
    zob = zobrist_table(n)
    s, meta = new_arrays(n)
    gbk.clear_board(s, meta, n, GOBANG_FREESTYLE)
    scratch_s, scratch_meta = new_arrays(n)
    count = 300
    wins, moves = gbt.run_threat_playouts(s, meta, zob, make_rng(77), count, scratch_s,
                                          scratch_meta)
    assert meta[M_N_EMPTY] == n * n and not s[BOARD][s[BOARD] != OFFBOARD].any()
    rng = make_rng(77)
    one_wins = one_moves = 0
    for _ in range(count):
        ps, pmeta = s.copy(), meta.copy()
        one_wins += gbt.threat_playout_winner(ps, pmeta, zob, rng, NO_AMAF)[0] == BLACK
        one_moves += pmeta[M_MOVES]
    assert (wins, moves) == (one_wins, one_moves)
    assert 0.3 < wins / count < 0.7 and 9 <= moves / count <= n * n
