"""Pictures of the sheet (SVG): the house, the lines, the stones before and after a
shot, the chosen shot's path (its noise-free delivery, traced on our sheet) and the
candidate shots' values (where each candidate's stone would rest without noise, with its
mean value and visits from the search).  ``play_and_draw`` plays a game and draws every
shot of its last end."""

from pathlib import Path

import numpy as np

from ..core.rng import make_rng
from .game import play_game
from .physics import R, TABLE
from .shots import deliver, delivery_of, describe
from .sheet import BACK_Y, HOG_Y, HOUSE_RADIUS, SHEET_WIDTH, TEE_Y

SCALE = 70.0                      # pixels per metre
Y_LO, Y_HI = HOG_Y - 1.0, BACK_Y + 1.0
TEAM_COLOURS = ("#d23c3c", "#e8c228")


def _xy(x, y):
    return (x + SHEET_WIDTH / 2) * SCALE, (Y_HI - y) * SCALE


def _path(pos, alive, shot, action):
    """The thrown stone's noise-free path: (x, y) points, and where it rests."""
    p, a = pos.copy(), alive.copy()
    trace = np.zeros((4000, 3))
    vx, vy, spin = delivery_of(action, p)
    deliver(TABLE, p, a, shot, vx, vy, spin, False, make_rng(0), trace)
    points = [(x, y) for i, x, y in trace if i == shot and y > Y_LO]
    return points, (p[shot] if a[shot] else None)


def sheet_svg(pos, alive, after_pos, after_alive, shot, choice, teams) -> str:
    """One shot's picture; ``teams[k]`` is the team of stone k (its colour)."""
    w, h = SHEET_WIDTH * SCALE, (Y_HI - Y_LO) * SCALE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h + 40:.0f}" '
           f'font-family="sans-serif" font-size="10">',
           f'<rect width="{w:.0f}" height="{h:.0f}" fill="#f4f8fb" stroke="#999"/>']
    cx, cy = _xy(0.0, TEE_Y)
    for radius, colour in ((HOUSE_RADIUS, "#4a7bd0"), (1.219, "#ffffff"),
                           (0.610, "#d05050"), (0.152, "#ffffff")):
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{radius * SCALE:.1f}" '
                   f'fill="{colour}" stroke="#777" stroke-width="0.5"/>')
    for y, label in ((HOG_Y, "hog"), (TEE_Y, "tee"), (BACK_Y, "back")):
        _, py = _xy(0.0, y)
        out.append(f'<line x1="0" y1="{py:.1f}" x2="{w:.0f}" y2="{py:.1f}" stroke="#555" '
                   f'stroke-width="0.8"/><text x="2" y="{py - 2:.1f}">{label}</text>')
    out.append(f'<line x1="{cx:.1f}" y1="0" x2="{cx:.1f}" y2="{h:.0f}" stroke="#aaa" '
               f'stroke-width="0.5"/>')
    noise_free = choice.info.get("noise_free", {})
    for a, n, value in choice.info.get("candidates", []):
        if value is None:                 # no noisy playout left: its noise-free value
            value = noise_free.get(a)
        if value is None:
            continue
        _, rest = _path(pos, alive, shot, a)
        if rest is not None:
            px, py = _xy(*rest)
            out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="3" fill="#333"/>'
                       f'<text x="{px + 4:.1f}" y="{py + 3:.1f}">{value:.2f} ({n})</text>')
    points, _ = _path(pos, alive, shot, choice.action)
    if points:
        d = " ".join(f"{_xy(x, y)[0]:.1f},{_xy(x, y)[1]:.1f}" for x, y in points)
        out.append(f'<polyline points="{d}" fill="none" stroke="#222" stroke-width="1.2" '
                   f'stroke-dasharray="4 2"/>')
    for stones, live, opacity in ((pos, alive, 0.25), (after_pos, after_alive, 1.0)):
        for k in range(len(live)):
            if live[k]:
                px, py = _xy(*stones[k])
                out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="{R * SCALE:.1f}" '
                           f'fill="{TEAM_COLOURS[teams[k]]}" stroke="#333" '
                           f'opacity="{opacity}"/>')
    out.append(f'<text x="4" y="{h + 14:.0f}">shot {shot}: {describe(choice.action)}; '
               f'{choice.playouts} playouts</text>')
    out.append(f'<text x="4" y="{h + 30:.0f}">dots: candidates\' noise-free rests, '
               f'mean value (visits); dashed: the chosen shot\'s path</text></svg>')
    return "\n".join(out)


def play_and_draw(player0, player1, ends: int, seed: int, out_dir):
    """Play a game, then write ``shot-NN.svg`` for every shot of its last end."""
    shots = []

    def keep(view, choice, team, pos, alive):
        if view.shot == 0:
            shots.clear()
        shots.append((view, choice, team, pos, alive))

    result = play_game([player0, player1], ends, seed, on_shot=keep)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    teams = [0] * len(shots[0][0].alive)
    for view, _, team, _, _ in shots:
        teams[view.shot] = team
    files = []
    for view, choice, team, pos, alive in shots:
        path = out / f"shot-{view.shot:02d}.svg"
        path.write_text(sheet_svg(view.pos, view.alive, pos, alive, view.shot, choice, teams))
        files.append(path)
    return result, files
