"""UCT: the selection rule and the AMAF backup against the formulas written out in Python,
a full pool, tree reuse across moves, RAVE on and off, and the two final-move rules."""

import math

import numpy as np
import pytest

from engine.game.coords import PASS, RESIGN, from_gtp
from engine.core.layout import BLACK, WHITE
from engine.game.go_state import GoState
from engine.game.registry import GameConfig
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules, GoRules
from engine.search import registry, uct_kernels
from engine.search.base import Budget
from engine.search.searcher import settled
from engine.search.tree import (AMAF_N, AMAF_W, FIRST, LOSS, MOVE, NCHILD, PROVEN, TF_ROWS,
                                TI_ROWS, VISITS, WIN, WINS)

EXPAND_AFTER = 10   # UctOptions' default, which the reuse arithmetic below relies on


def go9():
    return GoState(GoRules(size=9))


def hand_tree(stats):
    """A root (node 0) whose children 1.. have (move, visits, wins, amaf_n, amaf_w)."""
    k = len(stats)
    ti = np.zeros((TI_ROWS, k + 1), dtype=np.int32)
    tf = np.zeros((TF_ROWS, k + 1))
    ti[FIRST, 0], ti[NCHILD, 0] = 1, k
    ti[FIRST, 1:] = -1
    for i, (move, n, w, an, aw) in enumerate(stats, start=1):
        ti[MOVE, i], ti[VISITS, i], tf[WINS, i], ti[AMAF_N, i], tf[AMAF_W, i] = move, n, w, an, aw
    ti[VISITS, 0] = sum(s[1] for s in stats) + 1
    return ti, tf


def ucb_reference(ti, tf, c, rave, k):
    """Argmax of the documented values; unvisited children without AMAF data first."""
    big_n = ti[VISITS, 0]
    values = []
    for i in range(1, ti.shape[1]):
        n, an = ti[VISITS, i], ti[AMAF_N, i]
        if n == 0 and not (rave and an > 0):
            return i
        explore = c * math.sqrt(math.log(big_n)) / math.sqrt(max(n, 1))
        if rave and an > 0:
            qa = tf[AMAF_W, i] / an
            if n == 0:
                values.append(qa + explore)
                continue
            beta = math.sqrt(k / (3 * n + k))
            values.append(beta * qa + (1 - beta) * tf[WINS, i] / n + explore)
        else:
            values.append(tf[WINS, i] / n + explore)
    return 1 + int(np.argmax(values))


@pytest.mark.parametrize("rave", [False, True])
@pytest.mark.parametrize("c", [0.0, 0.7, 2.0])
def test_selection_follows_the_formula(rave, c):
    rng = np.random.default_rng(5)
    for _ in range(50):
        k = int(rng.integers(2, 12))
        stats = []
        for m in range(k):
            n = int(rng.integers(1, 50))
            an = int(rng.integers(0, 80))
            stats.append((20 + m, n, float(rng.integers(0, n + 1)), an,
                          float(rng.integers(0, an + 1))))
        ti, tf = hand_tree(stats)
        got = uct_kernels.select_child(ti, tf, 0, c, rave, 1000.0, False)
        assert got == ucb_reference(ti, tf, c, rave, 1000.0)


def test_unvisited_children_come_first_in_block_order():
    ti, tf = hand_tree([(20, 5, 5.0, 0, 0.0), (21, 0, 0.0, 0, 0.0), (22, 0, 0.0, 0, 0.0)])
    assert uct_kernels.select_child(ti, tf, 0, 0.7, False, 1000.0, False) == 2
    # with RAVE an unvisited child with AMAF data competes on its AMAF mean instead
    ti, tf = hand_tree([(20, 5, 5.0, 0, 0.0), (21, 0, 0.0, 4, 0.0), (22, 0, 0.0, 0, 0.0)])
    assert uct_kernels.select_child(ti, tf, 0, 0.7, True, 1000.0, False) == 3


