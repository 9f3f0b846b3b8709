"""The Go rules against GNU Go 3.8 (GTP, Chinese rules): legality under simple ko after
every move of hundreds of random games, and the area score of finished playouts.

The games are light playouts (``go_playout.random_move``, the engine's own policy), so they
run long, fill the board, capture, and meet kos; every move is played into GNU Go too.
"""

from collections import Counter

import numpy as np
import pytest

from engine.game.coords import to_gtp
from engine.core.go_playout import playout, random_move
from engine.core.layout import BLACK, BOARD, M_KO, WHITE
from engine.core.rng import make_rng
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from go_reference import ReferenceGo

SIZE = 9
KOMI = 7.5
COLOR_NAME = {BLACK: "black", WHITE: "white"}


def new_game(gnugo):
    gnugo.ask(f"boardsize {SIZE}")
    gnugo.ask("clear_board")
    gnugo.ask(f"komi {KOMI}")
    return GoState(GoRules(size=SIZE, komi=KOMI, superko=False))


def move_cap():
    """The move limit of ``go_playout.playout`` from an empty board."""
    return 3 * (SIZE + 2) ** 2


def compare_legality(state, gnugo, seen):
    """Every empty point, both colours: our simple-ko legality against GNU Go's is_legal."""
    empties = [int(p) for p in state.empty_points()]
    for color in (state.to_play, 3 - state.to_play):
        replies = gnugo.send_many(f"is_legal {COLOR_NAME[color]} {to_gtp(p, SIZE)}"
                                  for p in empties)
        assert all(ok for ok, _ in replies), replies
        theirs = sorted(p for p, (_, answer) in zip(empties, replies) if answer == "1")
        ours = state.legal_moves(color).tolist()
        assert ours == theirs, (f"{COLOR_NAME[color]} to play, ours - GNU Go: "
                                f"{[to_gtp(p, SIZE) for p in set(ours) ^ set(theirs)]}\n{state}")
        seen["points compared"] += len(empties)
        seen["refused"] += len(empties) - len(ours)
    seen["positions"] += 1
    seen["ko bans"] += state.meta[M_KO] != -1


def play_game(gnugo, seed, seen=None):
    """One light playout from the empty board, every move mirrored in GNU Go; with
    ``seen``, legality is compared before each move and at the end."""
    state = new_game(gnugo)
    rng = make_rng(seed)
    while True:
        if seen is not None:
            compare_legality(state, gnugo, seen)
        if state.passes >= 2 or state.move_count >= move_cap():
            return state
        color = state.to_play
        move = int(random_move(state.s, state.meta, rng, color))
        before = sum(state.captures)
        state.play(move)
        gnugo.ask(f"play {COLOR_NAME[color]} {to_gtp(move, SIZE)}")
        if seen is not None:
            seen["captures"] += sum(state.captures) > before
            seen["multi-stone captures"] += sum(state.captures) > before + 1


def check_legality_games(gnugo, games, seed):
    seen = Counter()
    for g in range(games):
        play_game(gnugo, seed + g, seen)
    seen["games"] = games
    assert seen["positions"] >= 60 * games, seen  # games of moderate length
    assert seen["captures"] >= 5 * games, seen
    assert seen["multi-stone captures"] >= games, seen
    assert seen["ko bans"] >= games // 4, seen
    assert seen["refused"] >= 10 * games, seen


@pytest.mark.gnugo
def test_simple_ko_legality_matches_gnugo(gnugo):
    check_legality_games(gnugo, games=200, seed=1)


@pytest.mark.gnugo
@pytest.mark.slow
def test_simple_ko_legality_matches_gnugo_long(gnugo):
    check_legality_games(gnugo, games=2000, seed=10_000)


def settled(state) -> bool:
    """Every empty region touches one colour only, so no judgement of life is needed."""
    ref = ReferenceGo(SIZE, superko=False)
    ref.setup(black=[p for p in state.points() if state.color_at(p) == BLACK],
              white=[p for p in state.points() if state.color_at(p) == WHITE])
    return all(len(borders) == 1 for _, borders in ref.empty_regions())


def gtp_score(score: float) -> str:
    if score > 0:
        return f"B+{score:.1f}"
    if score < 0:
        return f"W+{-score:.1f}"
    return "0"


def check_final_scores(gnugo, playouts, seed):
    compared = 0
    for k in range(playouts):
        state = play_game(gnugo, seed + k)
        # the Python loop above is the kernel playout move for move
        fresh = GoState(GoRules(size=SIZE, komi=KOMI, superko=False))
        s, meta = fresh.s.copy(), fresh.meta.copy()
        playout(s, meta, fresh.zob, make_rng(seed + k), np.zeros(0, dtype=np.int8))
        assert np.array_equal(s[BOARD], state.s[BOARD])
        if state.passes < 2 or not settled(state):
            continue
        assert gnugo.ask("final_score") == gtp_score(state.score()), str(state)
        compared += 1
    assert compared >= 0.8 * playouts


@pytest.mark.gnugo
def test_final_score_matches_gnugo_on_settled_playouts(gnugo):
    check_final_scores(gnugo, playouts=200, seed=50_000)


@pytest.mark.gnugo
@pytest.mark.slow
def test_final_score_matches_gnugo_on_settled_playouts_long(gnugo):
    check_final_scores(gnugo, playouts=2000, seed=60_000)
