"""Strong 19x19 games as a stream: the Tygem 9-dan collection (``../shared/datasets/tygem-9d``,
its README) read zip by zip and line by line, never whole, and turned into the (position,
move played) pairs that ``dataset.examples_at`` makes training examples of.

A zip holds one text file, one game a line: ``GAME_ID<TAB>;B[pd];W[pp];...`` (SGF points,
``aa`` the top left, rarely a pass ``B[]``).  No komi or result: every move is taken as a
strong player's choice.  A game stops at its first move our rules refuse (simple ko, as
the servers play; none was seen in the games read so far, but a corrupt line must not end
the stream).

Held-out games are chosen by their place in the stream (``is_held_out``: one game in
``HOLDOUT_EVERY``), so a training run and a measuring run agree on the split without
keeping a list.  Positions are sampled (``every``: one move in K, at a seeded offset per
game) because neighbouring positions of a game teach nearly the same thing and 19x19
features cost about 250 candidates a position.
"""

import io
import itertools
import re
import time
import zipfile
from pathlib import Path

import numpy as np

from ..core.layout import PASS
from ..game.coords import point
from ..game.go_state import GoState
from ..game.rules import GoRules
from ..game.state import IllegalMove
from .dataset import concat, examples_at

SIZE = 19
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "tygem-9d"
HOLDOUT_EVERY = 50
_MOVE = re.compile(r";([BW])\[([a-s]{2})?\]")


def zips(folder=None) -> list[Path]:
    """The collection's zips, in name order (``folder``: default ``DEFAULT_DIR``)."""
    found = sorted(Path(folder or DEFAULT_DIR).glob("*.zip"))
    if not found:
        raise FileNotFoundError(f"no Tygem zips in {folder or DEFAULT_DIR}")
    return found


def parse_line(line: str) -> tuple[str, list[int]]:
    """(game id, moves as padded points with PASS) of one line of a zip."""
    game_id, _, body = line.partition("\t")
    moves = [PASS if sq is None or sq == "" else point(ord(sq[1]) - 97, ord(sq[0]) - 97, SIZE)
             for _, sq in _MOVE.findall(body)]
    return game_id.strip(), moves


def games(paths):
    """(index in the stream, game id, moves) for every game of the zips ``paths``."""
    index = 0
    for path in paths:
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                with z.open(name) as raw:
                    for line in io.TextIOWrapper(raw, encoding="utf-8", errors="replace"):
                        if "\t" not in line:
                            continue
                        game_id, moves = parse_line(line)
                        if moves:
                            yield index, game_id, moves
                            index += 1


def is_held_out(index: int) -> bool:
    return index % HOLDOUT_EVERY == 0


def chosen_moves(stream, every: int = 1, seed: int = 0, skip_opening: int = 0):
    """(state before the move, move) for the sampled board moves of the games of
    ``stream`` (``games`` rows): one move in ``every`` from a per-game seeded offset, the
    first ``skip_opening`` moves of each game left out.  The state is reused: use it
    before taking the next pair."""
    for index, _, moves in stream:
        offset = int(np.random.default_rng((seed, index)).integers(every))
        state = GoState(GoRules(size=SIZE, komi=6.5, superko=False))
        for i, move in enumerate(moves):
            if move != PASS and i >= skip_opening and i % every == offset:
                yield state, move
            try:
                state.play(move)
            except IllegalMove:
                break


def examples(stream, every: int = 1, seed: int = 0, skip_opening: int = 0,
             chunk_games: int = 100, deadline: float | None = None):
    """The training examples of the games of ``stream`` (``chosen_moves``' sampling),
    built ``chunk_games`` games at a time and joined once (``dataset.concat``); with
    ``deadline`` (a ``time.monotonic`` value) reading stops after the chunk that passes
    it.  Returns (examples, games read)."""
    parts, read = [], 0
    stream = iter(stream)
    while deadline is None or time.monotonic() < deadline:
        chunk = list(itertools.islice(stream, chunk_games))
        if not chunk:
            break
        parts.append(examples_at(chosen_moves(chunk, every, seed, skip_opening)))
        read += len(chunk)
    return concat(parts), read
