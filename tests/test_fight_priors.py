"""The fight priors (engine.search.fight_priors): the vital points of the classic eye
shapes, which every life-and-death book gives, and the weakest target chain's liberties."""

import numpy as np

from engine.core.layout import BLACK, REP
from engine.game.coords import from_gtp, to_gtp
from engine.search.fight_priors import fight_work, liberties, mark_vital, weakest_chain

from go_boards import board


def vital_points(rows, attacker=BLACK):
    state = board(rows + ["." * 9] * (9 - len(rows)))
    target = np.array([p for p in state.points() if state.color_at(p) == 3 - attacker],
                      np.int32)
    vital, region, stack = fight_work(state.s.shape[1])
    mark_vital(state.s, 11, target, attacker, vital, region, stack)
    return sorted(to_gtp(int(p), 9) for p in np.flatnonzero(vital))


def test_the_vital_points_of_the_nakade_shapes():
    # White's eye spaces on the top edge, walled by White; Black attacks
    assert vital_points(["O...OX...", "OOOOOX...", "XXXXXX..."]) == ["C9"]      # straight three
    assert vital_points(["O..OX....", "O.OOX....", "OOOXX....",
                         "XXXX....."]) == ["B9"]                               # bent three
    assert vital_points(["O...OX...", "O..OOX...", "OOOOXX...",
                         "XXXXX...."]) == ["C9"]                               # bulky five
    assert vital_points(["O...OX...", "OO.OOX...", "OOOOXX...",
                         "XXXXX...."]) == ["C9"]                               # pyramid four


def test_rabbity_six_and_what_is_not_an_eye_space():
    rabbity = ["OO..OX...", "O...OX...", "OO.OOX...", "OOOOOX...", "XXXXXX..."]
    assert vital_points(rabbity) == ["C8"]          # the one point with four neighbours
    # a two-point eye has no vital point; a space open to the board is no eye space
    assert vital_points(["O..OX....", "OOOOX....", "XXXXX...."]) == []
    assert vital_points(["O......X.", "OOOOOOOX.", "XXXXXXXX."]) == []


def test_the_weakest_target_chain_and_its_liberties():
    state = board(["XO.......", "XO.OO....", "X........", "........."] + ["." * 9] * 5)
    a, b = from_gtp("B9", 9), from_gtp("D8", 9)
    found = np.zeros(8, np.int32)
    assert liberties(state.s, 11, state.s[REP, a], found) == 3
    assert liberties(state.s, 11, state.s[REP, b], found) == 6
    target = np.array([a, from_gtp("B8", 9), b, from_gtp("E8", 9)], np.int32)
    assert weakest_chain(state.s, 11, target, BLACK, found) == state.s[REP, a]
    assert weakest_chain(state.s, 11, np.array([from_gtp("A9", 9)], np.int32), BLACK,
                         found) == -1
