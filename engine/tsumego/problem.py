"""Tsumego problems: the ``Problem`` type and the loaders that read problems from files.

A problem is a position with a side to move and a judgement of first moves: ``accept``
(the correct first moves) and ``reject`` (moves known to be wrong).  When ``accept`` is
not empty exactly those moves are right; when it is empty every move except those of
``reject`` is right (the GNU Go ``[!C3]`` form).

Formats read (``load_problems`` picks by the file's suffix):

* ``.sgf`` -- the widespread RIGHT convention of problem collections.  The root's setup
  (AB/AW/AE; a chain of move-less nodes under the root may add to it) and PL give the
  position; the first moves of the variations below it are the candidate answers.  A
  first move is correct when ``RIGHT`` appears in a comment (C) anywhere in its
  variation's subtree, and explicitly wrong when ``WRONG`` does and ``RIGHT`` does not.
  Without PL the colour of those first moves is the side to move.  ``VW`` on the root
  (when present and not empty) is the region of interest.  Our own collection adds
  ``DI[1..3]`` (difficulty) and ``TG[..][..]`` (themes; ``kill`` or ``live`` names the
  goal of the side to move), described in ``problems/README.md``.  The whole tree of
  variations is kept too (``Problem.lines``), for checking an engine's play line by line
  (``sequence``).  Go (GM[1]) and Gobang
  (GM[4]) records; Gobang states have no setup, so its setup stones are placed as moves.
* ``.tst`` -- a GNU Go regression script, read as GTP commands: ``loadsgf FILE [N]`` (the
  path relative to the script's folder, positioned before move N), ``boardsize``,
  ``clear_board``, ``komi``, ``play`` and ``undo`` change the position; each ``[ID]
  reg_genmove COLOR`` followed by ``#? [A1|B2]`` (any of these) or ``#? [!C3]`` (anything
  but these), with a trailing ``*`` for a test GNU Go itself was expected to fail, is a
  problem named ``STEM:ID``.  Every other command (``owl_defend``, ``dragon_status``,
  ``restricted_genmove``...) is skipped and counted by name.

Whatever cannot be read is reported as an error naming the file (and the test) with the
reason; loading goes on with the rest.
"""

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..game.coords import PASS, from_gtp, from_sgfmill, to_gtp
from ..core.layout import BLACK, WHITE
from ..game.state import GameState, parse_color
from ..game.go_state import GoState
from ..game.registry import GameConfig
from ..game.rules import GoRules
from ..game.sgf import COLOUR_OF, SgfError, apply_setup, game_of, load_game, read_tree

GOALS = ("kill", "live")  # the tags that say what the side to move must achieve
_RIGHT = re.compile(r"\bRIGHT\b")
_WRONG = re.compile(r"\bWRONG\b")
_ANSWER = re.compile(r"^#\?\s*\[(?P<neg>!?)(?P<moves>[^\]]*)\](?P<star>\*?)")
_POSITION_COMMANDS = ("loadsgf", "boardsize", "clear_board", "komi", "play", "undo")
_FRESH_START = ("loadsgf", "boardsize")


class ProblemError(ValueError):
    """A problem (or a whole file of them) that cannot be read."""

    def __init__(self, where: str, why: str):
        super().__init__(f"{where}: {why}")
        self.where = where
        self.why = why

    def __reduce__(self):
        return type(self), (self.where, self.why)


@dataclass
class Problem:
    name: str                    # unique within a run: the file stem, or STEM:ID for .tst
    source: str                  # the file it was read from
    state: GameState             # the position, side to move set; clone it before playing
    accept: frozenset            # correct first moves (padded points or PASS)
    reject: frozenset = frozenset()
    region: frozenset | None = None   # points of interest (SGF VW); None: not given
    difficulty: int | None = None
    tags: tuple = ()
    expect_fail: bool = False    # .tst answers marked '*'
    kind: str = "sgf"            # "sgf" (composed problem) or "tst" (game position)
    lines: tuple = ()            # the SGF's answer tree: (move, right, lines below) each

    @property
    def game(self) -> str:
        return self.state.game

    @property
    def size(self) -> int:
        return self.state.size

    @property
    def to_play(self) -> int:
        return self.state.to_play

    @property
    def goal(self) -> str | None:
        found = [t for t in self.tags if t in GOALS]
        return found[0] if found else None

    def is_correct(self, move: int) -> bool:
        if self.accept:
            return move in self.accept
        return move not in self.reject

    def answer_text(self) -> str:
        """The judgement in the ``.tst`` notation: ``[A1|B2]`` or ``[!C3]``."""
        moves = self.accept or self.reject
        text = "|".join(sorted(to_gtp(m, self.size) for m in moves))
        return f"[{text}]" if self.accept else f"[!{text}]"


