"""The strongest tsumego configuration, by name: ``--algo best`` of ``nakade solve``
(``engine.tsumego.cli``; checks rely on that name).  The name is resolved here to an
explicit back-end spec before anything runs, so a result row records what ran, never the
name: when a better configuration is measured, this module changes and new rows carry
the new spec.

The configuration (``docs/tsumego-results.md`` has the measurements): UCT with heavy
playouts, priors, RAVE and no UCB exploration term (the Go ``strong`` preset) and the
MCTS-Solver proving moves through the problem's fight (``engine.search.solver``),
answering inside the problem's region.  On a 60-problem sample of the practice set the
fight, the solver and ``region=tree`` each left the solve rate within the noise of the
sample (27 to 35 of 60 at 5,000 and 20,000 playouts); the solver stays because its proofs
are what a ``proved`` row reports, ``region=tree`` stays out for want of a measured gain.
The second round (three seeds at 5,000 playouts) found no option that beats it: the fight
priors (``fight_prior``), self-ataris of up to three stones in the knowledge, an
exploration term ``c=0.3``, ``expand_after=2`` and ``rave_k=100`` each solved fewer
runs, so they stay out too.  The third round's ways of carrying refutations to the root
(``minimax``, ``reread``, ``ko_draw``) gave no clear gain at 5,000, 20,000 or 50,000
playouts and stay options.  The fifth round (the whole advanced collection at 50,000
playouts: an exploration term, RAVE's k, a lower expansion threshold; the patterns fitted
on tsumego answers, ``patterns=tsumego``, as priors or playouts on the sample) found none
that solves more.  The sixth round's exact proof search at the root (``prove_nodes``)
proves 37 of our 72 problems against the solver's 22, but nothing on real problems, whose
solve rate it leaves where it was at a few seconds more a problem: an option, not part of
``best``.  The seventh round's nakade step in the playouts (the knowledge file's
``nakade``) solved 5 more runs of 180 on the sample and 6 more of 450 on the advanced
collection, both within the seeds' noise: a knowledge-file value, off.  The eighth
round's last-good-reply playouts (``replies=1``, ``replies=2``) and four looser uses of
the priors (none, a neutral or no self-atari prior, ``c=0.1``, no RAVE) solved no more:
the replies are an option, off.  The ninth round's eye-space playout steps
(``eye_reply``, ``own_space``) and two knowledge files whose playout values were tuned
to rank problems' answers higher (``scripts/research/tune_playouts.py``) read held-out problems
better in plain playouts but solved no more in searches: knowledge values, off; and
``reread`` on the whole advanced collection solved fewer runs than ``best``.  In the tenth
round the better of those two files solved exactly as many of 690 unseen problems at
50,000 playouts (396), and a frame that gives the defender's outside stones a wall of
their own solved fewer (a branch, not on main).  In the eleventh round ``ko_draw`` on the
whole practice set solved 490 and 584 of 1,050 problems against 477 and 578 at 5,000 and
50,000 playouts, inside the noise (sign tests p = 0.36 and 0.73): an option, off.  The
twelfth round's narrower region (the fight's zone: 192 against 191 of 450 advanced runs)
and a target that escapes by joining the defender's outside stones (69 against 72 of 207
problems at 50,000) changed nothing beyond the noise: branches, not on main.
"""

NAME = "best"
SPEC = "uct:playout=heavy:prior=1:rave=1:c=0:solver=1"
RESTRICT = True      # its runs answer inside the problem's region


def resolve(specs: list[str]) -> tuple[list[str], set[str]]:
    """``specs`` with ``best`` replaced by its spec, and the specs whose runs are always
    restricted to the region."""
    resolved = [SPEC if s == NAME else s for s in specs]
    restricted = {SPEC} if NAME in specs and RESTRICT else set()
    return resolved, restricted
