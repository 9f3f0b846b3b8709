"""Board diagrams of a tsumego run as SVG, for people who look rather than read coordinates:
the problem's stones, its correct first moves (green rings), the engine's answer (a blue
square when correct, a red cross when not) and a principal variation as numbered stones.

Plain SVG text (no dependency); the view is cropped to the problem's region grown by a
margin, with GTP coordinates along the edges.
"""

from html import escape

from ..core.layout import BLACK, PASS, WHITE
from ..game.coords import GTP_LETTERS, row_col

CELL = 24               # pixels between two lines
MARGIN_LINES = 1        # lines shown beyond the region
LABEL_ROOM = CELL // 2  # extra room on the left for two-digit row numbers
STONE_FILL = {BLACK: "#111", WHITE: "#fafafa"}
TEXT_ON = {BLACK: "#fff", WHITE: "#000"}


def _box(n: int, points) -> tuple[int, int, int, int]:
    """(top, bottom, left, right) rows/columns of ``points`` grown by the margin, whole
    board when there are none."""
    cells = [row_col(p, n) for p in points]
    if not cells:
        return 0, n - 1, 0, n - 1
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    grow = MARGIN_LINES
    return (max(min(rows) - grow, 0), min(max(rows) + grow, n - 1),
            max(min(cols) - grow, 0), min(max(cols) + grow, n - 1))


def svg(state, region=(), answers=(), move: int | None = None, correct: bool | None = None,
        pv=(), title: str = "") -> str:
    """The diagram of ``state`` (a Go or Gobang position): ``region`` (padded points) sets
    the view, ``answers`` are the correct first moves, ``move`` the engine's answer and
    ``correct`` whether it was right, ``pv`` the principal variation from the position (its
    first move normally ``move``), numbered from 1 in colours alternating from the side to
    move."""
    n = state.size
    board = state.board()
    shown = set(region) | set(answers) | {p for p in pv if p != PASS}
    if move is not None and move >= 0:
        shown.add(move)
    stones = [(r, c) for r in range(n) for c in range(n) if board[r, c]]
    top, bottom, left, right = _box(n, shown or [])
    if not shown and stones:
        top, bottom = min(r for r, _ in stones), max(r for r, _ in stones)
        left, right = min(c for _, c in stones), max(c for _, c in stones)
    width = (right - left + 2) * CELL + LABEL_ROOM
    height = (bottom - top + 2) * CELL + (CELL if title else 0)
    y0 = CELL if title else 0

    def xy(r, c):
        return LABEL_ROOM + (c - left + 1) * CELL, y0 + (r - top + 1) * CELL

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect width="{width}" height="{height}" fill="#dcb35c"/>']
    if title:
        out.append(f'<text x="4" y="{CELL * 0.7:.0f}" font-size="13">{escape(title)}</text>')
    for r in range(top, bottom + 1):
        (x1, y), (x2, _) = xy(r, left), xy(r, right)
        out.append(f'<line x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="#000"/>')
        out.append(f'<text x="{x1 - CELL * 0.6:.0f}" y="{y + 4}" text-anchor="end">{n - r}</text>')
    for c in range(left, right + 1):
        (x, y1), (_, y2) = xy(top, c), xy(bottom, c)
        out.append(f'<line x1="{x}" y1="{y1}" x2="{x}" y2="{y2}" stroke="#000"/>')
        out.append(f'<text x="{x - 4}" y="{y2 + CELL * 0.8:.0f}">{GTP_LETTERS[c]}</text>')
    radius = CELL * 0.46
    for r, c in stones:
        if top <= r <= bottom and left <= c <= right:
            x, y = xy(r, c)
            out.append(f'<circle class="stone" cx="{x}" cy="{y}" r="{radius:.1f}" '
                       f'fill="{STONE_FILL[board[r, c]]}" stroke="#000"/>')
    for p in answers:
        if p >= 0:
            x, y = xy(*row_col(p, n))
            out.append(f'<circle class="answer" cx="{x}" cy="{y}" r="{radius * 0.7:.1f}" '
                       f'fill="none" stroke="#1a9641" stroke-width="3"/>')
    color = state.to_play
    for i, p in enumerate(pv, start=1):
        if p >= 0:
            x, y = xy(*row_col(p, n))
            out.append(f'<circle class="pv" cx="{x}" cy="{y}" r="{radius:.1f}" '
                       f'fill="{STONE_FILL[color]}" stroke="#000" opacity="0.8"/>')
            out.append(f'<text class="pv" x="{x}" y="{y + 4}" text-anchor="middle" '
                       f'fill="{TEXT_ON[color]}">{i}</text>')
        color = BLACK + WHITE - color
    if move is not None and move >= 0:
        x, y = xy(*row_col(move, n))
        d = radius * 0.6
        if correct:
            out.append(f'<rect class="move" x="{x - d:.1f}" y="{y - d:.1f}" width="{2 * d:.1f}" '
                       f'height="{2 * d:.1f}" fill="none" stroke="#2b83ba" stroke-width="3"/>')
        else:
            out.append(f'<path class="move" d="M{x - d:.1f},{y - d:.1f}L{x + d:.1f},{y + d:.1f}'
                       f'M{x - d:.1f},{y + d:.1f}L{x + d:.1f},{y - d:.1f}" stroke="#d7191c" '
                       f'stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)
