"""SGF in and out, over sgfmill: reading a record into a game state (``load_game``, the
GTP ``loadsgf``), the reusable pieces of that (``read_tree``, ``game_of``, ``apply_setup``)
for other loaders, and writing a state's history back out (``save_game``).

Games: GM[1] (the default) is Go, GM[4] is Gobang (gomoku/renju); anything else is
refused.  A Gobang record's RU names its rule (``RU_NAMES``); one written here always has
it.  Boards must be square and within the rules' size limits; a missing SZ means
19x19 for Go and 15x15 for Gobang, the SGF defaults.

Every problem with a file -- unreadable, not SGF, bad properties, an illegal move -- comes
out as exactly one ``SgfError`` naming the file and the problem.  Only regular files of at
most ``MAX_FILE_BYTES`` are read: a device (``/dev/zero``) would never end and a FIFO could
block for ever, and both are refused without reading.

A record's moves are checked against the rules, with one exception: a move that only
positional superko forbids is accepted, because records from servers that play simple ko
may legitimately repeat a position.  The loaded state applies the full rules from then on.
"""

import os
import re
import stat
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from sgfmill import sgf, sgf_grammar

from .. import NAME, __version__
from .coords import from_sgfmill, point, to_gtp, to_sgfmill
from ..core.layout import BLACK, EMPTY, WHITE
from .state import GameState, opponent
from . import registry
from .rules import GoRules

GAME_TYPES = {1: "go", 4: "gobang"}  # SGF GM values we play
# Gobang RU values read as a rule (lower-cased); others leave the rule to the caller.
# Written: the rule's own name.
RU_NAMES = {"freestyle": "freestyle", "gomoku": "freestyle", "exact5": "exact5",
            "standard": "exact5", "renju": "renju"}
GM_OF = {name: gm for gm, name in GAME_TYPES.items()}
DEFAULT_SIZE = {"go": 19, "gobang": 15}  # the FF[4] defaults for a missing SZ
COLOUR_OF = {"b": BLACK, "w": WHITE}
SGF_COLOUR = {BLACK: "b", WHITE: "w"}
DATA_LABEL = "<sgf data>"  # how errors name a record given as bytes
MAX_FILE_BYTES = 32 << 20  # far above any game collection; bounds the memory a load takes


class SgfError(ValueError):
    """A file that cannot be loaded; ``str()`` reads "cannot load file: FILE: PROBLEM"."""

    def __init__(self, source: str, problem: str):
        super().__init__(f"cannot load file: {source}: {problem}")
        self.source = source
        self.problem = problem

    def __reduce__(self):  # pickle (worker processes) with both arguments
        return type(self), (self.source, self.problem)


@contextmanager
def _reporting(label: str, what: str = ""):
    """Turn the ValueErrors of sgfmill and of the rules into one SgfError about ``label``."""
    try:
        yield
    except SgfError:
        raise
    except (ValueError, LookupError) as e:  # LookupError: an unknown CA encoding
        detail = str(e) or "malformed value"
        raise SgfError(label, f"{what}: {detail}" if what else detail) from e


# -- reading ------------------------------------------------------------------------------

