"""The compiled Go rules against the plain-Python reference (``go_reference``).

Random games, seeded and biased so that captures, multi-stone captures, ko fights, refused
suicides and superko refusals really happen (each test counts them and demands a minimum),
compare after every move: the legal set (positional superko, and simple ko on a twin state
playing the same game), the board, the capture counts, the area and the score, the
incremental chain structures against a recount, and ``GoState.chain``.  Then each game is
undone to the start, every earlier board and legal set checked again.  Also: suicide-allowed games,
the eye test on random boards, and light playouts (consistent end position, stopping rule kept).
"""

import dataclasses
from collections import Counter

import numpy as np
import pytest

from engine.game.coords import PASS, all_points
from engine.core import go_kernels as gk
from engine.core.go_playout import playout, random_move
from engine.core.layout import (BLACK, BOARD, EMPTIES, EPOS, LIBS, M_HASH, M_MOVES,
                                M_N_EMPTY, M_PASSES, NEXT, REP, SIZE, WHITE)
from engine.core.rng import make_rng
from engine.game.state import IllegalMove
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from go_reference import EMPTY, ReferenceGo

NOT_LEGAL_UNDER_SIMPLE_KO = ("occupied", "suicide", "ko")


def reference_for(rules: GoRules) -> ReferenceGo:
    return ReferenceGo(rules.size, rules.komi, rules.superko, rules.suicide)


def assert_same_position(state: GoState, ref: ReferenceGo):
    assert state.board().tolist() == ref.grid()
    assert state.to_play == ref.to_play
    assert state.captures == (ref.captures[BLACK], ref.captures[WHITE])
    assert state.area() == ref.area()
    assert state.score() == ref.score()


def assert_structures(s, meta, zob, ref: ReferenceGo):
    """The incremental rows (EMPTIES/EPOS, REP, NEXT, SIZE, pseudo-LIBS) and the hash
    describe the reference's board, chain by chain."""
    empties = [int(p) for p in s[EMPTIES, :meta[M_N_EMPTY]]]
    assert sorted(empties) == ref.empty_points()
    assert all(s[EMPTIES, s[EPOS, p]] == p for p in empties)
    h = 0
    for color, stones, _ in ref.chains():
        pts = sorted(ref.padded(i) for i in stones)
        reps = {int(s[REP, p]) for p in pts}
        assert len(reps) == 1
        r = reps.pop()
        assert r in pts
        assert s[SIZE, r] == len(pts)
        pseudo = sum(ref.board[k] == EMPTY for i in stones for k in ref.neighbours(i))
        assert s[LIBS, r] == pseudo
        ring, q = [r], int(s[NEXT, r])
        while q != r and len(ring) <= len(pts):
            ring.append(q)
            q = int(s[NEXT, q])
        assert sorted(ring) == pts
        for p in pts:
            h ^= int(zob[color, p])
    assert meta[M_HASH] == h


def assert_chains(state: GoState, ref: ReferenceGo):
    """``GoState.chain`` gives the reference's chain, asked from either end of it."""
    for _, stones, _ in ref.chains():
        pts = {ref.padded(i) for i in stones}
        assert state.chain(min(pts)) == pts == state.chain(max(pts))


