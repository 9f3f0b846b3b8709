"""Solving one problem once: one back end (or an external GTP engine), one budget, one
seed -> one ``Outcome``, a row of the sweep's results.

The position searched is the problem's own, or its tsumego frame (``frame``) for a
composed Go problem when ``use_frame`` is on and the board has room for one.

A back end is named by a spec, ``NAME[:KEY=VALUE]...`` (``uct``, ``uct:c=0.5:rave=1``):
the registry's name and options of its own, on top of the options every back end of the
run gets; the spec as written is the run's label (``algo`` in the rows).  Resigning is
turned off, so every run gives a move.  The searcher's seed is derived from (problem,
label, budget, seed index) alone, so a table can be reproduced run by run, in any order
and on any machine.

``restrict``: the search's moves at the root -- the answer -- are limited to the
problem's region (``frame.problem_region``: the one the frame keeps, taken from the
problem, never from the frame's stones), pass staying allowed; the tree below the root
and the playouts still play anywhere.  A restricted run keeps its unrestricted twin's
seed, so the two differ by the mask alone.

A back end that reads fights (``reads_fights``: UCT, LinUCT) also gets the problem's
fight (``fight_target``): the defender's stones at stake and the side that must kill
them, the frame's attacker (``stakes.stakes``: the goal's, else guessed from the stones;
the target leaves out the defender's outside stones).  Its simulations then end
where that fight is decided and, with ``solver=1``, it proves moves.

What a row says about the answer besides the move: ``status`` -- ``proved`` when the
solver proved the move wins, ``refuted`` when it proved it loses (every move does),
``ko`` when not proven and the principal variation holds a ko capture, else ``found``
(the most visited move); ``pv``, the principal variation (GTP vertices); and
``stable_at``, the playouts after which the answer no longer changed: the search runs in
``CHECKPOINTS`` equal steps on one tree, and this is the first step's end from which the
move stayed the same (the whole budget's resolution is ``budget / CHECKPOINTS``); empty
for a back end that plans its budget up front (``plans_budget``: SHOT), which runs in one
search as before.

An external engine (GNU Go, or any GTP engine that knows ``loadsgf`` and
``reg_genmove``) gets the same position written to a temporary SGF; its rows have budget
0 (the engine spends what its own settings say) and seed index 0.
"""

import hashlib
import os
import shlex
import tempfile
import time
from dataclasses import asdict, dataclass

import numpy as np

from ..game.coords import RESIGN, from_gtp, to_gtp
from ..core.layout import BLACK, M_KO
from ..search.base import Budget, Target
from ..search.tree import LOSS, WIN
from ..match.gtp_client import GtpClient
from ..search.registry import make
from ..game.sgf import save_game
from .frame import frame_problem, problem_region, region_box
from .stakes import stakes

REQUIRED_COLUMNS = ("problem", "algo", "budget", "seed", "move", "correct", "seconds")
# the configuration a row ran with, besides its job: the frame (1/0), the options every
# back end got (``k=v;...``, empty for an external engine), the external engine's command
# line (empty for ours), and the code (``engine.results_store.code_version``)
CONFIG_COLUMNS = ("frame", "options", "command", "version")
# how the answer was reached (see the module docstring); empty for an external engine
ANSWER_COLUMNS = ("status", "pv", "stable_at")
# a whole-sequence run (``sequence``): ``sequence`` 1 (configuration: empty otherwise, as
# in the files from before it existed), ``lines`` RIGHT/ALL lines of the answer tree
SEQUENCE_COLUMNS = ("sequence", "lines")
# restrict: 1 when restricted; a file of an older version holds a prefix of these
COLUMNS = (REQUIRED_COLUMNS + ("restrict",) + CONFIG_COLUMNS + ANSWER_COLUMNS
           + SEQUENCE_COLUMNS)
