"""The curling players: the thesis's abstraction tree (Algorithm 8, ``tree``), its
N_{s,a}-threshold variant (Algorithm 6, ``alg6``), flat Monte Carlo over the same
candidate shots (``flat``), and a rule-based player (``rules``).  ``tree-mean`` and
``alg6-mean`` are the first reading of Algorithm 8's new actions (virtual visits at the
box's mean, ``search_kernels``), kept to compare with.

Every search player runs ``search_kernels.search`` with a budget per shot, either
playouts (equal simulation budgets: the default, since this testbed's machine is shared
and time also measures the load) or seconds of its process's CPU time (equal time,
``seconds`` > 0: the search runs in short slices and stops at the first slice's end past
the limit), and a seed of its own; the three differ only in what plays below the root.
Under a time limit the playouts differ from run to run, but every random choice still
comes from the player's seeded stream.
"""

import dataclasses
import time
from dataclasses import dataclass, replace

import numpy as np

from ..core.rng import make_rng
from ..match.runner import derive_seed
from . import search_kernels as K
from .game import Choice
from .physics import TABLE
from .shots import DRAW_TARGETS, HIT_EXTRA, N_ACTIONS, N_DRAW, in_house
from .sheet import STONES, TEE_Y
from .winprob import end_values

BUTTON = int(np.flatnonzero((DRAW_TARGETS[:, 0] == 0) & (DRAW_TARGETS[:, 1] == TEE_Y))[0])
CENTRE_GUARD = int(np.flatnonzero((DRAW_TARGETS[:, 0] == 0)
                                  & np.isclose(DRAW_TARGETS[:, 1], TEE_Y - 2.4))[0])
MODES = {"flat": K.RANDOM, "tree": K.TREE, "alg6": K.TREE_NSA,
         "tree-mean": K.TREE, "alg6-mean": K.TREE_NSA}


@dataclass
class SearchSettings:
    budget: int = 300        # playouts per shot, the noise-free candidate round included
    seconds: float = 0.0     # > 0: CPU seconds per shot instead of the playout budget
    c: float = 1.0           # UCB1's C (thesis: 1)
    max_depth: int = 15      # box halvings (15: about 0.3 mm across the sheet)
    n_new: float = 1.0       # Algorithm 8's N_new virtual visits of an untried action
    n_policy: float = 0.0    # Algorithm 8's N_policy virtual visits per action
    c_limit: int = 1         # Algorithm 9's noise-free rounds over every root action
    n_cand: int = 8          # candidate root shots kept after them
    at_mean: bool = False    # new actions' virtual visits at the box's mean (not as printed)
    c_below: float = -1.0    # UCB1's C in the tree below the root (< 0: the same C)
    w_power: float = 4.0     # w(d) = (d+1)^w_power (thesis: 4)
    short: bool = False      # below the root, only the short list of actions (not the thesis's)
    per_candidate: bool = False  # a tree of its own below each root candidate (not the thesis's)
    keep: bool = False       # keep the tree from shot to shot through an end (not the thesis's)


