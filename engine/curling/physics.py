"""The sheet's physics, compiled: the FCV1 model of DigitalCurling3, frame by frame where
stones touch and by a precomputed table where they fly free.

The model (facts read from the official simulator; our own code):

* every frame (1 ms) a moving stone's speed v changes by
  a(v) = -(0.00200985 / (v + 0.06385782) + 0.00626286) g, and stops when it would turn
  negative; its direction turns by yaw(v) dt with yaw(v) = sign(w) 0.00820 v^-0.8 (curl,
  towards the side the stone rotates); its angular velocity w loses 0.025 / max(v, 0.001)
  per second, stopping at zero;
* then a rigid-body step as Box2D makes it: contacts are the pairs overlapping at the
  frame's start; 8 sequential-impulse iterations with warm starting from the previous
  frame's impulses, restitution 1 (bias -e v_n on approach), Coulomb friction 0.2 capped
  by the accumulated normal impulse, tangent before normal; positions move by v dt; then
  up to 3 position-correction passes (Baumgarte 0.2, slop 5 mm, at most 0.2 m);
* stones are uniform discs (radius 0.145 m, 19.96 kg).

Differences we accept and test for: we compute in float64 (the official simulator in
float32) and skip Box2D's time-of-impact pass (at 1 ms frames and at most 4 m/s a stone
moves 4 mm per frame and never reaches the 15 mm overlap that pass acts on).

Speed: a free stone's future depends only on its speed (and the sign of its spin while
that spin lasts), so one table, integrated once with the exact frame rule from 4.5 m/s
to rest, holds every free flight: per frame k its speed V, position (PX, PY) and heading
H in the launch frame, arc length S and the spin it has lost, W.  A stone at speed v is
at the fractional table phase where V = v; ``advance`` moves every moving stone n frames
along its table at once, n chosen so that no pair can meet and no stone can leave the
sheet within them (pairs close in at most (v_i + v_j) dt per frame).  Only the frames
around a contact are stepped one by one.
"""

import math

import numpy as np
from numba import njit

from .sheet import (BACK_Y, DT, FRICTION, FRONT_Y, SHEET_WIDTH, STONE_MASS, STONE_RADIUS,
                    STONES)

G = 9.80665
EPS32 = 1.1920929e-07               # the float epsilon the official tests compare with
INV_MASS = 1.0 / STONE_MASS
INV_I = 1.0 / (0.5 * STONE_MASS * STONE_RADIUS * STONE_RADIUS)
SLOP, BAUMGARTE, MAX_CORRECTION = 0.005, 0.2, 0.2
VELOCITY_ITERATIONS, POSITION_ITERATIONS = 8, 3
TABLE_SPEED = 4.5
MIN_JUMP = 4                         # below this many safe frames, step one frame
MAX_ITERATIONS = 200000              # a guard: no real shot needs a tenth of it
HALF_WIDTH = SHEET_WIDTH / 2.0
R = STONE_RADIUS


@njit(cache=True)
def accel(v):
    return -(0.00200985 / (v + 0.06385782) + 0.00626286) * G


@njit(cache=True)
def yaw_rate(v, w):
    if abs(w) <= EPS32:
        return 0.0
    return (1.0 if w > 0.0 else -1.0) * 0.00820 * v ** -0.8


@njit(cache=True)
def spin_loss(v):
    """How much |w| falls in one frame at speed v."""
    return 0.025 / max(v, 0.001) * DT


@njit(cache=True)
def _free_update(vx, vy, w):
    """The per-frame velocity and spin rule of one stone (before the rigid step)."""
    speed = math.sqrt(vx * vx + vy * vy)
    if speed > EPS32:
        new_speed = speed + accel(speed) * DT
        if new_speed <= 0.0:
            vx, vy = 0.0, 0.0
        else:
            yaw = yaw_rate(speed, w) * DT
            ex, ey = vx / speed, vy / speed
            lon, tra = new_speed * math.cos(yaw), new_speed * math.sin(yaw)
            vx, vy = lon * ex - tra * ey, lon * ey + tra * ex
    if abs(w) > EPS32:
        loss = spin_loss(speed)
        w = 0.0 if abs(w) <= loss else w - loss * (1.0 if w > 0.0 else -1.0)
    return vx, vy, w


