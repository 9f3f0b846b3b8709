"""The problems of problems/ as compact definitions, read by make_tsumego_problems.py (see
its docstring for the drawing symbols).  Each entry: name, board size, side to play,
difficulty (1-3, problems/README.md), tags (the goal ``kill``/``live`` first, then
themes), the drawing, where it goes (``place``, ``at``), and the comments written with the
answers (``why`` on RIGHT, ``wrong`` on WRONG)."""


def go(name, size, to_play, difficulty, tags, board, place="tl", at=(0, 0), why="",
       wrong="", note=""):
    return dict(name=name, size=size, to_play=to_play, difficulty=difficulty,
                tags=tuple(tags.split()), board=board, place=place, at=at, why=why,
                wrong=wrong, note=note, game="go")


def gobang(name, to_play, difficulty, tags, board, fours, why="", wrong="", note=""):
    """A freestyle Gobang problem on 15x15; the drawing's top-left is at (3, 3).
    ``fours``: how many fours the reading that checks it may use."""
    return dict(name=name, size=15, to_play=to_play, difficulty=difficulty,
                tags=tuple(tags.split()), board=board, place="tl", at=(3, 3), why=why,
                wrong=wrong, note=note, game="gobang", fours=fours)


STRAIGHT_THREE = """
. * . O X
O O O O X
X X X X X
"""

BENT_THREE = """
* . O X
. O O X
O O X X
X X X .
"""

BULKY_FIVE = """
. * . O X
? . O O X
O O O X X
X X X X .
"""

BULKY_FIVE_WALL = """
O * ? O X
O * * O X
O ? O O X
O O O X X
X X X X .
"""

RABBITY_SIX = """
O O . O O X
O . * . O X
O O . ? O X
O O O O O X
X X X X X X
"""

RABBITY_SIX_LIVE = """
O O ? O O X
O ? * * O X
O O * . O X
O O O O O X
X X X X X X
"""

CROSSED_FIVE = """
O O . O O X
O ? * . O X
O O . O O X
O O O O O X
X X X X X X
"""

PYRAMID_FOUR = """
O ? * . O X
O O . O O X
O O O O O X
X X X X X X
"""

SECOND_LINE_FIVE = """
. * . . * . X
O O O O O X X
X X X X X X .
"""

SECOND_LINE_FIVE_BLOCKED = """
. * ? . * X .
O O O O O X .
X X X X X X .
"""

SECOND_LINE_HANE_KILL = """
. * ? O X . X
O O O O O X X
X X X X X X .
"""

SECOND_LINE_HANE_LIVE = """
. * ? O X ? X
O O O O O X X
X X X X X X .
"""

SECOND_LINE_SEVEN = """
X . * . . ? . . * . X
X X O O O O O O O X X
. X X X X X X X X X .
"""

CORNER_SIX_KILL = """
. ? . O X .
? * . O X .
O O O O X .
X X X X X .
"""


CORNER_SIX_LIVE = """
. * . O X .
. * . O X .
O O O O X .
X X X X X .
"""

L_SHAPE = """
* . ? . X
. O O O X
. O X X X
. O X . .
X X X . .
"""

J_SHAPE = """
? . . . X
* O O O X
. O X X X
O O X . .
X X X . .
"""

CORNER_KO = """
. * . . O X
? . O O O X
O O O X X X
X X X X . .
"""

CORNER_FIVE = """
. * . O X .
? . O O X .
O O O X X .
X X X X . .
"""

def invaders(*white):
    """Black's eight-point corner with white stones inside at ``white`` ((row, col))."""
    rows = [list(". . . . X O".split()), list(". . . . X O".split()),
            list("X X X X X O".split()), list("O O O O O O".split())]
    for r, c in white:
        rows[r][c] = "O"
    return rows


def draw(rows, right=(), wrong=()):
    rows = [list(r) for r in rows]
    for r, c in right:
        rows[r][c] = "*"
    for r, c in wrong:
        rows[r][c] = "?"
    return "\n" + "\n".join(" ".join(r) for r in rows) + "\n"


RACE = """
. O O O * X . O O
O O X X X X O O .
X X X O O O O O O
. O O O O O O O .
O O O O O . . . .
"""

RACE_KILL = """
. O O O ? X * O O
O O X X X X O O .
X X X O O O O O O
* O O O O O O O .
O O O O O . . . .
"""

SACRIFICE = """
X * . O X
O O O O X
X X X X X
"""

THROW_IN_SMALL = """
. * X O X
O O O O X
X X X X X
"""

