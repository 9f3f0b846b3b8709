"""Fixed handicap placement against the GTP v2 spec's 19x19 table and against GNU Go."""

import pytest

from engine.game.coords import from_gtp, to_gtp
from engine.game.handicap import fixed_handicap_points, max_fixed_handicap


def vertices(size, count):
    return [to_gtp(p, size) for p in fixed_handicap_points(size, count)]


# the spec's table, order included
SPEC_19 = {
    2: "D4 Q16",
    3: "D4 Q16 D16",
    4: "D4 Q16 D16 Q4",
    5: "D4 Q16 D16 Q4 K10",
    6: "D4 Q16 D16 Q4 D10 Q10",
    7: "D4 Q16 D16 Q4 D10 Q10 K10",
    8: "D4 Q16 D16 Q4 D10 Q10 K4 K16",
    9: "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
}


@pytest.mark.parametrize("count", sorted(SPEC_19))
def test_19x19_matches_the_spec_table(count):
    assert vertices(19, count) == SPEC_19[count].split()


def test_small_boards_use_the_third_line():
    assert vertices(9, 2) == ["C3", "G7"]
    assert set(vertices(9, 9)) == {"C3", "E3", "G3", "C5", "E5", "G5", "C7", "E7", "G7"}
    assert set(vertices(7, 4)) == {"C3", "E3", "C5", "E5"}


def test_twelve_and_up_use_the_fourth_line():
    assert set(vertices(12, 4)) == {"D4", "J4", "D9", "J9"}
    assert set(vertices(13, 5)) == {"D4", "K4", "D10", "K10", "G7"}
    assert vertices(25, 9) == "D4 W22 D22 W4 D13 W13 N4 N22 N13".split()


@pytest.mark.parametrize("size, count", [(19, 1), (19, 0), (19, 10), (9, 10), (8, 5),
                                         (10, 9), (7, 5), (6, 2), (5, 4), (2, 2)])
def test_invalid_counts_are_refused(size, count):
    with pytest.raises(ValueError, match="invalid number of stones"):
        fixed_handicap_points(size, count)


def test_limits_by_size():
    assert [max_fixed_handicap(n) for n in range(5, 14)] == [0, 0, 4, 4, 9, 4, 9, 4, 9]


def test_points_are_distinct_and_on_the_board():
    for size in range(7, 26):
        for count in range(2, max_fixed_handicap(size) + 1):
            pts = fixed_handicap_points(size, count)
            assert len(set(pts)) == count
            assert all(from_gtp(to_gtp(p, size), size) == p for p in pts)


@pytest.mark.gnugo
def test_agrees_with_gnugo_on_every_size_and_count(gnugo):
    """GNU Go 3.8 plays on boards up to 19x19 only, so it vouches for sizes 7..19."""
    cases = [(size, count) for size in range(7, 26) for count in range(2, 10)]
    commands = []
    for size, count in cases:
        commands += [f"boardsize {size}", "clear_board", f"fixed_handicap {count}"]
    replies = gnugo.send_many(commands)
    compared = 0
    for (size, count), (sized, _), (placed, reply) in zip(cases, replies[0::3], replies[2::3]):
        if not sized:
            assert size > 19, size
            continue
        compared += 1
        assert placed == (count <= max_fixed_handicap(size)), (size, count, reply)
        if placed:
            assert set(reply.split()) == set(vertices(size, count)), (size, count)
    assert compared == 13 * 8
