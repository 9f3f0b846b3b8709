"""Game records for the pattern training, from GNU Go playing itself (no downloads).

One GNU Go process plays both colours through GTP: ``play_game`` takes any client with
``ask(command) -> reply`` (the driver starts GNU Go with ``engine.match.gtp_client``; this
package stays below the harness and imports none of it).  GNU Go is nearly deterministic, so
each game opens with a few random moves (seeded, away from the first two lines) that the
training skips; from there GNU Go chooses every move until two passes or a move cap.

A record is one text line: ``SIZE KOMI N_RANDOM MOVE...`` with moves as GTP vertices
(``pass`` included), black first; ``read_records`` reads a file of them back.
"""

from dataclasses import dataclass

import numpy as np

from ..game.coords import from_gtp
from ..game.go_state import GoState
from ..game.rules import GoRules


@dataclass(frozen=True)
class Record:
    size: int
    komi: float
    n_random: int
    moves: tuple[str, ...]


def _random_opening(size: int, count: int, rng) -> list[str]:
    """``count`` distinct random points from the third line inwards."""
    lo, hi = (2, size - 3) if size >= 7 else (0, size - 1)
    pts = set()
    while len(pts) < count:
        pts.add((int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1))))
    cols = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    return [f"{cols[c]}{r + 1}" for r, c in pts]


def play_game(client, size: int, komi: float, n_random: int, seed: int,
              max_moves: int) -> Record:
    """One self-play game on an open GNU Go client."""
    rng = np.random.default_rng(seed)
    client.ask(f"boardsize {size}")
    client.ask("clear_board")
    client.ask(f"komi {komi}")
    moves = _random_opening(size, n_random, rng)
    for i, m in enumerate(moves):
        client.ask(f"play {'bw'[i % 2]} {m}")
    passes = 0
    while passes < 2 and len(moves) < max_moves:
        m = client.ask(f"genmove {'bw'[len(moves) % 2]}").strip().upper()
        if m == "RESIGN":
            break
        moves.append("pass" if m == "PASS" else m)
        passes = passes + 1 if m == "PASS" else 0
    return Record(size, komi, n_random, tuple(moves))


def format_record(r: Record) -> str:
    return " ".join([str(r.size), str(r.komi), str(r.n_random), *r.moves])


def read_records(path) -> list[Record]:
    out = []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words:
                out.append(Record(int(words[0]), float(words[1]), int(words[2]),
                                  tuple(words[3:])))
    return out


def replay(record: Record):
    """Yield (state before the move, move point, index) for every move of a record;
    the state is reused, so copy it to keep it."""
    # GNU Go keeps simple ko only
    state = GoState(GoRules(size=record.size, komi=record.komi, superko=False))
    for i, m in enumerate(record.moves):
        p = from_gtp(m, record.size)
        yield state, p, i
        state.play(p)
