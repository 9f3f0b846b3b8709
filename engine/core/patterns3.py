"""3x3 stone patterns around an empty point: the code of a neighbourhood, and the table that
maps every code to the weight of the pattern it matches.

A neighbourhood's code packs the 8 neighbours (NW, N, NE, W, E, SW, S, SE, 2 bits each:
EMPTY, BLACK, WHITE, OFFBOARD) into 16 bits, so matching is one table lookup.  Patterns are
written as three rows of three characters centred on the (empty) point to play:

  X  a stone of one colour      O  a stone of the other colour
  .  empty                      #  off the board
  x  not X (O, empty or edge)   o  not O (X, empty or edge)
  ?  anything

and hold for either colour and in all 8 orientations, so ``expand`` enters every rotation,
reflection and colour swap of every concrete neighbourhood a pattern matches.
"""

import itertools

import numpy as np
from numba import njit

from .layout import BLACK, BOARD, EMPTY, OFFBOARD, WHITE

N_CODES = 1 << 16

_CELL = {".": (EMPTY,), "X": (BLACK,), "O": (WHITE,), "#": (OFFBOARD,),
         "x": (EMPTY, WHITE, OFFBOARD), "o": (EMPTY, BLACK, OFFBOARD),
         "?": (EMPTY, BLACK, WHITE, OFFBOARD)}
# (row, col) of the 8 neighbours in code order; the centre is (1, 1)
_NEIGHBOURS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


@njit(cache=True)
def code(s, w, p):
    """The 16-bit code of the neighbourhood of ``p``."""
    return (s[BOARD, p - w - 1] | (s[BOARD, p - w] << 2) | (s[BOARD, p - w + 1] << 4)
            | (s[BOARD, p - 1] << 6) | (s[BOARD, p + 1] << 8) | (s[BOARD, p + w - 1] << 10)
            | (s[BOARD, p + w] << 12) | (s[BOARD, p + w + 1] << 14))


def _orientations(rows: list[str]):
    grid = [list(r) for r in rows]
    for _ in range(4):
        grid = [list(r) for r in zip(*grid[::-1])]        # rotate a quarter turn
        yield grid
        yield [r[::-1] for r in grid]                      # and its mirror image


def _swap(ch: str) -> str:
    return {"X": "O", "O": "X", "x": "o", "o": "x"}.get(ch, ch)


def parse(rows: list[str]) -> None:
    """Check a pattern's shape and characters; raises ValueError naming the fault."""
    if len(rows) != 3 or any(len(r) != 3 for r in rows):
        raise ValueError(f"a pattern is 3 rows of 3 characters, got {rows!r}")
    bad = {ch for r in rows for ch in r} - set(_CELL)
    if bad:
        raise ValueError(f"unknown pattern characters {sorted(bad)} in {rows!r}")
    if rows[1][1] != ".":
        raise ValueError(f"a pattern's centre is the empty point to play, got {rows!r}")


def expand(patterns: list[tuple[list[str], int]]) -> np.ndarray:
    """The uint8 table of ``N_CODES`` weights for patterns given as (rows, weight 1..255);
    a code matched by several patterns gets the largest weight, 0 means no match."""
    table = np.zeros(N_CODES, dtype=np.uint8)
    for rows, weight in patterns:
        parse(rows)
        if not 1 <= weight <= 255:
            raise ValueError(f"pattern weight {weight} is not in 1..255")
        for colours in (rows, ["".join(_swap(ch) for ch in r) for r in rows]):
            for grid in _orientations(colours):
                choices = [_CELL[grid[r][c]] for r, c in _NEIGHBOURS]
                for combo in itertools.product(*choices):
                    k = sum(v << (2 * i) for i, v in enumerate(combo))
                    table[k] = max(table[k], weight)
    return table
