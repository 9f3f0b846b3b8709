"""MCTS-Solver (``engine.search.solver``): proofs in the tree checked against exact minimax
on small Gobang endings, a proven win played at once, proven losses avoided; for UCT and
for LinUCT, whose iterations are UCT's (``engine.search.tree_search``)."""

from functools import lru_cache

import numpy as np
import pytest

from engine.game.coords import from_gtp
from engine.game.registry import GameConfig
from engine.search import registry
from engine.search.base import Budget
from engine.search.tree import LOSS, WIN

SOLVERS = ["uct", "linuct", "linuct:rave=1"]
# LinUCT without RAVE has no visit counts in its policy: it may never try the one winning
# move of a wide root, so the cases that need a given move found are UCT's and RAVE's


def gobang(size, moves):
    state = GameConfig("gobang", size).new_state()
    for v in moves:
        state.play(from_gtp(v, size))
    return state


def exact_value(state) -> int:
    """+1 when the side to move wins with best play, -1 when it loses, 0 for a draw: plain
    negamax over every move, memoised on the board."""
    size = state.size

    @lru_cache(maxsize=None)
    def value(board: bytes, to_move: int) -> int:
        s = GameConfig("gobang", size).new_state()
        grid = np.frombuffer(board, dtype=np.int8).reshape(size, size)
        for r, c in zip(*np.nonzero(grid)):
            s.play(int((r + 1) * (size + 2) + c + 1), int(grid[r, c]))
        s.to_play = to_move
        best = -2
        for p in s.legal_moves():
            s.play(int(p))
            if s.is_terminal():
                v = 1 if s.winner() == to_move else 0
            else:
                v = -value(s.board().tobytes(), 3 - to_move)
            s.undo()
            best = max(best, v)
            if best == 1:
                break
        return 0 if best == -2 else best

    return value(state.board().tobytes(), state.to_play)


def random_ending(rng, size=5, stones=18):
    """A position of ``stones`` random moves that nobody has won yet."""
    while True:
        state = GameConfig("gobang", size).new_state()
        for _ in range(stones):
            moves = state.legal_moves()
            state.play(int(moves[rng.integers(len(moves))]))
            if state.is_terminal():
                break
        if not state.is_terminal():
            return state


def assert_children_proofs_exact(state, pool):
    """Every root child the search proved won or lost (for the player who moves into
    it) is so by exact minimax."""
    for child in pool.children():
        proven = pool.proven(int(child))
        if proven:
            after = state.clone()
            after.play(pool.candidate(int(child)).move)
            value = 1 if after.is_terminal() and after.winner() else (
                0 if after.is_terminal() else -exact_value(after))
            assert value == (1 if proven == WIN else -1)


@pytest.mark.parametrize("algo", ["uct", "linuct:rave=1"])
def test_a_win_in_one_is_proven_and_played_at_once(algo):
    state = gobang(9, ["C5", "C3", "D5", "D3", "E5", "E3", "F5", "J9"])   # black to move
    # the tree's own proof, not the root threat search's (``vcf=0``)
    result = registry.make(f"{algo}:solver=1:vcf=0", seed=1).search(state,
                                                                 Budget(playouts=5000))
    assert result.move in (from_gtp("B5", 9), from_gtp("G5", 9))
    assert result.candidates[0].move == result.move and result.candidates[0].proven == 1
    assert result.playouts < 5000           # the search stopped once the root was settled


@pytest.mark.parametrize("algo", SOLVERS)
def test_without_the_solver_nothing_is_proven(algo):
    state = gobang(9, ["C5", "C3", "D5", "D3", "E5", "E3", "F5", "J9"])
    result = registry.make(f"{algo}:vcf=0", seed=1).search(state, Budget(playouts=2000))
    assert result.playouts == 2000 and all(c.proven == 0 for c in result.candidates)


def test_an_open_four_against_us_proves_every_move_lost():
    state = gobang(9, ["C5", "A1", "D5", "A3", "E5", "J1", "F5"])   # white to move
    searcher = registry.make("uct:solver=1:expand_after=1", seed=2)
    result = searcher.search(state, Budget(playouts=50000))
    assert searcher.pool.proven(0) == WIN                # for black, who moved last
    assert result.candidates and all(c.proven == -1 for c in result.candidates)
    assert result.playouts < 50000


# endings of 18 stones (7 empty points) are mostly won or lost at once; of 15 stones
# (10 empty points), this seed gives a draw where the solver proves all but the drawing
# move lost: proofs that need the opponent's best reply
@pytest.mark.parametrize("algo", SOLVERS)
@pytest.mark.parametrize("stones, seed", [(18, s) for s in range(4)] + [(15, 14)])
def test_proofs_agree_with_exact_minimax(algo, stones, seed):
    state = random_ending(np.random.default_rng(seed), stones=stones)
    searcher = registry.make(f"{algo}:solver=1:expand_after=1:vcf=0", seed=seed)
    searcher.search(state, Budget(playouts=50000))
    pool = searcher.pool
    truth = exact_value(state)
    root = pool.proven(0)          # from the view of the player who moved last
    assert root in (0, WIN, LOSS)
    if root:
        assert truth == (1 if root == LOSS else -1)
    elif truth != 0:
        pytest.fail(f"a decided ending ({truth}) left unproven on a tiny board")
    assert_children_proofs_exact(state, pool)
