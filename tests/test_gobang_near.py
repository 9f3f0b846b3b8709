"""Gobang's ``near`` option (``engine.search.threats_first``): the root offers only the empty
points within N king moves of a stone, the centre on an empty board; the kept tree
survives the moves played; Go and the papers' back ends are untouched."""

import numpy as np
import pytest

from engine.game.coords import from_gtp, point
from engine.game.registry import GameConfig
from engine.search import registry
from engine.search.base import Budget
from engine.search.threats_first import near_mask

from test_solver import random_ending


def reference_near(state, distance):
    """The mask written the plain way: every empty point, is there a stone close enough."""
    n = state.size
    board = state.board()
    stones = [(r, c) for r in range(n) for c in range(n) if board[r, c]]
    mask = np.zeros(state.s.shape[1], dtype=np.uint8)
    if not stones:
        mask[point(n // 2, n // 2, n)] = 1
    for r in range(n):
        for c in range(n):
            if not board[r, c] and any(max(abs(r - a), abs(c - b)) <= distance
                                       for a, b in stones):
                mask[point(r, c, n)] = 1
    return mask


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("distance", [1, 2, 3])
def test_the_mask_is_the_neighbourhood_of_the_stones(seed, distance):
    rng = np.random.default_rng(seed)
    for size, stones in ((7, 3), (15, 1), (15, 9), (10, 40)):
        state = random_ending(rng, size, stones)
        assert np.array_equal(near_mask(state, distance), reference_near(state, distance))


def test_an_empty_board_offers_its_centre():
    state = GameConfig("gobang", 15).new_state()
    assert np.flatnonzero(near_mask(state, 2)).tolist() == [from_gtp("H8", 15)]


def test_the_root_moves_stay_near_the_stones_and_the_tree_is_kept():
    state = GameConfig("gobang", 15).new_state()
    for move in ("H8", "J9", "G9"):
        state.play(from_gtp(move, 15))
    searcher = registry.make("uct:near=2", seed=1)
    first = searcher.search(state, Budget(playouts=600))
    near = near_mask(state, 2)
    assert {c.move for c in first.candidates} == set(np.flatnonzero(near))
    searcher.notify_play(state, first.move, state.to_play)
    state.play(first.move)
    reply = first.pv[1] if len(first.pv) > 1 else None
    if reply is None:
        pytest.skip("the search left no reply under its move")
    searcher.notify_play(state, reply, state.to_play)
    state.play(reply)
    second = searcher.search(state, Budget(playouts=600))
    assert searcher.kept   # the re-rooted tree served, cut down to the new neighbourhood
    assert {c.move for c in second.candidates} == set(np.flatnonzero(near_mask(state, 2)))


def test_without_near_every_move_is_searched_and_go_ignores_it():
    state = GameConfig("gobang", 9).new_state()
    state.play(from_gtp("E5", 9))
    plain = registry.make("uct", seed=1).search(state, Budget(playouts=300))
    assert len(plain.candidates) == 80
    go = GameConfig("go", 9).new_state()
    go.play(from_gtp("E5", 9))
    result = registry.make("uct:near=1", seed=1).search(go, Budget(playouts=300))
    assert len(result.candidates) == 81   # 80 points and the pass


def test_a_region_far_from_every_stone_is_searched_whole():
    state = GameConfig("gobang", 9).new_state()
    state.play(from_gtp("A1", 9))
    allowed = np.zeros(state.s.shape[1], dtype=np.uint8)
    for move in ("H8", "J9", "H9"):
        allowed[from_gtp(move, 9)] = 1
    result = registry.make("uct:near=1", seed=1).search(state, Budget(playouts=100),
                                                        allowed=allowed)
    assert {c.move for c in result.candidates} == set(np.flatnonzero(allowed))
