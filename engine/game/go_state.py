"""GoState: a Go position with simple ko, optional positional superko, optional suicide,
setup stones, fixed handicap and area scoring, over the kernels of ``engine.core``."""

from collections import Counter

import numpy as np

from .coords import PASS
from ..core import go_kernels as gk
from ..core import go_life
from ..core.go_playout import LIGHT, playout_winner
from ..core.layout import (BLACK, BOARD, EMPTY, GAME_GO, M_CAPS_B, M_CAPS_W, M_GAME,
                          M_HASH, M_PASSES, M_RULE, NEXT, RULE_SUICIDE, WHITE, zobrist_table)
from .state import GameState, IllegalMove
from .rules import GoRules


class GoState(GameState):
    game = "go"

    def __init__(self, rules: GoRules | None = None):
        rules = rules or GoRules()
        self.zob = zobrist_table(rules.size)
        self.seen: Counter = Counter()  # positional superko: hashes of the positions so far
        super().__init__(rules)

    @property
    def komi(self) -> float:
        return self.rules.komi

    def _clear_arrays(self):
        gk.clear_board(self.s, self.meta, self.size)
        self.meta[M_GAME] = GAME_GO
        self.meta[M_RULE] = RULE_SUICIDE if self.rules.suicide else 0
        self.seen = Counter([int(self.meta[M_HASH])])

    def _clone_extra(self, other):
        other.seen = Counter(self.seen)

    def why_illegal(self, move, color=None):
        color = self.to_play if color is None else color
        if move == PASS:
            return None
        if not (0 <= move < self.s.shape[1]) or self.s[BOARD, move] == 3:
            return "off the board"
        if self.s[BOARD, move] != EMPTY:
            return "occupied"
        if not gk.is_legal(self.s, self.meta, move, color):
            ko = self.meta[gk.M_KO] == move
            return "ko" if ko else "suicide"
        if self.rules.superko and self._repeats(move, color):
            return "positional superko"
        return None

    def _repeats(self, move, color) -> bool:
        s, meta = self.s.copy(), self.meta.copy()
        gk.play(s, meta, self.zob, move, color)
        return self.seen[int(meta[M_HASH])] > 0

    def _apply(self, move, color):
        gk.play(self.s, self.meta, self.zob, move, color)
        if move != PASS:
            self.seen[self.hash] += 1

    def _after_undo(self):
        # rebuild the superko set from the snapshots: cheap and never out of step
        self.seen = Counter(int(meta[M_HASH]) for _, meta, _ in self._undo)
        self.seen[self.hash] += 1

    def setup(self, black=(), white=(), empty=()):
        """Place setup stones (SGF AB/AW/AE, handicap) without captures; undoable as one
        step.  A setup that leaves a chain without liberties is refused."""
        self._push(is_move=False)
        board = self.s[BOARD]
        for color, pts in ((BLACK, black), (WHITE, white), (EMPTY, empty)):
            for p in pts:
                if not (0 <= p < board.shape[0]) or board[p] == 3:
                    self._drop_push()
                    raise IllegalMove(f"setup point {p} is off the board")
                board[p] = color
        self.meta[gk.M_KO] = -1
        if gk.rebuild(self.s, self.meta, self.zob) > 0:
            self._drop_push()
            raise IllegalMove("setup leaves a chain without liberties")
        self.seen[self.hash] += 1

    @property
    def handicap(self) -> int:
        """The handicap stones: black's stones set up before the first move when the board
        held no others then (GTP's fixed or free handicap, an SGF's AB), 0 otherwise."""
        first_move = next((s for s, _, is_move in self._undo if is_move), None)
        board = (self.s if first_move is None else first_move)[BOARD]
        black = int(np.count_nonzero(board == BLACK))
        return black if black >= 2 and not np.any(board == WHITE) else 0

    @property
    def passes(self) -> int:
        return int(self.meta[M_PASSES])

    @property
    def captures(self) -> tuple[int, int]:
        """Stones captured by black and by white."""
        return int(self.meta[M_CAPS_B]), int(self.meta[M_CAPS_W])

    def is_terminal(self) -> bool:
        return self.passes >= 2

    def reopen(self):
        """Play goes on after two passes (a client that keeps asking for moves): the game
        is as if only the last pass had been made, so a pass now ends it again."""
        self.meta[M_PASSES] = min(self.passes, 1)

    def area(self) -> tuple[int, int]:
        out = np.zeros(2, dtype=np.int64)
        gk.area(self.s, self.meta, out)
        return int(out[0]), int(out[1])

    def score(self) -> float:
        """Area score from black's side, komi included: > 0 means black leads."""
        return float(gk.score(self.s, self.meta, self.komi))

    def winner(self) -> int:
        sc = self.score()
        return BLACK if sc > 0 else WHITE if sc < 0 else 0

    def is_eye(self, p: int, color: int) -> bool:
        return bool(gk.is_eye(self.s, self.size + 2, p, color))

    def chain(self, p: int) -> set[int]:
        """The stones of the chain through the stone at ``p``, read from the kernels'
        circular list of the chain (no flood fill)."""
        if self.s[BOARD, p] not in (BLACK, WHITE):
            raise ValueError(f"no stone at {p}")
        nxt = self.s[NEXT]
        stones, q = {int(p)}, int(nxt[p])
        while q != p:
            stones.add(q)
            q = int(nxt[q])
        return stones

    def pass_alive(self, color: int) -> np.ndarray:
        """int8 over the padded board: 1 on the stones of ``color``'s unconditionally alive
        chains (Benson), 2 on the regions they hold for good (``engine.core.go_life``)."""
        out = np.zeros(self.s.shape[1], dtype=np.int8)
        go_life.pass_alive(self.s, self.size, color, out)
        return out

    def playout(self, rng, amaf=None):
        """Play a light playout on a copy; returns (winner, final score)."""
        s, meta = self.s.copy(), self.meta.copy()
        none = np.zeros(0, dtype=np.int32) if amaf is None else amaf
        w, sc = playout_winner(s, meta, self.zob, rng, self.komi, none, *LIGHT)
        return int(w), float(sc)
