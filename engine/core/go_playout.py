"""Go playouts: play a position out to the end with a move policy, pass only when the
policy finds no move, stop after two passes in a row (or a move cap that only
pathological cycles reach) and score by area.

The type of the policy's parameters ``par`` picks the policy while the playout compiles
(``numba.extending.overload``), so a session compiles only the policy it plays:
  None            ``go_policy``'s light policy
  float64 array   ``go_policy``'s heavy policy, without its eye-space steps
  ``go_ladder.WithLadders``   the heavy policy reading ladders in its atari step
  ``WithEyeSpaces``           either of the last two with its eye-space steps compiled in
  ``elo_policy.Elo``          the learned softmax policy
  ``go_replies.WithReplies``  any of these, after the reply a search learnt (``go_replies``)
(A run-time test made every Go session compile every policy: the learned one and the
ladder reader were about two thirds of a cold start's compile, the light one some 3 s of
a heavy session's; the eye-space steps, which no shipped file turns on, 10 s of the 52
s one process took to compile a 9x9 search.)
"""

from collections import namedtuple

import numpy as np
from numba import njit, types
from numba.extending import overload

from .amaf import note_first
from .elo_policy import Elo, elo_move, elo_scratch
from .go_kernels import PASS, play, score
from .go_ladder import WithLadders, new_ladder
from .go_policy import LADDER_NODES, heavy_move, random_move, reads_eye_spaces
from .go_replies import WithReplies, note, reply_for
from .layout import M_MOVES, M_PASSES, M_SIZE, M_TO_PLAY

# the (pat, par) arguments that select the light policy
LIGHT = (np.zeros(0, dtype=np.uint8), None)
# heavy parameters (a plain array or ``WithLadders``) that turn on an eye-space step
WithEyeSpaces = namedtuple("WithEyeSpaces", "inner")


def heavy_par(par: np.ndarray):
    """The heavy policy's parameters (``go_knowledge``) as the playouts take them:
    ``WithLadders`` when they ask for ladder reading (``LADDER_NODES`` > 0), inside
    ``WithEyeSpaces`` when they turn on an eye-space step."""
    out = WithLadders(par) if par[LADDER_NODES] > 0 else par
    return WithEyeSpaces(out) if reads_eye_spaces(par) else out


def policy_scratch(par, s, meta):
    """For compiled code: the work arrays of the policy ``par`` for the board of (s, meta)."""
    raise NotImplementedError("compiled code only")


def policy_move(par, s, meta, rng, color, pat, work):
    """For compiled code: the move of the policy ``par`` for ``color``, PASS if none."""
    raise NotImplementedError("compiled code only")


def _kind(par):
    """The policy a numba type of ``par`` stands for."""
    if isinstance(par, types.NoneType):
        return "light"
    if isinstance(par, types.Array):
        return "hand"
    return {WithLadders: "ladders", Elo: "elo", WithReplies: "replies",
            WithEyeSpaces: "eye spaces"}[par.instance_class]


@overload(policy_scratch, inline="always")
def _policy_scratch(par, s, meta):
    kind = _kind(par)
    if kind == "light":
        return lambda par, s, meta: np.empty(0, dtype=np.int32)
    if kind == "hand":
        return lambda par, s, meta: np.empty(s.shape[1], dtype=np.int32)
    if kind in ("replies", "eye spaces"):
        return lambda par, s, meta: policy_scratch(par.inner, s, meta)
    if kind == "ladders":
        return lambda par, s, meta: (np.empty(s.shape[1], dtype=np.int32),
                                     new_ladder(s.shape[1], 2 * meta[M_SIZE]))
    return lambda par, s, meta: (elo_scratch(s.shape[1]),
                                 new_ladder(s.shape[1], 2 * meta[M_SIZE]))


# A call (which LLVM inlines), compiled without reference counts: inlined by numba, the
# policy's arguments are rebound at every move, and their counts (not pruned around the
# policy's call) cost light playouts some 7%.  No policy allocates inside a move.
@overload(policy_move, jit_options={"_nrt": False})
def _policy_move(par, s, meta, rng, color, pat, work):
    kind = _kind(par)
    if kind == "light":
        return lambda par, s, meta, rng, color, pat, work: random_move(s, meta, rng, color)
    if kind == "hand":
        return (lambda par, s, meta, rng, color, pat, work:
                heavy_move(s, meta, rng, color, pat, par, work, None, None))
    if kind == "replies":
        def with_reply(par, s, meta, rng, color, pat, work):
            p = reply_for(par.replies, s, meta, color)
            if p < 0:
                p = policy_move(par.inner, s, meta, rng, color, pat, work)
            note(par.replies, p)
            return p
        return with_reply
    if kind == "ladders":
        return (lambda par, s, meta, rng, color, pat, work:
                heavy_move(s, meta, rng, color, pat, par.hand, work[0], work[1], None))
    if kind == "eye spaces":
        if _kind(par.types[0]) == "hand":
            return (lambda par, s, meta, rng, color, pat, work:
                    heavy_move(s, meta, rng, color, pat, par.inner, work, None, True))
        return (lambda par, s, meta, rng, color, pat, work:
                heavy_move(s, meta, rng, color, pat, par.inner.hand, work[0], work[1], True))
    return (lambda par, s, meta, rng, color, pat, work:
            elo_move(s, meta, rng, color, par.gammas, work[0][0], work[0][1], work[1],
                     work[0][2]))


@njit(cache=True)
def policy_playout(s, meta, zob, rng, amaf, pat, par):
    """Play the position in (s, meta) out to the end, in place.  When ``amaf`` has P
    entries, each point records who played it first and when (``engine.core.amaf``);
    pass an empty array otherwise.  ``pat``/``par``: the heavy policy's pattern table and
    its parameters (module docstring: their type picks the policy).  Returns the number of
    moves played."""
    work = policy_scratch(par, s, meta)
    limit = meta[M_MOVES] + 3 * s.shape[1]
    start = meta[M_MOVES]
    while meta[M_PASSES] < 2 and meta[M_MOVES] < limit:
        color = meta[M_TO_PLAY]
        p = policy_move(par, s, meta, rng, color, pat, work)
        if p != PASS:
            note_first(amaf, p, color, meta)
        play(s, meta, zob, p, color)
    return meta[M_MOVES] - start


@njit(cache=True)
def playout(s, meta, zob, rng, amaf):
    """``policy_playout`` with the light policy."""
    return policy_playout(s, meta, zob, rng, amaf, np.zeros(0, dtype=np.uint8), None)


@njit(cache=True, inline="always")
def playout_winner(s, meta, zob, rng, komi, amaf, pat, par):
    """Play out and return the winner (BLACK=1, WHITE=2, 0 for a jigo) and the score."""
    policy_playout(s, meta, zob, rng, amaf, pat, par)
    sc = score(s, meta, komi)
    if sc > 0:
        return 1, sc
    if sc < 0:
        return 2, sc
    return 0, sc


@njit(cache=True)
def run_playouts(s, meta, zob, rng, komi, count, scratch_s, scratch_meta, pat, par):
    """``count`` playouts from the same position (a benchmark and test driver); returns the
    black wins and the total moves played."""
    wins = 0
    moves = 0
    none = np.zeros(0, dtype=np.int32)
    for _ in range(count):
        scratch_s[:, :] = s
        scratch_meta[:] = meta
        moves += policy_playout(scratch_s, scratch_meta, zob, rng, none, pat, par)
        if score(scratch_s, scratch_meta, komi) > 0:
            wins += 1
    return wins, moves
