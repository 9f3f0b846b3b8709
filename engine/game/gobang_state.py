"""GobangState: a Gobang (gomoku) position, freestyle, exact-five or renju, over the kernels
of ``engine.core.gobang_kernels``.  The game ends at the first win or when the board is full
(a draw); there is no pass."""

import numpy as np

from .coords import PASS, to_gtp
from ..core import gobang_kernels as gbk
from ..core.layout import (BLACK, BOARD, DRAW, EMPTY, GOBANG_EXACT5, GOBANG_FREESTYLE,
                          GOBANG_RENJU, M_WINNER, OFFBOARD, WHITE, zobrist_table)
from .state import GameState, IllegalMove
from .rules import GobangRules

VARIANT_CODES = {"freestyle": GOBANG_FREESTYLE, "exact5": GOBANG_EXACT5,
                 "renju": GOBANG_RENJU}


class GobangState(GameState):
    game = "gobang"

    def __init__(self, rules: GobangRules | None = None):
        rules = rules or GobangRules()
        self.zob = zobrist_table(rules.size)
        super().__init__(rules)

    @property
    def komi(self) -> float:
        """Gobang has no komi; generic code may still ask."""
        return 0.0

    def _clear_arrays(self):
        gbk.clear_board(self.s, self.meta, self.size, VARIANT_CODES[self.rules.variant])

    def why_illegal(self, move, color=None):
        why = self._why_no_stone(move)
        if why is not None:
            return why
        color = self.to_play if color is None else color
        if gbk.forbids(self.s, self.meta, move, color):
            return "forbidden point for black (renju: overline, double four or double three)"
        return None

    def _why_no_stone(self, move):
        """Why no stone of either colour can go on ``move`` now, or None."""
        if move == PASS:
            return "pass is not allowed"
        if not (0 <= move < self.s.shape[1]) or self.s[BOARD, move] == OFFBOARD:
            return "off the board"
        if self.is_terminal():
            return "game is over"
        if self.s[BOARD, move] != EMPTY:
            return "occupied"
        return None

    def place(self, move, color):
        """A stone of a set-up position (the brain's BOARD), recorded as a move so that it
        can be undone: refused (``IllegalMove``) off the board, on a stone or once the game
        is decided, but not on a renju forbidden point, since set-up stones need not come
        in the order they were played, nor alternate."""
        why = self._why_no_stone(move)
        if why is not None:
            raise IllegalMove(f"{to_gtp(move, self.size)}: {why}")
        self._push(is_move=True)
        self._apply(move, color)
        self.moves.append((color, move))

    def _apply(self, move, color):
        gbk.play(self.s, self.meta, self.zob, move, color)

    def is_terminal(self) -> bool:
        return self.meta[M_WINNER] != 0

    def is_draw(self) -> bool:
        return self.meta[M_WINNER] == DRAW

    def winner(self) -> int:
        """BLACK or WHITE once someone has won; 0 for a draw or an undecided game."""
        w = int(self.meta[M_WINNER])
        return w if w in (BLACK, WHITE) else 0

    def playout(self, rng, amaf=None):
        """Play a uniform random playout on a copy; returns (winner, 0.0), winner 0 for a
        draw."""
        s, meta = self.s.copy(), self.meta.copy()
        none = np.zeros(0, dtype=np.int32) if amaf is None else amaf
        w, sc = gbk.playout_winner(s, meta, self.zob, rng, none)
        return int(w), float(sc)
