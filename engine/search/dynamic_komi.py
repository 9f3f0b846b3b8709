"""Dynamic komi for Go (Baudiš 2011, "Balancing MCTS by dynamically adjusting the komi
value"; Pachi's ``linear`` scheme): the komi a search plays its simulations with, shifted
from the game's so that the root's win rate stays where it tells moves apart.  A Monte
Carlo search that wins (or loses) nearly every simulation sees every move as equally good:
far ahead it plays slack moves that give the lead away, far behind it plays desperate ones.

Two phases, by the moves played (``linear_moves``: 15 on 9x9, 50 on 13x13, 100 on 15x15,
200 for black and 150 for white on 19x19):

* the opening of a handicap game: black pretends to give back part of its handicap,
  ``stones x HANDICAP_VALUE[colour] + 0.5 - komi`` points (Pachi's values: 12 a stone when
  we are black, so that black keeps playing tight; 8 when we are white, so that white still
  feels behind and plays for it without despairing), less and less, linearly, to nothing
  at the end of the phase.  In an even game the same formula gives ``7.5 - komi``: nothing
  at komi 7.5;
* afterwards, the winning side's ratchet: while the last search's win rate is above
  ``GREEN``, we take one more point of komi against ourselves; below ``ORANGE`` we drop
  ``DROP`` points and never again go above what is left (the ratchet); below one half it
  is all given back and the ratchet shut (the position is too close to play for a margin).
  We never take komi for ourselves there: behind, the plain komi is the truth to play for.

Nothing here knows the tree: the searcher asks ``komi`` for each search of a whole Go board
(a tsumego's fight is decided by its target, not by the score) and reports the win rate
it found back through ``searched``.
"""

import math

from ..core.layout import BLACK, WHITE

HANDICAP_VALUE = {BLACK: 12.0, WHITE: 8.0}   # points a handicap stone is taken to be worth
GREEN, ORANGE, LOSING = 0.85, 0.80, 0.5      # win rates that move the ratchet
STEP, DROP = 1.0, 4.0                        # points taken on when winning, dropped below ORANGE


def linear_moves(size: int, colour: int) -> int:
    """The moves over which a handicap's compensation runs down to nothing."""
    if size <= 9:
        return 15
    if size <= 13:
        return 50
    if size <= 15:
        return 100
    return 200 if colour == BLACK else 150


def compensation(handicap: int, komi: float, colour: int) -> float:
    """The points black pretends to give back at move 0 (``colour``: the side we play)."""
    if handicap == 0:
        return 7.5 - komi
    return handicap * HANDICAP_VALUE[colour] + 0.5 - komi


class DynamicKomi:
    """The komi of each search, for each colour we search for: the handicap's compensation
    in the opening, then the winning side's ratchet (the module docstring)."""

    def __init__(self):
        self.reset()

    def reset(self):
        """A new game: no komi taken on, the ratchets open."""
        self.burden = {BLACK: 0.0, WHITE: 0.0}     # points we take on against ourselves
        self.ratchet = {BLACK: math.inf, WHITE: math.inf}
        self.last = {BLACK: None, WHITE: None}     # the last search's win rate

    def komi(self, komi: float, size: int, handicap: int, moves: int, colour: int) -> float:
        """The komi (black's, as GTP's) to search with, ``colour`` to move after ``moves``
        moves of a game on ``size`` with ``handicap`` stones and ``komi``."""
        phase = linear_moves(size, colour)
        if moves < phase:
            black_gives = compensation(handicap, komi, colour) * (phase - moves) / phase
            self.burden[colour] = black_gives if colour == BLACK else -black_gives
        else:
            self.burden[colour] = self._ratchet(colour, max(self.burden[colour], 0.0))
        own = self.burden[colour]
        return komi + (own if colour == BLACK else -own)

    def _ratchet(self, colour: int, burden: float) -> float:
        value = self.last[colour]
        if value is None:
            return burden
        if value < LOSING and 0 < self.ratchet[colour] < math.inf:
            self.ratchet[colour] = 0.0
            return 0.0
        if value < ORANGE and burden > 0:
            burden = max(burden - DROP, 0.0)
            self.ratchet[colour] = burden
            return burden
        if value > GREEN and burden + STEP <= self.ratchet[colour]:
            return burden + STEP
        return burden

    def searched(self, colour: int, winrate: float):
        """The win rate (``colour``'s) the search with the last ``komi`` found."""
        self.last[colour] = winrate