def _read_bytes(source) -> tuple[str, bytes]:
    if isinstance(source, (bytes, bytearray)):
        return DATA_LABEL, bytes(source)
    label = str(source)
    try:   # O_NONBLOCK: opening a FIFO must not wait for a writer
        fd = os.open(Path(source), os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise SgfError(label, e.strerror or str(e)) from e
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SgfError(label, "not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise SgfError(label, f"larger than {MAX_FILE_BYTES >> 20} MiB")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:   # it grew while we looked
            raise SgfError(label, f"larger than {MAX_FILE_BYTES >> 20} MiB")
        return label, data
    except OSError as e:
        raise SgfError(label, e.strerror or str(e)) from e
    finally:
        os.close(fd)


def _game_name(label: str, root: dict) -> str:
    raw = root.get("GM", [b"1"])[0]
    try:
        return GAME_TYPES[int(raw)]
    except (ValueError, KeyError):
        shown = raw.decode("ascii", "replace")
        raise SgfError(label, f"unsupported game type GM[{shown}]") from None


def _board_size(label: str, root: dict, game: str) -> int:
    if "SZ" not in root:
        return DEFAULT_SIZE[game]
    raw = root["SZ"][0].decode("ascii", "replace")
    parts = raw.split(":")
    try:
        sizes = [int(part) for part in parts]
    except ValueError:
        raise SgfError(label, f"bad board size SZ[{raw}]") from None
    if len(sizes) > 2 or (len(sizes) == 2 and sizes[0] != sizes[1]):
        raise SgfError(label, f"non-square board SZ[{raw}] is not supported")
    with _reporting(label):
        registry.game(game).rules(size=sizes[0])  # the rules know their own size limits
    return sizes[0]


def _load_tree(source) -> tuple[str, sgf.Sgf_game]:
    label, data = _read_bytes(source)
    try:
        coarse = sgf_grammar.parse_sgf_game(data)
    except ValueError as e:
        problem = "not an SGF file" if str(e) == "no SGF data found" else f"malformed SGF: {e}"
        raise SgfError(label, problem) from None
    root = coarse.sequence[0]
    size = _board_size(label, root, _game_name(label, root))
    # sgfmill reads SZ itself: hand it the plain number, the game's default filled in
    root["SZ"] = [str(size).encode()]
    with _reporting(label):
        return label, sgf.Sgf_game.from_coarse_game_tree(coarse)


def read_tree(source) -> sgf.Sgf_game:
    """Parse a file (a path, or the bytes of a record) into an sgfmill game tree whose game
    type and board size are ones we play; SgfError otherwise."""
    return _load_tree(source)[1]


def game_of(tree: sgf.Sgf_game) -> str:
    """The game of a tree that ``read_tree`` accepted: "go" or "gobang"."""
    root = tree.get_root()
    return GAME_TYPES[root.get("GM")] if root.has_property("GM") else "go"


def apply_setup(state: GameState, node) -> bool:
    """Apply a node's AB/AW/AE to ``state`` as one undoable setup step; returns whether
    there was any.  ValueError (IllegalMove included) for bad points or a setup the rules
    refuse, or when the game has no setup (Gobang states have none)."""
    if not node.has_setup_stones():
        return False
    try:
        stones = node.get_setup_stones()
    except ValueError:  # sgfmill's own message can be a bare unpacking error
        raise ValueError("malformed AB/AW/AE point") from None
    black, white, empty = ([from_sgfmill(pt, state.size) for pt in sorted(pts)]
                           for pts in stones)
    setup = getattr(state, "setup", None)
    if setup is None:
        raise ValueError(f"setup stones are not supported in {state.game}")
    setup(black=black, white=white, empty=empty)
    return True


@dataclass
class LoadedGame:
    """A record read into a state positioned where ``load_game`` was asked to stop."""
    state: GameState
    game: str              # "go" or "gobang"
    size: int
    komi: float            # the komi of the state's rules
    komi_given: bool       # whether the record had KM
    handicap: int          # HA, 0 when absent
    moves: list            # (colour, point) of the whole main line, played or not
    result: str | None     # RE
    players: tuple         # (PB, PW), None where absent

    @property
    def to_play(self) -> int:
        return self.state.to_play


def _rules_for(game: str, size: int, komi: float | None, template, variant=None):
    rules_type = registry.game(game).rules
    if template is not None and not isinstance(template, rules_type):
        raise ValueError(f"{type(template).__name__} cannot play a {game} record")
    if rules_type is GoRules:
        base = template or GoRules(komi=0.0)
        return replace(base, size=size, komi=base.komi if komi is None else komi)
    rules = replace(template or rules_type(), size=size)
    return rules if variant is None else replace(rules, variant=variant)


def _gobang_variant(root) -> str | None:
    """The Gobang rule RU names, if it names one we play (``RU_NAMES``), else None."""
    if not root.has_property("RU"):
        return None
    return RU_NAMES.get(root.get("RU").strip().lower())


def _game_info(tree: sgf.Sgf_game) -> dict:
    root = tree.get_root()

    def text(identifier):
        return root.get(identifier) if root.has_property(identifier) else None

    return dict(komi_given=root.has_property("KM"), handicap=text("HA") or 0, result=text("RE"),
                players=(tree.get_player_name("b"), tree.get_player_name("w")))


def load_game(source, move_number: int | None = None, game: str | None = None,
              rules=None) -> LoadedGame:
    """Load the main line of a record, positioned before move ``move_number`` (GTP
    ``loadsgf``: moves 1 .. move_number-1 are played; None plays them all).

    ``game`` ("go", "gobang"), when given, is the game the record must be.  ``rules`` is an
    optional template (GoRules or GobangRules) for what the record does not say: its size
    is replaced by SZ, for Go its komi by KM, for Gobang its rule by a known RU; without a
    template, defaults (komi 0 when KM is absent).

    The side to play is the colour of the next move when stopping before one, else the
    last PL, else the opponent of the last move played, else white after a handicap (HA of
    2 or more) and black otherwise."""
    if move_number is not None and move_number < 1:
        raise ValueError(f"move number must be 1 or more, not {move_number}")
    label, tree = _load_tree(source)
    kind = game_of(tree)
    if game is not None and game != kind:
        raise SgfError(label, f"a {kind} record, not {game}")
    with _reporting(label, "bad game information"):
        info = _game_info(tree)
        komi = tree.get_komi() if info["komi_given"] else None
    final_rules = _rules_for(kind, tree.get_size(), komi, rules,
                             _gobang_variant(tree.get_root()))
    # simple ko only while replaying: see the module docstring
    state = registry.new_state(replace(final_rules, superko=False) if kind == "go"
                               else final_rules)
    to_play = WHITE if info["handicap"] >= 2 else BLACK
    moves, stopped = [], False
    for index, node in enumerate(tree.get_main_sequence()):
        if not stopped:
            with _reporting(label, f"bad setup in node {index}"):
                apply_setup(state, node)
            if node.has_property("PL"):
                with _reporting(label, f"bad PL in node {index}"):
                    to_play = COLOUR_OF[node.get("PL")]
        letter, raw = node.get_raw_move()
        if letter is None:
            continue
        number = len(moves) + 1
        try:
            move = from_sgfmill(node.get_move()[1], tree.get_size())
        except ValueError:
            shown = raw.decode("ascii", "replace")
            raise SgfError(label, f"move {number} is off the board: {letter.upper()}[{shown}]"
                           ) from None
        colour = COLOUR_OF[letter]
        moves.append((colour, move))
        if stopped:
            continue
        if number == move_number:
            stopped, to_play = True, colour
            continue
        why = state.why_illegal(move, colour)
        if why is not None:
            vertex = to_gtp(move, state.size)
            raise SgfError(label, f"move {number} is illegal: {letter.upper()} {vertex}: {why}")
        state.play(move, colour)
        to_play = opponent(colour)
    state.rules = final_rules
    state.to_play = to_play
    return LoadedGame(state=state, game=kind, size=state.size, komi=state.komi,
                      moves=moves, **info)


# -- writing ------------------------------------------------------------------------------

def _setup_between(before, after) -> tuple[list, list, list]:
    """The (black, white, empty) setup that turns grid ``before`` into grid ``after``."""
    n = len(after)
    changed = before != after
    return tuple([point(int(r), int(c), n) for r, c in zip(*(changed & (after == colour))
                                                           .nonzero())]
                 for colour in (BLACK, WHITE, EMPTY))


def _history(state: GameState) -> list[tuple]:
    """The steps that built ``state``, oldest first: ("setup", black, white, empty) and
    ("move", colour, point).  Read off a clone by undoing, so it needs no access to the
    state's snapshots; a non-empty position the history starts from counts as a setup."""
    walker = state.clone()
    steps = []
    while walker.can_undo():
        after, n_moves = walker.board(), len(walker.moves)
        last = walker.moves[-1] if n_moves else None
        walker.undo()
        if len(walker.moves) < n_moves:
            steps.append(("move",) + last)
        else:
            steps.append(("setup",) + _setup_between(walker.board(), after))
    start = walker.board()
    steps.append(("setup",) + _setup_between(np.zeros_like(start), start))
    return [step for step in reversed(steps) if step[0] == "move" or any(step[1:])]


def search_note(stats: dict) -> str:
    """An engine move's comment from its search statistics (the ``nakade-stats json``
    object: ``color``, ``winrate`` from that colour's view, ``playouts``, and the move's
    ``visits`` and ``pv`` when known): "B win rate 52.3%, 310 visits of 1000 playouts, pv
    D4 C3 E5"."""
    text = f"{stats['color'].upper()} win rate {100 * stats['winrate']:.1f}%, "
    if stats.get("visits"):
        text += f"{stats['visits']} visits of "
    text += f"{stats['playouts']} playouts"
    return text + (f", pv {' '.join(stats['pv'])}" if stats.get("pv") else "")


NOTE_PLAYOUTS = re.compile(r"(\d+) playouts")


def note_playouts(note: str) -> int | None:
    """The playouts a comment written by ``search_note`` reports; None when it has none."""
    found = NOTE_PLAYOUTS.search(note)
    return int(found.group(1)) if found else None


def black_winrate(stats: dict) -> float:
    """Black's win rate in [0, 1] from a ``search_note`` statistics object."""
    return stats["winrate"] if stats["color"].lower() == "b" else 1.0 - stats["winrate"]


def save_game(state: GameState, path=None, black_name: str = "", white_name: str = "",
              result: str | None = None, komi: float | None = None,
              comments=None, winrates=None) -> bytes:
    """Serialise ``state``'s history -- setup stones, then the moves -- as an FF[4] record;
    written to ``path`` when given, and returned.  ``komi`` defaults to the state's (Go
    only); ``comments[i]``, when given and not empty, becomes the C[] of move i+1, and
    ``winrates[i]``, when given and not None, black's win rate after it (0 .. 1), written
    as Sabaki's SBKV property (percent), which Sabaki draws as its win-rate graph.  A PL
    records the side to play wherever the moves do not imply it."""
    n = state.size
    tree = sgf.Sgf_game(n)
    root = tree.get_root()
    root.set("GM", GM_OF[state.game])
    root.set("AP", (NAME, __version__))
    if black_name:
        root.set("PB", black_name)
    if white_name:
        root.set("PW", white_name)
    if state.game == "go":
        root.set("KM", state.komi if komi is None else komi)
        if state.handicap:
            root.set("HA", state.handicap)
    else:
        root.set("RU", state.rules.variant)
    if result:
        root.set("RE", result)
    tree.set_date()
    node, implied, move_index = root, BLACK, 0
    for step in _history(state):
        if step[0] == "setup":
            if node is not root or root.has_setup_stones():
                node = node.new_child()
            node.set_setup_stones(*([to_sgfmill(p, n) for p in pts] for pts in step[1:]))
            continue
        _, colour, move = step
        node = node.new_child()
        node.set_move(SGF_COLOUR[colour], to_sgfmill(move, n))
        if comments is not None and move_index < len(comments) and comments[move_index]:
            node.set("C", comments[move_index])
        if winrates is not None and move_index < len(winrates) \
                and winrates[move_index] is not None:
            node.set_raw("SBKV", f"{100 * winrates[move_index]:.2f}".encode())
        move_index += 1
        implied = opponent(colour)
    if state.to_play != implied:
        target = node if node.get_move()[0] is None else node.new_child()
        target.set("PL", SGF_COLOUR[state.to_play])
    data = tree.serialise()
    if path is not None:
        Path(path).write_bytes(data)
    return data
