"""Write our problem collection (problems/go, problems/gobang) from the compact definitions
in ``tsumego_definitions.py``, and check every answer against GNU Go.

    .venv/bin/python scripts/make_tsumego_problems.py            # write the SGF files
    .venv/bin/python scripts/make_tsumego_problems.py --verify   # and compare with GNU Go

A definition draws the problem as seen in the top-left corner of the board (first row =
top edge, first column = left edge, unless ``at`` moves it): ``X`` black, ``O`` white,
``.`` empty, ``*`` a correct first move, ``?`` a tempting first move that fails (marked
WRONG).  ``place`` moves the drawing to another corner ("tl", "tr", "bl", "br", and
"t..." transposed first) so the collection is not all in one corner.

``--verify`` checks every Go problem with two readers and every Gobang problem with one:

* GNU Go's owl code, for every empty point of the problem's region: does that first move
  achieve the goal (``owl_does_attack`` on every defender chain for ``kill``,
  ``owl_does_defend`` on the largest for ``live``)?  The accepted moves are those with
  GNU Go's best result code (1 = unconditional, 2/3 = ko).  It also requires the problem
  to be "critical" (not settled whoever moves) and repeats the check on the tsumego frame
  of the position (the frame must not change the answer).
* ``exact_answers``: a complete minimax of our own, where the position is small enough.
* Gobang: ``gobang_answers``, an exhaustive reading of continuous fours.

It prints one line per problem: ``ok``, or ``DISAGREE`` with what the readers accept.
"""

import argparse
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
from sgfmill import sgf

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tsumego_definitions import GOBANG, GO  # noqa: E402

from engine.game.coords import PASS, point, to_gtp, to_sgfmill  # noqa: E402
from engine.core.layout import BLACK, EMPTY, OFFBOARD, WHITE  # noqa: E402
from engine.game.state import opponent  # noqa: E402
from engine.game.go_state import GoState  # noqa: E402
from engine.game.sgf import save_game  # noqa: E402
from engine.tsumego.frame import frame_problem, region_box  # noqa: E402
from engine.tsumego.problem import load_sgf_problem  # noqa: E402
from engine.tsumego.solve import GtpEngine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent / "problems"
COLOUR = {"B": BLACK, "W": WHITE}
# GNU Go's GTP result codes, best first: 1 WIN, 2 KO_A (a ko the mover need not find the
# first threat for), 3 KO_B (a ko needing the first threat), 4 GAIN and 5 LOSS (partial
# results), 0 failure
GOODNESS = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 0: 5}
GOAL_TEXT = {"kill": "kill", "live": "live", "win": "win", "defend": "stop the threat"}
# the exact reading is not started on more empty points than this: it would spend its
# whole node budget (many minutes) and give up anyway
MAX_EXACT_EMPTY = 20


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


# -- GNU Go's opinion ------------------------------------------------------------------------

def _targets(state, defender: int, goal: str) -> list:
    """The groups at stake, one stone each: every defender chain when the goal is to kill
    (all must die), the largest (its lowest point on ties) when it is to live."""
    seen, chains = set(), []
    for p in state.points():
        if state.color_at(p) == defender and p not in seen:
            chain = _chain(state, p)
            seen |= chain
            chains.append((len(chain), -min(chain)))
    chains.sort(reverse=True)
    return [-low for _, low in (chains if goal == "kill" else chains[:1])]


