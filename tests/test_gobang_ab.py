"""Gobang alpha-beta (engine.core.gobang_ab, back end ``ab``): the window counts kept as
stones come and go equal a recount; its verdicts on wins within three plies equal a
brute-force search of every move and reply; a win by continuous fours that
``gobang_vcf`` proves is seen from a one-ply search; the back end keeps to its budgets,
plays a win at once and refuses Go."""

import threading
import time

import numpy as np
import pytest

from engine.core import gobang_ab as ab
from engine.core.gobang_vcf import find_vcf
from engine.core.layout import BLACK, BOARD, EMPTY, GOBANG_FREESTYLE, M_TO_PLAY, WHITE
from engine.game.coords import point
from engine.search import registry
from engine.search.base import Budget
from test_gobang_threats import (from_picture, grid_of, random_position,
                                 reference_winning_points)

NO_MASK = np.zeros(0, dtype=np.uint8)


def recount(board, cells):
    """cnt, val, n4, n3 of ``gobang_ab`` from scratch."""
    cnt = np.zeros((3, cells.shape[0]), dtype=np.int32)
    val, n4, n3 = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    for wi, row in enumerate(cells):
        for q in row:
            if board[q] in (1, 2):
                cnt[board[q], wi] += 1
        for c in (1, 2):
            if cnt[3 - c, wi] == 0:
                val[c] += int(ab.EVAL[cnt[c, wi]])
                n4[c] += cnt[c, wi] == 4
                n3[c] += cnt[c, wi] == 3
    return cnt, val, n4, n3


def test_window_counts_kept_by_touch_equal_a_recount():
    n = 9
    cells, through, count = ab.window_tables(n)
    rng = np.random.default_rng(5)
    board = np.full((n + 2) ** 2, 3, dtype=np.int32)
    points = [point(r, c, n) for r in range(n) for c in range(n)]
    board[points] = EMPTY
    sums = ab.new_sums(cells.shape[0])
    cnt, val, n4, n3, live, at = sums
    ab.tally(board, cells, *sums)
    placed = []
    for step in range(300):
        if placed and (rng.random() < 0.4 or len(placed) > 40):
            p, c = placed.pop(rng.integers(len(placed)))
            board[p] = EMPTY
            ab._touch(p, c, -1, cnt, through, count, val, n4, n3, live, at)
        else:
            p = int(rng.choice([q for q in points if board[q] == EMPTY]))
            c = int(rng.integers(1, 3))
            board[p] = c
            ab._touch(p, c, 1, cnt, through, count, val, n4, n3, live, at)
            placed.append((p, c))
        ref = recount(board, cells)
        assert (cnt == ref[0]).all()
        assert list(val) == ref[1] and list(n4) == ref[2] and list(n3) == ref[3]
        for c in (1, 2):   # the lists hold exactly the live threes and fours
            for j, k, n_k in ((0, 3, n3), (1, 4, n4)):
                listed = sorted(live[c, j, :n_k[c]])
                assert listed == [wi for wi in range(cells.shape[0])
                                  if ref[0][c, wi] == k and ref[0][3 - c, wi] == 0]
                assert all(at[c, j, wi] == i for i, wi in enumerate(live[c, j, :n_k[c]]))


def search(s, meta, zob, n, depth, width=ab.MAX_MOVES, q_depth=12, nodes=10**9, vct_depth=0,
           lmr=0):
    cells, through, count = ab.window_tables(n)
    entries = 1 << 16
    tt = (np.zeros(entries, np.int64), np.zeros(entries, np.int64))
    pv = np.zeros(ab.MAX_PLY, dtype=np.int32)
    move, score, used, complete, n_pv = ab.search(
        s[BOARD], n + 2, False, False, False, int(meta[M_TO_PLAY]), depth, width, 0,
        q_depth, vct_depth, width, lmr, NO_MASK, cells, through, count, zob, *tt,
        np.zeros(1, np.uint8), nodes, pv)
    return int(move), int(score), complete, [int(m) for m in pv[:n_pv]]