CHECKPOINTS = 20
GTP_TIMEOUT = 300.0   # seconds an external engine may take over one command
SEARCH_OPTIONS = {"resign_threshold": "0"}   # a tsumego run must name a move


@dataclass
class Outcome:
    problem: str
    algo: str
    budget: int
    seed: int            # the seed index; the searcher's seed is ``job_seed`` of the row
    move: str            # GTP vertex, "pass" or "resign"
    correct: bool
    seconds: float
    restrict: bool = False
    status: str = ""     # proved / refuted / ko / found; empty for an external engine
    pv: str = ""         # GTP vertices separated by spaces
    stable_at: int | None = None
    lines: str = ""      # a whole-sequence run's RIGHT/ALL lines (``sequence``)

    def as_row(self) -> dict:
        return asdict(self)


def searcher(spec: str, seed: int = 0, options: dict | None = None):
    """The back end of ``spec`` (``engine.search.registry``) with ``options`` (every back
    end's) under its own; ValueError for a bad spec, an unknown name or option, or a bad
    value."""
    return make(spec, seed=seed, options={**SEARCH_OPTIONS, **(options or {})})


def region_mask(problem, state) -> np.ndarray:
    """The ``allowed`` mask of a restricted run: uint8 over ``state``'s padded board, 1 on
    the problem's region."""
    mask = np.zeros(state.s.shape[1], dtype=np.uint8)
    mask[sorted(problem_region(problem))] = 1
    return mask


def job_seed(problem: str, algo: str, budget: int, seed_index: int) -> int:
    """A 63-bit seed that depends on nothing but the run's coordinates."""
    key = f"{problem}|{algo}|{budget}|{seed_index}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little") >> 1


def position(problem, use_frame: bool = True):
    """The state a run searches: the frame of a composed Go problem when there is room
    for one (and ``use_frame``), else a copy of the problem's position."""
    if use_frame and problem.kind == "sgf" and problem.game == "go":
        return frame_problem(problem).state
    return problem.state.clone()


def fight_target(problem) -> Target | None:
    """The fight of a composed Go problem: the defender's stones at stake (the problem's,
    not the frame's) and the frame's attacker (``stakes.stakes``); None for Gobang and for
    a game position (``.tst``), whose test asks for the best move of a whole game, not for
    a group's life: read as a fight there, a search would end its simulations on a
    question the test does not ask."""
    if problem.game != "go" or problem.kind != "sgf":
        return None
    board = problem.state.board()
    attacker, stones = stakes(board, region_box(board, problem.region), problem.to_play,
                              problem.goal)
    return Target(stones, attacker) if stones else None


def fight_kind(problem) -> str | None:
    """What a composed Go problem asks of the side to move, as the harness reads it
    (``fight_target``): ``kill`` or ``live``, with ``, outside stones`` when the target
    leaves some of the defender's stones out; None for a game position (``.tst``), a
    Gobang problem or one without a fight."""
    target = fight_target(problem)
    if target is None:
        return None
    kind = "kill" if target.attacker == problem.to_play else "live"
    defenders = int((problem.state.board() == 3 - target.attacker).sum())
    return kind + (", outside stones" if defenders > len(target.points) else "")


def _through_ko(state, line) -> bool:
    """Whether playing ``line`` from ``state`` makes a ko capture."""
    s = state.clone()
    for move in line:
        if not s.is_legal(move, s.to_play):
            return False
        s.play(move)
        if s.meta[M_KO] >= 0:
            return True
    return False


def status_of(result, state) -> str:
    """``proved``, ``refuted``, ``ko`` or ``found`` (see the module docstring)."""
    chosen = next((c for c in result.candidates if c.move == result.move), None)
    if chosen is not None and chosen.proven == WIN:
        return "proved"
    if chosen is not None and chosen.proven == LOSS:
        return "refuted"
    return "ko" if state.game == "go" and _through_ko(state, result.pv) else "found"


