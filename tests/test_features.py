"""The LinUCT neighbourhood features: the encoding on hand-made boards, every row (in the
stone's frame and in each colour's) against a pure-Python reference, and child rows built
from a move's delta against rows computed from scratch (Go with captures and suicide,
Gobang), also as the mover encoding builds them: the parent's row flipped into the other
colour's frame, then the delta."""

import numpy as np
import pytest

from engine.game.board_text import parse
from engine.game.coords import PASS, from_gtp, point
from engine.core import game
from engine.core import go_playout, gobang_kernels
from engine.core.features import (STONE_FRAME, board_row, child_row, dimension, flip_row,
                                  max_active, move_delta, new_work)
from engine.core.layout import (BLACK, BOARD, EMPTY, M_CAPS_B, M_CAPS_W, M_PASSES, M_SIZE,
                                M_TO_PLAY, OFFBOARD, WHITE, new_arrays)
from engine.core.rng import make_rng
from engine.game.go_state import GoState
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules, GoRules

# (row step, column step) of N, NE, E, SE, S, SW, W, NW; row 0 is the top
DIRS = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]


def reference_row(grid: np.ndarray, frame: int = STONE_FRAME) -> list[int]:
    """The encoding of the module docstring, straight from its definition: bit 0 for a
    neighbour of the stone's colour (``STONE_FRAME``) or of the colour ``frame``."""
    n = grid.shape[0]
    row = []
    for r in range(n):
        for c in range(n):
            me = grid[r, c]
            if me == EMPTY:
                continue
            mine = me if frame == STONE_FRAME else frame
            for d, (dr, dc) in enumerate(DIRS):
                rr, cc = r + dr, c + dc
                if not (0 <= rr < n and 0 <= cc < n) or grid[rr, cc] == EMPTY:
                    bit = 2
                else:
                    bit = 0 if grid[rr, cc] == mine else 1
                row.append(((r * n + c) * 8 + d) * 3 + bit)
    row.append(n * n * 24)
    return row


def row_of(s, meta, frame: int = STONE_FRAME) -> list[int]:
    out = np.empty(max_active(int(meta[M_SIZE])), dtype=np.int32)
    m = board_row(s, meta, out, frame)
    return out[:m].tolist()


def go_position(picture: str) -> GoState:
    n, black, white = parse(picture)
    state = GoState(GoRules(size=n))
    state.setup(black=black, white=white)
    return state


def test_dimensions():
    assert dimension(9) == 1945
    assert dimension(19) == 19 * 19 * 24 + 1
    assert max_active(9) == 9 * 9 * 8 + 1


def test_empty_board_is_the_constant_alone():
    state = GoState(GoRules(size=9))
    assert row_of(state.s, state.meta) == [1944]


def test_hand_made_three_by_three():
    state = go_position("""
        X O .
        . X .
        . . .
    """)
    # X at a3 (point 0): E is O (other), SE is X (same), the rest empty or off the board
    # O at b3 (point 1, base 24): S and W are X (other), the rest empty or off the board
    # X at b2 (point 4, base 96): N is O (other), NW is X (same), the rest empty
    # constant: 9 * 24 = 216
    x_a3 = [d * 3 + (1 if d == 2 else 0 if d == 3 else 2) for d in range(8)]
    o_b3 = [24 + d * 3 + (1 if d in (4, 6) else 2) for d in range(8)]
    x_b2 = [96 + d * 3 + (1 if d == 0 else 0 if d == 7 else 2) for d in range(8)]
    expected = x_a3 + o_b3 + x_b2 + [216]
    assert row_of(state.s, state.meta) == expected


def test_a_lone_stone_anywhere_sets_its_eight_empty_or_edge_bits():
    centre = go_position("""
        . . .
        . X .
        . . .
    """)
    assert row_of(centre.s, centre.meta) == [4 * 24 + d * 3 + 2 for d in range(8)] + [216]
    corner = go_position("""
        . . .
        . . .
        . . O
    """)
    assert row_of(corner.s, corner.meta) == [8 * 24 + d * 3 + 2 for d in range(8)] + [216]


