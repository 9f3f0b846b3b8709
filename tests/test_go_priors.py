"""Tree priors against a reference computed with the pure-Python Go reference, the ladder
priors (``priors=ladder``) against the hand ones on ladder positions, and the knowledge
options of the tree back ends (heavy playouts, priors) end to end."""

import numpy as np
import pytest

from test_go_ladder import BREAKER, LADDER_B, LADDER_W, N, make
from test_go_tactics import random_positions

from engine.core.go_ladder import WithLadders
from engine.core.layout import BLACK, EMPTY, M_LAST, M_TO_PLAY, WHITE
from engine.game.coords import PASS, point
from engine.go_knowledge import PRIOR_FEATURES, load
from engine.game.gobang_state import GobangState
from engine.game.go_state import GoState
from engine.game.rules import GobangRules, GoRules
from engine.search import registry
from engine.search.base import Budget
from engine.core.game import GO
from engine.search.go_priors import apply_priors
from engine.search.tree import FIRST, MOVE, NCHILD, PRIOR_N, PRIOR_W, NodePool, expand


def code_of(ref, i):
    """The 3x3 code of point i by its definition (0 empty, 1 black, 2 white, 3 edge)."""
    n = ref.n
    r, c = divmod(i, n)
    value = 0
    for k, (dr, dc) in enumerate(((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1),
                                  (1, 0), (1, 1))):
        rr, cc = r + dr, c + dc
        v = ref.board[rr * n + cc] if 0 <= rr < n and 0 <= cc < n else 3
        value |= v << (2 * k)
    return value


def reference_features(ref, i, color, last, kn, sa_stones):
    """The features of ``go_priors`` for ``color`` at point i, or None to skip the move
    (captures that may free liberties away from it: the kernel's count is a bound there)."""
    n = ref.n
    board, captured, _ = ref.outcome(ref.padded(i), color)
    stones, libs = ref.chain(board, i)
    names = ["even"]
    if captured > 1:
        names.append("capture_many")
    elif captured == 1:
        names.append("capture")
    saves = any(ref.board[k] == color and len(ref.chain(ref.board, k)[1]) == 1
                for k in ref.neighbours(i))
    if saves and len(libs) >= 2:
        if captured:
            return None
        names.append("escape")
    if kn.patterns[code_of(ref, i)] > 0:
        names.append("pattern")
    if not captured and len(libs) <= 1 and len(stones) >= sa_stones:
        names.append("selfatari")
    r, c = divmod(i, n)
    if last is not None:
        lr, lc = divmod(last, n)
        d = abs(r - lr) + abs(c - lc)
        if 1 <= d <= 3:
            names.append(f"near{d}")
    line = min(r, c, n - 1 - r, n - 1 - c) + 1
    if line <= 3 and all(ref.board[rr * n + cc] == EMPTY for rr in range(n)
                         for cc in range(n) if abs(rr - r) + abs(cc - c) <= 3):
        names.append("empty_low" if line <= 2 else "empty_third")
    return names


def test_priors_match_the_reference_features():
    kn = load()
    sa_stones = 2
    checked = 0
    for st, ref in random_positions(60, size=7, seed=21):
        pool = NodePool(10_000)
        cand = np.empty(st.s.shape[1] + 1, dtype=np.int32)
        expand(pool.ti, pool.tf, pool.tmeta, 0, GO, st.s, st.meta, np.array([5], np.uint64),
               cand, np.zeros(0, dtype=np.uint8))
        apply_priors(pool.ti, pool.tf, 0, st.s, st.meta, kn.patterns, kn.prior, sa_stones)
        last = int(st.meta[M_LAST])
        last_i = ref.index(last) if last >= 0 else None
        first = pool.ti[FIRST, 0]
        for c in range(first, first + pool.ti[NCHILD, 0]):
            p = int(pool.ti[MOVE, c])
            names = ["even"] if p == PASS else reference_features(
                ref, ref.index(p), int(st.meta[M_TO_PLAY]), last_i, kn, sa_stones)
            if names is None:
                continue
            games = sum(kn.prior[2 * PRIOR_FEATURES[f]] for f in names)
            wins = sum(kn.prior[2 * PRIOR_FEATURES[f] + 1] for f in names)
            assert (pool.ti[PRIOR_N, c], pool.tf[PRIOR_W, c]) == (games, wins), (p, names)
            checked += 1
    assert checked > 250


def search(algo, state, options, playouts=400, seed=3):
    s = registry.make(algo, seed=seed, options=options)
    return s, s.search(state, Budget(playouts=playouts))


