"""Threat-space search: the VCF kernel (``engine.core.gobang_vcf``) against the plain-Python
check of ``tests/vcf_reference.py`` on random positions of every rule; forced tree
candidates; the root threat search in front of the back ends; threat proofs of tree
leaves (``engine.search.solver.prove_by_threats``)."""

import numpy as np
import pytest

from engine.core import game
from engine.core import gobang_kernels as gbk
from engine.core.gobang_vcf import find_vcf
from engine.core.layout import BLACK, PASS, WHITE
from engine.core.rng import make_rng
from engine.game.coords import from_gtp, point, row_col
from engine.game.registry import GameConfig
from engine.search import registry
from engine.search.base import Budget
from engine.search.solver import prove_by_threats
from engine.search.threats_first import (near_mask, threat_defences, threat_move,
                                         vcf_defences, vcf_line)
from engine.search.tree import LOSS, PROVEN, WIN, NodePool, expand

import vcf_reference as ref

DEPTH = 4     # fours a line in the kernel; the reference counts the final five too


def grid_of(state):
    return [[int(v) for v in row] for row in state.board()]


def clustered_game(rng, kernel_rng, rule, size, moves):
    """``moves`` stones, each usually within two cells of a stone already there (so
    threats are common), stopping before anybody wins; None when the game ended."""
    state = GameConfig("gobang", size, rule=rule).new_state()
    for _ in range(moves):
        legal = state.legal_moves()
        near = [p for p in legal if _near_stone(state, int(p))]
        pool = near if near and rng.random() < 0.9 else legal
        state.play(int(pool[rng.integers(len(pool))]))
        if state.is_terminal():
            return None
    return state


def _near_stone(state, p):
    n = state.size
    r, c = row_col(p, n)
    board = state.board()
    return bool(board[max(r - 2, 0):r + 3, max(c - 2, 0):c + 3].any())


def kernel_vcf(state, depth=DEPTH, nodes=1_000_000):
    line = np.zeros(2 * depth + 3, dtype=np.int32)
    move, length, _ = find_vcf(state.s, state.meta, state.to_play, depth, nodes, line)
    return int(move), [int(p) for p in line[:length]]


@pytest.mark.parametrize("rule", ["freestyle", "exact5", "renju"])
def test_kernel_agrees_with_the_reference(rule):
    """Same verdict on every position; a kernel line is replayed and ends in a five, and
    its first move is one the reference proves."""
    rng = np.random.default_rng({"freestyle": 1, "exact5": 2, "renju": 3}[rule])
    found = tried = 0
    while tried < 25:
        state = clustered_game(rng, None, rule, 9, int(rng.integers(14, 34)))
        if state is None:
            continue
        tried += 1
        grid = grid_of(state)
        move, line = kernel_vcf(state)
        expected = ref.forced_win(grid, state.to_play, rule, DEPTH + 1)
        assert (move != PASS) == (expected is not None), grid
        if move == PASS:
            continue
        found += 1
        assert row_col(move, 9) in ref.winning_first_moves(grid, state.to_play, rule,
                                                           DEPTH + 1)
        replay = state.clone()
        for p in line:
            replay.play(p)    # legal moves all, black's forbidden points included
        if not replay.is_terminal():   # renju: a four black may not block
            threats = ref.winning_points(grid_of(replay), state.to_play, rule)
            assert rule == "renju" and replay.to_play == BLACK and threats
            assert all(not replay.is_legal(point(*t, 9), BLACK) for t in threats)
            continue
        assert replay.winner() == state.to_play
    assert found >= 5, found


def test_node_limit_cuts_the_search():
    rng = np.random.default_rng(4)
    for _ in range(200):
        state = clustered_game(rng, None, "freestyle", 9, 30)
        if state is None:
            continue
        line = np.zeros(2 * DEPTH + 3, dtype=np.int32)
        move, _, tried = find_vcf(state.s, state.meta, state.to_play, DEPTH, 10**6, line)
        if move != PASS and tried > 1:
            cut, _, used = find_vcf(state.s, state.meta, state.to_play, DEPTH, tried - 1, line)
            assert used <= tried - 1
            return
    pytest.fail("no position needed more than one four")


# -- renju positions worked out by hand ------------------------------------------------------

def renju_position(black, white, to_play):
    state = GameConfig("gobang", 9, rule="renju").new_state()
    s, meta = state.s, state.meta
    for color, stones in ((BLACK, black), (WHITE, white)):
        for v in stones:
            gbk.play(s, meta, state.zob, from_gtp(v, 9), color)
    state.to_play = to_play
    return state