def test_the_solver_takes_a_proven_win_and_skips_proven_losses():
    ti, tf = hand_tree([(20, 9, 9.0, 0, 0.0), (21, 1, 0.0, 0, 0.0), (22, 1, 0.0, 0, 0.0)])
    best = uct_kernels.select_child(ti, tf, 0, 0.7, False, 1000.0, True)
    assert best == 1                               # the most rewarding, nothing proven
    ti[PROVEN, 1] = LOSS
    assert uct_kernels.select_child(ti, tf, 0, 0.7, False, 1000.0, True) != 1
    ti[PROVEN, 3] = WIN
    assert uct_kernels.select_child(ti, tf, 0, 0.7, False, 1000.0, True) == 3
    assert uct_kernels.select_child(ti, tf, 0, 0.7, False, 1000.0, False) == 1   # solver off


def amaf_tree():
    """root (black to move) -> child 1 (black at 20) -> its child 4 (white at 30); the
    root's children play 20, 21, 22, node 1's 30, 31, 20."""
    ti = np.zeros((TI_ROWS, 7), dtype=np.int32)
    tf = np.zeros((TF_ROWS, 7))
    ti[FIRST], ti[NCHILD] = -1, 0
    ti[FIRST, 0], ti[NCHILD, 0] = 1, 3
    ti[MOVE, 1:4] = [20, 21, 22]
    ti[FIRST, 1], ti[NCHILD, 1] = 4, 3
    ti[MOVE, 4:7] = [30, 31, 20]
    return ti, tf


def test_amaf_backup_credits_first_plays_by_the_side_to_move():
    ti, tf = amaf_tree()
    amaf = np.zeros(40, dtype=np.int32)     # colours alone: every first play at ply 0
    amaf[22] = BLACK      # black played 22 in the playout: credits root child 22
    amaf[31] = WHITE      # white played 31 in the playout: credits child 1's child 31
    amaf[21] = WHITE      # white played 21: no credit at the root (black's choice)
    path = np.array([0, 1, 4], dtype=np.int32)
    uct_kernels.backup(ti, tf, path, 2, BLACK, BLACK, True, amaf)   # black won
    assert list(ti[VISITS, [0, 1, 4]]) == [1, 1, 1]
    assert list(tf[WINS, [0, 1, 4]]) == [0.0, 1.0, 0.0]   # each from its mover's view
    # children of node 1 (white to move): 30 (the tree move) and 31; 20 was black's
    assert list(ti[AMAF_N, 4:7]) == [1, 1, 0]
    assert list(tf[AMAF_W, 4:7]) == [0.0, 0.0, 0.0]       # white lost
    # root children (black to move): 20 (tree move) and 22 (playout); 21 was white's
    assert list(ti[AMAF_N, 1:4]) == [1, 0, 1]
    assert list(tf[AMAF_W, 1:4]) == [1.0, 0.0, 1.0]


def test_rave_distance_weighs_early_first_plays_as_pachi_does():
    # amaf_tree's simulation began at ply 0 (black's 20), white's 30 at ply 1, and ended
    # at ply 10; the playout's black 22 at ply 6, white 31 at ply 9
    ti, tf = amaf_tree()
    amaf = np.zeros(40, dtype=np.int32)
    amaf[22] = BLACK + 4 * 6
    amaf[31] = WHITE + 4 * 9
    path = np.array([0, 1, 4], dtype=np.int32)
    uct_kernels.backup(ti, tf, path, 2, BLACK, BLACK, True, amaf, 1, 3, 0, 10)

    def weight(first, start, end=10):   # Pachi's integer formula, distance_rave = 3
        return 1 + 3 * (end - first) // (end - start + 1)
    # node 1's children are played at ply 1: 30 (the tree move, ply 1), 31 (ply 9)
    assert list(ti[AMAF_N, 4:7]) == [weight(1, 1), weight(9, 1), 0] == [3, 1, 0]
    # the root's at ply 0: 20 (the tree move, ply 0), 22 (ply 6)
    assert list(ti[AMAF_N, 1:4]) == [weight(0, 0), 0, weight(6, 0)] == [3, 0, 2]
    assert list(tf[AMAF_W, 1:4]) == [3.0, 0.0, 2.0]       # black won: every sample a win
    assert list(tf[AMAF_W, 4:7]) == [0.0, 0.0, 0.0]