def test_every_move_on_an_empty_board_gives_a_distinct_row():
    rows = set()
    for p in GoState(GoRules(size=5)).empty_points():
        state = GoState(GoRules(size=5))
        state.play(int(p))
        rows.add(tuple(row_of(state.s, state.meta)))
    assert len(rows) == 25


def test_colour_swap_leaves_the_row_unchanged():
    a = go_position("""
        X O . . .
        . X O . .
        . . X . .
        O . . . .
        . . . . X
    """)
    b = go_position("""
        O X . . .
        . O X . .
        . . O . .
        X . . . .
        . . . . O
    """)
    assert row_of(a.s, a.meta) == row_of(b.s, b.meta)
    # in a colour's frame the twins differ, and each is the other seen from the other colour
    assert row_of(a.s, a.meta, BLACK) != row_of(b.s, b.meta, BLACK)
    assert row_of(a.s, a.meta, BLACK) == row_of(b.s, b.meta, WHITE)
    assert row_of(a.s, a.meta, WHITE) == row_of(b.s, b.meta, BLACK)


def _swapped(grid):
    out = grid.copy()
    out[grid == BLACK] = WHITE
    out[grid == WHITE] = BLACK
    return out


def _load(s, meta, grid):
    n = grid.shape[0]
    s[:, :] = 0
    s[BOARD, :] = OFFBOARD
    for r in range(n):
        for c in range(n):
            s[BOARD, point(r, c, n)] = grid[r, c]
    meta[M_SIZE] = n


@pytest.mark.parametrize("n", [3, 7, 9])
def test_mover_frame_rows_are_colour_swap_symmetric(n):
    # a position with mover m and its colour-swapped twin with mover 3 - m: one row; and
    # flip_row turns a row in one colour's frame into the row in the other's
    rng = np.random.default_rng(10 + n)
    s, meta = new_arrays(n)
    out = np.empty(max_active(n), dtype=np.int32)
    for _ in range(20):
        grid = _random_grid(rng, n)
        _load(s, meta, grid)
        in_black, in_white = row_of(s, meta, BLACK), row_of(s, meta, WHITE)
        _load(s, meta, _swapped(grid))
        assert row_of(s, meta, WHITE) == in_black
        assert row_of(s, meta, BLACK) == in_white
        flip_row(np.array(in_black, dtype=np.int32), 0, len(in_black), out)
        assert out[:len(in_black)].tolist() == in_white


def _random_grid(rng, n):
    return rng.choice([EMPTY, BLACK, WHITE], size=(n, n), p=[0.4, 0.3, 0.3])


@pytest.mark.parametrize("n", [2, 5, 9, 13])
def test_rows_match_the_reference_on_random_boards(n):
    rng = np.random.default_rng(n)
    s, meta = new_arrays(n)
    game_row = np.empty(max_active(n), dtype=np.int32)
    for _ in range(30):
        grid = _random_grid(rng, n)
        _load(s, meta, grid)
        for frame in (STONE_FRAME, BLACK, WHITE):
            m = board_row(s, meta, game_row, frame)
            assert game_row[:m].tolist() == reference_row(grid, frame)


def test_gobang_rows_use_the_same_definition():
    state = GobangState(GobangRules(size=7))
    for move in ("D4", "E5", "C3", "D5", "E4"):
        state.play(from_gtp(move, 7))
    assert row_of(state.s, state.meta) == reference_row(state.board())


