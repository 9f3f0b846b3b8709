"""Dynamic komi (engine.search.dynamic_komi): the handicap's compensation in the opening,
running down to nothing; the winning side's ratchet after it; the handicap read from the
position; UCT's searches on a handicap board played at the shifted komi; and a refereed
handicap game between two GNU Go engines (the oracle places the stones where ours are)."""

import shutil
import sys
from pathlib import Path

import pytest

from engine.core.layout import BLACK, WHITE
from engine.game.coords import from_gtp
from engine.game.go_state import GoState
from engine.game.handicap import fixed_handicap_points, with_fixed_handicap
from engine.game.rules import GoRules
from engine.match.gtp_client import GtpClient
from engine.match.referee import GameSetup, Referee
from engine.search import registry
from engine.search.base import Budget
from engine.search.dynamic_komi import (DROP, HANDICAP_VALUE, DynamicKomi, compensation,
                                        linear_moves)

GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"


def test_an_even_game_at_komi_7_5_is_searched_at_its_komi_in_the_opening():
    d = DynamicKomi()
    assert [d.komi(7.5, 9, 0, m, BLACK if m % 2 == 0 else WHITE) for m in range(20)] == \
        [7.5] * 20


def test_a_handicap_is_given_back_in_part_and_less_and_less():
    d = DynamicKomi()
    phase = linear_moves(9, WHITE)
    assert phase == 15
    # white to move first after two stones: black pretends to give back 2 x 8 points
    assert d.komi(0.5, 9, 2, 0, WHITE) == pytest.approx(0.5 + 2 * HANDICAP_VALUE[WHITE])
    assert d.komi(0.5, 9, 2, 1, BLACK) == pytest.approx(0.5 + 24 * 14 / 15)
    shifts = [d.komi(0.5, 9, 2, m, WHITE) - 0.5 for m in range(0, phase + 4, 2)]
    assert all(a > b for a, b in zip(shifts, shifts[1:phase // 2]))
    assert shifts[-1] == 0.0   # past the opening: the game's komi
    assert compensation(3, 0.5, BLACK) == 36.0 and compensation(0, 6.5, WHITE) == 1.0


@pytest.mark.parametrize("colour", [BLACK, WHITE])
def test_far_ahead_we_take_komi_on_and_the_ratchet_holds_it_back(colour):
    d = DynamicKomi()
    sign = 1 if colour == BLACK else -1
    moves = linear_moves(19, colour)

    def step(winrate):
        """The points we take on against ourselves after a search that found ``winrate``."""
        d.searched(colour, winrate)
        return sign * (d.komi(7.5, 19, 0, moves, colour) - 7.5)

    assert d.komi(7.5, 19, 0, moves, colour) == 7.5   # nothing known yet
    assert [step(0.9) for _ in range(6)] == [1, 2, 3, 4, 5, 6]
    assert step(0.7) == 6 - DROP     # below ORANGE: dropped, and the ratchet set there
    assert [step(0.9) for _ in range(3)] == [2, 2, 2]
    assert step(0.4) == 0.0          # losing: all given back, the ratchet shut
    assert [step(0.95) for _ in range(3)] == [0, 0, 0]
    d.reset()
    assert step(0.9) == 1            # a new game opens the ratchet again


def test_the_handicap_is_black_s_stones_set_up_before_the_first_move():
    state = with_fixed_handicap(GoState(GoRules(size=9, komi=0.5)), 3)
    assert state.handicap == 3 and state.to_play == WHITE
    state.play(from_gtp("E5", 9))
    state.play(from_gtp("D4", 9))
    assert state.handicap == 3
    even = GoState(GoRules(size=9))
    even.play(from_gtp("E5", 9))
    assert even.handicap == 0
    problem = GoState(GoRules(size=9))
    problem.setup(black=[from_gtp("C3", 9), from_gtp("D3", 9)], white=[from_gtp("C4", 9)])
    assert problem.handicap == 0   # a set-up position with white stones is no handicap


def test_uct_searches_a_handicap_board_at_the_shifted_komi():
    state = with_fixed_handicap(GoState(GoRules(size=9, komi=0.5)), 2)
    plain = registry.make("uct", options=dict(threads=1), seed=3)
    shifted = registry.make("uct", options=dict(threads=1, dynamic_komi=True), seed=3)
    assert plain.search(state, Budget(playouts=300)).komi is None
    result = shifted.search(state, Budget(playouts=300))
    assert result.komi == pytest.approx(0.5 + 2 * HANDICAP_VALUE[WHITE])
    # the shifted komi is what white needs: the plain search sees a lost game
    assert result.winrate > plain.search(state, Budget(playouts=300)).winrate


def test_a_refereed_handicap_game_starts_with_white_on_the_gtp_points():
    setup = GameSetup(game="go", size=9, komi=0.5, handicap=2, max_moves=6,
                      command_timeout=30, startup_timeout=30, move_timeout=30)
    command = [GNUGO, "--mode", "gtp", "--level", "0"]
    with GtpClient(command) as b, GtpClient(command) as w:
        out = Referee(setup, b, w).play()
    assert out.reason == "move limit", out.detail
    assert out.state.handicap == 2
    assert out.state.moves[0][0] == WHITE and len(out.state.moves) == 6
    board = out.state.s[0]
    assert all(board[p] == BLACK for p in fixed_handicap_points(9, 2))


def test_a_handicap_that_the_board_does_not_take_is_refused():
    with pytest.raises(ValueError):
        GameSetup(game="go", size=9, handicap=1)
    with pytest.raises(ValueError):
        GameSetup(game="go", size=6, handicap=2)
    with pytest.raises(ValueError):
        GameSetup(game="gobang", size=15, handicap=2)


def test_an_engine_that_cannot_place_the_handicap_voids_the_game():
    fake = str(Path(__file__).with_name("fake_gtp_engine.py"))
    setup = GameSetup(game="go", size=9, komi=0.5, handicap=2, command_timeout=10,
                      startup_timeout=30, move_timeout=10)
    with GtpClient([sys.executable, fake]) as b, GtpClient([sys.executable, fake]) as w:
        out = Referee(setup, b, w).play()
    assert out.winner is None and "fixed_handicap 2" in out.detail
