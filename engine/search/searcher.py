"""The Searcher every tree back end (UCT, SHOT, LinUCT) is, and the pipeline its search
runs: the root steps in order (``ROOT_STEPS``: the proof of a tsumego fight,
``prover.ProofStep``; then Gobang's threats, ``threats_first.ThreatStep``), each of which
may answer at once or narrow the root's moves, then the back end's own search
(``_search``).  The steps' options sit beside the back end's, set through the same
``set_option`` and listed by ``options``; everything else about a back end -- its node
pool (``engine.search.tree``), seed and generators, knowledge files, tree reuse between
moves, and reading the root out as a ``SearchResult`` -- is shared here.
"""

import dataclasses
import time

import numpy as np

from .. import go_knowledge
from ..core import game
from ..core.go_ladder import WithLadders
from ..core.go_playout import LIGHT, heavy_par
from ..core.gobang_shape import SHAPE
from ..core.rng import make_rng, stream_rng
from ..game import registry
from ..knowledge import pattern_weights
from . import decide
from .base import MAX_VISITS, SearchResult
from .bundles import Knowledge
from .options import OptionConflict, as_dict, set_option
from .prover import ProofStep
from .threats_first import ThreatStep
from .tree import VISITS, NodePool

ROOT_STEPS = (ProofStep, ThreatStep)   # in the order a search runs them
CHUNK_SECONDS = 0.025      # one compiled call; bounds the reaction time to stop/deadline
PROGRESS_SECONDS = 0.1     # least time between two progress reports
# How far short of a time budget a search aims (``TreeSearcher.landing``): its last
# compiled chunk, sized from the playout rate, overshoots when the machine is loaded, and
# a search that lands past its caller's deadline guard loses its tree.
LANDING = 0.04
NO_LIMIT = np.iinfo(np.int64).max
# the least time the back end's own search is left when the root steps took the budget
# (the root VCF, 20,000 fours, takes up to 0.14 s): enough for a first shallow answer
MIN_SEARCH_SECONDS = 0.01


def settled(visits: np.ndarray, left: float) -> bool:
    """Whether the most visited of the root children's ``visits`` stays the most visited
    whatever ``left`` more playouts do."""
    if visits.shape[0] == 0:
        return False
    if visits.shape[0] == 1:
        return True
    top, second = np.sort(visits)[-2:][::-1]
    return top - second > left


