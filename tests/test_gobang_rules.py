"""Gobang rules: win detection in every direction and place, freestyle vs exact five, draws,
legality, undo, and the kernels and playouts against a slow whole-board reference."""

import numpy as np
import pytest

from engine.game.board_text import parse
from engine.game.coords import PASS, RESIGN, padded_size, point, row_col
from engine.core import gobang_kernels as gbk
from engine.core.layout import (BLACK, BOARD, DRAW, GAME_GOBANG, GOBANG_EXACT5,
                                GOBANG_FREESTYLE, M_GAME, M_HASH, M_LAST, M_N_EMPTY, M_RULE,
                                M_WINNER, WHITE, new_arrays, zobrist_table)
from engine.core.rng import make_rng
from engine.game.state import IllegalMove
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules
from gobang_boards import DRAWN_5, DRAWN_6, fill_order

DIRECTIONS = {"horizontal": (0, 1), "vertical": (1, 0), "diagonal": (1, 1),
              "anti-diagonal": (1, -1)}
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


# -- the reference: rescan the whole board for runs, no cleverness ------------------------

def reference_runs(grid, color):
    """Lengths of every maximal run of ``color`` along rows, columns and diagonals."""
    n = len(grid)
    runs = []
    for r in range(n):
        for c in range(n):
            if grid[r][c] != color:
                continue
            for dr, dc in LINES:
                pr, pc = r - dr, c - dc
                if 0 <= pr < n and 0 <= pc < n and grid[pr][pc] == color:
                    continue  # not the start of its run
                length = 0
                rr, cc = r, c
                while 0 <= rr < n and 0 <= cc < n and grid[rr][cc] == color:
                    length += 1
                    rr, cc = rr + dr, cc + dc
                runs.append(length)
    return runs


def reference_wins(grid, color, exact):
    return any(k == 5 or (k > 5 and not exact) for k in reference_runs(grid, color))


def reference_result(grid, exact):
    """BLACK / WHITE / DRAW / 0 for the position on ``grid`` (list of lists)."""
    for color in (BLACK, WHITE):
        if reference_wins(grid, color, exact):
            return color
    if all(v != 0 for row in grid for v in row):
        return DRAW
    return 0


def grid_of(state):
    return [[int(v) for v in row] for row in state.board()]


# -- helpers ------------------------------------------------------------------------------

def new_state(n, variant="freestyle"):
    return GobangState(GobangRules(size=n, variant=variant))


def place(state, black=(), white=()):
    """Put stones down with explicit colours; the position must not already be won."""
    for color, pts in ((BLACK, black), (WHITE, white)):
        for p in pts:
            state.play(p, color)
    assert not state.is_terminal()


def from_picture(text, variant="freestyle"):
    n, black, white = parse(text)
    state = new_state(n, variant)
    place(state, black, white)
    return state