class GameDriver:
    """One random game played on GoState(s) and the reference in step.  ``rules`` picks
    the moves; when it uses superko a simple-ko twin follows the same game, so both legal
    sets are compared at every step."""

    def __init__(self, rules: GoRules, rng: np.random.Generator, seen: Counter):
        self.rules = rules
        self.rng = rng
        self.seen = seen  # situations met, summed over games
        self.ref = reference_for(rules)
        self.state = GoState(rules)
        self.twin = GoState(dataclasses.replace(rules, superko=False)) if rules.superko else None
        self.history = []  # per step: (board, captures, legal, simple-ko legal)
        self.banned = {BLACK: set(), WHITE: set()}  # ko points each side met on its last turn

    def states(self):
        return [self.state] + ([self.twin] if self.twin else [])

    def verdicts(self):
        ref, color = self.ref, self.ref.to_play
        why = {p: ref.why_illegal(p, color) for p in ref.empty_points()}
        legal = sorted(p for p, w in why.items() if w is None)
        simple = sorted(p for p, w in why.items() if w not in NOT_LEGAL_UNDER_SIMPLE_KO)
        return why, legal, simple

    def compare_legal(self, legal, simple):
        color = self.ref.to_play
        assert self.state.legal_moves(color).tolist() == (legal if self.rules.superko else simple)
        if self.twin:
            assert self.twin.legal_moves(color).tolist() == simple

    def try_refused(self, why):
        """Now and then play a move the reference refuses, of each kind there is: every
        state must refuse it and stay as it was."""
        for kind in ("suicide", "ko", "positional superko"):
            refused = [p for p, w in why.items() if w == kind]
            if not refused or self.rng.random() < 0.5:
                continue
            p = refused[self.rng.integers(len(refused))]
            self.seen["refused_" + kind.replace(" ", "_")] += 1
            for st in self.states():
                if kind == "positional superko" and st is self.twin:
                    continue
                before = st.s.copy(), st.meta.copy()
                with pytest.raises(IllegalMove):
                    st.play(p)
                assert np.array_equal(st.s, before[0]) and np.array_equal(st.meta, before[1])

    def choose(self, why, legal):
        ref, color, rng = self.ref, self.ref.to_play, self.rng
        self.seen["superko_only_refusals"] += sum(w == "positional superko" for w in why.values())
        retakes = [p for p in legal
                   if p in self.banned[color] and ref.outcome(p, color)[1] == 1]
        self.banned[color] = {p for p, w in why.items() if w == "ko"}
        if retakes and rng.random() < 0.9:
            self.seen["ko_retaken_after_a_threat"] += 1
            return retakes[rng.integers(len(retakes))]
        playable = [p for p in legal if not ref.is_eye(p, color)]
        outcomes = {p: ref.outcome(p, color) for p in playable}
        captures = [p for p in playable if outcomes[p][1] > 0]
        suicides = [p for p in playable if outcomes[p][2] > 0]
        if suicides and rng.random() < 0.5:
            return suicides[rng.integers(len(suicides))]
        if captures and rng.random() < 0.5:
            return captures[rng.integers(len(captures))]
        if not playable:
            return PASS
        return playable[rng.integers(len(playable))]

    def step(self):
        why, legal, simple = self.verdicts()
        self.compare_legal(legal, simple)
        self.history.append((self.ref.grid(), dict(self.ref.captures), legal, simple))
        self.try_refused(why)
        move = self.choose(why, legal)
        captured, lost = self.ref.play(move)
        self.seen["captures"] += captured > 0
        self.seen["multi_stone_captures"] += captured > 1
        self.seen["suicides"] += lost > 0
        for st in self.states():
            st.play(move)
            assert_same_position(st, self.ref)
        assert_structures(self.state.s, self.state.meta, self.state.zob, self.ref)
        assert_chains(self.state, self.ref)

    def take_back(self, k):
        """Undo the last k moves mid-game (the game then goes on differently)."""
        for _ in range(min(k, len(self.history))):
            self.history.pop()
            self.ref.undo()
            for st in self.states():
                st.undo()
                assert_same_position(st, self.ref)
        self.seen["take_backs"] += 1

    def play_game(self, max_moves):
        while self.ref.passes < 2 and len(self.history) < max_moves:
            self.step()
            if self.rng.random() < 0.03:
                self.take_back(int(self.rng.integers(1, 4)))
        self.seen["moves"] += len(self.history)
        self.seen["games"] += 1

    def unwind(self):
        """Undo to the start, checking every earlier position and its legal sets."""
        for board, caps, legal, simple in reversed(self.history):
            self.ref.undo()
            for st in self.states():
                st.undo()
                assert_same_position(st, self.ref)
            assert self.ref.grid() == board and self.ref.captures == caps
            self.compare_legal(legal, simple)
        assert not self.state.can_undo()


def run_games(rules, games, seed):
    seen = Counter()
    for g in range(games):
        driver = GameDriver(rules, np.random.default_rng([seed, g]), seen)
        driver.play_game(max_moves=4 * rules.size ** 2)
        driver.unwind()
    return seen


def require(seen, **minimum):
    for name, low in minimum.items():
        assert seen[name] >= low, f"only {seen[name]} {name} in {dict(seen)}"


