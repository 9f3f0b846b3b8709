"""Re-reading the root's two most visited moves (UCT's ``reread`` option, meant for
tsumego): part of each search's playouts goes to searching the positions after those
two moves, the opponent to move, each in a tree of its own, and the answer is the one
whose re-reading gives the opponent the lower win rate.

Why: in a tsumego a wrong first move can hold most of the root's visits while the
opponent's refutation is read too shallowly in the shared tree to bring its mean down
(``docs/tsumego-results.md``); a search rooted after the move spends its whole share on
the opponent's replies, and reading the runner-up as deeply puts the two on an equal
footing before the most visited one is demoted.

A ``Rereader`` keeps one searcher per re-read move, and its last value, for as long as
the root position (and region) stays the same, so the repeated searches of one position
-- the tsumego harness runs a budget in steps -- keep growing the same trees.  A move's re-read
value is 1 - the win rate the opponent's search gives its chosen reply (0 when that reply is a
proven win for the opponent, 1 when every reply is a proven loss).  Playouts a re-reading
search leaves unspent (its root proven early) go back to the main tree, so a search
spends exactly its budget; the preference is applied to the main tree's last result.
"""

import dataclasses

from .base import Budget, SearchResult
from .tree import LOSS, WIN, position_key

REREAD_MOVES = 2
REFUTED = 0.5     # a re-read value below it: the opponent's reply wins, the move is refuted
_SEED_STRIDE = 0x9E3779B97F4A7C15     # spreads the readers' seeds over the seed space


class Rereader:
    """The re-reading searchers of one back end; ``make(params)`` builds a searcher
    of the same kind with those options."""

    def __init__(self, make):
        self._make = make
        self.reset()

    def reset(self):
        self._key = None
        self._readers = {}
        self._values: dict[int, float] = {}   # the last re-read value of each move

    def _reader(self, params, move: int):
        if move not in self._readers:
            seed = (params.seed + _SEED_STRIDE * (move + 2)) % 2**63
            self._readers[move] = self._make(dataclasses.replace(params, seed=seed,
                                                                 reread=0.0))
        return self._readers[move]

    def _open_moves(self, result: SearchResult) -> list:
        """The re-read candidates: the most visited moves not proven lost, none proven won
        (a proven win needs no second look)."""
        moves = sorted((c for c in result.candidates if c.proven != LOSS),
                       key=lambda c: -c.visits)[:REREAD_MOVES]
        return [] if any(c.proven == WIN for c in moves) else moves

    def read(self, params, state, result: SearchResult, playouts: int, stop, allowed,
             target) -> int:
        """Spend ``playouts`` re-reading the two most visited open moves of ``result``
        (the main search's of ``state``); returns the playouts left unspent."""
        key = position_key(state.s, state.meta, state.komi) + (
            b"" if allowed is None else allowed.tobytes())
        if key != self._key:
            self.reset()
            self._key = key
        moves = self._open_moves(result)
        if len(moves) < REREAD_MOVES:
            return playouts
        share = playouts // REREAD_MOVES
        left = playouts - share * REREAD_MOVES
        extra = {} if target is None else {"target": target}
        for c in moves:
            after = state.clone()
            after.play(c.move)
            if after.is_terminal():
                left += share
                continue
            found = self._reader(params, c.move).search(after, Budget(playouts=share),
                                                        stop=stop, allowed=allowed, **extra)
            left += share - found.playouts
            reply = next((r for r in found.candidates if r.move == found.move), None)
            if reply is not None and reply.proven == WIN:
                self._values[c.move] = 0.0
            elif reply is not None and reply.proven == LOSS:
                self._values[c.move] = 1.0
            else:
                self._values[c.move] = 1.0 - found.winrate
        return left

    def prefer(self, result: SearchResult) -> SearchResult:
        """``result`` with its runner-up first when both of its two most visited open
        moves have been re-read, the most visited one is refuted and the runner-up is
        not."""
        moves = self._open_moves(result)
        if len(moves) < REREAD_MOVES or any(c.move not in self._values for c in moves):
            return result
        top, runner_up = moves
        if not self._values[top.move] < REFUTED <= self._values[runner_up.move]:
            return result
        others = [c for c in result.candidates if c is not runner_up]
        return dataclasses.replace(result, move=runner_up.move, winrate=runner_up.winrate,
                                   candidates=[runner_up] + others)