THROW_IN_WIDE = """
. * X O O X
O O O O O X
X X X X X X
"""

HOLE_A = """
. . . . . O X
* O O O O O X
X X X X X X X
"""

HOLE_B = """
. . . . O X
O * O O O X
X X X X X X
"""

HOLE_C = """
. . . . O X
O O * O O X
X X X X X X
"""

HOLE_D = """
. . . . . . O X
O O O * O O O X
X X X X X X X X
"""

INSIDE_STONE = """
. . O O X
. * . O X
O O O O X
X X X X X
"""

CORNER_STONE = """
O . * . O X
O O O O O X
X X X X X X
"""

FIRST_LINE_STONES = """
. . . X X * X X
O O O O O O O X
X X X X X X X X
"""

FIRST_LINE_TWO = """
. * X X . * X
O O O O O O X
X X X X X X X
"""

CUT_IN_WALL = """
X . . . O X
O O O * O X
X X X X X X
"""

NAKADE_CUT = """
. O . * X
O O O O X
X X X X X
"""

BROKEN_WALL = """
. O X . O X
O * O O O X
X X X X X X
"""

SNAPBACK = """
. O . X O O X .
O O O O * . X .
X X X O O X X .
. . X X X X . .
"""

# Black's group has one eye, at the 1-4 point; capturing the two white stones that cut
# into it makes the second.  They run out to White's wall unless caught at once.
NET = """
O O X . X X X X O
O X X X X O X X O
O O O O X O . . O
. . . O X ? * . O
. . . O O . * . O
. . . . O . . . O
. . . . O O O O O
"""

NET_TIGHT = """
O O X . X X X X O
O X X X X O X X O
O O O O X O . . O
. . . O X ? * . O
. . . O O . ? O O
. . . . O . . . O
. . . . O O O O O
"""

LADDER = """
O O X . X X X X X O
O X X X X O X X X O
O O O O X O . . X O
. . . O . * ? . O O
. . . O O . . . O .
. . . . O . . . O .
. . . . O O O O O .
"""

WEAK_CARPENTERS_SQUARE = """
. . . . O X
. * . O O X
. . . O X X
O O O . X .
X X X X X .
"""

