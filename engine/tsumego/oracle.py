"""Two readers that check a Go problem's answers without our search: an exact minimax of
our own (``exact_answers``, small enclosed positions only) and GNU Go's owl code
(``gnugo_judgement``, through a GTP engine).  ``engine.tsumego.collection.verify`` runs
both over the collection; ``gobang_oracle`` is the Gobang counterpart."""

import os
import tempfile
from dataclasses import replace

import numpy as np

from ..core.layout import BLACK, EMPTY, OFFBOARD, WHITE
from ..game.coords import PASS, point, to_gtp
from ..game.go_state import GoState
from ..game.sgf import save_game
from ..game.state import opponent
from .frame import frame_problem, region_box

# GNU Go's GTP result codes, best first: 1 WIN, 2 KO_A (a ko the mover need not find the
# first threat for), 3 KO_B (a ko needing the first threat), 4 GAIN and 5 LOSS (partial
# results), 0 failure
GOODNESS = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 0: 5}
# the exact reading is not started on more empty points than this: it would spend its
# whole node budget (many minutes) and give up anyway
MAX_EXACT_EMPTY = 20


def groups_at_stake(state, defender: int, goal: str) -> list[int]:
    """The groups at stake, one stone each (the chain's lowest point): every defender chain
    when the goal is to kill (all must die), the largest (lowest point on ties) when it is
    to live."""
    seen, chains = set(), []
    for p in state.points():
        if state.color_at(p) == defender and p not in seen:
            chain = state.chain(p)
            seen |= chain
            chains.append((len(chain), -min(chain)))
    chains.sort(reverse=True)
    return [-low for _, low in (chains if goal == "kill" else chains[:1])]


def gnugo_judgement(engine, sgf_path, problem, state) -> dict:
    """GNU Go's verdict on ``state`` (the problem's position or its frame, saved at
    ``sgf_path``), asked of ``engine`` (a ``GtpEngine`` running GNU Go): for every empty
    point of the problem's region, does that first move achieve the goal
    (``owl_does_attack`` on the groups at stake for ``kill``, ``owl_does_defend`` for
    ``live``)?  A move's code is its worst over those groups; the accepted moves are those
    with the best code, when it is a win or a ko."""
    n = state.size
    defender = problem.to_play if problem.goal == "live" else opponent(problem.to_play)
    # the groups of the problem, not the frame's
    targets = [to_gtp(p, n) for p in groups_at_stake(problem.state, defender, problem.goal)]
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


def gnugo_framed_judgement(engine, problem) -> dict:
    """``gnugo_judgement`` on the problem's tsumego frame (``frame.frame_problem``, the
    position our searches read), written to a temporary SGF for GNU Go to load."""
    frame = frame_problem(problem)
    fd, tmp = tempfile.mkstemp(suffix=".sgf")
    os.close(fd)
    try:
        save_game(frame.state, tmp)
        return gnugo_judgement(engine, tmp, problem, frame.state)
    finally:
        os.unlink(tmp)


class TooBig(Exception):
    """The exact reading ran out of nodes."""


def _settled_alive(state, target: int) -> bool:
    """The chain of ``target`` has two liberties that are single points enclosed by the chain
    alone: unconditionally alive (Benson's criterion, single-point regions only)."""
    chain, w = state.chain(target), state.size + 2
    eyes = 0
    for p in {q + d for q in chain for d in (-1, 1, -w, w)}:
        if state.color_at(p) == EMPTY and all(
                p + d in chain or state.color_at(p + d) == OFFBOARD for d in (-1, 1, -w, w)):
            eyes += 1
    return eyes >= 2


def _reading_state(problem):
    """The problem's tsumego frame, with simple ko only: positional superko costs a copy
    per legality test, and a position that comes back on the current line counts as a
    failure for the attacker anyway."""
    framed = frame_problem(problem).state
    state = GoState(replace(framed.rules, superko=False))
    state.setup(black=[p for p in framed.points() if framed.color_at(p) == BLACK],
                white=[p for p in framed.points() if framed.color_at(p) == WHITE])
    return state


def exact_answers(problem, max_nodes: int = 100_000) -> set | None:
    """The first moves that achieve the goal, read exactly on the tsumego frame: a complete
    minimax over the points of the bounding box of the problem's stones, plus pass.  The
    attacker wins once no defender stone of the problem is left on its point; the
    defender wins when one of them is in a chain settled alive (``_settled_alive``) or is
    still there after two passes (so a seki counts as living).  Simple ko only, and the
    memo ignores history: not meant for ko problems.  None when the reading needs more
    than ``max_nodes`` positions, or the box holds more than ``MAX_EXACT_EMPTY`` empty
    points."""
    state = _reading_state(problem)
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
