"""The two benchmark MDPs, Trap and Treasure Hunt, behind one small interface.

A problem is a plain object: ``reset()`` gives the start state, ``step(state, action, rng)``
draws the noisy transition and returns ``(next_state, reward, done)``; ``actions`` is the
finite action set (a tuple of floats) that UCT, WUCT and the abstraction tree choose from,
and ``sample_action(rng)`` draws one action of the full (possibly continuous) action set,
which progressive widening uses.  ``gamma`` is the discount, ``horizon`` the number of
decisions in an episode.  A state is a tuple ``(t, x)`` (Trap) or ``(t, x, y)`` (Treasure
Hunt): the time step is part of the state, so statistics of different steps never mix.
``rng`` is a ``random.Random``: every random choice flows from the seed it was made with.

A problem may also have ``rollout(state, rng)``, a faster random playout with the
same law (Treasure Hunt's is compiled); ``common.rollout`` uses it when present.
``distance2(s, u)`` and ``kernel_sigma`` give Weighted UCT its metric and initial
bandwidth; ``bounds`` (per coordinate, ``(low, high)``) is the box the abstraction tree
subdivides.  Where the source leaves a parameter open the choice is documented in
docs/mdp.md ("Choices where the thesis is ambiguous").
"""

import math
from dataclasses import dataclass, field

TWO_PI = 2.0 * math.pi


def parse_params(items) -> dict:
    """``["R=0.01", "D=5"]`` (or one comma-separated string) -> ``{"R": 0.01, "D": 5.0}``."""
    if isinstance(items, str):
        items = [items]
    out = {}
    for item in items:
        for pair in filter(None, (p.strip() for p in item.split(","))):
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"a parameter is KEY=VALUE, not {pair!r}")
            try:
                out[key.strip()] = float(value)
            except ValueError:
                raise ValueError(f"parameter {key.strip()}: {value!r} is not a number") from None
    return out


@dataclass(frozen=True)
class Trap:
    """Couetoux et al.'s deceptive Trap: x0 = 0, x' = x + a + d with d ~ U[0, R), reward
    0.7 below 1, 0 in the trap [1, 1.7), 1 from 1.7 on, for every state reached; ``T``
    decisions (the thesis: times t = 0, 1, 2, so two moves; the optimum 1.7 is 0.7 + 1)."""
    R: float = 0.01
    T: int = 2
    n_actions: int = 8
    name: str = field(default="trap", init=False)
    gamma: float = field(default=1.0, init=False)

    LOW = 1.0       # the trap starts here ...
    HIGH = 1.7      # ... and ends here
    LOW_REWARD = 0.7

    def __post_init__(self):
        if not self.R >= 0:
            raise ValueError(f"trap: R must be >= 0, not {self.R}")
        if self.T < 1 or self.T != int(self.T):
            raise ValueError(f"trap: T must be a positive whole number, not {self.T}")
        object.__setattr__(self, "T", int(self.T))

    @property
    def params(self) -> dict:
        return {"R": self.R, "T": self.T}

    @property
    def horizon(self) -> int:
        return self.T

    @property
    def actions(self) -> tuple:
        n = self.n_actions
        return tuple((i + 0.5) / n for i in range(n))

    def sample_action(self, rng) -> float:
        return self.actions[rng.randrange(self.n_actions)]

    @classmethod
    def reward(cls, x: float) -> float:
        if x < cls.LOW:
            return cls.LOW_REWARD
        return 1.0 if x >= cls.HIGH else 0.0

    def reset(self) -> tuple:
        return (0, 0.0)

    def step(self, state, action, rng):
        t, x = state
        x2 = x + action + self.R * rng.random()
        return (t + 1, x2), self.reward(x2), t + 1 >= self.T

    @property
    def bounds(self) -> tuple:
        return ((-2 * self.R, 2 + 2 * self.R),)

    @property
    def kernel_sigma(self) -> float:
        return 0.5

    @staticmethod
    def distance2(s, u) -> float:
        return (s[1] - u[1]) ** 2

    def describe(self, state) -> str:
        return f"t={state[0]} x={state[1]:.4f}"


