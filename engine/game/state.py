"""The Python face of a position, shared by both games: owns the state arrays of
``engine.core.layout``, keeps snapshots for undo, and exposes the GameState API that search,
SGF and GTP use.  Subclasses (``GoState``, ``GobangState``) supply the rule kernels.

Colours are ``BLACK = 1`` and ``WHITE = 2``; moves are padded indices (``engine.game.coords``)
or ``PASS``.  ``play`` raises ``IllegalMove`` and leaves the position unchanged.
"""

import numpy as np

from .coords import PASS, all_points, row_col, to_gtp
from ..core.layout import (BLACK, BOARD, EMPTIES, M_HASH, M_MOVES, M_N_EMPTY, M_TO_PLAY,
                          WHITE, new_arrays)


class IllegalMove(ValueError):
    """A move the rules refuse; the message says why."""


def opponent(color: int) -> int:
    return 3 - color


def parse_color(text: str) -> int:
    t = text.strip().lower()
    if t in ("b", "black"):
        return BLACK
    if t in ("w", "white"):
        return WHITE
    raise ValueError(f"not a colour: {text!r}")


class GameState:
    game = ""  # "go" or "gobang"

    def __init__(self, rules):
        self.rules = rules
        self.size = rules.size
        self.s, self.meta = new_arrays(self.size)
        # one snapshot per step, and whether that step was a move (else a setup)
        self._undo: list[tuple[np.ndarray, np.ndarray, bool]] = []
        self.moves: list[tuple[int, int]] = []  # (colour, move) in order; setups excluded
        self.clear()

    def clear(self):
        """Empty board, black to move, no history."""
        self._undo.clear()
        self.moves.clear()
        self._clear_arrays()

    # -- to be provided by each game ---------------------------------------------------
    def _clear_arrays(self):
        raise NotImplementedError

    def is_legal(self, move: int, color: int | None = None) -> bool:
        return self.why_illegal(move, color) is None

    def why_illegal(self, move: int, color: int | None = None) -> str | None:
        raise NotImplementedError

    def _apply(self, move: int, color: int):
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def winner(self) -> int:
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------
    @property
    def to_play(self) -> int:
        return int(self.meta[M_TO_PLAY])

    @to_play.setter
    def to_play(self, color: int):
        self.meta[M_TO_PLAY] = color

    @property
    def move_count(self) -> int:
        return int(self.meta[M_MOVES])

    @property
    def hash(self) -> int:
        return int(self.meta[M_HASH])

    def color_at(self, p: int) -> int:
        return int(self.s[BOARD, p])

    def board(self) -> np.ndarray:
        """n x n int8 grid of EMPTY/BLACK/WHITE, row 0 at the top."""
        n = self.size
        return self.s[BOARD].reshape(n + 2, n + 2)[1:-1, 1:-1].astype(np.int8)

    def empty_points(self) -> np.ndarray:
        return np.sort(self.s[EMPTIES, : self.meta[M_N_EMPTY]])

    def legal_moves(self, color: int | None = None) -> np.ndarray:
        """Legal board points for ``color`` (pass, always legal in Go, is not listed)."""
        pts = [p for p in self.empty_points() if self.is_legal(int(p), color)]
        return np.array(pts, dtype=np.int32)

    def play(self, move: int, color: int | None = None):
        color = self.to_play if color is None else color
        why = self.why_illegal(move, color)
        if why is not None:
            raise IllegalMove(f"{to_gtp(move, self.size)}: {why}")
        self._push(is_move=True)
        self._apply(move, color)
        self.moves.append((color, move))

    def undo(self):
        if not self._undo:
            raise IndexError("no move to undo")
        s, meta, was_move = self._undo.pop()
        self.s[:] = s
        self.meta[:] = meta
        if was_move:
            self.moves.pop()
        self._after_undo()

    def _after_undo(self):
        pass

    def can_undo(self) -> bool:
        return bool(self._undo)

    def _push(self, is_move: bool):
        self._undo.append((self.s.copy(), self.meta.copy(), is_move))

    def _drop_push(self):
        """Restore the snapshot just pushed (a step that failed half way)."""
        s, meta, _ = self._undo.pop()
        self.s[:] = s
        self.meta[:] = meta

    def clone(self):
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.s = self.s.copy()
        other.meta = self.meta.copy()
        other._undo = list(self._undo)
        other.moves = list(self.moves)
        self._clone_extra(other)
        return other

    def _clone_extra(self, other):
        pass

    def copy_into(self, other):
        """Copy the position (not the undo history) into a state of the same size."""
        np.copyto(other.s, self.s)
        np.copyto(other.meta, self.meta)

    def points(self) -> list[int]:
        return all_points(self.size)

    def row_col(self, p: int) -> tuple[int, int]:
        return row_col(p, self.size)

    def __str__(self) -> str:
        from .board_text import render
        return render(self)


__all__ = ["GameState", "IllegalMove", "opponent", "parse_color", "PASS", "BLACK", "WHITE"]