def gnugo_judgement(engine, sgf_path, problem, state) -> dict:
    """GNU Go's verdict on ``state`` (the problem's position or its frame): a move's code
    is its worst over the groups at stake."""
    n = state.size
    defender = problem.to_play if problem.goal == "live" else opponent(problem.to_play)
    # the groups of the problem, not the frame's
    targets = [to_gtp(p, n) for p in _targets(problem.state, defender, problem.goal)]
    engine.ask(f"loadsgf {sgf_path} 1")   # before the answers: they are the main line
    worst = lambda codes: max(codes, key=lambda v: GOODNESS[v])   # noqa: E731
    attack = worst(int(engine.ask(f"owl_attack {t}").split()[0]) for t in targets)
    defend = worst(int(engine.ask(f"owl_defend {t}").split()[0]) for t in targets)
    ask = "owl_does_defend" if problem.goal == "live" else "owl_does_attack"
    top, bottom, left, right = region_box(problem.state.board(), problem.region)
    codes = {}
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            p = point(r, c, n)
            if state.color_at(p) != EMPTY or not state.is_legal(p, problem.to_play):
                continue
            codes[p] = worst(int(engine.ask(f"{ask} {to_gtp(p, n)} {t}")) for t in targets)
    best = min(codes.values(), key=lambda v: GOODNESS[v], default=0)
    accepted = {p for p, v in codes.items() if v == best} if GOODNESS[best] <= 2 else set()
    return dict(targets=targets, attack=attack, defend=defend, best=best, accepted=accepted,
                codes=codes)


class TooBig(Exception):
    """The exact reading ran out of nodes."""


def _chain(state, p) -> set:
    colour, chain, stack = state.color_at(p), {p}, [p]
    w = state.size + 2
    while stack:
        q = stack.pop()
        for d in (-1, 1, -w, w):
            if state.color_at(q + d) == colour and q + d not in chain:
                chain.add(q + d)
                stack.append(q + d)
    return chain


def _settled_alive(state, target: int) -> bool:
    """The chain of ``target`` has two liberties that are single points enclosed by the chain
    alone: unconditionally alive (Benson's criterion, single-point regions only)."""
    chain, w = _chain(state, target), state.size + 2
    eyes = 0
    for p in {q + d for q in chain for d in (-1, 1, -w, w)}:
        if state.color_at(p) == EMPTY and all(
                p + d in chain or state.color_at(p + d) == OFFBOARD for d in (-1, 1, -w, w)):
            eyes += 1
    return eyes >= 2


