"""The referee under our rules, driven by scripted fake engines: how each kind of game end
is judged and recorded."""

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engine.game.coords import from_gtp
from engine.core.layout import BLACK, WHITE
from engine.match.gtp_client import GtpClient
from engine.match.referee import (GameSetup, Referee, parse_opening, parse_score,
                                  random_opening)
from engine.timecontrol import TimeSettings

FAKE = str(Path(__file__).with_name("fake_gtp_engine.py"))
GO5 = GameSetup(game="go", size=5, komi=7.5, command_timeout=10, startup_timeout=30,
                move_timeout=10)


def play(black, white, setup=GO5, opening=()):
    """One game between fake engines with the given command-line flags."""
    with GtpClient([sys.executable, FAKE, *black]) as b, \
            GtpClient([sys.executable, FAKE, *white]) as w:
        return Referee(setup, b, w, opening).play()


def test_two_passes_on_an_empty_board_give_white_the_komi():
    out = play(["--moves", "pass"], ["--moves", "pass"])
    assert (out.winner, out.reason, out.result) == (WHITE, "score", "W+7.5")
    assert out.score_source == "area" and out.area_score == -7.5
    assert len(out.state.moves) == 2
    assert out.players[BLACK].final_score is None  # the fakes cannot score


def test_agreeing_final_scores_decide_the_game():
    out = play(["--moves", "pass", "--final-score", "B+3"],
               ["--moves", "pass", "--final-score", "B+3.0"])
    assert (out.winner, out.result, out.score_source) == (BLACK, "B+3", "engines")
    assert out.area_score == -7.5 and "area: W+7.5" in out.detail


def test_disagreeing_final_scores_fall_back_to_the_area_count():
    out = play(["--moves", "C3 pass", "--final-score", "B+3"],
               ["--moves", "pass pass", "--final-score", "W+1"])
    # black's lone stone owns the whole board: 25 - 7.5
    assert (out.winner, out.result, out.score_source) == (BLACK, "B+17.5", "area")
    assert "final_score black: B+3, white: W+1" in out.detail


def test_cleanup_phase_continues_after_two_passes_and_scores_by_area():
    setup = replace(GO5, cleanup=True)
    out = play(["--moves", "pass C3 pass", "--final-score", "W+7.5"],
               ["--moves", "pass pass", "--final-score", "W+7.5"], setup)
    assert [m for _, m in out.state.moves].count(-1) == 4
    assert (out.result, out.score_source) == ("B+17.5", "area")
    assert out.comments[2].startswith("cleanup: ")


def test_an_occupied_point_is_an_illegal_move_and_a_loss():
    out = play(["--moves", "C3 D4"], ["--moves", "C3"])
    assert (out.winner, out.reason, out.result) == (BLACK, "illegal", "B+F")
    assert "white loses" in out.detail and "occupied" in out.detail
    assert len(out.state.moves) == 1


def test_a_reply_that_is_no_move_loses():
    out = play(["--moves", "Z99"], ["--moves", "pass"])
    assert (out.winner, out.reason) == (WHITE, "bad reply")
    out = play(["--moves", "F3"], ["--moves", "pass"])  # off a 5x5 board
    assert (out.winner, out.reason) == (WHITE, "bad reply")


def test_a_failed_genmove_loses():
    out = play(["--refuse", "genmove"], [])
    assert (out.winner, out.reason, out.result) == (WHITE, "bad reply", "W+F")


def test_a_refused_set_up_voids_the_game():
    out = play([], ["--refuse", "boardsize"])
    assert (out.winner, out.reason) == (None, "error")
    assert "white refused 'boardsize 5'" in out.detail


def test_resignation_ends_the_game():
    out = play(["--moves", "C3 resign"], ["--moves", "D4"])
    assert (out.winner, out.reason, out.result) == (WHITE, "resign", "W+R")
    assert out.comments[-1].endswith("black resigns")


def test_a_crash_loses_with_the_reason_recorded():
    out = play(["--moves", "C3"], ["--fault", "crash"])
    assert (out.winner, out.reason, out.result) == (BLACK, "crash", "B+F")
    assert "exit status 3" in out.detail


def test_garbage_loses():
    out = play(["--fault", "garbage"], [])
    assert (out.winner, out.reason) == (WHITE, "garbage")


def test_a_hang_without_a_clock_is_lost_at_the_move_timeout():
    setup = replace(GO5, move_timeout=0.3)
    out = play(["--moves", "C3"], ["--fault", "hang"], setup)
    assert (out.winner, out.reason, out.result) == (BLACK, "time", "B+T")


def test_the_clock_runs_out_after_main_time_is_spent(tmp_path):
    log = tmp_path / "black.log"
    setup = replace(GO5, time=TimeSettings(1.0, 0.0, 0), time_grace=0.1)
    out = play(["--moves", "A1 B1 C1 D1 E1", "--delay", "0.3", "--log", str(log)],
               ["--moves", "A3 B3 C3 D3 E3"], setup)
    assert (out.winner, out.reason, out.result) == (WHITE, "time", "W+T")
    assert out.players[BLACK].moves == 3
    sent = log.read_text()
    assert "time_settings 1 0 0" in sent and "time_left b 1 0" in sent


