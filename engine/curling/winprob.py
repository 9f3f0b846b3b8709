"""What an end's score is worth: the probability of winning the game, by dynamic
programming over the per-end score distribution of the thesis's table 5.1.

Table 5.1 gives, for the team with the hammer, the chance of scoring k = 1..8 points,
of a blank end (0), and of the opponent stealing k = 1..8.  With those, W[e, d] = the
chance that the team holding the hammer with ``e`` ends left and a lead of ``d`` wins:
a score passes the hammer to the other team, a steal or a blank keeps it; at e = 0 a
tied game goes to extra ends, which the hammer team wins with probability
p / (1 - blank), p its chance of scoring (blank extra ends repeat).

``end_values(ends_left, lead)`` is what the searches use: for an end about to be
completed, the hammer team's chance of winning the game after each end score -8..8.
"""

import numpy as np

HAMMER_SCORES = np.array([0.0390922, 0.390922, 0.195461, 0.070366, 0.0390922,
                          0.0125095, 0.00312738, 0.000781844, 0.000195461])   # k = 0..8
STEALS = np.array([0.0, 0.172006, 0.0547291, 0.0156369, 0.00547291, 0.000547291,
                   0.0000547291, 0.0000547291, 0.00000547291])                  # k = 1..8
MAX_LEAD = 40


def _table(max_ends: int) -> np.ndarray:
    size = 2 * MAX_LEAD + 1
    lead = np.arange(-MAX_LEAD, MAX_LEAD + 1)
    extra = HAMMER_SCORES[1:].sum() / (1.0 - HAMMER_SCORES[0])
    w = np.zeros((max_ends + 1, size))
    w[0] = np.where(lead > 0, 1.0, np.where(lead < 0, 0.0, extra))
    for e in range(1, max_ends + 1):
        prev = w[e - 1]
        for i, d in enumerate(lead):
            total = HAMMER_SCORES[0] * prev[i]
            for k in range(1, 9):
                total += HAMMER_SCORES[k] * (1.0 - prev[_idx(-(d + k))])
                total += STEALS[k] * prev[_idx(d - k)]
            w[e, i] = total
    return w


def _idx(d: int) -> int:
    return min(max(d, -MAX_LEAD), MAX_LEAD) + MAX_LEAD


W = _table(12)


def after_end(ends_left: int, lead: int, score: int) -> float:
    """The hammer team's chance of winning once this end scores ``score`` (its side),
    with ``ends_left`` ends to play after it and its lead ``lead`` before it."""
    e = min(ends_left, W.shape[0] - 1)
    d = lead + score
    if score > 0:
        return float(1.0 - W[e, _idx(-d)])
    return float(W[e, _idx(d)])


def end_values(ends_left: int, lead: int) -> np.ndarray:
    """``after_end`` for the end scores -8..8 (index score + 8)."""
    return np.array([after_end(ends_left, lead, s) for s in range(-8, 9)])