@dataclass(frozen=True)
class TreasureHunt:
    """A D x D field, start (0, 0); an action is a heading theta, the move A (cos, sin)
    plus noise uniform in [-eps/2, eps/2) on each axis, clipped to [0, D].  Reaching the
    treasure (the G x G corner at (D, D)) pays R_treasure and ends the episode, the hole
    (the H x H square in the middle, H = D/2 unless given) costs R_hole and ends it, every
    step costs R_time; at most T = 10 D steps.  ``K`` headings form the finite action set."""
    D: float = 5.0
    G: float = 1.0
    H: float | None = None
    A: float = 1.0
    eps: float = 1.0
    R_treasure: float = 1.0
    R_hole: float = 0.5
    R_time: float = 0.001
    T: int | None = None
    K: int = 10
    name: str = field(default="treasure", init=False)
    gamma: float = field(default=1.0, init=False)

    def __post_init__(self):
        if not self.D > 0 or not self.G > 0:
            raise ValueError("treasure: D and G must be positive")
        if self.H is None:
            object.__setattr__(self, "H", self.D / 2)
        if self.T is None:
            object.__setattr__(self, "T", int(round(10 * self.D)))
        if self.T < 1 or self.K < 1:
            raise ValueError("treasure: T and K must be positive")
        object.__setattr__(self, "T", int(self.T))
        object.__setattr__(self, "K", int(self.K))

    @property
    def params(self) -> dict:
        return {"D": self.D, "G": self.G, "H": self.H, "A": self.A, "eps": self.eps,
                "R_treasure": self.R_treasure, "R_hole": self.R_hole,
                "R_time": self.R_time, "T": self.T, "K": self.K}

    @property
    def horizon(self) -> int:
        return self.T

    @property
    def actions(self) -> tuple:
        return tuple(TWO_PI * k / self.K for k in range(self.K))

    def sample_action(self, rng) -> float:
        return TWO_PI * rng.random()

    def reset(self) -> tuple:
        return (0, 0.0, 0.0)

    def in_treasure(self, x, y) -> bool:
        edge = self.D - self.G
        return x >= edge and y >= edge

    def in_hole(self, x, y) -> bool:
        lo, hi = (self.D - self.H) / 2, (self.D + self.H) / 2
        return lo <= x <= hi and lo <= y <= hi

    def step(self, state, action, rng):
        t, x, y = state
        d = self.D
        x2 = x + self.A * math.cos(action) + self.eps * (rng.random() - 0.5)
        y2 = y + self.A * math.sin(action) + self.eps * (rng.random() - 0.5)
        x2 = min(max(x2, 0.0), d)
        y2 = min(max(y2, 0.0), d)
        reward = -self.R_time
        done = t + 1 >= self.T
        if self.in_treasure(x2, y2):
            reward += self.R_treasure
            done = True
        elif self.in_hole(x2, y2):
            reward -= self.R_hole
            done = True
        return (t + 1, x2, y2), reward, done

    @property
    def bounds(self) -> tuple:
        return ((0.0, self.D), (0.0, self.D))

    @property
    def kernel_sigma(self) -> float:
        return 0.5 * self.D / 2

    @staticmethod
    def distance2(s, u) -> float:
        return (s[1] - u[1]) ** 2 + (s[2] - u[2]) ** 2

    def describe(self, state) -> str:
        return f"t={state[0]} x={state[1]:.3f} y={state[2]:.3f}"

    def rollout(self, state, rng) -> float:
        """The random playout's return, compiled (``kernels.treasure_rollout``)."""
        from ..core.rng import make_rng
        from .kernels import treasure_params, treasure_rollout
        if not hasattr(self, "_packed"):
            object.__setattr__(self, "_packed", treasure_params(self))
        t, x, y = state
        return treasure_rollout(self._packed, t, x, y, make_rng(rng.getrandbits(63)))


PROBLEMS = {"trap": Trap, "treasure": TreasureHunt}


def make_problem(name: str, params: dict | None = None):
    """The problem called ``name`` with ``params`` over its defaults; ValueError for an
    unknown name or parameter."""
    if name not in PROBLEMS:
        raise ValueError(f"unknown problem {name!r}; choose from {', '.join(PROBLEMS)}")
    cls = PROBLEMS[name]
    known = {f for f, spec in cls.__dataclass_fields__.items() if spec.init}
    params = dict(params or {})
    unknown = sorted(set(params) - known)
    if unknown:
        raise ValueError(f"{name}: unknown parameter(s) {', '.join(unknown)}; "
                         f"known: {', '.join(sorted(known))}")
    for key in ("T", "K", "n_actions"):
        if key in params:
            if params[key] != int(params[key]):
                raise ValueError(f"{name}: {key} must be a whole number")
            params[key] = int(params[key])
    return cls(**params)