@njit(cache=True)
def build_table(v0):
    """The free flight of a ccw stone launched along +y at ``v0``: arrays
    (V, PX, PY, H, S, W) per frame, ending with the first frame at rest."""
    n = int(v0 / (0.00626286 * G * DT)) + 10
    V, PX, PY, H, S, W = (np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n),
                          np.zeros(n), np.zeros(n))
    vx, vy, w, x, y, s, lost = 0.0, v0, 100.0, 0.0, 0.0, 0.0, 0.0
    V[0], H[0] = v0, math.pi / 2
    k = 0
    while True:
        speed = math.sqrt(vx * vx + vy * vy)
        lost += spin_loss(speed)
        vx, vy, w = _free_update(vx, vy, w)
        x += vx * DT
        y += vy * DT
        s += math.sqrt(vx * vx + vy * vy) * DT
        k += 1
        V[k], PX[k], PY[k], S[k], W[k] = math.sqrt(vx * vx + vy * vy), x, y, s, lost
        H[k] = math.atan2(vy, vx) if V[k] > 0.0 else H[k - 1]
        if V[k] == 0.0:
            return V[:k + 1], PX[:k + 1], PY[:k + 1], H[:k + 1], S[:k + 1], W[:k + 1]


TABLE = build_table(TABLE_SPEED)


@njit(cache=True)
def phase_of(V, v):
    """The fractional frame index at which the table's speed is ``v`` (V decreases)."""
    if v >= V[0]:
        return 0.0
    lo, hi = 0, V.shape[0] - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if V[mid] > v:
            lo = mid
        else:
            hi = mid
    return lo + (V[lo] - v) / (V[lo] - V[hi])


@njit(cache=True)
def at(arr, u):
    """``arr`` linearly interpolated at fractional index u (clamped to the table)."""
    last = arr.shape[0] - 1
    if u >= last:
        return arr[last]
    i = int(u)
    f = u - i
    return arr[i] * (1.0 - f) + arr[i + 1] * f


@njit(cache=True)
def _spin_frames(W, u0, w):
    """Frames after which a stone at phase u0 with spin w has lost it all (table W)."""
    target = at(W, u0) + abs(w)
    if W[W.shape[0] - 1] < target:
        return 1 << 30
    lo, hi = int(u0), W.shape[0] - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if W[mid] < target:
            lo = mid
        else:
            hi = mid
    return max(lo - int(u0) - 1, 0)


@njit(cache=True)
def _advance_one(table, pos, vel, om, i, n):
    """Move free stone i by n frames along the table."""
    V, PX, PY, H, S, W = table
    vx, vy, w = vel[i, 0], vel[i, 1], om[i]
    speed = math.sqrt(vx * vx + vy * vy)
    u0 = phase_of(V, speed)
    u1 = u0 + n
    heading = math.atan2(vy, vx)
    if abs(w) > EPS32:
        sign = 1.0 if w > 0.0 else -1.0
        dx, dy = at(PX, u1) - at(PX, u0), at(PY, u1) - at(PY, u0)
        h0 = at(H, u0)
        c, s = math.cos(h0), math.sin(h0)
        along, lateral = c * dx + s * dy, -s * dx + c * dy
        lateral *= sign
        turn = sign * (at(H, u1) - h0)
        w = w - sign * (at(W, u1) - at(W, u0))
    else:
        along, lateral, turn = at(S, u1) - at(S, u0), 0.0, 0.0
    c, s = math.cos(heading), math.sin(heading)
    pos[i, 0] += c * along - s * lateral
    pos[i, 1] += s * along + c * lateral
    v1 = at(V, u1)
    vel[i, 0], vel[i, 1] = v1 * math.cos(heading + turn), v1 * math.sin(heading + turn)
    om[i] = w


