"""Shots and one end's rules, compiled: what a shot is, how it is delivered (with the
rules' execution noise), the free guard zone, and the score of an end.

A delivery is (vx, vy, spin) in shot coordinates, as DigitalCurling3 moves are (velocity
and rotation).  The players speak in *actions*, a fixed numbering shared by every state
so that a box of the abstraction tree can keep statistics per action:

* ``0 .. 2 D - 1``: a draw to target ``i // 2`` of ``DRAW_TARGETS`` (25 spots over the
  house and 6 guard spots), spin ``i % 2`` (0 ccw, 1 cw);
* ``2 D + 4 k + 2 h + s``: a hit on stone k (0..15) with weight ``HIT_EXTRA[h]`` (a
  delivery that would come to rest that many metres beyond the stone, aimed so that its
  curled path runs through the stone's centre: a tap-back and a takeout), spin s.

A hit exists only where its stone lies on the sheet (``legal_actions``).  The delivery of
a draw or hit is found from the free-flight table (``physics.TABLE``): the launch speed
whose unobstructed stop lies at the wanted distance (bisection; distance grows with
speed), then the launch direction that turns the table's curled path onto the target.

Rules (DigitalCurling3's, read from its source): stones rest; a stone not wholly beyond
the far hog line is removed; during shots 0-4 of an end (five-rock rule) a shot that
removes an opponent's stone from the free guard zone (in front of the tee line, outside
the house) is undone, the thrown stone taken away; the end's score goes to the team with
the stone nearest the tee, one point per stone nearer than the opponent's nearest, only
stones touching the house counting.  Score sign here: + for the hammer team.
"""

import math

import numpy as np
from numba import njit

from ..core.rng import rand_unit
from .physics import R, TABLE, at, phase_of, run_to_rest
from .sheet import (FREE_GUARD_SHOTS, HOG_Y, HOUSE_RADIUS, MAX_SPEED, NOISE_ANGLE,
                    NOISE_SPEED, SPIN, STONES, TEE_Y)


def _draw_targets():
    house = [(x, TEE_Y + y) for y in (-1.2, -0.6, 0.0, 0.6, 1.2)
             for x in (-1.2, -0.6, 0.0, 0.6, 1.2)]
    guards = [(x, TEE_Y - d) for d in (2.4, 3.4) for x in (-0.6, 0.0, 0.6)]
    return np.array(house + guards, dtype=np.float64)


DRAW_TARGETS = _draw_targets()
N_DRAW = DRAW_TARGETS.shape[0]
HIT_EXTRA = np.array([1.0, 6.0])
N_ACTIONS = 2 * N_DRAW + 4 * STONES


@njit(cache=True)
def _stop_distance(table, v0):
    """(distance, lateral angle) of the unobstructed stop of a ccw launch at v0."""
    V, PX, PY, H = table[0], table[1], table[2], table[3]
    u0 = phase_of(V, v0)
    last = V.shape[0] - 1
    dx, dy = PX[last] - at(PX, u0), PY[last] - at(PY, u0)
    return math.sqrt(dx * dx + dy * dy), math.atan2(dy, dx) - at(H, u0)


@njit(cache=True)
def _speed_for(table, dist):
    lo, hi = 0.3, table[0][0] - 1e-6
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if _stop_distance(table, mid)[0] < dist:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


@njit(cache=True)
def _path_angle(table, v0, dist):
    """Angle, from the launch direction, of the point of the ccw path from v0 that lies
    ``dist`` from the hack."""
    V, PX, PY, H = table[0], table[1], table[2], table[3]
    u0 = phase_of(V, v0)
    x0, y0 = at(PX, u0), at(PY, u0)
    lo, hi = u0, float(V.shape[0] - 1)
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if math.hypot(at(PX, mid) - x0, at(PY, mid) - y0) < dist:
            lo = mid
        else:
            hi = mid
    return math.atan2(at(PY, lo) - y0, at(PX, lo) - x0) - at(H, u0)


@njit(cache=True)
def aim(table, tx, ty, extra, spin):
    """(vx, vy) of the delivery with spin ``spin`` whose path runs through (tx, ty) and
    would stop ``extra`` metres further on."""
    dist = math.hypot(tx, ty)
    v0 = min(_speed_for(table, dist + extra), MAX_SPEED)
    if extra == 0.0:
        turn = _stop_distance(table, v0)[1]
    else:
        turn = _path_angle(table, v0, dist)
    heading = math.atan2(ty, tx) - (turn if spin == 0 else -turn)
    return v0 * math.cos(heading), v0 * math.sin(heading)


