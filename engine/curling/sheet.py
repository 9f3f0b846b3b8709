"""The sheet, the stones and the rules' constants, in the shot coordinates of
DigitalCurling3 (facts read from its coordinate, simulator and player headers).

Shot coordinates: the thrower's hack is the origin, the stone travels towards +y, x is
across the sheet (centre line x = 0).  Every end is played in its own shot coordinates,
so a position means the same thing whichever end of the sheet is in use.

Stones: index k of an end is the stone thrown at shot k (0..15); shots alternate, the
team without the hammer throwing the even shots.
"""

import math

STONE_RADIUS = 0.145          # m
STONE_MASS = 19.96            # kg
SHEET_WIDTH = 4.75            # m (GameSetting default)
HOG_Y = 10.9725 + 21.0315     # the far hog line: a stone must lie wholly beyond it
TEE_Y = 17.3735 + 21.0315     # the far tee line; the tee (button centre) is (0, TEE_Y)
BACK_Y = 19.2025 + 21.0315    # the far back line: a stone wholly past it is out
FRONT_Y = -22.8605 + 21.0315  # behind the thrower's own back board (never reached in play)
HOUSE_RADIUS = 1.829          # m
SPIN = math.pi / 2            # |angular velocity| of every delivery, rad/s (+: ccw)
DT = 0.001                    # the simulator's frame, s
MAX_SPEED = 4.0               # deliveries faster than this are clamped by the rules
NOISE_SPEED = 0.0076          # st. dev. of the speed noise the rules add, m/s
NOISE_ANGLE = 0.0018          # st. dev. of the direction noise, rad
FREE_GUARD_SHOTS = 5          # five-rock rule: shots 0..4 may not remove guards
STONES = 16
FRICTION = 0.2                # stone-on-stone Coulomb friction (Box2D fixture default)
