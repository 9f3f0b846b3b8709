"""A game of curling between two players: ends, the hammer, scores, extra ends, as the
DigitalCurling3 rules play them.

Teams 0 and 1; team 1 holds the hammer in the first end (the team without it throws
first).  The team that scores gives the hammer to the other; a blank end keeps it.
After ``max_end`` ends a tied game goes on, one extra end at a time, until an end is not
blank-and-tied (at most ``MAX_EXTRA`` extra ends, then a draw).  The sheet's noise comes
from its own stream, so two players meet the same noise as far as their shots allow.

A player is an object with ``name`` and ``decide(view) -> Choice``, where ``view`` is a
``View`` of the game for the shooter (positions, shot, the context its value needs).
"""

from dataclasses import dataclass, field

import numpy as np

from ..core.rng import make_rng
from ..match.runner import derive_seed
from .physics import TABLE
from .shots import deliver, delivery_of, end_score
from .sheet import STONES

MAX_EXTRA = 4


@dataclass
class View:
    """What the shooter sees: the end's position and the game around it."""
    pos: np.ndarray          # (16, 2), shot coordinates
    alive: np.ndarray        # (16,) bool
    shot: int                # 0..15 (the shooter's team has the hammer iff shot is odd)
    ends_left: int           # ends after this one (0 in extra ends)
    lead: int                # the hammer team's lead before this end


@dataclass
class Choice:
    action: int
    playouts: int = 0
    info: dict = field(default_factory=dict)


@dataclass
class GameResult:
    scores: list             # per end, (team 0, team 1)
    winner: int              # 0, 1, or -1 for a draw
    shots: list              # per shot: (end, shot, team, action, playouts)


def play_game(players, max_end: int, seed: int, on_shot=None) -> GameResult:
    """Play a game; ``players[t]`` plays team t.  ``on_shot(view, choice, team, pos,
    alive)`` sees every shot after it rests."""
    sheet_rng = make_rng(derive_seed(seed, "sheet"))
    total = [0, 0]
    hammer, end, scores, shots = 1, 0, [], []
    while True:
        pos, alive = np.zeros((STONES, 2)), np.zeros(STONES, np.bool_)
        lead = total[hammer] - total[1 - hammer]
        for shot in range(STONES):
            team = hammer if shot % 2 == 1 else 1 - hammer
            view = View(pos.copy(), alive.copy(), shot, max(max_end - end - 1, 0), lead)
            choice = players[team].decide(view)
            vx, vy, spin = delivery_of(choice.action, pos)
            deliver(TABLE, pos, alive, shot, vx, vy, spin, True, sheet_rng, np.zeros((0, 3)))
            shots.append((end, shot, team, int(choice.action), int(choice.playouts)))
            if on_shot is not None:
                on_shot(view, choice, team, pos.copy(), alive.copy())
        s = int(end_score(pos, alive))
        points = [0, 0]
        if s > 0:
            points[hammer] = s
        elif s < 0:
            points[1 - hammer] = -s
        scores.append(tuple(points))
        total[0] += points[0]
        total[1] += points[1]
        if s > 0:
            hammer = 1 - hammer
        end += 1
        if end >= max_end and total[0] != total[1]:
            return GameResult(scores, 0 if total[0] > total[1] else 1, shots)
        if end >= max_end + MAX_EXTRA:
            return GameResult(scores, -1, shots)