def test_an_engine_that_lists_nakade_ready_loads_before_its_clock_starts(tmp_path):
    log = tmp_path / "black.log"
    setup = replace(GO5, time=TimeSettings(1.0, 0.0, 0), time_grace=0.1)
    out = play(["--moves", "A1 pass", "--ready", "1.5", "--log", str(log)],
               ["--moves", "pass"], setup)
    assert out.reason != "time"          # 1.5 s of loading is not charged to a 1 s clock
    sent = log.read_text()
    assert -1 < sent.find("nakade-ready") < sent.find("boardsize 5")


def test_a_refused_forwarded_move_voids_the_game():
    out = play(["--moves", "C3"], ["--refuse", "play"])
    assert (out.winner, out.reason, out.result) == (None, "error", "Void")
    assert "white refused 'play B C3'" in out.detail


def test_the_move_limit_ends_the_game_as_a_draw():
    setup = replace(GO5, max_moves=4)
    out = play(["--moves", "A1 B1 C1"], ["--moves", "A3 B3 C3"], setup)
    assert (out.winner, out.reason, out.result) == (0, "move limit", "Draw")
    assert len(out.state.moves) == 4


def test_the_opening_is_played_into_both_engines(tmp_path):
    logs = tmp_path / "b.log", tmp_path / "w.log"
    opening = parse_opening("C3 D4", GO5)
    out = play(["--moves", "pass", "--log", str(logs[0])],
               ["--moves", "pass", "--log", str(logs[1])], opening=opening)
    assert [m for _, m in out.state.moves][:2] == opening
    assert out.comments[:2] == ["opening", "opening"]
    for log in logs:
        text = log.read_text()
        assert "play B C3" in text and "play W D4" in text and "komi 7.5" in text


def test_reported_playouts_are_summed_and_commented():
    out = play(["--moves", "C3 pass", "--playouts", "123"], ["--moves", "pass pass"])
    assert out.players[BLACK].playouts == 246 and out.players[WHITE].playouts is None
    assert "123 playouts" in out.comments[0]


def test_engine_statistics_become_comments_and_black_win_rates():
    out = play(["--moves", "C3 pass", "--playouts", "100"],
               ["--moves", "D4 pass", "--playouts", "10"])
    # the fake reports win rate 0.75 for the side that moved, 50% visits, pv A1 B2
    assert out.comments[0].endswith("; B win rate 75.0%, 50 visits of 100 playouts, pv A1 B2")
    assert out.comments[1].endswith("; W win rate 75.0%, 5 visits of 10 playouts, pv A1 B2")
    assert out.winrates[:2] == [0.75, 0.25]


def test_a_playout_budget_needs_an_engine_that_takes_one():
    setup = replace(GO5, playouts=100)
    out = play(["--moves", "pass"], ["--moves", "pass"], setup)
    assert out.reason == "error" and "nakade-budget" in out.detail


GOBANG7 = GameSetup(game="gobang", size=7, command_timeout=10, startup_timeout=30)


def test_five_in_a_row_wins_at_gobang():
    out = play(["--moves", "A1 B1 C1 D1 E1"], ["--moves", "A3 B3 C3 D3"], GOBANG7)
    assert (out.winner, out.reason, out.result) == (BLACK, "five", "B+")
    assert len(out.state.moves) == 9


def test_a_pass_is_illegal_at_gobang():
    out = play(["--moves", "A1"], ["--moves", "pass"], GOBANG7)
    assert (out.winner, out.reason) == (BLACK, "illegal")


def test_a_full_gobang_board_without_five_is_a_draw():
    pattern = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]  # no five in any line

    def vertices(stone):
        return " ".join(f"{'ABCDE'[c]}{5 - r}" for r in range(5) for c in range(5)
                        if pattern[r][c] == stone)

    setup = GameSetup(game="gobang", size=5, command_timeout=10, startup_timeout=30)
    out = play(["--moves", vertices("X")], ["--moves", vertices("O")], setup)
    assert (out.winner, out.reason, out.result) == (0, "full board", "Draw")
    assert len(out.state.moves) == 25


def test_random_openings_are_legal_seeded_and_leave_the_game_open():
    for setup in (GO5, GOBANG7):
        a, b = random_opening(setup, 4, seed=5), random_opening(setup, 4, seed=5)
        assert a == b and len(a) == 4
        state = setup.new_state()
        for move in a:
            state.play(move)
        assert not state.is_terminal()
    assert any(random_opening(GO5, 4, seed=s) != random_opening(GO5, 4, seed=5)
               for s in range(6, 10))


def test_openings_are_parsed():
    assert parse_opening("C3, d4", GO5) == [from_gtp("C3", 5), from_gtp("D4", 5)]


@pytest.mark.parametrize("text, setup", [("C3 C3", GO5), ("Z9", GO5),
                                         ("A1 A2 B1 B2 C1 C2 D1 D2 E1", GOBANG7)])
def test_bad_openings_are_refused(text, setup):
    with pytest.raises(ValueError):
        parse_opening(text, setup)


def test_final_scores_are_parsed_as_black_relative_numbers():
    assert parse_score("B+3.5") == 3.5 and parse_score("w+12") == -12.0
    assert parse_score("0") == 0.0 and parse_score(" W+7.0 ") == -7.0
    assert parse_score("B+R") is None and parse_score(None) is None
