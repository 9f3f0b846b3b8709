"""The strong-games data set and the features it added: a Tygem line read as moves, a zip
streamed with its held-out split and sampling, the diamond hashes the same under the 8
symmetries and the colour swap (and different for another shape), and the distance to
the move before the last."""

import zipfile

import numpy as np

from engine.core import spatial
from engine.core.go_ladder import ladder_scratch
from engine.core.layout import BLACK, PASS, WHITE
from engine.core.move_features import G_DIST, G_DIST2, N_GROUPS, tactical_features
from engine.game.coords import from_gtp, point
from engine.game.go_state import GoState
from engine.game.rules import GoRules
from engine.patterns import tygem

LINE = "407331168\t;B[pd];W[pp];B[dc];W[];B[cp]\n"


def test_a_line_is_its_moves_in_padded_points():
    game_id, moves = tygem.parse_line(LINE)
    assert game_id == "407331168"
    # SGF "pd": column p, row d from the top = Q16 on 19x19
    assert moves == [from_gtp("Q16", 19), from_gtp("Q4", 19), from_gtp("D17", 19), PASS,
                     from_gtp("C4", 19)]


def test_a_zip_streams_with_its_split_and_sampling(tmp_path):
    path = tmp_path / "2011-01.zip"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("2011-01", "".join(LINE.replace("407331168", str(i)) for i in range(60)))
    games = list(tygem.games(tygem.zips(tmp_path)))
    assert [g[0] for g in games] == list(range(60)) and games[7][1] == "7"
    assert sum(tygem.is_held_out(g[0]) for g in games) == 60 // tygem.HOLDOUT_EVERY + 1
    every = [move for _, move in tygem.chosen_moves(games[:3])]
    assert len(every) == 12   # 4 board moves a game, the pass left out
    one_in_two = list(tygem.chosen_moves(games[:3], every=2, seed=1))
    assert 3 <= len(one_in_two) <= 9
    ex, read = tygem.examples(games[:5], chunk_games=2)
    assert read == 5 and ex.n_positions == 20 and ex.chosen.sum() == 20
    assert ex.hashes.shape == (len(ex.pos), spatial.N_RADII)


def hashes(black, white, at, color=BLACK, size=19):
    st = GoState(GoRules(size=size))
    st.setup(black=[from_gtp(v, size) for v in black], white=[from_gtp(v, size) for v in white])
    out = np.zeros(spatial.N_RADII, dtype=np.int64)
    spatial.diamond_hashes(st.s, st.meta, from_gtp(at, size), color, spatial.CELLS,
                           spatial.RING_END, spatial.TABLE, spatial.SALT, out)
    return list(out)


def test_diamonds_hash_a_shape_whatever_its_orientation_and_colour():
    shape = hashes(["K12", "L10"], ["K9"], "K10")
    for black, white in ((["H10", "K11"], ["L10"]), (["J10", "K8"], ["K11"]),
                         (["M10", "K9"], ["J10"]), (["K12", "J10"], ["K9"])):
        assert hashes(black, white, "K10") == shape
    assert hashes(["K9"], ["K12", "L10"], "K10", WHITE) == shape
    other = hashes(["K12", "L10"], ["K9", "K7"], "K10")
    assert other[0] == shape[0] and other[1:] != shape[1:]   # K7 lies outside radius 2
    assert len(set(hashes([], [], "A1"))) == spatial.N_RADII   # sizes never share a hash


def test_dist2_is_the_distance_to_the_move_before_the_last():
    n = 9
    st = GoState(GoRules(size=n))
    st.play(point(4, 4, n))      # black, the move before the last
    st.play(point(0, 8, n))      # white, the last
    lv = np.zeros(N_GROUPS, dtype=np.int8)
    tactical_features(st.s, st.meta, point(4, 5, n), BLACK, ladder_scratch(n), 100, lv)
    assert lv[G_DIST2] == 1 and lv[G_DIST] == 0    # d = 1 + 0 + 1 = 2; the last is far
