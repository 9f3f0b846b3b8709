"""A game as a results row holds it, and the SGF files made from rows on demand.

A match keeps one JSON row per game (``engine.match.runner``) and no SGF file: the row's
``sequence`` is the game's moves, oldest first, each ``"B D4"`` (colour and GTP vertex,
``pass`` included), with ``notes`` (the referee's comment on each move: its time, the
playouts the engine reported) and ``winrates`` (black's win rate after each move, or
None).  ``write_sgfs`` replays the rows of a results file on a fresh board of the match's
rules and writes ``game-NNNN.sgf`` for each: what ``nakade match --sgf DIR`` does, for a
finished match as well as after new games.  Rows recorded before ``sequence`` existed have
none and are skipped, with a count.
"""

from pathlib import Path

from ..core.layout import BLACK, WHITE
from ..game.coords import from_gtp, to_gtp
from ..game.handicap import with_fixed_handicap
from ..game.registry import GameConfig
from ..game.sgf import note_playouts, save_game

COLOUR_LETTER = {BLACK: "B", WHITE: "W"}
LETTER_COLOUR = {"B": BLACK, "W": WHITE}


def sequence_of(state) -> list[str]:
    """The moves of ``state``'s history as ``"B D4"`` strings."""
    return [f"{COLOUR_LETTER[colour]} {to_gtp(move, state.size)}"
            for colour, move in state.moves]


def replay(setup: dict, sequence: list[str]):
    """A fresh position of the rules in ``setup`` (a match header's) with ``sequence``
    played; ValueError naming the move when one does not parse or is illegal."""
    config = GameConfig(game=setup["game"], size=setup["size"], komi=setup["komi"],
                        rule=setup["rule"], superko=setup["superko"])
    state = with_fixed_handicap(config.new_state(), setup.get("handicap", 0))
    for number, entry in enumerate(sequence, 1):
        letter, _, vertex = entry.partition(" ")
        if letter not in LETTER_COLOUR:
            raise ValueError(f"move {number} ({entry!r}) names no colour")
        move = from_gtp(vertex, state.size)
        why = state.why_illegal(move, LETTER_COLOUR[letter])
        if why is not None:
            raise ValueError(f"move {number} ({entry!r}) is illegal: {why}")
        state.play(move, LETTER_COLOUR[letter])
    return state


def sgf_of(setup: dict, row: dict) -> bytes:
    """The SGF record of one game row."""
    state = replay(setup, row["sequence"])
    names = row.get("engines") or {}
    return save_game(state, black_name=names.get(row["black"]) or row["black"].upper(),
                     white_name=names.get(row["white"]) or row["white"].upper(),
                     result=row.get("result"), comments=row.get("notes"),
                     winrates=row.get("winrates"))


def move_playouts(row: dict) -> dict[str, list[int]]:
    """Each engine's playouts a move as the row's notes report them, by label ("a", "b");
    a move without a search (the opening's) or without statistics is left out."""
    out = {row["black"]: [], row["white"]: []}
    for entry, note in zip(row.get("sequence") or (), row.get("notes") or ()):
        n = note_playouts(note)
        if n is not None:
            out[row["black"] if entry.startswith("B") else row["white"]].append(n)
    return out


def write_sgfs(header: dict, rows: dict, out_dir) -> tuple[int, int]:
    """``game-NNNN.sgf`` in ``out_dir`` for every row that holds its moves; (written,
    skipped: rows without a ``sequence``)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    setup = header["match"]["setup"]
    written = skipped = 0
    for index in sorted(rows):
        row = rows[index]
        if not row.get("sequence"):
            skipped += 1
            continue
        (out / f"game-{index:04d}.sgf").write_bytes(sgf_of(setup, row))
        written += 1
    return written, skipped