def line_starts(n, dr, dc):
    """Start cells of a five along (dr, dc) touching corners, edges and the middle."""
    span = 4
    rows = sorted({0, (n - 1 - span * dr) // 2, n - 1 - span * dr})
    if dc >= 0:
        cols = sorted({0, (n - 1 - span * dc) // 2, n - 1 - span * dc})
    else:
        cols = sorted({span, (n - 1 + span) // 2, n - 1})
    return [(r, c) for r in rows for c in cols]


# -- win detection --------------------------------------------------------------------------

@pytest.mark.parametrize("n", [5, 10, 15, 25])
@pytest.mark.parametrize("direction", list(DIRECTIONS))
def test_five_wins_in_every_direction_and_place(n, direction):
    dr, dc = DIRECTIONS[direction]
    checked = 0
    for r0, c0 in line_starts(n, dr, dc):
        line = [point(r0 + i * dr, c0 + i * dc, n) for i in range(5)]
        for last in range(5):  # the completing stone at either end or inside the line
            for color in (BLACK, WHITE):
                state = new_state(n)
                others = [p for i, p in enumerate(line) if i != last]
                place(state, **{("black" if color == BLACK else "white"): others})
                assert state.winner() == 0
                state.play(line[last], color)
                assert state.winner() == color, (direction, r0, c0, last)
                assert state.is_terminal() and not state.is_draw()
                checked += 1
    assert checked == 10 * len(line_starts(n, dr, dc))


@pytest.mark.parametrize("variant", ["freestyle", "exact5"])
def test_four_and_broken_lines_do_not_win(variant):
    state = from_picture("""
        X X X X O . . . . .
        . . . . . . . . . .
        X X . X X . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """, variant)
    state.play(point(4, 4, 10), BLACK)
    assert state.winner() == 0 and not state.is_terminal()
    state.play(point(2, 2, 10), BLACK)  # fills the gap: X X X X X
    assert state.winner() == BLACK


def test_six_in_a_row_wins_freestyle_but_not_exact5():
    picture = """
        . . . . . . . . . .
        . X X X . X X . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """
    gap = point(1, 4, 10)
    free = from_picture(picture, "freestyle")
    free.play(gap, BLACK)
    assert free.winner() == BLACK

    exact = from_picture(picture, "exact5")
    exact.play(gap, BLACK)
    assert exact.winner() == 0 and not exact.is_terminal()
    assert exact.is_legal(point(5, 5, 10))  # the game goes on


def test_exact5_still_wins_with_an_exact_five_elsewhere():
    state = from_picture("""
        . . . . . . . . . .
        X X X . X X . . . .
        . . . . . . . . . .
        . . . . . . . . . .
        . . X . . . . . . .
        . . X . . . . . . .
        . . X . . . . . . .
        . . X . . . . . . .
        . . . . . . . . . .
        . . . . . . . . . .
    """, "exact5")
    state.play(point(1, 3, 10), BLACK)  # an overline: play goes on
    assert state.winner() == 0
    state.play(point(8, 2, 10), BLACK)
    assert state.winner() == BLACK


def test_exact5_one_stone_making_an_overline_and_a_five_wins():
    state = from_picture("""
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
    """, "exact5")
    state.play(point(5, 4, 10), BLACK)  # six along the row, exactly five down the column
    assert state.winner() == BLACK


def test_exact5_overline_made_by_joining_two_threes():
    picture = """
        . . . . . . . . .
        . . . . . . . . .
        . O O O . O O O .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
    """
    for variant, expected in (("freestyle", WHITE), ("exact5", 0)):
        state = from_picture(picture, variant)
        state.play(point(2, 4, 9), WHITE)
        assert state.winner() == expected, variant


# -- draws ----------------------------------------------------------------------------------

@pytest.mark.parametrize("picture", [DRAWN_5, DRAWN_6])
@pytest.mark.parametrize("variant", ["freestyle", "exact5"])
def test_full_board_without_five_is_a_draw(picture, variant):
    n, black, white = parse(picture)
    state = new_state(n, variant)
    order = [p for pair in zip(black, white + [None]) for p in pair if p is not None]
    assert len(order) == n * n
    for p in order:
        assert not state.is_terminal()
        state.play(p)  # alternating, black first
    assert state.is_terminal() and state.is_draw() and state.winner() == 0
    assert state.meta[M_WINNER] == DRAW
    assert reference_result(grid_of(state), variant == "exact5") == DRAW
    assert state.why_illegal(order[0]) == "game is over"


def test_a_five_on_the_last_empty_point_is_a_win_not_a_draw():
    state = from_picture("""
        X X X X .
        O O X X O
        X X O O X
        O O X X O
        O X O O X
    """)
    state.play(point(0, 4, 5), BLACK)
    assert state.winner() == BLACK and not state.is_draw()


# -- legality and undo ----------------------------------------------------------------------

def test_clear_board_fields():
    state = new_state(7, "exact5")
    assert state.meta[M_GAME] == GAME_GOBANG and state.meta[M_RULE] == GOBANG_EXACT5
    assert state.meta[M_N_EMPTY] == 49 and state.meta[M_LAST] == PASS
    assert state.meta[M_WINNER] == 0 and state.hash == 0 and state.to_play == BLACK
    assert state.komi == 0.0
    assert new_state(7).meta[M_RULE] == GOBANG_FREESTYLE


def test_illegal_moves_say_why_and_change_nothing():
    n = 9
    state = new_state(n)
    p = point(4, 4, n)
    state.play(p)
    assert state.why_illegal(p) == "occupied"
    assert state.why_illegal(PASS) == "pass is not allowed"
    assert state.why_illegal(RESIGN) == "off the board"
    assert state.why_illegal(0) == "off the board"  # the padded frame
    assert state.why_illegal(padded_size(n)) == "off the board"
    assert state.why_illegal(point(0, 0, n)) is None
    before = (state.s.copy(), state.meta.copy(), list(state.moves))
    with pytest.raises(IllegalMove, match="occupied"):
        state.play(p)
    with pytest.raises(IllegalMove, match="pass"):
        state.play(PASS)
    assert np.array_equal(state.s, before[0]) and np.array_equal(state.meta, before[1])
    assert state.moves == before[2]
    assert len(state.legal_moves()) == n * n - 1

    assert gbk.is_legal(state.s, state.meta, point(0, 0, n), WHITE)
    assert not gbk.is_legal(state.s, state.meta, p, WHITE)
    assert not gbk.is_legal(state.s, state.meta, 0, WHITE)
    assert not gbk.is_legal(state.s, state.meta, -1, WHITE)
    assert not gbk.is_legal(state.s, state.meta, padded_size(n), WHITE)


def test_no_move_is_legal_after_a_win_and_undo_restores_the_game():
    state = from_picture("""
        . . . . . . .
        . X X X X . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    before_hash = state.hash
    state.play(point(1, 5, 7), BLACK)
    assert state.winner() == BLACK
    assert len(state.legal_moves()) == 0
    assert state.why_illegal(point(6, 6, 7)) == "game is over"
    assert not gbk.is_legal(state.s, state.meta, point(6, 6, 7), WHITE)
    with pytest.raises(IllegalMove, match="game is over"):
        state.play(point(6, 6, 7))
    state.undo()
    assert state.winner() == 0 and not state.is_terminal() and state.hash == before_hash
    assert state.is_legal(point(6, 6, 7))
    state.play(point(1, 0, 7), BLACK)  # the other end wins too
    assert state.winner() == BLACK


# -- kernels and playouts against the reference ---------------------------------------------

def clustered_move(rng, grid, color):
    """A random empty point, usually next to or two steps from the mover's own stones, so
    games grow long lines and overlines often."""
    n = len(grid)
    empties = [(r, c) for r in range(n) for c in range(n) if grid[r][c] == 0]
    if rng.random() < 0.7:
        near = [(r, c) for r, c in empties
                for dr, dc in LINES for k in (1, 2, -1, -2)
                if 0 <= r + k * dr < n and 0 <= c + k * dc < n
                and grid[r + k * dr][c + k * dc] == color]
        if near:
            return near[rng.integers(len(near))]
    return empties[rng.integers(len(empties))]


@pytest.mark.parametrize("variant", ["freestyle", "exact5"])
def test_kernels_match_the_reference_over_random_games(variant):
    exact = variant == "exact5"
    rng = np.random.default_rng(20240501 + exact)
    overlines = 0  # freestyle: games won by six or more; exact5: moves making one, no win
    outcomes = set()
    for n, count in ((5, 40), (6, 40), (7, 30), (9, 25), (12, 10), (15, 5)):
        zob = zobrist_table(n)
        for _ in range(count):
            state = new_state(n, variant)
            grid = [[0] * n for _ in range(n)]
            h = 0
            overline_stones = {BLACK: 0, WHITE: 0}
            while True:
                color = state.to_play
                r, c = clustered_move(rng, grid, color)
                p = point(r, c, n)
                state.play(p)
                grid[r][c] = color
                h ^= int(zob[color, p])
                expected = reference_result(grid, exact)
                assert state.meta[M_WINNER] == expected, (n, variant, state.moves)
                assert state.hash == h and state.to_play == 3 - color
                assert sorted(state.empty_points().tolist()) == sorted(
                    point(rr, cc, n) for rr in range(n) for cc in range(n)
                    if grid[rr][cc] == 0)
                long_runs = sum(k for k in reference_runs(grid, color) if k >= 6)
                made_overline = long_runs > overline_stones[color]
                overline_stones[color] = long_runs
                if made_overline and (expected == color) != exact:
                    overlines += 1
                if expected:
                    outcomes.add(expected)
                    break
    assert outcomes == {BLACK, WHITE, DRAW}
    assert overlines > 5


def fresh_arrays(n, variant):
    s, meta = new_arrays(n)
    gbk.clear_board(s, meta, n, variant)
    return s, meta


@pytest.mark.parametrize("n", [5, 8, 15])
@pytest.mark.parametrize("variant", [GOBANG_FREESTYLE, GOBANG_EXACT5])
def test_playouts_end_where_the_reference_says(n, variant):
    exact = variant == GOBANG_EXACT5
    zob = zobrist_table(n)
    rng = make_rng(7 + n + variant)
    for _ in range(30):
        s, meta = fresh_arrays(n, variant)
        gbk.play(s, meta, zob, point(n // 2, n // 2, n), BLACK)
        amaf = np.zeros(s.shape[1], dtype=np.int32)
        moves = gbk.playout(s, meta, zob, rng, amaf)
        stones = int(np.count_nonzero((s[BOARD] == BLACK) | (s[BOARD] == WHITE)))
        assert moves == stones - 1 and meta[M_N_EMPTY] == n * n - stones
        grid = [[int(s[BOARD, point(r, c, n)]) for c in range(n)] for r in range(n)]
        result = reference_result(grid, exact)
        assert result != 0 and meta[M_WINNER] == result
        last_r, last_c = row_col(int(meta[M_LAST]), n)
        grid[last_r][last_c] = 0
        assert reference_result(grid, exact) == 0  # the game was undecided one move before
        played = s[BOARD] == amaf & 3
        on_board = (s[BOARD] == BLACK) | (s[BOARD] == WHITE)
        centre = point(n // 2, n // 2, n)
        assert amaf[centre] == 0 and np.all(played[on_board & (np.arange(len(amaf)) != centre)])
        h = 0
        for p in np.flatnonzero(on_board):
            h ^= int(zob[s[BOARD, p], p])
        assert meta[M_HASH] == h


def test_playout_is_deterministic_for_a_seed():
    n = 10
    zob = zobrist_table(n)
    finals = []
    for _ in range(2):
        rng = make_rng(12345)
        s, meta = fresh_arrays(n, GOBANG_FREESTYLE)
        amaf = np.zeros(s.shape[1], dtype=np.int8)
        gbk.playout(s, meta, zob, rng, amaf)
        finals.append((s, meta, amaf, rng))
    (s1, m1, a1, r1), (s2, m2, a2, r2) = finals
    assert np.array_equal(s1, s2) and np.array_equal(m1, m2) and np.array_equal(a1, a2)
    assert r1[0] == r2[0]

    state = new_state(n)
    assert state.playout(make_rng(99)) == state.playout(make_rng(99))
    assert state.move_count == 0  # the playout ran on a copy


def test_playout_winner_maps_a_draw_to_zero():
    n, order = fill_order(DRAWN_5)
    state = new_state(n)
    for p in order[:-1]:
        state.play(p)
    assert state.playout(make_rng(1)) == (0, 0.0)
    assert gbk.random_move(state.s, state.meta, make_rng(1), BLACK) == order[-1]
    state.play(order[-1])
    assert gbk.random_move(state.s, state.meta, make_rng(1), WHITE) == PASS
    assert state.playout(make_rng(1)) == (0, 0.0)


def test_random_move_is_an_empty_point_until_the_game_is_decided():
    n = 6
    state = new_state(n)
    rng = make_rng(3)
    seen = set()
    for _ in range(200):
        p = int(gbk.random_move(state.s, state.meta, rng, BLACK))
        assert state.is_legal(p)
        seen.add(p)
    assert len(seen) == n * n  # every point turns up
    place(state, black=[point(0, c, n) for c in range(4)])
    state.play(point(0, 4, n), BLACK)
    assert gbk.random_move(state.s, state.meta, rng, WHITE) == PASS


def test_run_playouts_on_an_empty_10x10_favours_black():
    n = 10
    zob = zobrist_table(n)
    s, meta = fresh_arrays(n, GOBANG_FREESTYLE)
    scratch_s, scratch_meta = new_arrays(n)
    count = 4000
    wins, moves = gbk.run_playouts(s, meta, zob, make_rng(2024), count, scratch_s,
                                   scratch_meta)
    assert 0.45 < wins / count < 0.75  # the first player's edge under random play
    assert 9 <= moves / count <= n * n
    assert meta[M_N_EMPTY] == n * n  # the source position is untouched