def test_rave_distance_plays_and_keeps_its_seed():
    state = go9()
    options = {"rave": "1", "rave_distance": "3", "playout": "heavy"}
    moves = [registry.make("uct", seed=4, options=options).search(state, Budget(playouts=600))
             for _ in range(2)]
    assert moves[0].move == moves[1].move and state.is_legal(moves[0].move)
    assert moves[0].playouts == 600

def test_a_full_pool_keeps_searching():
    searcher = registry.make("uct", seed=1, options={"max_nodes": "1000"})
    state = go9()
    result = searcher.search(state, Budget(playouts=5000))
    assert result.playouts == 5000
    assert result.nodes <= 1000
    assert sum(c.visits for c in result.candidates) == 5000
    assert state.is_legal(result.move)


def test_tree_reuse_keeps_the_played_childs_statistics():
    state = go9()
    searcher = registry.make("uct", seed=2)
    ours = searcher.search(state, Budget(playouts=3000)).candidates[0]
    assert ours.visits > EXPAND_AFTER
    searcher.notify_play(state, ours.move, state.to_play)
    state.play(ours.move)
    second = searcher.search(state, Budget(playouts=100))
    # a node's visits are its EXPAND_AFTER visits as a leaf plus its children's
    assert sum(c.visits for c in second.candidates) == ours.visits - EXPAND_AFTER + 100


def test_tree_reuse_follows_our_move_and_the_reply():
    state = GoState(GoRules(size=5))
    searcher = registry.make("uct", seed=2)
    ours = searcher.search(state, Budget(playouts=3000)).candidates[0]
    pool = searcher.pool
    child = pool.children()[pool.ti[MOVE, pool.children()] == ours.move][0]
    reply = pool.children(child)[pool.ti[MOVE, pool.children(child)] == ours.pv[1]][0]
    kept = int(pool.ti[VISITS, reply])
    assert kept > EXPAND_AFTER
    for move in ours.pv[:2]:
        searcher.notify_play(state, move, state.to_play)
        state.play(move)
    second = searcher.search(state, Budget(playouts=100))
    assert sum(c.visits for c in second.candidates) == kept - EXPAND_AFTER + 100


def test_tree_is_dropped_when_the_position_does_not_match():
    state = go9()
    searcher = registry.make("uct", seed=2)
    first = searcher.search(state, Budget(playouts=2000))
    other = go9()
    other.play(from_gtp("A1", 9))
    searcher.notify_play(other, first.move, other.to_play)   # not the searched position
    state.play(first.move)
    second = searcher.search(state, Budget(playouts=100))
    assert sum(c.visits for c in second.candidates) == 100


@pytest.mark.parametrize("rave", ["0", "1"])
def test_rave_on_and_off_both_find_the_win(rave):
    state = GobangState(GobangRules(size=10))
    for move, color in (("C5", BLACK), ("B5", WHITE), ("D5", BLACK), ("C8", WHITE),
                        ("E5", BLACK), ("D8", WHITE), ("F5", BLACK), ("E8", WHITE),
                        ("B8", BLACK), ("F8", WHITE)):
        state.play(from_gtp(move, 10), color)
    searcher = registry.make("uct", seed=3, options={"rave": rave, "c": "0.3"})
    result = searcher.search(state, Budget(playouts=3000))
    assert result.move == from_gtp("G5", 10)
    amaf = searcher.pool.ti[AMAF_N, searcher.pool.children()]
    assert (amaf.sum() > 0) == (rave == "1")