GO = [
    # -- eye shapes: the vital point kills, or makes the eyes
    go("straight-three-kill", 19, "B", 1, "kill eye-shape straight-three", STRAIGHT_THREE,
       why="the middle of a straight three leaves one eye"),
    go("straight-three-live", 19, "W", 1, "live eye-shape straight-three", STRAIGHT_THREE,
       place="tr", why="the middle point splits the space into two eyes"),
    go("bent-three-kill", 19, "B", 1, "kill eye-shape bent-three", BENT_THREE, place="bl",
       why="the bend of a bent three is its vital point"),
    go("bent-three-live", 9, "W", 1, "live eye-shape bent-three", BENT_THREE, place="br",
       why="the bend makes two eyes"),
    go("bulky-five-kill", 19, "B", 2, "kill eye-shape bulky-five", BULKY_FIVE, place="br",
       why="the point of the square next to the extra point is the vital point",
       wrong="white answers at the vital point and lives"),
    go("bulky-five-live", 19, "W", 1, "live eye-shape bulky-five", BULKY_FIVE_WALL,
       place="ttr", why="with the wall beside the vital point three moves make two eyes",
       wrong="black takes the vital point"),
    go("rabbity-six-kill", 19, "B", 2, "kill eye-shape rabbity-six", RABBITY_SIX,
       why="the centre of the rabbity six", wrong="white takes the centre and has eyes"),
    go("rabbity-six-live", 9, "W", 1, "live eye-shape rabbity-six", RABBITY_SIX_LIVE,
       place="tr", why="the centre, or either point of the square next to it, keeps two eyes",
       wrong="black takes the centre"),
    go("crossed-five-kill", 19, "B", 1, "kill eye-shape crossed-five", CROSSED_FIVE,
       place="bl", why="the centre of the plus shape", wrong="white takes the centre"),
    go("crossed-five-live", 19, "W", 1, "live eye-shape crossed-five", CROSSED_FIVE,
       place="tbr", why="the centre makes four eyes", wrong="black takes the centre"),
    go("pyramid-four-kill", 9, "B", 1, "kill eye-shape pyramid-four", PYRAMID_FOUR,
       why="the centre of the pyramid", wrong="white takes the centre"),
    go("pyramid-four-live", 19, "W", 1, "live eye-shape pyramid-four", PYRAMID_FOUR,
       place="br", why="the centre makes three eyes", wrong="black takes the centre"),
    # -- groups on the second line and in the corner
    go("second-line-five-kill", 19, "B", 2, "kill second-line", SECOND_LINE_FIVE,
       place="bl", why="the 2-1 point, or the placement at the far end, leaves one eye"),
    go("second-line-five-blocked-kill", 19, "B", 2, "kill second-line",
       SECOND_LINE_FIVE_BLOCKED, place="tr", why="the first-line placement",
       wrong="white makes two eyes"),
    go("second-line-five-blocked-live", 19, "W", 2, "live second-line",
       SECOND_LINE_FIVE_BLOCKED, place="ttl", why="the first-line point makes the eyes",
       wrong="black places on the 2-1 point"),
    go("second-line-hane-kill", 19, "B", 2, "kill second-line hane", SECOND_LINE_HANE_KILL,
       place="br", why="after the hane the 2-1 point kills", wrong="white makes two eyes"),
    go("second-line-hane-live", 19, "W", 2, "live second-line hane", SECOND_LINE_HANE_LIVE,
       place="tbl", why="the 2-1 point makes two eyes",
       wrong="capturing the hane stone leaves too little room"),
    go("second-line-seven-kill", 19, "B", 2, "kill second-line", SECOND_LINE_SEVEN,
       place="tl", at=(0, 5), why="the placement next to an end leaves one eye",
       wrong="white answers and keeps two eyes"),
    go("corner-six-kill", 19, "B", 2, "kill rectangular-six liberty-shortage",
       CORNER_SIX_KILL, place="tr",
       why="without outside liberties the 2-2 point kills the rectangular six",
       wrong="only a ko, or white lives"),
    go("corner-six-live", 19, "W", 1, "live rectangular-six", CORNER_SIX_LIVE, place="bl",
       why="the 2-2 point, or the 2-1 point, keeps the corner alive"),
    go("l-shape-live", 19, "W", 2, "live l-shape", L_SHAPE, place="tr",
       why="the 1-1 point", wrong="black takes the 1-1 point"),
    go("j-shape-kill", 19, "B", 2, "kill j-shape", J_SHAPE, place="bl",
       why="the 1-2 point on the long side", wrong="white lives"),
    go("corner-ko-kill", 19, "B", 3, "kill ko", CORNER_KO, place="br",
       why="the 2-1 point: a ko in which white must find the first threat",
       wrong="white lives unconditionally"),
    go("corner-five-kill", 19, "B", 2, "kill placement", CORNER_FIVE, place="ttl",
       why="the 2-1 point", wrong="white makes two eyes"),
    # -- black's eight-point corner with white stones inside
    go("seki-side-live", 19, "B", 3, "live seki invasion",
       draw(invaders((0, 1), (1, 1)), right=[(1, 2)], wrong=[(0, 2)]), place="br",
       why="seki is the best black can get"),
    go("invaders-e-live", 19, "B", 2, "live invasion",
       draw(invaders((1, 0), (1, 1)), right=[(1, 2)]), place="br",
       why="keeps the invaders from a killing shape"),
    # -- capturing race
    go("race-live", 19, "B", 2, "live capturing-race", RACE, place="tr",
       why="fill the liberty white shares with nothing: white's own outside one",
       note="The black group in the middle has no eyes: it lives by winning the race."),
    go("race-kill", 19, "W", 2, "kill capturing-race", RACE_KILL, place="bl",
       why="take one of black's outside liberties first",
       wrong="filling the shared liberty shortens white's own count"),
    # -- sacrifices, throw-ins, cutting points
    go("sacrifice-kill", 19, "B", 2, "kill sacrifice nakade", SACRIFICE, place="tr",
       why="add a second stone: two stones captured leave one eye"),
    go("sacrifice-live", 19, "W", 1, "live capture", SACRIFICE, place="bl",
       why="capture the stone in the corner at once"),
    go("throw-in-kill", 19, "B", 2, "kill throw-in", THROW_IN_SMALL, place="br",
       why="the throw-in: white's capture leaves one eye"),
    go("throw-in-wide-kill", 19, "B", 2, "kill throw-in", THROW_IN_WIDE, place="tl",
       why="the throw-in: white's capture leaves one eye"),
    go("nakade-cut-kill", 19, "B", 2, "kill placement", NAKADE_CUT, place="bl",
       why="the 1-4 point leaves white one eye"),
    go("cutting-point-kill", 19, "B", 2, "kill cutting-point", HOLE_A, place="tr",
       why="cut at the gap in the wall"),
    go("cutting-point-live", 19, "W", 1, "live connection", HOLE_B, place="bl",
       why="mend the gap in the wall"),
    go("side-gap-live", 19, "W", 1, "live connection", HOLE_C, place="br",
       why="mend the gap in the wall"),
    go("side-gap-kill", 19, "B", 2, "kill cutting-point", HOLE_D, place="tl",
       why="cut at the gap in the wall"),
    go("inside-stone-kill", 19, "B", 2, "kill placement", INSIDE_STONE, place="tr",
       why="the 2-2 point"),
    go("corner-stone-kill", 19, "B", 2, "kill placement", CORNER_STONE, place="br",
       why="the 1-3 point"),
    go("corner-stone-live", 19, "W", 1, "live eye-shape", CORNER_STONE, place="tl",
       why="the 1-3 point makes the second eye"),
    go("first-line-kill", 19, "B", 2, "kill first-line", FIRST_LINE_STONES, place="bl",
       why="connect the first-line stones"),
    go("first-line-live", 19, "W", 2, "live first-line", FIRST_LINE_STONES, place="tr",
       why="cut the first-line stones"),
    go("first-line-two-live", 19, "W", 2, "live first-line", FIRST_LINE_TWO, place="br",
       why="either first-line point makes the eyes"),
    go("cut-in-wall-live", 19, "W", 1, "live connection", CUT_IN_WALL, place="tl",
       why="mend the gap in the wall"),
    go("broken-wall-kill", 19, "B", 2, "kill cutting-point", BROKEN_WALL, place="br",
       why="cut at the gap in the wall"),
    # -- snapback
    go("snapback-kill", 19, "B", 2, "kill snapback throw-in", SNAPBACK, place="tr",
       why="the throw-in: capturing it is a snapback, and without the two stones on the "
           "edge white has one eye",
       note="Connecting at the throw-in point gives white two eyes."),
    # -- ladders and nets: the cutting stones escape to White's wall unless caught
    go("net-live", 19, "B", 2, "live net", NET, place="tr",
       why="a net: whichever way the cutting stones run they are in atari at once, and "
           "their capture makes the second eye; the looser net one point further away "
           "works too",
       wrong="the direct atari: White runs out along the third line",
       note="Black's group has one eye."),
    go("net-tight-live", 19, "B", 2, "live net", NET_TIGHT, place="bl",
       why="the net next to the cutting stones; capturing them makes the second eye",
       wrong="the direct atari lets White run; with White's extra stone the looser net "
             "fails",
       note="Black's group has one eye."),
    go("ladder-live", 19, "B", 2, "live ladder", LADDER, place="tl",
       why="atari from below: the cutting stones crawl along Black's wall in atari until "
           "they die against it, and their capture makes the second eye",
       wrong="the net fails here: White extends downwards and reaches the wall",
       note="Black's group has one eye."),
    go("ladder-live-13", 13, "B", 2, "live ladder", LADDER, place="tbr",
       why="atari from below: the cutting stones crawl along Black's wall in atari "
           "until they die against it",
       note="Black's group has one eye."),
    # -- the carpenter's square without its corner stone (Sensei's Library: "weak
    #    carpenter's square"; with the corner stone the 2-2 point only makes a ko)
    go("weak-carpenters-square-kill", 19, "B", 3, "kill carpenters-square placement",
       WEAK_CARPENTERS_SQUARE, place="br",
       why="the 2-2 point, the vital point of the carpenter's square; without the stone "
           "at the corner of the shape white cannot even get a ko"),
    # -- the same shapes on a 9x9 board
    go("straight-three-kill-9", 9, "B", 1, "kill eye-shape straight-three", STRAIGHT_THREE,
       place="bl", why="the middle of a straight three leaves one eye"),
    go("bulky-five-kill-9", 9, "B", 2, "kill eye-shape bulky-five", BULKY_FIVE,
       why="the vital point of the bulky five"),
    go("crossed-five-live-9", 9, "W", 1, "live eye-shape crossed-five", CROSSED_FIVE,
       place="br", why="the centre makes four eyes"),
    go("second-line-hane-kill-9", 9, "B", 2, "kill second-line hane",
       SECOND_LINE_HANE_KILL, place="tr", why="after the hane the 2-1 point kills"),
    go("corner-six-kill-9", 9, "B", 2, "kill rectangular-six liberty-shortage",
       CORNER_SIX_KILL, place="bl", why="the 2-2 point", wrong="only a ko, or white lives"),
    go("l-shape-live-9", 9, "W", 2, "live l-shape", L_SHAPE, place="tl",
       why="the 1-1 point"),
    go("j-shape-kill-9", 9, "B", 2, "kill j-shape", J_SHAPE, place="tr",
       why="the 1-2 point on the long side"),
    go("sacrifice-kill-9", 9, "B", 2, "kill sacrifice nakade", SACRIFICE, place="tl",
       why="add a second stone"),
    go("throw-in-kill-9", 9, "B", 2, "kill throw-in", THROW_IN_WIDE, place="bl",
       why="the throw-in"),
    go("cutting-point-kill-9", 9, "B", 2, "kill cutting-point", HOLE_A, place="br",
       why="cut at the gap in the wall"),
    go("corner-ko-kill-9", 9, "B", 3, "kill ko", CORNER_KO, place="tl",
       why="the 2-1 point: a ko in which white must find the first threat"),
    go("bent-three-kill-9", 9, "B", 1, "kill eye-shape bent-three", BENT_THREE, place="tl",
       why="the bend of a bent three is its vital point"),
    go("rabbity-six-kill-9", 9, "B", 2, "kill eye-shape rabbity-six", RABBITY_SIX,
       place="br", why="the centre of the rabbity six"),
    go("pyramid-four-live-9", 9, "W", 1, "live eye-shape pyramid-four", PYRAMID_FOUR,
       place="tr", why="the centre makes three eyes"),
    go("first-line-kill-9", 9, "B", 2, "kill first-line", FIRST_LINE_STONES, place="tl",
       why="connect the first-line stones"),
    go("inside-stone-kill-9", 9, "B", 2, "kill placement", INSIDE_STONE, place="bl",
       why="the 2-2 point"),
    go("corner-five-kill-9", 9, "B", 2, "kill placement", CORNER_FIVE, place="br",
       why="the 2-1 point"),
    go("broken-wall-kill-9", 9, "B", 2, "kill cutting-point", BROKEN_WALL, place="tl",
       why="cut at the gap in the wall"),
    go("nakade-cut-kill-9", 9, "B", 2, "kill placement", NAKADE_CUT, place="tr",
       why="the 1-4 point leaves white one eye"),
    go("race-live-9", 9, "B", 2, "live capturing-race", RACE, place="bl",
       why="fill white's outside liberty, not the shared one"),
    go("snapback-kill-9", 9, "B", 2, "kill snapback throw-in", SNAPBACK, place="bl",
       why="the throw-in: capturing it is a snapback"),
]


