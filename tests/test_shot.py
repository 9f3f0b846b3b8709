"""SHOT: the compiled, explicit-stack search against a plain recursive Python transcription
of the pseudo-code in docs/algorithms.md section 6 (same rule kernels, same random stream, so
the trees must agree to the last visit), plus the budget arithmetic and the persistence
of statistics across calls."""

import math

import numpy as np
import pytest

from engine.game import registry as game_registry
from engine.game.coords import PASS, from_gtp
from engine.core import game
from engine.core.layout import BLACK, M_TO_PLAY, WHITE
from engine.core.rng import make_rng, rand_below
from engine.game.go_state import GoState
from engine.game.gobang_state import GobangState
from engine.game.rules import GobangRules, GoRules
from engine.search import decide, registry, shot
from engine.search.base import Budget
from engine.search.tree import MOVE, SPENT, T_CHOICE, VISITS, WINS


class RefNode:
    def __init__(self, move):
        self.move = move
        self.children: list[RefNode] = []
        self.visits = 0
        self.wins = 0.0
        self.spent = 0

    def mean(self):
        return self.wins / self.visits if self.visits else None

    def count(self):
        return 1 + sum(c.count() for c in self.children)


class RefShot:
    """SHOT as written in docs/algorithms.md, recursive, with the interpretations documented in
    ``engine.search.shot_kernels`` (leaves and terminal nodes, tie order, root choice)."""

    def __init__(self, state, seed):
        self.g, self.zob, self.komi = game_registry.kernels(state), state.zob, state.komi
        self.rng = make_rng(seed)
        self.levels = min(shot.MAX_LEVELS, state.s.shape[1])
        self.root = RefNode(PASS)
        self.choice = None
        self.expand(self.root, state.s, state.meta, decide.root_allowed(state))

    def expand(self, node, s, meta, allow=None):
        cand = np.empty(s.shape[1] + 1, dtype=np.int32)
        moves = [int(m) for m in cand[:game.candidate_moves(self.g, s, meta, cand)]]
        if allow is not None:
            moves = [m for m in moves if m == PASS or allow[m]]
        for i in range(len(moves) - 1, 0, -1):
            r = rand_below(self.rng, i + 1)
            moves[i], moves[r] = moves[r], moves[i]
        node.children = [RefNode(m) for m in moves]

    @staticmethod
    def black_reward(winner):
        return {BLACK: 1.0, WHITE: 0.0, 0: 0.5}[int(winner)]

    @staticmethod
    def record(node, mover, used, black):
        node.visits += used
        node.wins += black if mover == BLACK else used - black

    def child_position(self, s, meta, move):
        s2, m2 = s.copy(), meta.copy()
        game.play(self.g, s2, m2, self.zob, move, m2[M_TO_PLAY])
        return s2, m2

    def shot(self, node, s, meta, budget, depth=0):
        mover = 3 - int(meta[M_TO_PLAY])
        if game.is_terminal(self.g, s, meta):
            black = budget * self.black_reward(game.terminal_winner(self.g, s, meta,
                                                                    self.komi))
            self.record(node, mover, budget, black)
            return budget, black
        if budget == 1 or depth + 2 >= self.levels:
            return self.leaf(node, s, meta, budget, mover)
        if not node.children:
            self.expand(node, s, meta)
            if not node.children:   # a decided Gobang position offers no move: a leaf
                return self.leaf(node, s, meta, budget, mover)
        used, black = 0, 0.0
        if len(node.children) == 1:
            child = node.children[0]
            used, black = self.shot(child, *self.child_position(s, meta, child.move), budget,
                                    depth + 1)
            if depth == 0:
                self.choice = child
        else:
            for child in node.children:
                if used >= budget:
                    break
                if child.visits == 0:
                    u, b = self.shot(child, *self.child_position(s, meta, child.move), 1,
                                     depth + 1)
                    used, black = used + u, black + b
            order = self.by_mean(node.children)
            log2k = math.ceil(math.log2(len(node.children)))
            b = 0
            while len(order) > 1 and used < budget:
                b += max(1, (node.spent + budget) // (len(order) * log2k))
                for j, child in enumerate(order):
                    if child.visits < b:
                        b1 = b - child.visits
                        if depth == 0 and len(order) == 2 and j == 0:
                            b1 = max(b1, budget - used - (b - order[1].visits))
                        b1 = min(b1, budget - used)
                        u, bl = self.shot(child, *self.child_position(s, meta, child.move),
                                          b1, depth + 1)
                        used, black = used + u, black + bl
                        if used >= budget:
                            break
                order = self.by_mean(order)[:(len(order) + 1) // 2]
            if depth == 0:
                self.choice = order[0]
        node.spent += used
        self.record(node, mover, used, black)
        return used, black

    @staticmethod
    def by_mean(nodes):
        return sorted(nodes, key=lambda c: -c.mean() if c.visits else 1.0)

    def leaf(self, node, s, meta, budget, mover):
        black = 0.0
        none = np.zeros(0, dtype=np.int8)
        for _ in range(budget):
            ps, pm = s.copy(), meta.copy()
            black += self.black_reward(game.playout_winner(self.g, ps, pm, self.zob,
                                                           self.rng, self.komi, none))
        self.record(node, mover, budget, black)
        return budget, black

    def search(self, state, budget):
        """What ShotSearcher does for a playout budget: calls until it is used."""
        done = 0
        while done < budget:
            used, _ = self.shot(self.root, state.s, state.meta, budget - done)
            done += used


def small_go():
    return GoState(GoRules(size=4, komi=0.5))


def small_gobang():
    state = GobangState(GobangRules(size=5))
    for move, color in (("C3", BLACK), ("B2", WHITE), ("C4", BLACK), ("D4", WHITE)):
        state.play(from_gtp(move, 5), color)
    return state


def assert_same_tree(searcher, ref):
    pool = searcher.pool
    kids = pool.children()
    assert [int(pool.ti[MOVE, c]) for c in kids] == [c.move for c in ref.root.children]
    assert [int(pool.ti[VISITS, c]) for c in kids] == [c.visits for c in ref.root.children]
    assert [float(pool.tf[WINS, c]) for c in kids] == [c.wins for c in ref.root.children]
    assert [int(pool.ti[SPENT, c]) for c in kids] == [c.spent for c in ref.root.children]
    assert int(pool.ti[SPENT, 0]) == ref.root.spent
    assert pool.used == ref.root.count()
    choice = int(pool.tmeta[T_CHOICE])
    assert (choice == -1 if ref.choice is None
            else int(pool.ti[MOVE, choice]) == ref.choice.move)
    assert searcher.rng[0] == ref.rng[0]


@pytest.mark.parametrize("make_state", [small_go, small_gobang])
@pytest.mark.parametrize("budget", [1, 5, 37, 300, 1500])
def test_compiled_shot_matches_the_pseudo_code(make_state, budget):
    state = make_state()
    searcher = registry.make("shot", seed=7)
    ref = RefShot(state, seed=7)
    for _ in range(2):   # the second call continues from the first one's statistics
        result = searcher.search(state, Budget(playouts=budget))
        ref.search(state, budget)
        assert result.playouts == budget
        assert_same_tree(searcher, ref)


def test_first_round_gives_every_root_move_its_share():
    state = GoState(GoRules(size=9))
    budget = 20_000
    searcher = registry.make("shot", seed=3)
    result = searcher.search(state, Budget(playouts=budget))
    kids = searcher.pool.children()
    visits = searcher.pool.ti[VISITS, kids]
    k = len(kids)
    assert visits.min() >= budget // (k * math.ceil(math.log2(k)))
    assert visits.sum() == budget == result.playouts
    # the halving rounds leave the two finalists with most of the budget
    top_two = np.sort(visits)[-2:].sum()
    assert top_two > budget / math.ceil(math.log2(k))


@pytest.mark.parametrize("budget", [2, 3, 10, 99, 1000, 5000])
def test_playouts_used_equal_the_budget(budget):
    result = registry.make("shot", seed=1).search(GoState(GoRules(size=9)),
                                                  Budget(playouts=budget))
    assert result.playouts == budget


def test_statistics_persist_across_calls():
    state = GoState(GoRules(size=9))
    searcher = registry.make("shot", seed=4)
    searcher.search(state, Budget(playouts=600))
    kids = searcher.pool.children()
    before = searcher.pool.ti[VISITS, kids].copy()
    searcher.search(state, Budget(playouts=600))
    after = searcher.pool.ti[VISITS, kids]
    assert after.sum() == 1200
    assert int(searcher.pool.ti[SPENT, 0]) == 1200
    assert (after >= before).all()


def gobang_open_four():
    """Black to move with an open four on 10x10: B3 and G3 each make five and end the game."""
    state = gobang_lost_to_an_open_four()
    state.play(from_gtp("H8", 10), WHITE)
    return state


def gobang_lost_to_an_open_four():
    """White to move against an open four: every move loses to a five at depth 2."""
    state = GobangState(GobangRules(size=10))
    for move in ("C3", "C7", "D3", "D7", "E3", "E7", "F3"):
        state.play(from_gtp(move, 10))
    return state


@pytest.mark.parametrize("make_state", [gobang_open_four, gobang_lost_to_an_open_four])
@pytest.mark.parametrize("budget", [Budget(seconds=0.2), Budget(sim_moves=200_000)])
def test_terminal_nodes_do_not_inflate_a_time_or_moves_budget(make_state, budget):
    """Terminal nodes take a call's budget whole, at no cost: the speed that sizes the calls
    of a time or moves budget must not count it, or the calls grow without end (the search
    once reported 2^63 - 1 playouts, its root children's int32 visits wrapped)."""
    state = make_state()
    registry.make("shot", seed=5).search(state, Budget(playouts=50))   # compiled before the clock
    result = registry.make("shot", seed=5).search(state, budget)
    visits = [c.visits for c in result.candidates]
    assert 0 < result.playouts < 10_000_000   # far above what 0.2 s can simulate
    assert sum(visits) == result.playouts and min(visits) >= 0
    if make_state is gobang_open_four:
        assert result.move in (from_gtp("B3", 10), from_gtp("G3", 10))