def exact_answers(problem, max_nodes: int = 100_000) -> set | None:
    """The first moves that achieve the goal, read exactly on the tsumego frame: a complete
    minimax over the points of the bounding box of the problem's stones, plus pass.  The
    attacker wins once no defender stone of the problem is left on its point; the
    defender wins when one of them is in a chain settled alive (``_settled_alive``) or is
    still there after two passes (so a seki counts as living).  Simple ko only, and the
    memo ignores history: not meant for ko problems.  None when the reading needs more
    than ``max_nodes`` positions, or the box holds more than ``MAX_EXACT_EMPTY`` empty
    points."""
    framed = frame_problem(problem).state
    # simple ko only (positional superko costs a copy per legality test); a position that
    # comes back on the current line counts as a failure for the attacker
    state = GoState(replace(framed.rules, superko=False))
    state.setup(black=[p for p in framed.points() if framed.color_at(p) == BLACK],
                white=[p for p in framed.points() if framed.color_at(p) == WHITE])
    board = problem.state.board()
    rows, cols = np.nonzero(board)
    # every point of the stones' bounding box, stones included (captures empty them): the
    # group at stake is enclosed, so the frame's margin around it only adds pointless moves
    moves = [point(r, c, problem.size)
             for r in range(rows.min(), rows.max() + 1)
             for c in range(cols.min(), cols.max() + 1)] + [PASS]
    box = board[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
    if int((box == EMPTY).sum()) > MAX_EXACT_EMPTY:
        return None
    attacker = problem.to_play if problem.goal == "kill" else opponent(problem.to_play)
    defender = opponent(attacker)
    stones = [p for p in problem.state.points() if problem.state.color_at(p) == defender]
    memo, count, line = {}, [0], set()

    def attacker_wins(to_play) -> bool:
        left = [p for p in stones if state.color_at(p) == defender]
        if not left:
            return True
        if state.is_terminal() or any(_settled_alive(state, p) for p in left):
            return False
        key = (state.hash, to_play, state.passes)
        if key in memo:
            return memo[key]
        if key in line:
            return False
        line.add(key)
        count[0] += 1
        if count[0] > max_nodes:
            raise TooBig
        want = to_play == attacker
        result = not want
        for m in moves:
            if m != PASS and (state.color_at(m) != EMPTY or not state.is_legal(m, to_play)):
                continue
            state.play(m, to_play)
            try:
                outcome = attacker_wins(opponent(to_play))
            finally:
                state.undo()
            if outcome == want:
                result = want
                break
        line.discard(key)
        memo[key] = result
        return result

    mover, winners = problem.to_play, set()
    try:
        for m in moves[:-1]:
            if state.color_at(m) == EMPTY and state.is_legal(m, mover):
                state.play(m, mover)
                try:
                    if attacker_wins(opponent(mover)) == (mover == attacker):
                        winners.add(m)
                finally:
                    state.undo()
    except TooBig:
        return None
    return winners


# -- Gobang: exact short reading -------------------------------------------------------------

_LINES = ((0, 1), (1, 0), (1, 1), (1, -1))


def _run(board, r, c, dr, dc, colour) -> int:
    """Stones of ``colour`` in a row through (r, c) along (dr, dc), (r, c) counted."""
    n, count = len(board), 1
    for sign in (1, -1):
        rr, cc = r + sign * dr, c + sign * dc
        while 0 <= rr < n and 0 <= cc < n and board[rr][cc] == colour:
            count += 1
            rr, cc = rr + sign * dr, cc + sign * dc
    return count


def _fives(board, colour, around=None) -> set:
    """Empty points where ``colour`` makes five or more (freestyle); only those on the four
    lines through ``around`` (a point) when given."""
    n = len(board)
    if around is None:
        cells = [(r, c) for r in range(n) for c in range(n)]
    else:
        r0, c0 = around
        cells = {(r0 + k * dr, c0 + k * dc) for dr, dc in _LINES for k in range(-4, 5)}
    return {(r, c) for r, c in cells if 0 <= r < n and 0 <= c < n and board[r][c] == EMPTY
            and any(_run(board, r, c, dr, dc, colour) >= 5 for dr, dc in _LINES)}


def _vcf(board, mover, fours: int) -> bool:
    """Can ``mover`` (to move) make five with at most ``fours`` more fours, each forcing the
    opponent to block, whatever the opponent blocks with?  (A "victory by continuous
    fours"; a four with two five-points wins outright.)"""
    if _fives(board, mover):
        return True
    if fours == 0 or _fives(board, opponent(mover)):
        return False
    for r, c in [(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == EMPTY]:
        board[r][c] = mover
        try:
            if _four_wins(board, mover, (r, c), fours):
                return True
        finally:
            board[r][c] = EMPTY
    return False


def _four_wins(board, mover, move, fours: int) -> bool:
    """``mover`` has just played ``move`` with no five-point before it and none for the
    opponent: is it a four that wins within ``fours`` fours?"""
    threats = _fives(board, mover, around=move)
    if not threats:
        return False
    if len(threats) >= 2:
        return True
    (r, c), = threats
    board[r][c] = opponent(mover)     # the forced block
    try:
        return _vcf(board, mover, fours - 1)
    finally:
        board[r][c] = EMPTY


def gobang_answers(problem, fours: int) -> set:
    """``win``: the first moves that make five, or a four that wins by continuous fours
    (at most ``fours`` of them).  ``defend``: the first moves after which the opponent has
    no five and no such win."""
    n, mover = problem.size, problem.to_play
    board = [[problem.state.color_at(point(r, c, n)) for c in range(n)] for r in range(n)]
    mine, theirs = _fives(board, mover), _fives(board, opponent(mover))
    out = set()
    for r in range(n):
        for c in range(n):
            if board[r][c] != EMPTY:
                continue
            board[r][c] = mover
            if "win" in problem.tags:
                good = (r, c) in mine or (not theirs and not mine
                                          and _four_wins(board, mover, (r, c), fours))
            else:
                good = not _vcf(board, opponent(mover), fours)
            board[r][c] = EMPTY
            if good:
                out.add(point(r, c, n))
    return out


def verify(paths) -> int:
    problems = 0
    bad = 0
    with GtpEngine("/usr/games/gnugo --mode gtp --level 10 --chinese-rules") as engine:
        for path in paths:
            problem = load_sgf_problem(path)
            if problem.game != "go":
                continue
            problems += 1
            n = problem.size
            mine = {to_gtp(p, n) for p in problem.accept}
            raw = gnugo_judgement(engine, path.resolve(), problem, problem.state)
            frame = frame_problem(problem)
            fd, tmp = tempfile.mkstemp(suffix=".sgf")
            os.close(fd)
            try:
                save_game(frame.state, tmp)
                framed = gnugo_judgement(engine, tmp, problem, frame.state)
            finally:
                os.unlink(tmp)
            notes = []
            gnu = {to_gtp(p, n) for p in raw["accepted"]}
            if gnu != mine:
                notes.append(f"GNU Go accepts {sorted(gnu)} (code {raw['best']})")
            if not (raw["attack"] and raw["defend"]):
                notes.append(f"not critical: owl_attack {raw['attack']} "
                             f"owl_defend {raw['defend']}")
            fgnu = {to_gtp(p, n) for p in framed["accepted"]}
            if fgnu != gnu or framed["best"] != raw["best"]:
                notes.append(f"framed: GNU Go accepts {sorted(fgnu)} (code {framed['best']})")
            ko = " ko" if raw["best"] in (2, 3) else ""
            remarks = []   # worth knowing, not disagreements
            if not ko:
                exact = exact_answers(problem)
                extra = set() if exact is None else exact - problem.accept
                if exact is None:
                    remarks.append("GNU Go only: too big to read exactly")
                elif exact - extra != problem.accept:
                    notes.append(f"exact reading accepts {sorted(to_gtp(p, n) for p in exact)}")
                elif all(raw["codes"].get(p) in (2, 3) for p in extra) and extra:
                    # the frame gives no ko threats, so the reading wins GNU Go's kos too
                    remarks.append("exact reading also wins the ko at "
                                   + ", ".join(sorted(to_gtp(p, n) for p in extra)))
                elif extra:
                    notes.append(f"exact reading accepts {sorted(to_gtp(p, n) for p in exact)}")
            status = "DISAGREE" if notes else "ok"
            bad += bool(notes)
            print(f"{status:8} {problem.name:36} mine {sorted(mine)}{ko}  "
                  + "; ".join(notes + remarks), flush=True)
    print(f"{problems} Go problems checked, {bad} disagreeing")
    return bad


def verify_gobang(specs_paths) -> int:
    """The Gobang problems against the exact reading of ``gobang_answers``."""
    bad = 0
    for spec, path in specs_paths:
        problem = load_sgf_problem(path)
        n = problem.size
        mine = {to_gtp(p, n) for p in problem.accept}
        exact = {to_gtp(p, n) for p in gobang_answers(problem, spec["fours"])}
        status = "ok" if exact == mine else "DISAGREE"
        bad += exact != mine
        print(f"{status:8} {problem.name:36} mine {sorted(mine)}"
              + ("" if exact == mine else f"  exact reading accepts {sorted(exact)}"))
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verify", action="store_true", help="compare with GNU Go's owl code")
    ap.add_argument("--only", help="only definitions whose name contains this")
    args = ap.parse_args(argv)
    names = [spec["name"] for spec in GO + GOBANG]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise SystemExit(f"duplicate problem names: {sorted(dupes)}")
    go_files = []
    for spec in GO:
        if not args.only or args.only in spec["name"]:
            folder = ROOT / "go" / f"{spec['size']}x{spec['size']}"
            folder.mkdir(parents=True, exist_ok=True)
            go_files.append(write(spec, folder))
    gobang_files = []
    for spec in GOBANG:
        if not args.only or args.only in spec["name"]:
            (ROOT / "gobang").mkdir(parents=True, exist_ok=True)
            gobang_files.append((spec, write(spec, ROOT / "gobang")))
    print(f"wrote the problems under {ROOT}")
    if not args.verify:
        return 0
    return 1 if verify_gobang(gobang_files) + verify(go_files) else 0


if __name__ == "__main__":
    sys.exit(main())