def search_in_steps(search, state, budget: int, allowed, target):
    """The search of ``budget`` playouts in ``CHECKPOINTS`` steps on one tree; returns
    (the last step's result, playouts done, seconds, playouts at which the move last
    changed, None for a back end that plans its budget (SHOT): it runs in one step)."""
    extra = {"target": target} if getattr(search, "reads_fights", False) else {}
    done, seconds, stable_at, result = 0, 0.0, 0, None
    steps = 1 if getattr(search, "plans_budget", False) else CHECKPOINTS
    for k in range(1, steps + 1):
        step = budget * k // steps - done
        if step <= 0:
            continue
        t0 = time.perf_counter()
        last = result
        result = search.search(state, Budget(playouts=step), allowed=allowed, **extra)
        seconds += time.perf_counter() - t0
        done += result.playouts
        if last is None or result.move != last.move:
            stable_at = done
        if result.playouts < step:   # the solver settled the root
            break
    return result, done, seconds, stable_at if steps > 1 else None


def solve(problem, algo: str, budget: int, seed_index: int, options: dict | None = None,
          use_frame: bool = True, state=None, restrict: bool = False,
          mask: np.ndarray | None = None) -> Outcome:
    """Search ``problem`` with the back end of spec ``algo`` for ``budget`` playouts.
    ``state``: the position to search when the caller has built it already (see
    ``position``); ``restrict``: limit the answer to the problem's region, ``mask``
    (``region_mask``) when the caller has built it already."""
    state = position(problem, use_frame) if state is None else state
    search = searcher(algo, job_seed(problem.name, algo, budget, seed_index), options)
    allowed = None
    if restrict:
        allowed = region_mask(problem, state) if mask is None else mask
    result, _, seconds, stable_at = search_in_steps(search, state, budget, allowed,
                                                    fight_target(problem))
    return Outcome(problem=problem.name, algo=algo, budget=budget, seed=seed_index,
                   move=to_gtp(result.move, state.size),
                   correct=problem.is_correct(result.move), seconds=seconds,
                   restrict=restrict, status=status_of(result, state),
                   pv=" ".join(to_gtp(m, state.size) for m in result.pv),
                   stable_at=stable_at)


class GtpEngine(GtpClient):
    """An external engine process spoken to in GTP (``engine.match.gtp_client``), asked for
    its move in a position; a context manager.  Failures raise RuntimeError subclasses."""

    def __init__(self, command: str, timeout: float | None = GTP_TIMEOUT):
        super().__init__(shlex.split(command), timeout=timeout)

    def reg_genmove(self, state) -> int:
        """The engine's move for ``state``'s side to move, without playing it."""
        fd, path = tempfile.mkstemp(suffix=".sgf")
        os.close(fd)
        try:
            save_game(state, path)
            self.ask(f"loadsgf {path}")
            colour = "black" if state.to_play == BLACK else "white"
            reply = self.ask(f"reg_genmove {colour}")
            return RESIGN if reply.lower() == "resign" else from_gtp(reply, state.size)
        finally:
            os.unlink(path)


def gtp_name(command: str) -> str:
    """The algo name of an external engine: its program's name (``gnugo``)."""
    return os.path.basename(shlex.split(command)[0])


def solve_gtp(problem, command: str, use_frame: bool = True, state=None,
              timeout: float | None = GTP_TIMEOUT) -> Outcome:
    """Ask an external GTP engine for its move (one engine process per call); an engine
    silent for ``timeout`` seconds over one command is killed (``EngineTimeout``)."""
    state = position(problem, use_frame) if state is None else state
    with GtpEngine(command, timeout) as engine:
        t0 = time.perf_counter()
        move = engine.reg_genmove(state)
        seconds = time.perf_counter() - t0
    return Outcome(problem=problem.name, algo=gtp_name(command), budget=0, seed=0,
                   move=to_gtp(move, state.size), correct=problem.is_correct(move),
                   seconds=seconds)
