"""Go rules on hand-drawn positions: each case sets up a picture, plays moves and checks
the exact outcome (stones left, captures, what is refused and why, the score)."""

import pytest

from engine.game.coords import from_gtp, to_gtp
from engine.core.layout import BLACK, WHITE
from engine.game.state import IllegalMove


def vertex(state, text):
    return from_gtp(text, state.size)


def play(state, *moves):
    for text in moves:
        state.play(vertex(state, text))


def stones(state, color):
    """The vertices holding ``color``, as a set of GTP names."""
    return {to_gtp(p, state.size) for p in state.points() if state.color_at(p) == color}


def refusal(state, text, color=None):
    return state.why_illegal(vertex(state, text), color)


SNAPBACK = """
. . O . .
X X O . .
O O . . .
. . . . .
. . . . .
"""


def test_snapback_recaptures_the_capturing_stones(go_board):
    state = go_board(SNAPBACK, to_play=WHITE)
    play(state, "A5", "B5")  # throw-in, black takes it
    assert state.captures == (1, 0)
    assert refusal(state, "A5") is None  # three stones, not a ko
    play(state, "A5")
    assert stones(state, BLACK) == set()
    assert state.captures == (1, 3)
    assert {"A5", "C5", "C4", "A3", "B3"} == stones(state, WHITE)


KO = """
. . . . .
. X O . .
X O . O .
. X O . .
. . . . .
"""


@pytest.mark.parametrize("superko", [True, False])
def test_ko_recapture_waits_for_a_threat_exchange(go_board, superko):
    state = go_board(KO, superko=superko)
    play(state, "C3")
    assert stones(state, WHITE) == {"C4", "D3", "C2"}
    assert refusal(state, "B3") == "ko"
    with pytest.raises(IllegalMove):
        play(state, "B3")
    play(state, "E1", "A1")  # threat and answer elsewhere
    play(state, "B3")
    assert "C3" not in stones(state, BLACK) and "B3" in stones(state, WHITE)
    assert refusal(state, "C3") == "ko"  # and now black must wait in turn
    assert state.captures == (1, 1)


@pytest.mark.parametrize("superko", [True, False])
def test_ko_ban_is_lifted_by_a_pass_but_superko_remembers(go_board, superko):
    state = go_board(KO, superko=superko)
    play(state, "C3", "pass", "pass")
    # retaking now would rebuild the starting position
    assert refusal(state, "B3") == ("positional superko" if superko else None)


