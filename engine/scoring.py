"""End-of-game judgement for Go: which stones are dead or in seki, and the final score
(GTP ``final_score`` / ``final_status_list``, ``kgs-genmove_cleanup``).

Method: Monte Carlo ownership.  From the current position (any passes forgotten, so the
playouts do run), ``playouts`` playouts of ``engine.core.go_playout`` are played, half
with each side moving first so neither gains the tempo.  They are the heavy playouts of
the knowledge file (``engine.go_knowledge``: atari answers, 3x3 patterns, no self-atari of
big groups), not the light ones: a light playout lets a lone stone inside a loose
territory live about a quarter of the time, and a game that ends with such a stone on
the board (GNU Go passes early) was scored as if it lived (the stone came out "seki"),
18 points off GNU Go's count.  At the end of a playout every point is a stone or an
eye, so each point has an owner: the stone's colour, or the colour of all the empty
point's neighbours (nobody when they differ).

* A chain is **dead** when its stones end up owned by the opponent in most playouts.
* Two chains of opposite colours that share a liberty, that both change hands in a good
  share of the playouts (``SEKI_SHARE`` to ``1 - SEKI_SHARE``) and that each have at
  most ``SEKI_LIBERTIES`` liberties are in **seki**: in a seki whoever fills a shared
  liberty loses, and playouts do that now and then, so each side's chain is lost in a
  share of them.  A chain with more liberties is not short of them: it is dead or alive
  by its share.  Seki chains count as alive for scoring.
* Everything else is **alive**.

The score is then Tromp-Taylor area scoring (``GoState.score``) of the position with the
dead stones taken off: black's stones and surrounded empty points, minus white's, minus
komi.  Every random choice flows from ``seed``.
"""

from functools import lru_cache

import numpy as np

from . import go_knowledge
from .core.go_playout import heavy_par, policy_playout
from .core.layout import BLACK, BOARD, EMPTY, M_PASSES, M_TO_PLAY, REP, WHITE
from .core.rng import make_rng

DEFAULT_PLAYOUTS = 200
SEKI_SHARE = 0.2
# a seki chain lives on its shared liberties and at most an eye or two
SEKI_LIBERTIES = 3
ALIVE, DEAD, SEKI = "alive", "dead", "seki"
STATUSES = (ALIVE, DEAD, SEKI)


def ownership(state, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> np.ndarray:
    """float64 [2, P]: the share of playouts in which each padded point ends up black's
    (row 0) and white's (row 1)."""
    return playout_outcomes(state, playouts, seed)[0]


@lru_cache(maxsize=1)
def playout_policy() -> tuple:
    """(pattern table, parameters) of the heavy playouts that judge the stones: the
    shipped knowledge file's, the ones the strong preset's search plays (so a session
    compiles no other playout for its scoring)."""
    kn = go_knowledge.load()
    return kn.patterns, heavy_par(kn.playout)


def playout_outcomes(state, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0,
                     first: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``ownership`` and, per playout, the final area score from black's side (komi
    included).  ``first``: the colour that moves first in every playout (live analysis,
    where the side to move matters); None alternates, so neither side gains the tempo."""
    if playouts < 1:
        raise ValueError("ownership needs at least one playout")
    rng = make_rng(seed)
    pat, par = playout_policy()
    none = np.zeros(0, dtype=np.int32)
    w = state.size + 2
    counts = np.zeros((2, state.s.shape[1]), dtype=np.int64)
    scores = np.empty(playouts)
    s, meta = state.s.copy(), state.meta.copy()
    for i in range(playouts):
        np.copyto(s, state.s)
        np.copyto(meta, state.meta)
        meta[M_PASSES] = 0
        meta[M_TO_PLAY] = first or (BLACK if i % 2 == 0 else WHITE)
        policy_playout(s, meta, state.zob, rng, none, pat, par)
        board = s[BOARD]
        owned = [_owned_by(board, w, color) for color in (BLACK, WHITE)]
        counts += owned
        scores[i] = owned[0].sum() - owned[1].sum() - state.komi
    return counts / playouts, scores


def _owned_by(board: np.ndarray, w: int, color: int) -> np.ndarray:
    """1 where ``color`` owns the point of a finished playout: its stone, or an empty point
    whose neighbours are all its stones or the edge."""
    other = 3 - color
    owned = board == color
    empty = board == EMPTY
    touches_other = np.zeros_like(empty)
    touches_own = np.zeros_like(empty)
    for d in (1, -1, w, -w):
        shifted = np.roll(board, -d)  # shifted[p] = board[p + d]; the frame keeps it on board
        touches_other |= shifted == other
        touches_own |= shifted == color
    return (owned | (empty & touches_own & ~touches_other)).astype(np.int64)


def _chains(state) -> dict[int, list[int]]:
    """Stones grouped by chain representative."""
    board = state.s[BOARD]
    chains: dict[int, list[int]] = {}
    for p in np.flatnonzero((board == BLACK) | (board == WHITE)):
        chains.setdefault(int(state.s[REP, p]), []).append(int(p))
    return chains


def _liberties(board: np.ndarray, stones: list[int], w: int) -> int:
    """The number of empty points next to the chain of ``stones``."""
    return len({q for p in stones for q in (p + 1, p - 1, p + w, p - w) if board[q] == EMPTY})


def chain_status(state, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> dict[int, str]:
    """Status (ALIVE, DEAD or SEKI) of every stone of ``state``, by padded point."""
    chains = _chains(state)
    if not chains:
        return {}
    owners = ownership(state, playouts, seed)
    board = state.s[BOARD]
    w = state.size + 2
    lost = {}  # chain -> share of playouts in which the opponent owns its stones
    for rep, stones in chains.items():
        color = int(board[rep])
        lost[rep] = float(owners[2 - color, stones].mean())
    status = {rep: DEAD if share > 0.5 else ALIVE for rep, share in lost.items()}
    ambiguous = {rep for rep, share in lost.items() if SEKI_SHARE <= share <= 1 - SEKI_SHARE
                 and _liberties(board, chains[rep], w) <= SEKI_LIBERTIES}
    for rep in ambiguous:
        color = int(board[rep])
        for p in chains[rep]:
            for q in (p + 1, p - 1, p + w, p - w):
                if board[q] != EMPTY:
                    continue
                partners = {int(state.s[REP, r]) for r in (q + 1, q - 1, q + w, q - w)
                            if board[r] == 3 - color}
                if partners & ambiguous:
                    status[rep] = SEKI
    return {p: status[rep] for rep, stones in chains.items() for p in stones}


def stones_with_status(state, wanted: str, playouts: int = DEFAULT_PLAYOUTS,
                       seed: int = 0) -> list[int]:
    """The padded points of the stones with status ``wanted``, in board order."""
    if wanted not in STATUSES:
        raise ValueError(f"status must be one of {', '.join(STATUSES)}")
    return sorted(p for p, st in chain_status(state, playouts, seed).items() if st == wanted)


def final_score(state, playouts: int = DEFAULT_PLAYOUTS, seed: int = 0) -> float:
    """Area score from black's side (komi included) once the dead stones are removed."""
    dead = stones_with_status(state, DEAD, playouts, seed)
    if not dead:
        return state.score()
    cleaned = state.clone()
    cleaned.setup(empty=dead)
    return cleaned.score()


def result_text(score: float) -> str:
    """GTP ``final_score`` text: ``B+3.5``, ``W+12`` or ``0``."""
    if score == 0:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):g}"