def test_white_wins_when_blacks_only_block_is_forbidden():
    """White D5 E5 F5 beside black C5: G5 makes a four whose only completion is H5, and
    H5 is a double three for black (column H with H3 H4, the diagonal with F7 G6), so
    black cannot block: the four wins at once."""
    state = renju_position(black=["C5", "H3", "H4", "F7", "G6", "A9"],
                           white=["D5", "E5", "F5", "A1", "B1"], to_play=WHITE)
    assert gbk.forbids(state.s, state.meta, from_gtp("H5", 9), BLACK)
    move, line = kernel_vcf(state)
    assert line == [from_gtp("G5", 9)]
    assert ref.forced_win(grid_of(state), WHITE, "renju", 2) is not None


def test_black_may_not_win_through_a_double_four():
    """Black's E5 would make two fours (row 5 and column E): a win in freestyle, a
    forbidden point in renju, where black has no other four."""
    black = ["B5", "C5", "D5", "E2", "E3", "E4"]
    white = ["A5", "E1", "J9", "J8", "J7", "A1"]
    renju = renju_position(black, white, BLACK)
    assert gbk.forbids(renju.s, renju.meta, from_gtp("E5", 9), BLACK)
    assert kernel_vcf(renju)[0] == PASS
    free = GameConfig("gobang", 9).new_state()
    for color, stones in ((BLACK, black), (WHITE, white)):
        for v in stones:
            gbk.play(free.s, free.meta, free.zob, from_gtp(v, 9), color)
    free.to_play = BLACK
    assert kernel_vcf(free)[0] == from_gtp("E5", 9)


# -- tree candidates -----------------------------------------------------------------------------

def candidates(state):
    out = np.empty(state.s.shape[1] + 1, dtype=np.int32)
    return set(out[:game.candidate_moves(game.GOBANG, state.s, state.meta, out)].tolist())


def test_a_node_offers_only_the_win_or_the_block():
    state = GameConfig("gobang", 9).new_state()
    for v in ["C5", "C3", "D5", "D3", "E5", "E3"]:
        state.play(from_gtp(v, 9))
    state.play(from_gtp("F5", 9))   # black's open four; white to move
    assert candidates(state) == {from_gtp("B5", 9), from_gtp("G5", 9)}
    state.play(from_gtp("F3", 9))   # white makes its own four: black completes five
    assert candidates(state) == {from_gtp("B5", 9), from_gtp("G5", 9)}
    quiet = GameConfig("gobang", 9).new_state()
    quiet.play(from_gtp("E5", 9))
    assert candidates(quiet) == set(quiet.legal_moves().tolist())


# -- the root threat search ------------------------------------------------------------------------

