"""``final_score`` and the dead stones of ``engine.scoring`` against GNU Go 3.8's
(``--chinese-rules``) at the end of games: a game against GNU Go level 1 that both sides
passed with a lone black stone left inside white's loose territory (the light playouts
that judged the stones then called it seki, and the score was 18 points off GNU Go's),
a finished game, and the seki positions of the GTP scoring transcript."""

from pathlib import Path

import numpy as np
import pytest

from engine import scoring
from engine.game.coords import from_gtp, to_gtp
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.core.layout import BLACK, BOARD, WHITE
from engine.game.sgf import load_game

pytestmark = pytest.mark.gnugo

DATA = Path(__file__).parent / "data" / "gtp"
SIZE = 9

# ours against GNU Go level 1 (nakade match, 500 playouts a move); both passed at the end
GAMES = {
    "lone stone in white's area":
        "B G4 W C6 B C8 W C3 B D6 W E4 B E3 W D4 B D2 W B2 B F8 W B4 B G6 W F3 B G3 W F2 "
        "B G2 W F1 B F4 W E2 B D7 W B7 B E5 W D5 B G1 W D3 B B8 W A8 B A5 W C7 B D8 W B9 "
        "B C9 W A7 B E6 W A9 B H7",
    "close game":
        "B F6 W F5 B G6 W G8 B F8 W D6 B C4 W B3 B C6 W E5 B B5 W H5 B C7 W D2 B H8 W G5 "
        "B H6 W H2 B D7 W C2 B D3 W E3 B D5 W E6 B E7 W B4 B E4 W F4 B F3 W D4 B C5 W G3 "
        "B C3 W B2 B J5 W J4 B J6 W E4 B A4 W A3 B A5 W F2",
}


def judge(gnugo, state, moves):
    """(GNU Go's final_score, its dead stones) after ``moves`` from an empty board."""
    gnugo.ask(f"boardsize {SIZE}")
    gnugo.ask("clear_board")
    gnugo.ask(f"komi {state.komi}")
    for colour, vertex in moves:
        gnugo.ask(f"play {colour} {vertex}")
    dead = set(gnugo.ask("final_status_list dead").split())
    return gnugo.ask("final_score"), dead


def ours(state, seed):
    dead = {to_gtp(p, SIZE) for p in scoring.stones_with_status(state, scoring.DEAD, seed=seed)}
    return scoring.result_text(scoring.final_score(state, seed=seed)), dead


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [0, 1])
def test_game_end_agrees_with_gnugo(gnugo, name, seed):
    words = GAMES[name].split()
    moves = list(zip(words[::2], words[1::2]))
    state = GoState(GoRules(size=SIZE, komi=7.5))
    for _, vertex in moves:
        state.play(from_gtp(vertex, SIZE))
    state.play(-1)
    state.play(-1)
    assert ours(state, seed) == judge(gnugo, state, moves)


@pytest.mark.parametrize("sgf", ["seki.sgf", "dead_stones.sgf"])
def test_seki_agrees_with_gnugo(gnugo, sgf):
    state = load_game(DATA / sgf).state
    board = state.s[BOARD]
    stones = [(name, to_gtp(int(p), SIZE)) for colour, name in ((BLACK, "black"), (WHITE, "white"))
              for p in np.flatnonzero(board == colour)]
    assert len(stones) > 20  # the position was loaded
    assert ours(state, 0) == judge(gnugo, state, stones)
