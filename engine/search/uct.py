"""UCT (ALGORITHMS.md section 1): UCB1 tree policy with optional RAVE and Go priors, light
or heavy playouts, tree reuse between moves.  The iterations run compiled
(``tree_search.run`` with ``uct_kernels``' tree policy); this module calls them in chunks
(``TreeSearcher._search_in_chunks``) so that the wall-clock budget, the ``stop`` event and
``progress`` are served between chunks.

Its options (``UctOptions``) are declared below, each with its bounds and its line of help
(``nakade gtp --list-options``, docs/options.md).  Off by default, each of rave, prior and
playout=heavy, so the plain UCT of the papers is what ``uct`` means unless asked otherwise.
"""

import dataclasses
import time
from dataclasses import dataclass

import numpy as np

from . import parallel, uct_kernels
from .bundles import position
from ..core.layout import GAME_GO, M_GAME
from ..core.go_policy import SELFATARI_STONES
from ..core.go_replies import new_replies
from .fight_priors import apply_fight_priors, fight_work
from .go_priors import apply_priors
from .shape_priors import apply_shape_priors, shape_work
from .options import WideningOptions, kernel_params, option, threads_option
from .base import Budget
from .dynamic_komi import DynamicKomi
from .reread import Rereader
from .solver import threat_scratch
from .searcher import TreeSearcher
from .widening import check_widening, rank_children

FIRST_CHUNK = 32           # playouts in the first call, before the speed is known


@dataclass
class UctOptions(WideningOptions):
    c: float = option(0.7, 0.0, 100.0, help="UCB1's exploration constant (rewards in [0, "
                      "1]), between the textbook sqrt(2) and the 0.3-0.5 of Go engines")
    expand_after: int = option(10, 1, 1_000_000, help="a leaf gets its children at this "
                               "many visits (the LinUCT paper's threshold, so UCT and "
                               "LinUCT compare on equal trees)")
    final: str = option("visits", choices=("visits", "mean"), help="the move played: the "
                        "most visited root child, or the highest mean")
    rave: bool = option(False, help="mix AMAF values into selection, beta = sqrt(k / (3 n + "
                        "k))")
    rave_k: float = option(1000.0, 1e-6, 1e12, help="RAVE's equivalence parameter k")
    rave_distance: int = option(0, 0, 20, help="with rave: a first play early in the "
                                "simulation counts up to this many times as much in "
                                "AMAF as one near its end (Pachi's distance_rave is 3); 0: "
                                "every first play counts once")
    prior: bool = option(False, help="Go: new nodes start with virtual games "
                         "(engine.search.go_priors; which ones: priors)")
    solver: bool = option(False, help="MCTS-Solver: prove wins and losses in the tree, play "
                          "a proven win at once, never a proven loss while a move is open")
    threat_nodes: int = option(0, 0, 1_000_000, help="Gobang, with the solver: the fours a "
                               "leaf's threat proof may try at its first visit; 0: none")
    region: str = option("root", choices=("root", "tree"), help="where a restricted "
                         "search's region applies: the root's moves, or every node's")
    fight: bool = option(True, help="tsumego: read the fight the harness gives; simulations "
                         "end where it is decided and the solver proves through it")
    fight_prior: float = option(0.0, 0.0, 1000.0, help="tsumego: virtual won games for the "
                                "fight's vital points, half for the weakest target's "
                                "liberties")
    minimax: float = option(0.0, 0.0, 1.0, help="the weight of a node's best reply in its "
                            "value (refutations reach the root sooner); 0: plain means")
    minimax_visits: int = option(20, 1, 1_000_000, help="the visits a reply needs before "
                                 "its value counts in minimax")
    reread: float = option(0.0, 0.0, 0.9, help="the share of a playout budget spent "
                           "re-reading the two most visited root moves in trees of their own")
    ko_draw: bool = option(False, help="tsumego: a simulation whose tree line holds a ko "
                           "capture counts half a win for each side")
    replies: int = option(0, 0, 2, help="Go: last-good-reply playouts, to the last move (1, "
                          "LGRF-1) or the last two first (2, LGRF-2); 0: off")
    shape_prior: float = option(0.0, 0.0, 1000.0, help="Gobang: new nodes' children start "
                                "with this many virtual games, their mean by the move's "
                                "shape score (engine.search.shape_priors); 0: none")
    dynamic_komi: bool = option(False, help="Go: search with a komi shifted by the handicap "
                                "in the opening and against ourselves while far ahead "
                                "(engine.search.dynamic_komi, Pachi's linear scheme)")
    stop_early: bool = option(False, help="on a clock, stop once the most visited move "
                              "cannot be overtaken in the time left; the time saved goes "
                              "back to the clock (a byo-yomi period that would lose it is "
                              "spent in full)")
    threads: int = threads_option()