def test_a_found_vcf_is_played_at_once():
    rng = np.random.default_rng(7)
    while True:
        state = clustered_game(rng, None, "freestyle", 15, 40)
        if state is None:
            continue
        line = vcf_line(state, 12, 20_000)
        if len(line) >= 4:
            break
    # the shortest line: no VCF of fewer fours exists
    assert kernel_vcf(state, depth=(len(line) - 1) // 2 - 1)[0] == PASS
    result = registry.make("uct:vcf=1", seed=1).search(state, Budget(playouts=500))
    assert result.move == line[0] and result.playouts == 0
    assert result.candidates[0].proven == 1 and result.pv == line
    replay = state.clone()
    for p in line:
        replay.play(p)
    assert replay.winner() == state.to_play
    off = registry.make("uct", seed=1).search(state, Budget(playouts=100))   # off by default
    assert off.playouts == 100


def test_the_root_keeps_only_the_moves_that_stop_the_opponents_vcf():
    """White's open three is a VCF (its open four next): black, to move with no threat of
    its own, keeps only the two blocks beside the three; the far points lose to the open
    four.  Against the reference: each kept move leaves white no VCF, each other one does."""
    state = GameConfig("gobang", 15).new_state()
    for b, w in (((1, 1), (5, 5)), ((1, 12), (6, 5)), ((12, 12), (7, 5))):
        state.play(point(b[1], b[0], 15))
        state.play(point(w[1], w[0], 15))
    near = near_mask(state, 2)
    kept = vcf_defences(state, near, 12, 2_000)
    assert {row_col(int(p), 15)[::-1] for p in np.flatnonzero(kept)} == {(4, 5), (8, 5)}
    for p in np.flatnonzero(near):
        after = state.clone()
        after.play(int(p))
        assert bool(vcf_line(after, 12, 20_000, WHITE)) != bool(kept[p])
    step = registry.make("uct:vcf=1:near=2:vcf_defence=1", seed=1)
    result = step.search(state, Budget(playouts=200))
    assert row_col(result.move, 15)[::-1] in {(4, 5), (8, 5)}


def double_three_position():
    """Black to move can make two open threes at once at (7, 5) (x, y): a threat move."""
    state = GameConfig("gobang", 15).new_state()
    for b, w in (((5, 5), (1, 1)), ((6, 5), (1, 13)), ((7, 6), (13, 13)), ((7, 7), (13, 1))):
        state.play(point(b[1], b[0], 15))
        state.play(point(w[1], w[0], 15))
    return state


def test_a_threat_move_is_found_and_played_and_stopped():
    state = double_three_position()
    assert threat_move(state, BLACK, 12, 5_000) == point(5, 7, 15)
    assert threat_move(state, WHITE, 12, 5_000) == PASS
    # each answer of white leaves black a VCF: the proof the kernel claims
    after = state.clone()
    after.play(point(5, 7, 15))
    for p in np.flatnonzero(near_mask(after, 2)):
        answered = after.clone()
        answered.play(int(p))
        assert vcf_line(answered, 12, 20_000, BLACK), row_col(int(p), 15)
    result = registry.make("uct:vcf=1:vct=1", seed=1).search(state, Budget(playouts=100))
    assert result.move == point(5, 7, 15) and result.playouts == 0
    # white to move (a pass of black's turn): it must stop the threat, so its root keeps
    # the threat point, its lines, and its own fours (none here)
    state.to_play = WHITE
    kept = threat_defences(state, point(5, 7, 15))
    assert kept[point(5, 7, 15)] and kept[point(5, 4, 15)] and not kept[point(10, 10, 15)]
    result = registry.make("uct:vcf=1:vct=1", seed=1).search(state, Budget(playouts=200))
    assert kept[result.move]


def test_threat_options_sit_beside_the_back_ends():
    searcher = registry.make("shot:vcf_nodes=500", seed=1)
    assert searcher.options()["vcf_nodes"] == 500 and "c" not in searcher.options()
    assert searcher.options()["vcf"] is False
    searcher.set_option("vcf", "1")
    assert searcher.options()["vcf"] is True
    with pytest.raises(ValueError, match="vcf_depth"):
        searcher.set_option("vcf_depth", "0")
    assert "vcf" in registry.option_names("linuct-plain")


# -- threat proofs of tree leaves ------------------------------------------------------------------

def leaf_after(state, move):
    """A pool whose root is ``state``, and the path to the child for ``move``."""
    pool = NodePool(10_000)
    cand = np.empty(state.s.shape[1] + 1, dtype=np.int32)
    expand(pool.ti, pool.tf, pool.tmeta, 0, game.GOBANG, state.s, state.meta, make_rng(1),
           cand,
           np.zeros(0, dtype=np.uint8))
    child = pool._child(0, move)
    after = state.clone()
    after.play(move)
    return pool, np.array([0, child], dtype=np.int32), after


def prove(pool, path, mover, after):
    return prove_by_threats(pool.ti, path, 1, mover, after.s, after.meta, 1000,
                            np.zeros(2 * DEPTH + 3, dtype=np.int32),
                            np.empty(after.s.shape[1], dtype=np.int32))


def test_a_double_four_proves_the_leaf_won_and_the_root_lost():
    state = GameConfig("gobang", 9).new_state()
    for v in ["B5", "A1", "C5", "A2", "D5", "A3", "E2", "J9", "E3", "J8", "E4", "J7"]:
        state.play(from_gtp(v, 9))
    pool, path, after = leaf_after(state, from_gtp("E5", 9))   # fours on row 5, column E
    assert prove(pool, path, BLACK, after) == WIN
    assert pool.ti[PROVEN, path[1]] == WIN and pool.ti[PROVEN, 0] == LOSS


def test_a_vcf_for_the_side_to_move_proves_the_leaf_lost():
    rng = np.random.default_rng(11)
    while True:
        state = clustered_game(rng, None, "freestyle", 9, 20)
        if state is None:
            continue
        mover = state.to_play
        quiet = [int(p) for p in candidates(state)]
        after = state.clone()
        after.play(quiet[0])
        if not after.is_terminal() and kernel_vcf(after)[0] != PASS:
            break
    pool, path, after = leaf_after(state, quiet[0])
    assert prove(pool, path, mover, after) == LOSS
    assert pool.ti[PROVEN, path[1]] == LOSS


def test_go_leaves_are_left_alone():
    state = GameConfig("go", 9).new_state()
    pool, path, after = leaf_after(state, point(4, 4, 9))
    assert prove(pool, path, BLACK, after) == 0