# Three kos, A-D 9-7 and F-J 9-7 and A-D 5-3: black can take the first and third, white
# the second; six ko captures in turn bring the starting position back.
TRIPLE_KO = """
. X O . . . O X .
X O . O . O X . X
. X O . . . O X .
. . . . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize("superko", [True, False])
def test_triple_ko_cycle_is_refused_by_positional_superko_only(go_board, superko):
    state = go_board(TRIPLE_KO, superko=superko)
    start = state.board().copy()
    play(state, "C8", "H8", "C4", "B8", "G8")
    last = vertex(state, "B4")
    if superko:
        assert state.why_illegal(last) == "positional superko"
        assert last not in state.legal_moves()
    else:
        play(state, "B4")
        assert (state.board() == start).all()
        assert state.captures == (3, 3)


@pytest.mark.parametrize("superko", [True, False])
def test_double_ko_with_a_pass_repeats_only_without_superko(go_board, superko):
    state = go_board(TRIPLE_KO, superko=superko)
    play(state, "C4", "pass")  # settle the third ko's turn: black holds it
    start = state.board().copy()
    play(state, "C8", "H8", "pass", "B8")
    if superko:
        assert refusal(state, "G8") == "positional superko"
    else:
        play(state, "G8")
        assert (state.board() == start).all()


def test_undo_keeps_the_current_position_in_the_superko_history(go_board):
    state = go_board(TRIPLE_KO)
    play(state, "C4", "pass")
    state.undo()  # back to the position after C4, which stays a position of the game
    play(state, "pass", "C8", "H8", "pass", "B8")
    assert refusal(state, "G8") == "positional superko"


EYE_AND_CORNER = """
. O . O .
O . O . .
. O . . .
. . . . .
. . . . .
"""


@pytest.mark.parametrize("suicide", [True, False])
def test_single_stone_suicide_is_always_illegal(go_board, suicide):
    state = go_board(EYE_AND_CORNER, suicide=suicide)
    for point in ("A5", "B4", "C5"):
        assert refusal(state, point) == "suicide"
        with pytest.raises(IllegalMove):
            play(state, point)
    assert refusal(state, "A5", WHITE) is None  # filling one's own eye is legal


GROUP_SUICIDE = """
. . . . .
. . . . .
. . . . .
O O . . .
X . O . .
"""


def test_group_suicide_is_illegal_by_default(go_board):
    state = go_board(GROUP_SUICIDE)
    assert refusal(state, "B1") == "suicide"
    assert vertex(state, "B1") not in state.legal_moves()


def test_group_suicide_allowed_removes_the_group(go_board):
    state = go_board(GROUP_SUICIDE, suicide=True)
    play(state, "B1")
    assert stones(state, BLACK) == set()
    assert stones(state, WHITE) == {"A2", "B2", "C1"}
    assert state.captures == (0, 2)  # the suicided stones count for the opponent
    assert state.area() == (0, 25)


EDGE_AND_CORNER = """
O X . . X O O O .
. . . . X O O O X
. . . . . X X X .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X O X . .
"""


def test_capture_in_the_corner_and_on_the_edge(go_board):
    state = go_board(EDGE_AND_CORNER, to_play=WHITE)
    assert refusal(state, "A9") == "occupied"
    play(state, "pass", "F2")  # on the edge: F1 taken from above
    assert "F1" not in stones(state, WHITE)
    play(state, "pass", "J9")  # a chain of six, its last liberty in the corner
    assert stones(state, WHITE) == {"A9"}
    play(state, "pass", "A8")  # the corner stone
    assert stones(state, WHITE) == set()
    assert state.captures == (8, 0)


def test_capture_counts_every_stone_of_a_multi_stone_chain(go_board):
    state = go_board(EDGE_AND_CORNER)
    play(state, "J9")
    assert state.captures == (6, 0)
    assert not {"F9", "G9", "H9", "F8", "G8", "H8"} & stones(state, WHITE)


# Black B9 B8 B7 C7 and white D9 D8 D7 share the liberties C9 and C8 and neither has an
# eye: a seki.  White owns A5-B1 (10 points), black E7-J1 less E7 plus F9 and H9.
SEKI = """
O X . O X . X . X
O X . O X X X X X
O X X O X . . . .
O O O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
. . O X . . . . .
"""


def test_seki_liberties_count_for_nobody(go_board):
    state = go_board(SEKI)
    assert state.area() == (55, 24)
    assert state.score() == 55 - 24 - 7.5
    assert state.winner() == BLACK
    # each side filling a shared liberty only puts itself in atari: both moves are legal
    assert refusal(state, "C9") is None and refusal(state, "C8", WHITE) is None


SPLIT = """
. X X O .
. X X O .
. X X O .
. X X O .
. X X O .
"""


@pytest.mark.parametrize("komi, score, winner", [(5.0, 0.0, 0), (4.5, 0.5, BLACK),
                                                 (5.5, -0.5, WHITE), (-0.5, 5.5, BLACK)])
def test_komi_and_jigo(go_board, komi, score, winner):
    state = go_board(SPLIT, komi=komi)
    assert state.area() == (15, 10)
    assert state.score() == score
    assert state.winner() == winner


def test_undo_across_a_capture_restores_the_stones(go_board):
    state = go_board(EDGE_AND_CORNER)
    before = state.board().copy(), state.captures, state.legal_moves().tolist()
    play(state, "J9")
    assert state.captures == (6, 0)
    state.undo()
    assert (state.board() == before[0]).all()
    assert state.captures == before[1]
    assert state.legal_moves().tolist() == before[2]
    assert state.to_play == BLACK
    play(state, "J9")  # and the capture plays again the same way
    assert state.captures == (6, 0)


def test_undo_restores_the_ko_ban(go_board):
    state = go_board(KO)
    play(state, "C3", "E1")
    state.undo()
    assert state.to_play == WHITE
    assert refusal(state, "B3") == "ko"
    assert state.moves == [(BLACK, vertex(state, "C3"))]
    state.undo()
    assert refusal(state, "C3") is None
    assert state.move_count == 0 and state.moves == []