class DeltaChecker:
    """Plays moves on a position and checks that the child row merged from ``move_delta``
    equals the row computed from scratch after the move (and the reference's), in the
    stone's frame, and in the mover's: the parent's row in its own mover's frame (the
    colour not playing now), flipped, merged with the delta in the frame of ``color``."""

    def __init__(self, n, g=game.GO):
        self.g = g
        self.n = n
        self.work = new_work(n)
        size = max_active(n)
        self.parent = np.empty(size, dtype=np.int32)
        self.child = np.empty(size + 1, dtype=np.int32)
        self.added = np.empty(size, dtype=np.int32)
        self.removed = np.empty(size, dtype=np.int32)
        self.counts = np.zeros(2, dtype=np.int64)
        self.flipped = np.empty(size, dtype=np.int32)
        self.after_s, self.after_meta = new_arrays(n)

    def check(self, s, meta, zob, move, color):
        game.copy_state(self.g, s, meta, self.after_s, self.after_meta)
        game.play(self.g, self.after_s, self.after_meta, zob, move, color)
        na, nr = self._check(s, meta, move, STONE_FRAME, STONE_FRAME)
        self._check(s, meta, move, 3 - color, color)
        return na, nr

    def _check(self, s, meta, move, parent_frame, frame):
        m = board_row(s, meta, self.parent, parent_frame)
        if parent_frame != frame:
            flip_row(self.parent, 0, m, self.flipped)
            self.parent[:m] = self.flipped[:m]
        move_delta(s, self.after_s, meta, move, self.added, self.removed, self.work,
                   self.counts, frame)
        assert not self.work[self.work.shape[0] // 2:].any()  # marks cleared again
        na, nr = int(self.counts[0]), int(self.counts[1])
        # the delta packed as the search keeps it, [added..., removed...], and the child
        # written one entry in, so the offsets are exercised
        delta = np.concatenate([self.added[:na], self.removed[:nr]])
        got = child_row(self.parent, 0, m, delta, 0, na, delta, na, nr, self.child, 1)
        full = board_row(self.after_s, self.after_meta, self.parent, frame)
        assert self.child[1:1 + got].tolist() == self.parent[:full].tolist()
        n = self.n
        grid = np.array([[self.after_s[BOARD, point(r, c, n)] for c in range(n)]
                         for r in range(n)])
        assert self.parent[:full].tolist() == reference_row(grid, frame)
        return na, nr


@pytest.mark.parametrize("n", [5, 9])
def test_child_rows_from_deltas_in_random_go_games(n):
    checker = DeltaChecker(n)
    state = GoState(GoRules(size=n))
    rng = make_rng(n)
    captures = 0
    for _ in range(4):
        state.clear()
        s, meta = state.s, state.meta
        while meta[M_PASSES] < 2:
            color = int(meta[M_TO_PLAY])
            move = go_playout.random_move(s, meta, rng, color)
            checker.check(s, meta, state.zob, move, color)
            game.play(game.GO, s, meta, state.zob, move, color)
        captures += int(meta[M_CAPS_B] + meta[M_CAPS_W])
    assert captures > 0  # the games did exercise captures


def test_child_row_of_a_multi_stone_suicide():
    n, black, white = parse("""
        . X . . .
        O X . . .
        X . . . .
        . . . . .
        . . . . .
    """)
    state = GoState(GoRules(size=n, suicide=True))
    state.setup(black=black, white=white)
    move = point(0, 0, n)
    assert state.is_legal(move, WHITE)
    na, nr = DeltaChecker(n).check(state.s, state.meta, state.zob, move, WHITE)
    # the white stones' triples vanish, and their black neighbours now look at empty points
    assert nr > na > 0


def test_child_rows_from_deltas_in_random_gobang_games():
    n = 9
    checker = DeltaChecker(n, game.GOBANG)
    state = GobangState(GobangRules(size=n))
    rng = make_rng(7)
    for _ in range(5):
        state.clear()
        s, meta = state.s, state.meta
        while not state.is_terminal():
            color = int(meta[M_TO_PLAY])
            move = gobang_kernels.random_move(s, meta, rng, color)
            checker.check(s, meta, state.zob, move, color)
            game.play(game.GOBANG, s, meta, state.zob, move, color)


def test_a_pass_changes_nothing():
    state = go_position("""
        X O .
        . X .
        . . .
    """)
    counts = np.ones(2, dtype=np.int64)
    scratch = np.empty(max_active(3), dtype=np.int32)
    move_delta(state.s, state.s, state.meta, PASS, scratch, scratch, new_work(3), counts,
               STONE_FRAME)
    assert counts.tolist() == [0, 0]