class TreeSearcher:
    """The Searcher methods every NodePool back end shares.  A subclass sets ``name``,
    ``Options`` (a dataclass of ``engine.search.options``) and implements ``_search``, its
    own search once the root steps have passed, calling ``_prepare`` first and ``_result``
    last.  ``reads_fights``: its search takes a tsumego's ``target``; ``plans_budget``: a
    search of N playouts is not N/k searches k times over (SHOT); ``landing``: how many
    seconds short of a time budget its callers (the GTP session, the brain) aim it."""

    name = ""
    Options = None
    games = ("go", "gobang")   # the games its search plays
    reads_fights = False
    plans_budget = False
    landing = LANDING

    def __init__(self, seed: int = 0, options: dict[str, str] | None = None):
        self.steps = [step() for step in ROOT_STEPS]
        self.params = self.Options(seed=seed)
        for key, value in (options or {}).items():
            set_option(self._owner(key), self.name, key, value)
        if getattr(self.params, "knowledge", go_knowledge.BUILTIN) != go_knowledge.BUILTIN:
            self.knowledge()   # a bad file is refused now, not at the first search
        if getattr(self.params, "patterns", pattern_weights.BUILTIN) != pattern_weights.BUILTIN:
            pattern_weights.load(self.params.patterns)
        self.reset()

    def _owner(self, key: str):
        """The parameters ``key`` belongs to: a root step's, else the back end's (which
        refuses an unknown key, naming every option the search knows)."""
        for step in self.steps:
            if key in step.Options.__dataclass_fields__:
                return step.params
        if key not in self.Options.__dataclass_fields__:
            known = list(self.Options.__dataclass_fields__)
            known += [k for step in self.steps for k in step.Options.__dataclass_fields__]
            raise ValueError(f"unknown option {key!r} for {self.name} (known: "
                             f"{', '.join(known)})")
        return self.params

    def search(self, state, budget, stop=None, progress=None, allowed=None, target=None):
        """The pipeline of the module docstring; ``target`` (a tsumego's fight) reaches
        the back end's own search only when it ``reads_fights``.  A time budget is the
        whole move's: the search gets what the root steps left of it."""
        t0 = time.perf_counter()
        for step in self.steps:
            answer, allowed = step.before(state, allowed, target)
            if answer is not None:
                return answer
        if budget.seconds is not None:   # the steps' time is the move's too
            spent = time.perf_counter() - t0
            budget = dataclasses.replace(budget, seconds=max(budget.seconds - spent,
                                                             MIN_SEARCH_SECONDS))
        return self._search(state, budget, stop, progress, allowed,
                            target if self.reads_fights else None)

    def step(self, kind):
        """The root step of class ``kind``."""
        return next(step for step in self.steps if isinstance(step, kind))

    def fresh(self, kind=None):
        """A new back end configured as this one, its tree, generators and root steps'
        caches new: what takes the place of one left to an abandoned search.  ``kind``:
        the class to build (default this one's)."""
        kind = type(self) if kind is None else kind
        other = kind.__new__(kind)
        other.params = dataclasses.replace(self.params)
        other.steps = [type(step)() for step in self.steps]
        for mine, theirs in zip(self.steps, other.steps):
            theirs.params = dataclasses.replace(mine.params)
        other.reset()
        return other

    def reset(self):
        for step in self.steps:
            step.reset()
        self.rng = make_rng(self.params.seed)
        self._streams: list[np.ndarray] = []   # the generators of threads 1, 2, ...
        self.pool: NodePool | None = None   # allocated at the first search
        self._region, self._region_root = None, None   # last ``allowed`` mask, its root
        self.kept = False                    # whether the last search kept its tree

    def set_option(self, key: str, value: str):
        owner = self._owner(key)
        if owner is not self.params:
            set_option(owner, self.name, key, value)
            next(s for s in self.steps if s.params is owner).reset()
            return
        old = getattr(self.params, key, None)
        set_option(self.params, self.name, key, value)
        if key in ("knowledge", "patterns"):
            try:
                self.knowledge() if key == "knowledge" else pattern_weights.load(value.strip())
            except ValueError:
                setattr(self.params, key, old)
                raise
        if key in ("seed", "max_nodes"):
            self.reset()

    def thread_rngs(self) -> list[np.ndarray]:
        """One generator per search thread: the searcher's own, then stream i of the seed
        for thread i, each kept from one search to the next as the searcher's is."""
        while len(self._streams) < self.params.threads - 1:
            self._streams.append(stream_rng(self.params.seed, len(self._streams) + 1))
        return [self.rng] + self._streams[:self.params.threads - 1]

    def knowledge(self):
        """The Go knowledge file the ``knowledge`` option names, loaded and checked."""
        return go_knowledge.load(self.params.knowledge)

    def _playout_policy(self, go: bool) -> tuple:
        """(pattern table, playout parameters) for ``policy_playout_winner`` in a Go
        (``go``) or Gobang session: parameters None select the light playout, and on Go
        their type the policy (``engine.core.go_playout``; Gobang reads only whether
        they are None)."""
        if self.params.playout == "light":
            return LIGHT
        kn = self.knowledge()
        if self.params.playout == "shape":
            if go:
                raise OptionConflict("option playout=shape is Gobang's (Go: heavy or elo)")
            return kn.patterns, SHAPE
        if go and self.params.playout == "elo":
            return kn.patterns, pattern_weights.elo(self.params.patterns)
        return kn.patterns, heavy_par(kn.playout) if go else kn.playout

    def _knowledge_arrays(self, go: bool) -> Knowledge:
        """The playout policy, and the priors when the back end's ``prior`` option is on
        (an empty array otherwise: no priors): the knowledge file's weights, on Go
        wrapped by the ``priors`` option to pick the kind (``engine.search.go_priors``)."""
        pat, policy = self._playout_policy(go)
        if not getattr(self.params, "prior", False):
            return Knowledge(pat, policy, np.zeros(0))
        prior = self.knowledge().prior
        if go and self.params.priors == "elo":
            prior = pattern_weights.elo(self.params.patterns)
        elif go and self.params.priors == "ladder":
            prior = WithLadders(prior)
        return Knowledge(self.knowledge().patterns, policy, prior)

    def options(self) -> dict:
        merged = as_dict(self.params)
        for step in self.steps:
            merged.update(as_dict(step.params))
        return merged

    def notify_play(self, state, move: int, color: int):
        if self.pool is not None:
            self.pool.follow(state, move, color)

    def _prepare(self, state, allowed=None) -> np.ndarray:
        """Make the pool's root stand for ``state``, its moves the legal ones inside
        ``allowed`` (a uint8 mask, or None); returns scratch for candidate moves (P + 1)."""
        if self.pool is None:
            self.pool = NodePool(self.params.max_nodes)
        cand = np.empty(state.s.shape[1] + 1, dtype=np.int32)
        mask = decide.root_allowed(state)
        if allowed is not None:
            mask &= allowed
        region = None if allowed is None else allowed.tobytes()
        # another region cannot use a tree it shaped below the root, nor the root it cut
        # down; a root re-rooted since into a child was never cut (Gobang's ``near``)
        in_tree = getattr(self.params, "region", "root") == "tree"
        if region != self._region and (in_tree or self.pool.key == self._region_root):
            self.pool.key = None
        self._region = region
        self.kept = self.pool.begin(state, mask, self.rng, cand)
        self._region_root = self.pool.key
        return cand

    def _preferred(self) -> list[int]:
        """Root children best first by the ``final`` option: visits, or mean."""
        kids = self.pool.by_visits()
        if self.params.final == "mean":
            kids.sort(key=lambda c: -self.pool.mean(c))   # stable: ties keep the visit order
        return kids

    def _search_in_chunks(self, state, budget, stop, progress, t0, first_chunk, run_chunk):
        """Call the compiled ``run_chunk(playouts, max_sim_moves) -> (playouts, moves)`` in
        chunks of about CHUNK_SECONDS until the budget is spent or ``stop`` is set, reporting
        ``progress`` between chunks.  Chunking does not change the result: the same seed and
        playout budget give the same tree whatever the chunk sizes."""
        max_playouts = min(budget.playouts or NO_LIMIT, MAX_VISITS - int(self.pool.ti[VISITS, 0]))
        max_sim = budget.sim_moves or NO_LIMIT
        done = sim = 0
        chunk = first_chunk
        last_report = t0
        live = not game.is_terminal(registry.kernels(state), state.s, state.meta)
        while live and done < max_playouts and sim < max_sim:
            if stop is not None and stop.is_set():
                break
            if self.pool.proven(0):   # the solver settled the root: nothing left to learn
                break
            start = time.perf_counter()
            # one small first chunk always runs, so a nearly spent clock still searches
            if done > 0 and budget.seconds is not None and start - t0 >= budget.seconds:
                break
            d, m = run_chunk(min(chunk, max_playouts - done), max_sim - sim)
            done += d
            sim += m
            now = time.perf_counter()
            rate = d / max(now - start, 1e-6)
            chunk = max(1, int(rate * CHUNK_SECONDS))
            if budget.seconds is not None:
                left = rate * max(budget.seconds - (now - t0), 0.0)
                chunk = max(1, min(chunk, int(left) + 1))
                if not budget.spend_all and self._settled(min(left, max_playouts - done)):
                    break
            if progress is not None and now - last_report >= PROGRESS_SECONDS:
                progress(self._result(state, self._preferred(), done, now - t0, sim))
                last_report = now
        return self._result(state, self._preferred(), done, time.perf_counter() - t0, sim)

    def _settled(self, left: float) -> bool:
        """With ``stop_early`` on a clock: the move the search would play cannot change in
        the ``left`` playouts the time still allows, since even all of them on the second
        most visited root child would leave the first ahead (a single legal move is
        settled at once).  The time saved goes back to the clock, for the moves to come."""
        if not getattr(self.params, "stop_early", False) or self.params.final != "visits":
            return False
        return settled(self.pool.ti[VISITS, self.pool.children()], left)

    def _result(self, state, preferred: list[int], playouts: int, seconds: float,
                sim_moves: int) -> SearchResult:
        """Candidates most visited first; the move is the first of ``preferred`` (root
        children, best first) that the decision rules of ``engine.search.decide`` accept."""
        pool = self.pool
        known = {c: pool.candidate(c) for c in pool.by_visits()}
        # proven wins first, proven losses last (the solver's verdict beats any count)
        candidates = sorted(known.values(), key=lambda c: -c.proven)
        # no playout reached a child (stopped at once, or SHOT's budget of 1 spent on
        # the root): fall back on the first child, a random one
        ranked = ([known[c] for c in preferred] if preferred
                  else [pool.candidate(int(c)) for c in pool.children()[:1]])
        ranked.sort(key=lambda c: -c.proven)
        move, winrate = decide.choose(state, ranked, self.params.resign_threshold)
        return SearchResult(move=move, winrate=winrate, playouts=playouts, seconds=seconds,
                            nodes=pool.used, sim_moves=sim_moves, candidates=candidates)
