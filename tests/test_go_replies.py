"""Last-good-reply playouts (``engine.core.go_replies``, UCT's ``replies`` option): the
table update against the rule written out in Python, the reply a playout takes, the
line a search records, and searches with the option on."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine.core import go_replies
from engine.core.go_playout import policy_playout
from engine.core.go_tactics import NONE
from engine.core.layout import M_LAST
from engine.core.rng import make_rng
from engine.game.coords import from_gtp
from engine.game.go_state import GoState
from engine.game.gobang_state import GobangState
from engine.game.rules import GoRules, GobangRules
from engine.search import registry
from engine.search.base import Budget
from engine.tsumego.problem import load_sgf_problem
from engine.tsumego.solve import solve
from go_boards import black_to_answer

GO19 = Path(__file__).parent.parent / "problems" / "go" / "19x19"
SOLVER = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"
POINTS = 12


def reference_learn(table, line, first_color, winner, context):
    """LGRF's update as Baier and Drake give it, on a dict of (colour, the ``context``
    moves before) -> reply."""
    if winner == 0:
        return
    for k in range(context, len(line)):
        color = first_color if k % 2 == 1 else 3 - first_color
        key, b = tuple(line[k - context:k]), line[k]
        if min(key) < 0 or b < 0:
            continue
        if color == winner:
            table[(color,) + key] = b
        elif table.get((color,) + key) == b:
            del table[(color,) + key]


MOVES = st.integers(0, POINTS - 1)


@settings(max_examples=200, deadline=None)
@given(line=st.lists(st.integers(-1, POINTS - 1), min_size=1, max_size=30),
       first=st.sampled_from([1, 2]), winner=st.sampled_from([0, 1, 2]),
       start=st.dictionaries(st.tuples(st.sampled_from([1, 2]), MOVES), MOVES),
       start2=st.dictionaries(st.tuples(st.sampled_from([1, 2]), MOVES, MOVES), MOVES),
       level=st.sampled_from([1, 2]))
def test_the_update_keeps_the_winners_replies_and_forgets_the_losers(line, first, winner,
                                                                    start, start2, level):
    rep = go_replies.new_replies(POINTS, 40, level)
    for key, b in start.items():
        rep.table[key] = b
    if level == 2:
        for key, b in start2.items():
            rep.table2[key] = b
    rep.line[:len(line)] = line
    rep.n[0] = len(line)
    go_replies.learn_line(rep, first, winner)
    want = dict(start)
    reference_learn(want, line, first, winner, 1)
    got = {key: int(rep.table[key]) for key in zip(*np.nonzero(rep.table != NONE))}
    assert got == want
    if level == 2:
        want2 = dict(start2)
        reference_learn(want2, line, first, winner, 2)
        got2 = {key: int(rep.table2[key]) for key in zip(*np.nonzero(rep.table2 != NONE))}
        assert got2 == want2
    else:
        assert rep.table2.size == 0


def test_a_line_longer_than_the_record_keeps_its_first_moves():
    rep = go_replies.new_replies(POINTS, 3)
    for p in range(10):
        go_replies.note(rep, p)
    assert rep.n[0] == 4 and list(rep.line) == [0, 1, 2, 3]


# Black's eye at A1 (its own stones all round, both diagonals too), White's last at E5
PICTURE = "X . . . O\n. . . . .\n. . . . .\nX X . . .\n. X . . ."


def _reply(state, p, level=1):
    rep = go_replies.new_replies(state.s.shape[1], 8, level)
    rep.table[1, state.meta[M_LAST]] = from_gtp(p, state.size)
    return rep


def test_a_playout_plays_the_learnt_reply_when_it_can():
    state = black_to_answer(PICTURE, "E5")
    n = state.size
    assert go_replies.reply_for(_reply(state, "C3"), state.s, state.meta, 1) == from_gtp("C3", n)
    for refused in ("A5", "E5", "A1"):   # occupied by each colour, Black's own eye
        rep = _reply(state, refused)
        assert go_replies.reply_for(rep, state.s, state.meta, 1) == NONE
    state.meta[M_LAST] = -1   # after a pass there is nothing to reply to
    assert go_replies.reply_for(_reply(state, "C3"), state.s, state.meta, 1) == NONE


def test_lgrf2_answers_the_last_two_moves_first_then_the_last_one():
    state = black_to_answer(PICTURE, "E5")
    n = state.size
    before, last = from_gtp("A5", n), from_gtp("E5", n)
    rep = _reply(state, "C3", level=2)
    rep.table2[1, before, last] = from_gtp("D2", n)
    reply = lambda: go_replies.reply_for(rep, state.s, state.meta, 1)   # noqa: E731
    assert reply() == from_gtp("C3", n)   # the line does not hold the two moves yet
    go_replies.note(rep, before)
    go_replies.note(rep, last)
    assert reply() == from_gtp("D2", n)
    rep.table2[1, before, last] = from_gtp("A1", n)   # Black's own eye: LGRF-1's instead
    assert reply() == from_gtp("C3", n)


def test_a_playout_with_replies_records_its_moves_and_opens_with_the_reply():
    state = black_to_answer(PICTURE, "E5")
    rep = _reply(state, "C3")
    rep = rep._replace(line=np.empty(200, dtype=np.int32))
    played = policy_playout(state.s, state.meta, state.zob, make_rng(3),
                            np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.uint8),
                            go_replies.WithReplies(None, rep))
    assert rep.n[0] == played > 2
    assert rep.line[0] == from_gtp("C3", state.size)


def _nine_by_nine():
    state = GoState(GoRules(size=9, komi=7.0))
    for move in ("E5", "C3", "G7"):
        state.play(from_gtp(move, 9))
    return state


def _root(level):
    searcher = registry.make(f"{SOLVER}:replies={level}", seed=11)
    result = searcher.search(_nine_by_nine(), Budget(playouts=400))
    assert result.playouts == 400
    return [(c.move, c.visits) for c in result.candidates]


def test_a_search_with_replies_repeats_itself_from_its_seed_and_differs_without():
    roots = [_root(level) for level in (0, 1, 2)]
    assert _root(2) == roots[2]
    # the same seed: only the learnt replies differ
    assert roots[0] != roots[1] and roots[0] != roots[2] and roots[1] != roots[2]


def test_gobang_searches_with_replies_on_play_as_without():
    state = GobangState(GobangRules(size=9))
    moves = {}
    for level in (0, 1, 2):
        searcher = registry.make(f"uct:replies={level}", seed=5)
        moves[level] = searcher.search(state, Budget(playouts=200)).move
    assert moves[0] == moves[1] == moves[2]


@pytest.mark.parametrize("level", [1, 2])
def test_a_composed_problem_is_solved_with_replies(level):
    problem = load_sgf_problem(GO19 / "bent-three-kill.sgf")
    for seed in range(2):
        assert solve(problem, f"{SOLVER}:replies={level}", 2000, seed, restrict=True).correct


def test_search_threads_learn_replies_each_in_its_own_record():
    searcher = registry.make(f"{SOLVER}:replies=2:threads=2", seed=3)
    result = searcher.search(_nine_by_nine(), Budget(playouts=400))
    assert result.playouts == 400 and result.move >= 0