class SearchPlayer:
    def __init__(self, kind: str, seed: int, settings: SearchSettings = SearchSettings()):
        if kind.endswith("-mean"):
            settings = replace(settings, at_mean=True)
        self.name, self.mode, self.settings = kind, MODES[kind], settings
        self.rng = make_rng(derive_seed(seed, "player", kind))
        self.rate = 0.0            # the most playouts a CPU second seen so far (tree room)
        self.kept = None           # (ends_left, lead, shot, tree) under ``keep``
        if settings.seconds > 0:   # load the compiled kernels before any clock runs
            self._search(np.zeros((STONES, 2)), np.zeros(STONES, np.bool_), STONES - 1,
                         0, 1, make_rng(0))

    def cfg(self):
        s = self.settings
        return np.array([s.c, s.max_depth, s.n_new, s.n_policy, s.c_limit, s.n_cand,
                         self.mode, s.at_mean, s.c if s.c_below < 0 else s.c_below,
                         s.w_power, s.short, s.per_candidate],
                        dtype=np.float64)

    def decide(self, view) -> Choice:
        s = self.settings
        start = time.process_time()
        # a tree makes at most one box per shot below the root per playout
        most = s.budget if s.seconds <= 0 else max(256, int(1.5 * self.rate * s.seconds))
        action, used, out = self._search(view.pos, view.alive, view.shot, view.ends_left,
                                         view.lead, self.rng, most,
                                         start if s.seconds > 0 else None)
        k = int(out[6][2])
        cand, cand_n, cand_r, pre_n, pre_r = out[:5]
        tried = pre_n > 0
        info = {"candidates": [(int(a), int(n), float(r / n) if n else None)
                               for a, n, r in zip(cand[:k], cand_n[:k], cand_r[:k])],
                "noise_free": {int(a): float(pre_r[a] / pre_n[a])
                               for a in np.flatnonzero(tried)}}
        return Choice(int(action), int(used), info)

    def _search(self, pos, alive, shot, ends_left, lead, rng, most=1, start=None):
        """(action, playouts, the kernel's outputs): ``most`` playouts when ``start`` is
        None, else until the time limit from ``start`` (``most``: the tree's room)."""
        s = self.settings
        tree = self._tree(shot, ends_left, lead, most)
        out = (np.zeros(s.n_cand, np.int64), np.zeros(s.n_cand), np.zeros(s.n_cand),
               np.zeros(N_ACTIONS), np.zeros(N_ACTIONS), np.zeros(N_ACTIONS, np.int64),
               np.zeros(3, np.int64))
        args = (self.cfg(), (TABLE, DRAW_TARGETS, HIT_EXTRA), end_values(ends_left, lead),
                pos.copy(), alive.copy(), shot)
        used = K.search(*args, 0, tree, rng, out)
        if start is None:           # the candidate round is always whole under playouts
            used = K.search(*args, max(most, s.c_limit * int(out[6][1])), tree, rng, out)
        else:
            used = self._timed(args, tree, out, start, rng)
        return K.chosen(self.cfg(), out), used, out

    def _tree(self, shot, ends_left, lead, most):
        """Room for ``most`` playouts' boxes, one at every shot below: a fresh tree, or
        under ``keep`` the end's tree while the end goes on (its boxes are keyed by the
        stones' places and hold values for the shooter of each shot in this end's
        scoring, so what one decision learnt about later shots holds for the next)."""
        if self.mode == K.RANDOM:
            return K.new_tree(STONES, N_ACTIONS)
        roots = STONES * (self.settings.n_cand + 1 if self.settings.per_candidate else 1)
        room = most * (STONES - 1 - shot) + roots + STONES
        if not self.settings.keep:
            return K.new_tree(room, N_ACTIONS, roots)
        kept = self.kept
        if kept is not None and kept[:2] == (ends_left, lead) and shot > kept[2]:
            tree = K.grown(kept[3], int(kept[3][6][0]) + room)
        else:
            tree = K.new_tree(room, N_ACTIONS, roots)
        self.kept = (ends_left, lead, shot, tree)
        return tree

    def _timed(self, args, tree, out, start, rng):
        """Search in slices of about a twentieth of the limit until it is spent."""
        limit, used, slice_ = self.settings.seconds, 0, 1
        while True:
            used = K.search(*args, used + slice_, tree, rng, out)
            spent = time.process_time() - start
            if spent >= limit:
                break
            slice_ = max(1, min(256, int(used / max(spent, 1e-6) * limit / 20)))
        self.rate = max(self.rate, used / max(spent, 1e-6))
        return used


class RulePlayer:
    """Take out the opponent's shot stone when it is in the house, else guard the
    centre line early without the hammer, else draw to the button."""

    name = "rules"

    def __init__(self, seed: int = 0):
        self.spin = 0

    def decide(self, view) -> Choice:
        mine = view.shot % 2
        best, shot_stone = None, -1
        for k in range(STONES):
            if view.alive[k] and in_house(*view.pos[k]):
                d = np.hypot(view.pos[k, 0], view.pos[k, 1] - TEE_Y)
                if best is None or d < best:
                    best, shot_stone = d, k
        self.spin ^= 1
        if shot_stone >= 0 and shot_stone % 2 != mine:
            return Choice(2 * N_DRAW + 4 * shot_stone + 2 + self.spin)
        if mine == 0 and view.shot < 4:
            return Choice(2 * CENTRE_GUARD + self.spin)
        return Choice(2 * BUTTON + self.spin)


def parse_spec(spec: str) -> tuple[str, dict]:
    """``NAME[,SETTING=VALUE...]`` (``tree,c_below=0.3``): the player's name and the
    search settings it changes; ValueError says what is wrong."""
    name, *pairs = spec.split(",")
    if name not in MODES and name != "rules":
        raise ValueError(f"unknown player {name!r} (one of {', '.join(sorted(MODES))}, rules)")
    types = {f.name: f.type for f in dataclasses.fields(SearchSettings)}
    changes = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if name == "rules" or not eq or key not in types:
            raise ValueError(f"{spec!r}: {pair!r} is not a setting of {name} "
                             f"(its settings: {', '.join(types)})")
        kind = types[key]
        try:
            changes[key] = (value in ("1", "true") if kind is bool else kind(value))
        except ValueError:
            raise ValueError(f"{spec!r}: {key} takes a {kind.__name__}, not {value!r}") from None
    return name, changes


def make_player(spec: str, seed: int, budget: int = 300, seconds: float = 0.0):
    """A player by spec (``parse_spec``); search players get ``budget`` playouts a shot,
    or ``seconds`` of CPU time a shot when that is above 0, unless the spec sets its own
    (``flat,seconds=0.3``: a match at time odds)."""
    name, changes = parse_spec(spec)
    if name == "rules":
        return RulePlayer(seed)
    return SearchPlayer(name, seed, replace(SearchSettings(budget=budget, seconds=seconds),
                                            **changes))