GOBANG_FIVE = """
. . . . . . . .
. . . . . . . .
. O . . . O . .
. . O X X X X *
. . . . . . . .
. . . . O . . .
"""

GOBANG_BLOCK_FOUR = """
. . . . . . . .
. . X . . . . .
. . . . . . X .
. X O O O O * .
. . . . . . . .
. . . . . . . .
"""

GOBANG_DOUBLE_FOUR = """
. . . . O . . .
. . . . X . . .
. . . . X . . .
O X X X * . . .
. . . . X . . .
. . . . . . O .
"""

GOBANG_FOURS = """
. . . . . . . . .
. . . . . X . . .
. . . . . X . . .
. . . . . . . . .
. O X X X * ? . .
. . . . . . . . .
. . . . . . . O .
"""

GOBANG_DOUBLE_THREAT = """
. . . . O . . .
. . . . X . . .
. . . . X . . .
O X X X * * . .
. . . . X . . .
. . . O * . . .
"""

GOBANG = [
    gobang("gobang-five", "B", 1, "win", GOBANG_FIVE, fours=1,
           why="five in a row", note="Black has a four."),
    gobang("gobang-block-four", "B", 1, "defend", GOBANG_BLOCK_FOUR, fours=2,
           why="the only point that stops white's five"),
    gobang("gobang-double-four", "B", 2, "win double-four", GOBANG_DOUBLE_FOUR, fours=1,
           why="two fours at once: white can block only one"),
    gobang("gobang-fours", "B", 3, "win fours", GOBANG_FOURS, fours=2,
           why="a four that forces the block, then a four with two ends open",
           wrong="a four in the wrong place"),
    gobang("gobang-double-threat", "W", 2, "defend double-four", GOBANG_DOUBLE_THREAT,
           fours=2, why="takes black's double-four point, or spoils one of its lines"),
]