@njit(cache=True)
def action_delivery(table, targets, extras, pos, a):
    """(vx, vy, spin) of action ``a`` in the position ``pos``."""
    n_draw = targets.shape[0]
    if a < 2 * n_draw:
        t, spin = a // 2, a % 2
        vx, vy = aim(table, targets[t, 0], targets[t, 1], 0.0, spin)
        return vx, vy, spin
    k, rest = (a - 2 * n_draw) // 4, (a - 2 * n_draw) % 4
    spin = rest % 2
    vx, vy = aim(table, pos[k, 0], pos[k, 1], extras[rest // 2], spin)
    return vx, vy, spin


@njit(cache=True)
def legal_actions(n_draw, alive, out):
    """Fill ``out`` with the actions open in a position; returns how many."""
    n = 0
    for a in range(2 * n_draw):
        out[n] = a
        n += 1
    for k in range(STONES):
        if alive[k]:
            for j in range(4):
                out[n] = 2 * n_draw + 4 * k + j
                n += 1
    return n


@njit(cache=True)
def short_actions(targets, alive, out):
    """Fill ``out`` with a short list of the open actions, the shots a game is mostly made
    of: draws to the nine spots within 0.6 m of the tee and to the three guard spots
    2.4 m in front of it, and takeouts of every stone in play, each with both spins;
    returns how many."""
    n = 0
    for i in range(targets.shape[0]):
        x, dy = targets[i, 0], targets[i, 1] - TEE_Y
        if abs(x) < 0.7 and (abs(dy) < 0.7 or abs(dy + 2.4) < 1e-9):
            out[n], out[n + 1] = 2 * i, 2 * i + 1
            n += 2
    for k in range(STONES):
        if alive[k]:
            takeout = 2 * targets.shape[0] + 4 * k + 2
            out[n], out[n + 1] = takeout, takeout + 1
            n += 2
    return n


@njit(cache=True)
def gauss(rng):
    """A standard normal draw (Box-Muller) from the xorshift state."""
    u = rand_unit(rng)
    while u <= 1e-300:
        u = rand_unit(rng)
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * rand_unit(rng))


@njit(cache=True)
def in_house(x, y):
    return math.hypot(x, y - TEE_Y) < HOUSE_RADIUS + R


@njit(cache=True)
def in_guard_zone(x, y):
    return (not in_house(x, y)) and y + R < TEE_Y


@njit(cache=True)
def deliver(table, pos, alive, shot, vx, vy, spin, noisy, rng, trace):
    """Throw stone ``shot`` with delivery (vx, vy, spin), noise added when ``noisy``, and
    apply the rules; ``pos``/``alive`` change in place.  Returns whether the free guard
    zone rule undid the shot."""
    if noisy:
        speed = min(math.hypot(vx, vy), MAX_SPEED) + NOISE_SPEED * gauss(rng)
        angle = math.atan2(vy, vx) + NOISE_ANGLE * gauss(rng)
        vx, vy = speed * math.cos(angle), speed * math.sin(angle)
    before = pos.copy()
    was = alive.copy()
    vel = np.zeros((STONES, 2))
    om = np.zeros(STONES)
    pos[shot, 0], pos[shot, 1] = 0.0, 0.0
    vel[shot, 0], vel[shot, 1] = vx, vy
    om[shot] = SPIN if spin == 0 else -SPIN
    alive[shot] = True
    run_to_rest(table, pos, vel, om, alive, trace)
    for k in range(STONES):
        if alive[k] and not pos[k, 1] - R > HOG_Y:
            alive[k] = False
    if shot < FREE_GUARD_SHOTS:
        for k in range(shot % 2 ^ 1, STONES, 2):     # the opponent's stones
            if was[k] and not alive[k] and in_guard_zone(before[k, 0], before[k, 1]):
                pos[:] = before
                alive[:] = was
                return True
    return False


@njit(cache=True)
def end_score(pos, alive):
    """The end's score from the hammer team's side (it throws the odd shots)."""
    best = np.array([HOUSE_RADIUS + R, HOUSE_RADIUS + R])
    dist = np.full(STONES, np.inf)
    for k in range(STONES):
        if alive[k]:
            dist[k] = math.hypot(pos[k, 0], pos[k, 1] - TEE_Y)
            best[k % 2] = min(best[k % 2], dist[k])
    winner = 0 if best[0] < best[1] else 1
    n = 0
    for k in range(winner, STONES, 2):
        if dist[k] < best[1 - winner]:
            n += 1
    return n if winner == 1 else -n


def delivery_of(action: int, pos) -> tuple:
    """(vx, vy, spin) of ``action`` in ``pos`` (from Python)."""
    return action_delivery(TABLE, DRAW_TARGETS, HIT_EXTRA, pos, int(action))


def describe(action: int) -> str:
    if action < 2 * N_DRAW:
        x, y = DRAW_TARGETS[action // 2]
        return f"draw ({x:+.1f}, {y - TEE_Y:+.1f}) {'ccw' if action % 2 == 0 else 'cw'}"
    k, rest = divmod(action - 2 * N_DRAW, 4)
    kind = "takeout" if rest // 2 else "tap"
    return f"{kind} stone {k} {'ccw' if rest % 2 == 0 else 'cw'}"
