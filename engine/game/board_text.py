"""Text boards: ``render`` draws a position for ``showboard`` and logs; ``parse`` reads the
same picture back (used by tests and hand-written positions).

Picture format: one line per row, top row first, points separated by spaces; ``X`` black,
``O`` white, ``.`` (or ``+``) empty.  Column letters and row numbers around it are optional
when parsing.
"""

from .coords import GTP_LETTERS, point
from ..core.layout import BLACK, WHITE

_SYMBOL = {0: ".", BLACK: "X", WHITE: "O"}


def render(state) -> str:
    n = state.size
    grid = state.board()
    letters = "   " + " ".join(GTP_LETTERS[:n])
    lines = [letters]
    last = state.moves[-1][1] if state.moves else None
    for r in range(n):
        cells = []
        for c in range(n):
            sym = _SYMBOL[int(grid[r, c])]
            if last is not None and point(r, c, n) == last:
                sym = sym.lower() if sym != "." else sym
            cells.append(sym)
        lines.append(f"{n - r:2d} " + " ".join(cells) + f" {n - r}")
    lines.append(letters)
    return "\n".join(lines)


def parse(text: str) -> tuple[int, list[int], list[int]]:
    """Read a picture; returns (size, black points, white points)."""
    rows = []
    for line in text.strip("\n").splitlines():
        cells = [ch for ch in line.split() if ch in ("X", "O", ".", "+", "x", "o")]
        if line.strip() and not line.strip()[0].isdigit() and len(cells) == 0:
            continue  # a column-letter line
        if cells:
            rows.append(cells)
    n = len(rows)
    if n == 0 or any(len(r) != n for r in rows):
        raise ValueError(f"board picture is not square: {[len(r) for r in rows]}")
    black, white = [], []
    for r, cells in enumerate(rows):
        for c, ch in enumerate(cells):
            if ch in "Xx":
                black.append(point(r, c, n))
            elif ch in "Oo":
                white.append(point(r, c, n))
    return n, black, white