# (size, games, least counts of the situations met); the big runs are marked slow
SUPERKO_RUNS = [
    pytest.param(2, 100, dict(multi_stone_captures=30, refused_positional_superko=5,
                              superko_only_refusals=10)),
    pytest.param(3, 150, dict(multi_stone_captures=80, refused_ko=8, superko_only_refusals=5)),
    pytest.param(4, 150, dict(multi_stone_captures=120, refused_ko=12,
                              ko_retaken_after_a_threat=5)),
    pytest.param(5, 150, dict(multi_stone_captures=150, ko_retaken_after_a_threat=15,
                              refused_ko=25, refused_suicide=250, superko_only_refusals=3)),
    pytest.param(9, 10, dict(multi_stone_captures=20, ko_retaken_after_a_threat=10,
                             refused_ko=10, refused_suicide=100)),
    pytest.param(19, 1, dict(multi_stone_captures=5, refused_suicide=10)),
    pytest.param(5, 1500, dict(multi_stone_captures=1500, ko_retaken_after_a_threat=150,
                               refused_ko=250, refused_suicide=2500, superko_only_refusals=30),
                 marks=pytest.mark.slow),
    pytest.param(9, 300, dict(multi_stone_captures=600, ko_retaken_after_a_threat=300,
                              refused_ko=300, refused_suicide=3000),
                 marks=pytest.mark.slow),
    pytest.param(19, 30, dict(multi_stone_captures=150, ko_retaken_after_a_threat=300,
                              refused_suicide=1500),
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize("size, games, minimum", SUPERKO_RUNS)
def test_random_games_superko_and_simple_ko(size, games, minimum):
    seen = run_games(GoRules(size=size, superko=True), games, seed=size)
    require(seen, captures=games, **minimum)


@pytest.mark.parametrize("size, games", [(5, 100), pytest.param(7, 400, marks=pytest.mark.slow)])
def test_random_games_simple_ko_only(size, games):
    """Games driven by simple ko alone wander into the cycles superko would forbid."""
    seen = run_games(GoRules(size=size, superko=False), games, seed=100 + size)
    require(seen, multi_stone_captures=games // 3, ko_retaken_after_a_threat=games // 10,
            refused_ko=games // 10)


@pytest.mark.parametrize("superko", [True, False])
@pytest.mark.parametrize("size, games", [(5, 60), pytest.param(7, 300, marks=pytest.mark.slow)])
def test_random_games_suicide_allowed(size, games, superko):
    """Multi-stone suicide is legal and removes the chain; a lone stone's stays illegal."""
    seen = run_games(GoRules(size=size, superko=superko, suicide=True), games,
                     seed=200 + size + superko)
    require(seen, suicides=games // 3, refused_suicide=games // 3,
            multi_stone_captures=games // 3)


def random_board(rng, n, stones):
    """A random colour for every point, ``stones`` the chance of a stone; legality of the
    picture does not matter to the eye test."""
    colors = rng.choice([EMPTY, BLACK, WHITE], size=n * n, p=[1 - stones, stones / 2, stones / 2])
    return tuple(int(c) for c in colors)


@pytest.mark.parametrize("size", [2, 3, 5, 9, 19])
def test_is_eye_matches_reference(size):
    rng = np.random.default_rng(300 + size)
    ref = ReferenceGo(size)
    state = GoState(GoRules(size=size))
    pts = all_points(size)
    eyes = Counter()
    for _ in range(2000 // size):
        ref.board = random_board(rng, size, stones=rng.uniform(0.5, 0.95))
        for i, p in enumerate(pts):
            state.s[BOARD, p] = ref.board[i]
        for p in pts:
            for color in (BLACK, WHITE):
                expected = ref.is_eye(p, color)
                assert state.is_eye(p, color) == expected, (p, color, ref.grid())
                eyes[expected] += 1
    assert eyes[True] >= 50 and eyes[False] >= 50


def kernel_game_position(size, rng_np, seed):
    """A position some way into a game of playout moves (kernel driven, simple ko)."""
    state = GoState(GoRules(size=size, superko=False))
    rng = make_rng(seed)
    for _ in range(int(rng_np.integers(0, 2 * size * size))):
        move = random_move(state.s, state.meta, rng, state.to_play)
        state.play(int(move))
        if state.passes >= 2:
            break
    return state


@pytest.mark.parametrize("size, positions", [(5, 150), (9, 100), (19, 12), (25, 4)])
def test_playout_ends_consistent_and_finished(size, positions):
    """After a playout the incremental structures equal a recount, the score is the
    reference's, and (two passes) neither side has a legal move that is not an own eye."""
    rng_np = np.random.default_rng(400 + size)
    ended = Counter()
    for k in range(positions):
        start = kernel_game_position(size, rng_np, seed=k)
        s, meta = start.s.copy(), start.meta.copy()
        played = playout(s, meta, start.zob, make_rng(10_000 + k), np.zeros(0, dtype=np.int8))
        assert played == meta[M_MOVES] - start.meta[M_MOVES]
        ref = ReferenceGo(size, komi=start.komi, superko=False)
        grid = s[BOARD].reshape(size + 2, size + 2)[1:-1, 1:-1]
        ref.setup(black=[p for p in all_points(size) if s[BOARD, p] == BLACK],
                  white=[p for p in all_points(size) if s[BOARD, p] == WHITE])
        assert ref.grid() == grid.tolist()
        assert_structures(s, meta, start.zob, ref)
        assert gk.score(s, meta, start.komi) == ref.score()
        if meta[M_PASSES] < 2:
            ended["move cap"] += 1
            continue
        ended["two passes"] += 1
        for color in (BLACK, WHITE):
            for p in ref.empty_points():
                movable = ref.is_legal(p, color) and not ref.is_eye(p, color)
                assert not movable, (k, color, p, str(ref.grid()))
                assert not (gk.is_legal(s, meta, p, color) and not gk.is_eye(s, size + 2, p, color))
    assert ended["two passes"] >= 0.95 * positions, ended