def brute_win_within_three(s, n, c):
    """Whether ``c`` to move makes five now, or has a move after which it holds two
    winning points and the opponent none (a single one is blocked; a reply cannot take
    two away, nor make one of ours): every empty point tried, by a whole-board scan."""
    grid = grid_of(s, n)
    if reference_winning_points(grid, c, False):
        return True
    for r in range(n):
        for cc in range(n):
            if grid[r][cc] != EMPTY:
                continue
            grid[r][cc] = c
            if len(reference_winning_points(grid, c, False)) >= 2 and \
                    not reference_winning_points(grid, 3 - c, False):
                return True
            grid[r][cc] = EMPTY
    return False


def test_wins_within_three_plies_agree_with_brute_force():
    rng = np.random.default_rng(11)
    n = 9
    agree = {True: 0, False: 0}
    for trial in range(200):
        s, meta, zob = random_position(rng, n, GOBANG_FREESTYLE, 6 + trial % 14)
        brute = brute_win_within_three(s, n, int(meta[M_TO_PLAY]))
        _, score, complete, _ = search(s, meta, zob, n, depth=2, q_depth=0)
        assert complete
        assert (score >= ab.WIN - 2) == brute, trial
        agree[brute] += 1
    assert agree[True] >= 10 and agree[False] >= 10   # both verdicts were tested


def test_threat_points_from_the_threes_equal_a_brute_force_of_every_point():
    """A threat point (a stone that makes two winning points, with none before) is found
    from the live threes' empty cells; a brute force places a stone on every empty point
    and counts its fives."""
    rng = np.random.default_rng(11)
    n = 11
    cells, through, count = ab.window_tables(n)
    tested = 0
    for trial in range(150):
        s, meta, _ = random_position(rng, n, GOBANG_FREESTYLE, 8 + trial % 24)
        board = s[BOARD].copy()
        sums = ab.new_sums(cells.shape[0])
        cnt, val, n4, n3, live, at = sums
        ab.tally(board, cells, *sums)
        other = np.full(board.shape[0], -1, dtype=np.int32)
        touched = np.zeros(board.shape[0], dtype=np.int32)
        for c in (BLACK, WHITE):
            grid = grid_of(s, n)
            if reference_winning_points(grid, c, False):
                continue   # a four already: the search never asks for its threat points
            brute = set()
            for r in range(n):
                for col in range(n):
                    if grid[r][col] == EMPTY:
                        grid[r][col] = c
                        if len(reference_winning_points(grid, c, False)) >= 2:
                            brute.add(point(r, col, n))
                        grid[r][col] = EMPTY
            k = ab._find_threat_points(board, cells, n3, live, c, other, touched)
            assert {int(t) for t in touched[:k] if other[t] == -2} == brute, trial
            ab._clear(other, touched, k)
            assert (other == -1).all()
            t = ab._threat_point(board, cells, n3, live, c, other, touched)
            assert (t in brute) if brute else t == -1
            tested += bool(brute)
    assert tested >= 20


def test_a_win_by_continuous_fours_is_seen_from_one_ply():
    rng = np.random.default_rng(3)
    n = 11
    seen = 0
    for trial in range(400):
        s, meta, zob = random_position(rng, n, GOBANG_FREESTYLE, 10 + trial % 20)
        line = np.zeros(2 * 8 + 3, dtype=np.int32)
        move, length, _ = find_vcf(s, meta, int(meta[M_TO_PLAY]), 4, 100_000, line)
        if move < 0 or length == 1:   # no VCF, or a five at once
            continue
        _, score, complete, _ = search(s, meta, zob, n, depth=1, q_depth=8, nodes=10**6)
        assert complete and score > ab.MATE, trial
        seen += 1
    assert seen >= 10


def test_wins_by_threes_at_the_leaves_hold_against_every_defence():
    """Threes in the leaves (``vct_depth``) only add wins, and a short one is confirmed by a
    search whose defender, wherever no open four threatens, tries every near point."""
    rng = np.random.default_rng(5)
    n = 11
    confirmed = 0
    for trial in range(240):
        s, meta, zob = random_position(rng, n, GOBANG_FREESTYLE, 10 + trial % 20)
        if brute_win_within_three(s, n, int(meta[M_TO_PLAY])):
            continue
        _, fours, _, _ = search(s, meta, zob, n, depth=1, q_depth=12, nodes=10**6)
        _, threes, _, _ = search(s, meta, zob, n, depth=1, q_depth=12, vct_depth=4,
                                 nodes=10**6)
        assert threes > ab.MATE or fours <= ab.MATE, trial
        plies = ab.WIN - threes
        if fours <= ab.MATE < threes and plies <= 8:
            # deepened as the back end does: forced blocks spend no depth, so the proof
            # may come before depth ``plies``, and a deeper pass may outgrow the budget
            for depth in range(1, plies + 2):
                _, deep, complete, _ = search(s, meta, zob, n, depth=depth, q_depth=0,
                                              nodes=10**7)
                assert complete, trial
                if deep > ab.MATE:
                    break
            assert deep > ab.MATE, trial
            confirmed += 1
    assert confirmed >= 3


