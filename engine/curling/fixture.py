"""Our sheet against the official simulator's stored results
(tests/data/curling_fcv1.json, written by scripts/curling/fcv1_fixture.py): replays each
stored noise-free shot and measures where our stones come to rest."""

import math

import numpy as np

from .physics import TABLE
from .shots import deliver
from .sheet import STONES


def replay(shot):
    """(alive, pos) after the stored shot [k, vx, vy, rot, resting stones] on our sheet;
    the resting stones take indices 0.. skipping k, as the dump script placed them."""
    k, vx, vy, rot, pre = shot
    pos, alive = np.zeros((STONES, 2)), np.zeros(STONES, np.bool_)
    slot = 0
    for x, y in pre:
        slot += slot == k
        pos[slot], alive[slot] = (x, y), True
        slot += 1
    deliver(TABLE, pos, alive, k, vx, vy, rot, False, np.ones(1, np.uint64), np.zeros((0, 3)))
    return alive, pos


def compare(rows) -> dict:
    """Errors per stone (m) over all rows (count, median, 95th percentile, max), the
    same over the stones that moved (the thrown one and those it set going), shots
    whose every stone lies within 1 and 5 cm, and stones that disagree on being in
    play."""
    errors, moved, mismatched, worst_shot = [], [], 0, []
    for row in rows:
        alive, pos = replay(row["shot"])
        _, start = replay([row["shot"][0], 0.0, 0.0, 0, row["shot"][4]])
        shot_err = 0.0
        for i, (on, x, y) in enumerate(row["official"]):
            if bool(on) != bool(alive[i]):
                mismatched += 1
                shot_err = math.inf
            elif on:
                e = math.hypot(x - pos[i, 0], y - pos[i, 1])
                errors.append(e)
                if i == row["shot"][0] or math.hypot(x - start[i, 0], y - start[i, 1]) > 1e-3:
                    moved.append(e)
                shot_err = max(shot_err, e)
        worst_shot.append(shot_err)
    e, m = np.array(errors), np.array(moved)
    w = np.array(worst_shot)
    return {"stones": int(e.size), "moved": int(m.size),
            "moved_median_m": float(np.median(m)), "moved_p90_m": float(np.percentile(m, 90)),
            "median_m": float(np.median(e)),
            "p95_m": float(np.percentile(e, 95)), "max_m": float(e.max()),
            "shots": len(rows), "shots_within_1cm": int((w <= 0.01).sum()),
            "shots_within_5cm": int((w <= 0.05).sum()), "in_play_mismatch": mismatched}
