"""The curling players: the thesis's abstraction tree (Algorithm 8, ``tree``), its
N_{s,a}-threshold variant (Algorithm 6, ``alg6``), flat Monte Carlo over the same
candidate shots (``flat``), and a rule-based player (``rules``).

Every search player runs ``search_kernels.decide`` with a budget of playouts per shot
(equal simulation budgets: this testbed's machine is shared, so time would measure the
load) and a seed of its own; the three differ only in what plays below the root.
"""

from dataclasses import dataclass

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
MODES = {"flat": K.RANDOM, "tree": K.TREE, "alg6": K.TREE_NSA}


@dataclass
class SearchSettings:
    budget: int = 300        # playouts per shot, the noise-free candidate round included
    c: float = 1.0           # UCB1's C (thesis: 1)
    max_depth: int = 15      # box halvings (15: about 0.3 mm across the sheet)
    n_new: float = 1.0       # Algorithm 8's N_new virtual visits of an untried action
    n_policy: float = 0.0    # Algorithm 8's N_policy virtual visits per action
    c_limit: int = 1         # Algorithm 9's noise-free rounds over every root action
    n_cand: int = 8          # candidate root shots kept after them


class SearchPlayer:
    def __init__(self, kind: str, seed: int, settings: SearchSettings = SearchSettings()):
        self.name, self.mode, self.settings = kind, MODES[kind], settings
        self.rng = make_rng(derive_seed(seed, "player", kind))

    def cfg(self):
        s = self.settings
        return np.array([s.c, s.max_depth, s.n_new, s.n_policy, s.c_limit, s.n_cand,
                         self.mode], dtype=np.float64)

    def decide(self, view) -> Choice:
        s = self.settings
        tree = K.new_tree(s.budget * STONES + 2 * STONES if self.mode != K.RANDOM else STONES,
                          N_ACTIONS)
        cand = np.zeros(s.n_cand, np.int64)
        cand_n, cand_r = np.zeros(s.n_cand), np.zeros(s.n_cand)
        pre_n, pre_r = np.zeros(N_ACTIONS), np.zeros(N_ACTIONS)
        action, used = K.decide(self.cfg(), (TABLE, DRAW_TARGETS, HIT_EXTRA),
                                end_values(view.ends_left, view.lead), view.pos.copy(),
                                view.alive.copy(), view.shot, s.budget, tree, self.rng,
                                (cand, cand_n, cand_r, pre_n, pre_r))
        tried = pre_n > 0
        info = {"candidates": [(int(a), int(n), float(r / n) if n else None)
                               for a, n, r in zip(cand, cand_n, cand_r)],
                "noise_free": {int(a): float(pre_r[a] / pre_n[a])
                               for a in np.flatnonzero(tried)}}
        return Choice(int(action), int(used), info)


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


def make_player(kind: str, seed: int, budget: int = 300):
    if kind == "rules":
        return RulePlayer(seed)
    return SearchPlayer(kind, seed, SearchSettings(budget=budget))

