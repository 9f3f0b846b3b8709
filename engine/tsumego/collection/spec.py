"""A problem definition and its SGF file.

A definition draws the problem as seen in the top-left corner of the board (first row =
top edge, first column = left edge, unless ``at`` moves it): ``X`` black, ``O`` white,
``.`` empty, ``*`` a correct first move, ``?`` a tempting first move that fails (marked
WRONG).  ``place`` moves the drawing to another corner ("tl", "tr", "bl", "br", and
"t..." transposed first) so the collection is not all in one corner.  Each definition
also holds the board size, the side to play, the difficulty (1-3, problems/README.md),
the tags (the goal ``kill``/``live``/``win``/``defend`` first, then themes) and the
comments written with the answers (``why`` on RIGHT, ``wrong`` on WRONG).
"""

from pathlib import Path

from sgfmill import sgf

from ...game.coords import point, to_sgfmill

GOAL_TEXT = {"kill": "kill", "live": "live", "win": "win", "defend": "stop the threat"}


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


def place(r: int, c: int, n: int, where: str) -> tuple[int, int]:
    if where.startswith("t") and len(where) == 3:   # "ttl" etc.: transpose first
        r, c, where = c, r, where[1:]
    if where[1] == "r":
        c = n - 1 - c
    if where[0] == "b":
        r = n - 1 - r
    return r, c


def parse(spec) -> dict:
    """Stones and answer points of a definition, on the board."""
    n = spec["size"]
    r0, c0 = spec.get("at", (0, 0))
    where = spec.get("place", "tl")
    out = {"X": [], "O": [], "*": [], "?": []}
    for r, line in enumerate(spec["board"].strip("\n").splitlines()):
        for c, ch in enumerate(line.split()):
            if ch == ".":
                continue
            if ch not in out:
                raise ValueError(f"{spec['name']}: unknown symbol {ch!r}")
            rr, cc = place(r + r0, c + c0, n, where)
            out[ch].append(point(rr, cc, n))
    if not out["*"]:
        raise ValueError(f"{spec['name']}: no correct move marked")
    return out


def statement(spec) -> str:
    side = "Black" if spec["to_play"] == "B" else "White"
    goal = next(t for t in spec["tags"] if t in GOAL_TEXT)
    return f"{side} to {GOAL_TEXT[goal]}."


def write(spec, folder: Path) -> Path:
    """The definition as ``folder/NAME.sgf``, its answers as RIGHT/WRONG variations."""
    n, game = spec["size"], spec.get("game", "go")
    pts = parse(spec)
    tree = sgf.Sgf_game(n)
    root = tree.get_root()
    root.set("GM", 1 if game == "go" else 4)
    root.set("GN", spec["name"])
    if game == "go":
        root.set("KM", 0.0)
    root.set_setup_stones([to_sgfmill(p, n) for p in pts["X"]],
                          [to_sgfmill(p, n) for p in pts["O"]])
    root.set("PL", spec["to_play"].lower())
    root.set_raw("DI", str(spec["difficulty"]).encode())
    root.set_raw_list("TG", [t.encode() for t in spec["tags"]])
    root.set("C", statement(spec) + (" " + spec["note"] if spec.get("note") else ""))
    colour = spec["to_play"].lower()
    for p in pts["*"]:
        child = root.new_child()
        child.set_move(colour, to_sgfmill(p, n))
        child.set("C", "RIGHT" + (": " + spec["why"] if spec.get("why") else ""))
    for p in pts["?"]:
        child = root.new_child()
        child.set_move(colour, to_sgfmill(p, n))
        child.set("C", "WRONG" + (": " + spec["wrong"] if spec.get("wrong") else ""))
    path = folder / f"{spec['name']}.sgf"
    path.write_bytes(tree.serialise(wrap=79))
    return path
