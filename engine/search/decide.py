"""The rules that turn a back end's ranking of the root moves into the move played; shared
by every back end, so they all pass, resign and avoid the same blunders alike.

* The root may only offer moves the state accepts (``root_allowed``: superko included,
  which the compiled tree does not see).
* Go: pass once the game is over (two passes), and pass when the opponent has just passed
  and our area score with komi already wins (passing ends the game won); never fill one's
  own true eye (the tree never offers it; checked again here); while a board move is on
  offer, no pass chosen by fewer than ``VERDICT_VISITS`` root visits, nor, while the game
  is open (the pass's win rate within ``DECIDED`` of neither end), by fewer than
  ``VERDICT_VISITS`` of its own unless they are most of the root's: at a few dozen
  playouts every root move has a visit or two, and a search that spreads its playouts
  evenly (UCB1 with c = 0.7 gives each of 362 moves 5 or 6 of 2,000) leaves the most
  visited move a few visits ahead of the rest, so pass can come first by chance (a pass
  on move 1).  Once every move wins (or loses) alike, a pass ends a decided game.
* Gobang: once the game is decided there is no move: RESIGN when somebody won, PASS on a
  drawn full board.
* Both: RESIGN when the best move's win rate is below ``resign_threshold`` (0 turns
  resigning off; tsumego and regression runs should, so every problem gets a real answer)
  and the root's moves have had at least ``VERDICT_VISITS`` visits between them.
"""

import numpy as np

from ..game.coords import PASS, RESIGN
from .base import Candidate

VERDICT_VISITS = 200   # fewer than this make the win rates noise, not a verdict
DECIDED = 0.05         # a win rate this close to 0 or 1: the game is decided


def root_allowed(state) -> np.ndarray:
    """uint8 mask over the padded board: 1 where the side to move may play now."""
    mask = np.zeros(state.s.shape[1], dtype=np.uint8)
    if not state.is_terminal():
        mask[state.legal_moves()] = 1
    return mask


def _side_score(state) -> float:
    """Area score with komi from the side to move's view."""
    sc = state.score()
    return sc if state.to_play == 1 else -sc


def _by_chance(ranked: list[Candidate]) -> bool:
    """Whether the first candidate's lead may be noise (module docstring)."""
    total = sum(c.visits for c in ranked)
    first = ranked[0]
    open_game = DECIDED < first.winrate < 1.0 - DECIDED
    return total < VERDICT_VISITS or (open_game and first.visits < VERDICT_VISITS
                                      and 2 * first.visits <= total)


def choose(state, ranked: list[Candidate], resign_threshold: float) -> tuple[int, float]:
    """The move to play and its win rate, given root candidates best first."""
    if state.game == "gobang":
        if state.is_terminal():
            return (RESIGN, 0.0) if state.winner() else (PASS, 0.5)
    else:
        if state.is_terminal():
            sc = _side_score(state)
            return PASS, 1.0 if sc > 0 else 0.0 if sc < 0 else 0.5
        if state.passes == 1 and _side_score(state) > 0:
            return PASS, 1.0
        ranked = [c for c in ranked
                  if c.move == PASS or not state.is_eye(c.move, state.to_play)]
        if ranked and ranked[0].move == PASS and _by_chance(ranked):
            ranked = ranked[1:] + ranked[:1]
    if not ranked:
        return PASS, 0.0
    best = ranked[0]
    if (resign_threshold > 0 and best.winrate < resign_threshold
            and sum(c.visits for c in ranked) >= VERDICT_VISITS):
        return RESIGN, best.winrate
    return best.move, best.winrate