def test_the_search_answers_an_open_four_threat_and_keeps_its_principal_variation():
    n, s, meta, zob = from_picture("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X X . . . .
        . . . . O . . . .
        . . . . O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""", to_play=WHITE)
    move, score, complete, pv = search(s, meta, zob, n, depth=4)
    # white must stop black's open three at one of its ends (no four of its own to play)
    assert move in (point(3, 1, n), point(3, 5, n), point(3, 0, n), point(3, 6, n))
    assert pv[0] == move and complete and abs(score) < ab.MATE


def test_the_back_end_keeps_to_its_budgets_and_plays_a_win_at_once():
    from engine.game.gobang_state import GobangState
    from engine.game.rules import GobangRules
    state = GobangState(GobangRules(size=15))
    for p in (point(7, 7, 15), point(8, 8, 15), point(7, 8, 15), point(9, 9, 15)):
        state.play(p)
    searcher = registry.make("ab")
    first = searcher.search(state, Budget(playouts=20_000))
    again = registry.make("ab").search(state, Budget(playouts=20_000))
    assert first.move == again.move and state.is_legal(first.move)
    assert first.playouts <= 20_000
    t0 = time.perf_counter()
    timed = searcher.search(state, Budget(seconds=0.3))
    assert time.perf_counter() - t0 < 0.3 + 0.25 and state.is_legal(timed.move)
    stop = threading.Event()
    stop.set()
    assert state.is_legal(searcher.search(state, Budget(seconds=60), stop=stop).move)
    for p in (point(7, 9, 15), point(10, 10, 15), point(7, 10, 15), point(2, 2, 15)):
        state.play(p)
    won = registry.make("ab").search(state, Budget(seconds=5))
    assert won.move in (point(7, 6, 15), point(7, 11, 15)) and won.candidates[0].proven == 1


def test_the_back_end_refuses_go():
    from engine.game.go_state import GoState
    with pytest.raises(ValueError, match="Gobang only"):
        registry.make("ab").search(GoState(), Budget(playouts=10))


def test_the_brain_searches_by_alpha_beta_unless_told_otherwise():
    from engine.pbrain import parse_settings
    from engine.pbrain.memory import node_bytes
    from engine.search.alphabeta import TT_ENTRY_BYTES, AlphaBetaSearcher
    _, searcher = parse_settings([])
    options = searcher.options()
    assert isinstance(searcher, AlphaBetaSearcher) and node_bytes(searcher) == TT_ENTRY_BYTES
    assert options["vcf"] is True and options["near"] == 2
    assert options["vcf_defence"] is False and options["vct"] is False   # playout remedies
    assert options["resign_threshold"] == 0.0
    _, uct = parse_settings(["--algo", "uct"])
    assert uct.options()["vct"] is True and uct.options()["solver"] is True


def test_a_proof_from_a_narrow_search_holds_against_every_move():
    """A node that searches only its best ``width`` moves proves nothing by losing with
    them all: it searches the rest before it counts as lost.  So every win or loss a
    search two moves wide reports, one that tries every near point reports too."""
    rng = np.random.default_rng(7)
    n = 11
    proofs = 0
    for trial in range(160):
        s, meta, zob = random_position(rng, n, GOBANG_FREESTYLE, 8 + trial % 16)
        _, narrow, complete, _ = search(s, meta, zob, n, depth=3, width=2, q_depth=4,
                                        nodes=10**6)
        if not complete or abs(narrow) <= ab.MATE:
            continue
        _, wide, complete, _ = search(s, meta, zob, n, depth=3, q_depth=4, nodes=10**7)
        assert complete and (wide > ab.MATE) == (narrow > ab.MATE) and \
            abs(wide) > ab.MATE, trial
        proofs += 1
    assert proofs >= 10