@pytest.mark.parametrize("algo, options", [
    ("uct", {"playout": "heavy"}),
    ("uct", {"playout": "heavy", "prior": "1", "rave": "1", "c": "0.2"}),
    ("uct", {"prior": "1"}),
    ("shot", {"playout": "heavy"}),
])
def test_knowledge_options_search_and_repeat_from_the_seed(algo, options):
    st = GoState(GoRules(size=9))
    st.play(st.legal_moves()[30])
    _, a = search(algo, st, options)
    _, b = search(algo, st, options)
    assert a.playouts == 400
    assert [(c.move, c.visits) for c in a.candidates] == [(c.move, c.visits)
                                                          for c in b.candidates]


def test_priors_reach_the_root_and_stay_apart_from_real_visits():
    st = GoState(GoRules(size=9))
    searcher, result = search("uct", st, {"prior": "1"}, playouts=200)
    pool = searcher.pool
    kids = pool.children()
    assert (pool.ti[PRIOR_N, kids] >= load().prior[0]).all()
    assert sum(c.visits for c in result.candidates) <= 200   # visits are real ones only


def test_gobang_takes_the_options_without_go_priors():
    st = GobangState(GobangRules(size=9))
    searcher, result = search("uct", st, {"prior": "1", "playout": "heavy"}, playouts=300)
    assert result.playouts == 300
    assert (searcher.pool.ti[PRIOR_N, :searcher.pool.used] == 0).all()


def child_priors(st, prior) -> dict:
    """{move: (virtual games, virtual wins)} that ``apply_priors`` gives the root's
    children of ``st`` with the knowledge file's weights in the form ``prior``."""
    kn = load()
    pool = NodePool(10_000)
    cand = np.empty(st.s.shape[1] + 1, dtype=np.int32)
    expand(pool.ti, pool.tf, pool.tmeta, 0, GO, st.s, st.meta, np.array([5], np.uint64), cand,
           np.zeros(0, dtype=np.uint8))
    apply_priors(pool.ti, pool.tf, 0, st.s, st.meta, kn.patterns, prior, 2)
    first = pool.ti[FIRST, 0]
    return {int(pool.ti[MOVE, c]): (int(pool.ti[PRIOR_N, c]), float(pool.tf[PRIOR_W, c]))
            for c in range(first, first + pool.ti[NCHILD, 0])}


def feature(name) -> tuple:
    f = PRIOR_FEATURES[name]
    return int(load().prior[2 * f]), float(load().prior[2 * f + 1])


@pytest.mark.parametrize("white,caught", [(LADDER_W, True), (LADDER_W + BREAKER, False)])
def test_ladder_priors_give_no_escape_into_a_working_ladder(white, caught):
    """``priors=ladder``: the hand priors less ``escape`` where the escape runs into a
    ladder (tests/test_go_ladder.py reads the same positions)."""
    st = make(LADDER_B, white, WHITE)
    hand, ladder = child_priors(st, load().prior), child_priors(st, WithLadders(load().prior))
    escape = point(4, 5, N)
    games, wins = feature("escape")
    want = (hand[escape][0] - games, hand[escape][1] - wins) if caught else hand[escape]
    assert ladder[escape] == pytest.approx(want)
    assert all(ladder[p] == pytest.approx(hand[p]) for p in hand if p != escape)


@pytest.mark.parametrize("white,works", [(LADDER_W, True), (LADDER_W + BREAKER, False)])
def test_ladder_priors_count_a_ladder_atari_as_a_capture(white, works):
    st = make([(4, 3), (5, 4), (5, 5)], white, BLACK)   # White's E5 has two liberties
    hand, ladder = child_priors(st, load().prior), child_priors(st, WithLadders(load().prior))
    games, wins = feature("capture")
    gained = [p for p in hand if ladder[p] != pytest.approx(hand[p])]
    assert set(gained) <= {point(3, 4, N), point(4, 5, N)}   # the two ataris
    assert all(ladder[p] == pytest.approx((hand[p][0] + games, hand[p][1] + wins))
               for p in gained)
    assert bool(gained) == works


def test_gobang_takes_the_learned_options_as_heavy():
    st = GobangState(GobangRules(size=9))
    searcher, result = search("uct", st, {"prior": "1", "priors": "elo", "playout": "elo"},
                              playouts=300)
    assert result.playouts == 300
    assert (searcher.pool.ti[PRIOR_N, :searcher.pool.used] == 0).all()