@dataclass
class LoadReport:
    problems: list = field(default_factory=list)
    errors: list = field(default_factory=list)     # (where, why)
    skipped: Counter = field(default_factory=Counter)   # .tst commands not read, by name
    tests_read: int = 0                            # .tst reg_genmove tests met

    def extend(self, other: "LoadReport"):
        self.problems += other.problems
        self.errors += other.errors
        self.skipped += other.skipped
        self.tests_read += other.tests_read


# -- SGF problems (the RIGHT convention) ----------------------------------------------------

def _comments(node):
    """Every comment of a subtree, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.has_property("C"):
            yield n.get("C")
        stack.extend(n)


def _place_stones(state: GameState, node):
    """Setup stones of ``node``: AB/AW/AE in Go; played as moves in Gobang, which has no
    setup (a setup that already holds five in a row is refused)."""
    if state.game == "go":
        apply_setup(state, node)
        return
    if not node.has_setup_stones():
        return
    black, white, empty = node.get_setup_stones()
    if empty:
        raise ValueError("AE is not supported in gobang problems")
    for colour, pts in ((BLACK, black), (WHITE, white)):
        for pt in sorted(pts):
            state.play(from_sgfmill(pt, state.size), colour)
    if state.is_terminal():
        raise ValueError("the setup already holds five in a row")


def _metadata(root) -> tuple[int | None, tuple]:
    difficulty = None
    if root.has_property("DI"):
        raw = root.get_raw("DI").decode("ascii", "replace").strip()
        if not raw.isdigit():
            raise ValueError(f"difficulty DI[{raw}] is not a number")
        difficulty = int(raw)
    tags = ()
    if root.has_property("TG"):
        tags = tuple(v.decode("utf-8", "replace").strip() for v in root.get_raw_list("TG"))
    return difficulty, tags


def _region(node, size: int) -> frozenset | None:
    if not node.has_property("VW"):
        return None
    pts = node.get("VW")
    return frozenset(from_sgfmill(pt, size) for pt in pts) if pts else None


def load_sgf_problem(path) -> Problem:
    """One problem in the RIGHT convention; ProblemError when it cannot be read."""
    label = str(path)
    try:
        tree = read_tree(path)
    except SgfError as e:
        raise ProblemError(label, e.problem) from None
    try:
        return _problem_of(tree, label)
    except ValueError as e:
        raise ProblemError(label, str(e)) from None


def _problem_of(tree, label: str) -> Problem:
    game, root = game_of(tree), tree.get_root()
    size = tree.get_size()
    if game == "go":
        komi = tree.get_komi() if root.has_property("KM") else 0.0
        state = GoState(GoRules(size=size, komi=komi))
    else:
        state = GameConfig(game, size).new_state()
    node, to_play = root, None
    while True:
        if node.get_move()[0] is not None:
            raise ValueError("the position node holds a move; put the position in setup")
        _place_stones(state, node)
        if node.has_property("PL"):
            to_play = COLOUR_OF[node.get("PL")]
        if len(node) == 1 and node[0].get_move()[0] is None:
            node = node[0]
            continue
        break
    first = [(child, child.get_move()) for child in node if child.get_move()[0] is not None]
    if not first:
        raise ValueError("no variations: a problem needs its answers as variations")
    colours = {COLOUR_OF[colour] for _, (colour, _) in first}
    if to_play is None:
        if len(colours) > 1:
            raise ValueError("no PL and the first moves are of both colours")
        to_play = colours.pop()
    elif colours != {to_play}:
        raise ValueError("a first move is not by the side to play (PL)")
    state.to_play = to_play
    right, wrong = set(), set()
    for child, (_, pt) in first:
        move = from_sgfmill(pt, size)
        why = state.why_illegal(move, to_play)
        if why is not None:
            raise ValueError(f"first move {to_gtp(move, size)} is illegal: {why}")
        texts = list(_comments(child))
        if any(_RIGHT.search(t) for t in texts):
            right.add(move)
        elif any(_WRONG.search(t) for t in texts):
            wrong.add(move)
    if not right:
        raise ValueError("no variation is marked RIGHT")
    difficulty, tags = _metadata(root)
    return Problem(name=Path(label).stem, source=label, state=state,
                   accept=frozenset(right), reject=frozenset(wrong - right),
                   region=_region(node, size), difficulty=difficulty, tags=tags,
                   lines=_lines(node, size))


def _lines(node, size: int) -> tuple:
    """The variations below ``node`` as (move, right, lines below) each: ``right`` when a
    comment of the variation's subtree says RIGHT (the convention of the first moves,
    applied at every depth).  Nodes without a move end a line."""
    out = []
    for child in node:
        colour, pt = child.get_move()
        if colour is None:
            continue
        move = PASS if pt is None else from_sgfmill(pt, size)
        right = any(_RIGHT.search(t) for t in _comments(child))
        out.append((move, right, _lines(child, size)))
    return tuple(out)


# -- GNU Go regression scripts ---------------------------------------------------------------

class _Position:
    """The position a .tst script has built so far, or why there is none."""

    def __init__(self):
        self.state = GoState(GoRules(size=19, komi=0.0))   # GTP's start: empty 19x19
        self.broken: str | None = None

    def run(self, folder: Path, cmd: str, args: list[str]):
        if cmd == "loadsgf":
            if not args:
                raise ValueError("loadsgf needs a file")
            number = int(args[1]) if len(args) > 1 else None
            self.state = load_game(folder / args[0], move_number=number, game="go").state
        elif cmd == "boardsize":
            self.state = GoState(replace(self.state.rules, size=int(args[0])))
        elif cmd == "clear_board":
            self.state = GoState(self.state.rules)
        elif cmd == "komi":
            self.state.rules = replace(self.state.rules, komi=float(args[0]))
        elif cmd == "play":
            colour = parse_color(args[0])
            self.state.play(from_gtp(args[1], self.state.size), colour)
        elif cmd == "undo":
            self.state.undo()


def _parse_answer(line: str, size: int):
    m = _ANSWER.match(line)
    if m is None:
        raise ValueError(f"not an answer line: {line!r}")
    moves = frozenset(from_gtp(v, size) for v in m["moves"].split("|") if v.strip())
    if not moves:
        raise ValueError("empty answer")
    accept, reject = (frozenset(), moves) if m["neg"] else (moves, frozenset())
    return accept, reject, bool(m["star"])


def load_tst(path) -> LoadReport:
    """Every ``reg_genmove`` test of a GNU Go regression script."""
    path = Path(path)
    report = LoadReport()
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as e:
        report.errors.append((str(path), e.strerror or str(e)))
        return report
    position = _Position()
    pending = None  # (name, state or reason) of a reg_genmove waiting for its #? line
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("#?") and pending is not None:
            name, state = pending
            pending = None
            if isinstance(state, str):
                report.errors.append((name, state))
                continue
            try:
                accept, reject, star = _parse_answer(line, state.size)
            except ValueError as e:
                report.errors.append((name, str(e)))
                continue
            report.problems.append(Problem(name=name, source=str(path), state=state,
                                           accept=accept, reject=reject,
                                           expect_fail=star, kind="tst"))
            continue
        if not line or line.startswith("#"):
            continue
        if pending is not None:
            report.errors.append((pending[0], "no '#?' answer follows"))
            pending = None
        words = line.split()
        test_id = words.pop(0) if words[0].isdigit() else None
        if not words:
            report.errors.append((f"{path}:{lineno}", "a command id with no command"))
            continue
        cmd, args = words[0], words[1:]
        if cmd == "reg_genmove":
            report.tests_read += 1
            name = f"{path.stem}:{test_id or f'line{lineno}'}"
            if position.broken is not None:
                pending = (name, f"no position: {position.broken}")
                continue
            try:
                state = position.state.clone()
                state.to_play = parse_color(args[0] if args else "")
            except ValueError as e:
                pending = (name, str(e))
                continue
            pending = (name, state)
        elif cmd in _POSITION_COMMANDS:
            # a failed command spoils the position until a loadsgf or boardsize starts anew
            if position.broken is not None and cmd not in _FRESH_START:
                continue
            try:
                position.run(path.parent, cmd, args)
                position.broken = None
            except (ValueError, IndexError) as e:
                position.broken = f"line {lineno} {line!r}: {e}"
        else:
            report.skipped[cmd] += 1
    if pending is not None:
        report.errors.append((pending[0], "no '#?' answer follows"))
    return report


# -- many files ----------------------------------------------------------------------------

def _files(paths) -> list[Path]:
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.suffix in (".sgf", ".tst"))
        else:
            out.append(p)
    return out


def load_problems(paths) -> LoadReport:
    """Problems from files and folders (searched for ``.sgf`` and ``.tst``); a problem
    whose name is already taken is reported, not loaded."""
    report = LoadReport()
    for f in _files(paths):
        if f.suffix == ".tst":
            report.extend(load_tst(f))
            continue
        try:
            report.problems.append(load_sgf_problem(f))
        except ProblemError as e:
            report.errors.append((e.where, e.why))
    seen, unique = set(), []
    for p in report.problems:
        if p.name in seen:
            report.errors.append((p.source, f"problem name {p.name!r} is already taken"))
            continue
        seen.add(p.name)
        unique.append(p)
    report.problems = unique
    return report


__all__ = ["Problem", "ProblemError", "LoadReport", "load_sgf_problem", "load_tst",
           "load_problems", "GOALS"]