@njit(cache=True)
def safe_frames(table, pos, vel, om, alive):
    """How many frames every moving stone may fly free: no two stones can touch and no
    stone can leave the sheet (or lose its spin) before they end."""
    best = 1 << 30
    step = np.zeros(STONES)            # how far each moving stone can go in one frame
    for i in range(STONES):
        if alive[i] and _moving(vel, i):
            step[i] = math.sqrt(vel[i, 0] ** 2 + vel[i, 1] ** 2) * DT
            x, y = pos[i, 0], pos[i, 1]
            gap = min(HALF_WIDTH - R - abs(x), BACK_Y + R - y, y - R - FRONT_Y)
            best = min(best, int(max(gap - 1e-6, 0.0) / step[i]))
            if abs(om[i]) > EPS32:
                u0 = phase_of(table[0], step[i] / DT)
                best = min(best, _spin_frames(table[5], u0, om[i]))
    for i in range(STONES):
        if not alive[i]:
            continue
        for j in range(i + 1, STONES):
            if not alive[j] or step[i] + step[j] <= 0.0:
                continue
            dist = math.sqrt((pos[i, 0] - pos[j, 0]) ** 2 + (pos[i, 1] - pos[j, 1]) ** 2)
            best = min(best, int(max(dist - 2 * R - 1e-6, 0.0) / (step[i] + step[j])))
    return best


@njit(cache=True)
def _moving(vel, i):
    """The official test of a stone still moving (squared speed above float epsilon)."""
    return vel[i, 0] * vel[i, 0] + vel[i, 1] * vel[i, 1] > EPS32


@njit(cache=True)
def _cross_wr(w, rx, ry):
    return -w * ry, w * rx


@njit(cache=True)
def rigid_step(pos, vel, om, alive, imp, touching):
    """Box2D's step for the discs: contacts, velocity iterations, positions, position
    correction.  ``imp[i, j]`` = (normal, tangent) impulse of contact i-j last frame
    (warm start); ``touching[i, j]`` whether it was a contact."""
    nc = 0
    ci = np.empty(120, np.int64)
    cj = np.empty(120, np.int64)
    for i in range(STONES):
        for j in range(i + 1, STONES):
            was = touching[i, j]
            touching[i, j] = False
            if not (alive[i] and alive[j]):
                continue
            dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
            if dx * dx + dy * dy < 4 * R * R:
                touching[i, j] = True
                if not was:
                    imp[i, j, 0] = imp[i, j, 1] = 0.0
                ci[nc], cj[nc] = i, j
                nc += 1
    if nc == 0:
        for i in range(STONES):
            if alive[i]:
                pos[i, 0] += vel[i, 0] * DT
                pos[i, 1] += vel[i, 1] * DT
        return
    geom = np.empty((nc, 7))     # nx, ny, r (|rA| = |rB|), bias, normal mass, tangent mass
    for c in range(nc):
        i, j = ci[c], cj[c]
        dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
        d = math.sqrt(dx * dx + dy * dy)
        nx, ny = (dx / d, dy / d) if d > 1e-12 else (1.0, 0.0)
        r = 0.5 * d
        rvx = (vel[j, 0] - om[j] * (-r * ny)) - (vel[i, 0] - om[i] * (r * ny))
        rvy = (vel[j, 1] + om[j] * (-r * nx)) - (vel[i, 1] + om[i] * (r * nx))
        vn = rvx * nx + rvy * ny
        geom[c, 0], geom[c, 1], geom[c, 2] = nx, ny, r
        geom[c, 3] = -vn if vn < 0.0 else 0.0
        geom[c, 4] = 1.0 / (2 * INV_MASS)
        geom[c, 5] = 1.0 / (2 * INV_MASS + 2 * INV_I * r * r)
        _apply(vel, om, i, j, nx, ny, r, imp[i, j, 0], imp[i, j, 1])
    for _ in range(VELOCITY_ITERATIONS):
        for c in range(nc):
            i, j = ci[c], cj[c]
            nx, ny, r = geom[c, 0], geom[c, 1], geom[c, 2]
            tx, ty = ny, -nx
            ax, ay = _cross_wr(om[i], r * nx, r * ny)
            bx, by = _cross_wr(om[j], -r * nx, -r * ny)
            dvx = vel[j, 0] + bx - vel[i, 0] - ax
            dvy = vel[j, 1] + by - vel[i, 1] - ay
            vt = dvx * tx + dvy * ty
            cap = FRICTION * imp[i, j, 0]
            new = min(max(imp[i, j, 1] - geom[c, 5] * vt, -cap), cap)
            _apply(vel, om, i, j, nx, ny, r, 0.0, new - imp[i, j, 1])
            imp[i, j, 1] = new
            ax, ay = _cross_wr(om[i], r * nx, r * ny)
            bx, by = _cross_wr(om[j], -r * nx, -r * ny)
            vn = ((vel[j, 0] + bx - vel[i, 0] - ax) * nx
                  + (vel[j, 1] + by - vel[i, 1] - ay) * ny)
            new = max(imp[i, j, 0] - geom[c, 4] * (vn - geom[c, 3]), 0.0)
            _apply(vel, om, i, j, nx, ny, r, new - imp[i, j, 0], 0.0)
            imp[i, j, 0] = new
    for i in range(STONES):
        if alive[i]:
            pos[i, 0] += vel[i, 0] * DT
            pos[i, 1] += vel[i, 1] * DT
    for _ in range(POSITION_ITERATIONS):
        worst = 0.0
        for c in range(nc):
            i, j = ci[c], cj[c]
            dx, dy = pos[j, 0] - pos[i, 0], pos[j, 1] - pos[i, 1]
            d = math.sqrt(dx * dx + dy * dy)
            if d < 1e-12:
                continue
            sep = d - 2 * R
            worst = min(worst, sep)
            corr = min(max(BAUMGARTE * (sep + SLOP), -MAX_CORRECTION), 0.0)
            p = -corr / (2 * INV_MASS) * INV_MASS
            pos[i, 0] -= p * dx / d
            pos[i, 1] -= p * dy / d
            pos[j, 0] += p * dx / d
            pos[j, 1] += p * dy / d
        if worst >= -3 * SLOP:
            break