class UctSearcher(TreeSearcher):
    name = "uct"
    Options = UctOptions
    reads_fights = True     # ``search`` takes a tsumego ``target`` (``tree_search``)

    def _kernel_params(self) -> uct_kernels.UctParams:
        p = self.params
        sa_stones = self.knowledge().playout[SELFATARI_STONES] if p.prior else 0.0
        return kernel_params(uct_kernels.UctParams, p, sa_stones=float(sa_stones),
                             fight_prior=float(p.fight_prior) if p.fight else 0.0)

    def reset(self):
        super().reset()
        self.rereader = Rereader(_with_params)
        self.dynamic_komi = DynamicKomi()

    def _search(self, state, budget, stop, progress, allowed, target):
        share = self.params.reread
        if share == 0 or budget.playouts is None or budget.seconds or budget.sim_moves:
            return self._search_tree(state, budget, stop, progress, allowed, target)
        t0 = time.perf_counter()
        main = max(1, round(budget.playouts * (1.0 - share)))
        result = self._search_tree(state, Budget(playouts=main), stop, progress, allowed,
                                   target)
        done = result.playouts
        if done == main and main < budget.playouts:   # not stopped, root not proven
            left = self.rereader.read(self.params, state, result, budget.playouts - main,
                                      stop, allowed, target)
            done += budget.playouts - main - left
            if left > 0:   # a re-reading search proved its root early
                result = self._search_tree(state, Budget(playouts=left), stop, progress,
                                           allowed, target)
                done += result.playouts
        return dataclasses.replace(self.rereader.prefer(result), playouts=done,
                                   seconds=time.perf_counter() - t0)

    def _search_tree(self, state, budget, stop, progress, allowed, target):
        t0 = time.perf_counter()
        cand = self._prepare(state, allowed)
        pool = self.pool
        n = self.params.threads
        go = state.meta[M_GAME] == GAME_GO
        scratches = [new_scratch(state, cand if i == 0 else np.empty_like(cand),
                                 self.params.rave, self.params.replies if go else 0)
                     for i in range(n)]
        params = self._kernel_params()
        check_widening(self.params.widen, (self.params.prior and go)
                       or (self.params.shape_prior > 0 and not go))
        know = self._knowledge_arrays(go)
        pos = position(state, target if self.params.fight else None,
                       allowed if self.params.region == "tree" else None)
        shifted = self.params.dynamic_komi and go and pos.target is None
        if shifted:
            pos = pos._replace(komi=self.dynamic_komi.komi(
                state.komi, state.size, state.handicap, len(state.moves), state.to_play))
        if self.params.prior and go:
            # the root was expanded by ``_prepare``; its priors are set anew each search
            apply_priors(pool.ti, pool.tf, 0, state.s, state.meta, know.pat, know.prior,
                         params.sa_stones)
            if pos.target is not None:
                apply_fight_priors(pool.ti, pool.tf, 0, state.s, state.meta, pos.target,
                                   pos.attacker, params.fight_prior, scratches[0].fight_work)
            if params.widen > 0:
                rank_children(pool.ti, pool.tf, 0, params.bias)
        elif params.shape_prior > 0 and not go:
            # as Go's priors: the root's, set anew each search
            apply_shape_priors(pool.ti, pool.tf, 0, state.s, state.meta, params.shape_prior,
                               scratches[0].shape_work)
            if params.widen > 0:
                rank_children(pool.ti, pool.tf, 0, params.bias)
        tree = pool.arrays()
        with parallel.search_threads(pool.tmeta, n) as executor:
            run_chunk = parallel.chunk_runner(tree, pos, scratches, [None] * n, know, params,
                                              self.thread_rngs(), executor)
            result = self._search_in_chunks(state, budget, stop, progress, t0, FIRST_CHUNK,
                                            run_chunk)
        if not shifted:
            return result
        self.dynamic_komi.searched(state.to_play, result.winrate)
        return dataclasses.replace(result, komi=pos.komi)


def _with_params(params) -> UctSearcher:
    """A UCT searcher with ``params`` (a re-reading search's)."""
    searcher = UctSearcher(seed=params.seed)
    searcher.params = params
    searcher.reset()
    return searcher


def new_scratch(state, cand: np.ndarray, rave: bool,
                replies: int = 0) -> uct_kernels.UctScratch:
    """Work arrays of one search thread on the board of ``state``; ``cand`` holds P + 1
    moves; the AMAF record only with ``rave``, the reply record of LGRF-``replies`` only
    when it is 1 or 2."""
    n_points = state.s.shape[1]
    vcf_line, points = threat_scratch(n_points)
    path = np.empty(4 * n_points, dtype=np.int32)
    # a line: the tree's path, then a playout (``go_playout``'s cap: 3 P moves)
    record = (new_replies(n_points, path.shape[0] + 3 * n_points, replies) if replies
              else None)
    return uct_kernels.UctScratch(
        ss=np.empty_like(state.s), smeta=np.empty_like(state.meta),
        amaf=np.zeros(n_points if rave else 0, dtype=np.int32),
        root_ply=np.zeros(1, dtype=np.int64), path=path, cand=cand, vcf_line=vcf_line,
        points=points, fight_work=fight_work(n_points), replies=record,
        shape_work=shape_work(n_points))