def test_rave_search_is_deterministic_and_legal_on_go():
    def run():
        searcher = registry.make("uct", seed=8, options={"rave": "1"})
        r = searcher.search(go9(), Budget(playouts=2000))
        return r.move, [(c.move, c.visits, c.winrate) for c in r.candidates]
    a, b = run(), run()
    assert a == b
    assert go9().is_legal(a[0]) and a[0] != PASS


def test_final_rule_most_visited_or_highest_mean():
    # seed 0 and 400 playouts: a search where the two rules disagree
    by_visits = registry.make("uct", seed=0).search(go9(), Budget(playouts=400))
    by_mean = registry.make("uct", seed=0, options={"final": "mean"}).search(
        go9(), Budget(playouts=400))
    assert by_visits.candidates == by_mean.candidates   # the same search
    cands = by_visits.candidates
    assert by_visits.move == cands[0].move
    best_mean = max(c.winrate for c in cands)
    assert by_mean.winrate == best_mean
    assert by_mean.move == next(c.move for c in cands if c.winrate == best_mean)
    assert by_mean.move != by_visits.move


def play_against_random(searcher, uct_color: int, playouts: int, seed: int) -> int:
    """One 9x9 game, komi 7.5, UCT against a uniformly random player (legal moves that do
    not fill its own eye; pass when none is left).  Returns the winner."""
    rng = np.random.default_rng(seed)
    state = go9()
    searcher.reset()
    while not state.is_terminal() and state.move_count < 3 * 81:
        color = state.to_play
        if color == uct_color:
            move = searcher.search(state, Budget(playouts=playouts)).move
            if move == RESIGN:
                return 3 - uct_color
        else:
            moves = [int(p) for p in state.legal_moves() if not state.is_eye(int(p), color)]
            move = int(rng.choice(moves)) if moves else PASS
        searcher.notify_play(state, move, color)
        state.play(move, color)
    return state.winner()


@pytest.mark.slow
def test_uct_at_10k_playouts_beats_a_random_player():
    searcher = registry.make("uct", seed=1)
    games = 100
    wins = sum(play_against_random(searcher, BLACK if g % 2 == 0 else WHITE, 10_000, g)
               == (BLACK if g % 2 == 0 else WHITE) for g in range(games))
    assert wins >= 98


def test_the_most_visited_move_is_settled_when_no_playouts_left_could_pass_it():
    assert settled(np.array([50, 10, 3]), 39) and not settled(np.array([50, 10, 3]), 40)
    assert settled(np.array([7]), 10**6)           # a single move: nothing to choose
    assert not settled(np.array([], dtype=np.int32), 0)


def test_stop_early_ends_a_timed_search_whose_move_is_settled():
    """A forced Gobang win: the tree offers the winning point alone, so a clocked search
    with stop_early answers after its first chunk; without, it spends the whole budget.
    A budget of playouts alone is never cut (experiments keep their exact budgets)."""
    state = GameConfig("gobang", 9).new_state()
    for black, white in (("C3", "C7"), ("D3", "D7"), ("E3", "E7"), ("F3", "G3")):
        state.play(from_gtp(black, 9))
        state.play(from_gtp(white, 9))
    clock = Budget(playouts=100_000, seconds=60)
    early = registry.make("uct:stop_early=1", seed=1).search(state, clock)
    full = registry.make("uct", seed=1).search(state, clock)
    assert early.move == full.move == from_gtp("B3", 9)
    assert early.playouts < 1000 and full.playouts == 100_000
    fixed = registry.make("uct:stop_early=1", seed=1).search(state, Budget(playouts=5000))
    assert fixed.playouts == 5000
    # a byo-yomi period that restarts with every move: nothing to save the time for
    kept = registry.make("uct:stop_early=1", seed=1).search(
        state, Budget(playouts=100_000, seconds=60, spend_all=True))
    assert kept.move == early.move and kept.playouts == 100_000