@njit(cache=True)
def _apply(vel, om, i, j, nx, ny, r, pn, pt):
    """Apply impulse pn along the normal and pt along the tangent at the contact
    (A = i at -r n from the contact, B = j at +r n)."""
    px, py = pn * nx + pt * ny, pn * ny - pt * nx
    vel[i, 0] -= INV_MASS * px
    vel[i, 1] -= INV_MASS * py
    vel[j, 0] += INV_MASS * px
    vel[j, 1] += INV_MASS * py
    # torque r x P with r_A = r n, r_B = -r n
    om[i] -= INV_I * (r * nx * py - r * ny * px)
    om[j] += INV_I * (-r * nx * py + r * ny * px)


@njit(cache=True)
def off_sheet(x, y):
    return not (abs(x) + R < HALF_WIDTH and y - R < BACK_Y and y - R > FRONT_Y)


@njit(cache=True)
def run_to_rest(table, pos, vel, om, alive, trace):
    """Simulate until every stone rests, removing stones that leave the sheet (as the
    rules do at every frame).  ``trace`` (k x 3, or 0 rows): the position of the stone
    with spin or speed at each jump, (index, x, y), for drawing; returns rows used."""
    imp = np.zeros((STONES, STONES, 2))
    touching = np.zeros((STONES, STONES), np.bool_)
    rows = 0
    for _ in range(MAX_ITERATIONS):
        moving = False
        for i in range(STONES):
            if alive[i] and off_sheet(pos[i, 0], pos[i, 1]):
                alive[i] = False
            if alive[i] and _moving(vel, i):
                moving = True
        if not moving:
            return rows
        n = safe_frames(table, pos, vel, om, alive)
        if trace.shape[0] > 0:
            n = min(n, 200)
        if n >= MIN_JUMP:
            for i in range(STONES):
                if alive[i] and _moving(vel, i):
                    _advance_one(table, pos, vel, om, i, n)
                elif abs(om[i]) > n * 0.025:     # a resting stone's spin fades at 25 rad/s^2
                    om[i] -= n * 0.025 * (1.0 if om[i] > 0.0 else -1.0)
                else:
                    om[i] = 0.0
                touching[i, :] = False
        else:
            for i in range(STONES):
                if alive[i]:
                    vel[i, 0], vel[i, 1], om[i] = _free_update(vel[i, 0], vel[i, 1], om[i])
            rigid_step(pos, vel, om, alive, imp, touching)
        if trace.shape[0] > 0:
            for i in range(STONES):
                if alive[i] and _moving(vel, i) and rows < trace.shape[0]:
                    trace[rows, 0], trace[rows, 1], trace[rows, 2] = i, pos[i, 0], pos[i, 1]
                    rows += 1
    return rows
