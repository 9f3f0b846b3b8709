"""Named configurations of the back ends, by game: what a front end runs when the user names
no option.

``strong`` (the default of ``nakade-gtp``) is the strongest configuration measured for each
game: on Go, heavy playouts with priors and RAVE and no UCB exploration term (the priors
and AMAF values do the exploring; docs/strength.md measures it against GNU Go and Pachi
and takes it apart), the priors those of the model learned on the Tygem 9-dan games
(``priors=elo``, ``patterns=tygem``; docs/patterns.md); on Gobang, the shape playouts
(``engine.core.gobang_shape``: the best shape near the stones, twelve moves, then the
shape balance) and, for UCT, shape priors with
progressive widening to the best eight children first, a leaf grown at its third visit
(``shape_prior``, ``widen``, ``expand_after``) and a threat-move search of 30,000 units
(``vct_nodes``; docs/gomoku.md measures them against the threat-aware playouts and
Rapfi), the root
VCF (``threats_first``: a win by continuous fours is played at once), root moves within
two points of a stone (``near``) and, for the back ends
with MCTS-Solver, threat proofs at the leaves of the tree (``solver=1``, ``threat_nodes``,
``engine.search.solver.prove_by_threats``); LinUCT's shared diagonal width (``width=gd``:
the paper's per-arm phi_a takes 7.8 KB a node and one thread); every core
where a back end can use them.  ``paper`` is the plain back end of the papers, every
option at its registry default -- what the published tables ran.

A preset is a list of *groups* of options, and a group applies to a back end only when the
back end knows every option in it (``registry.option_names``), so each back end gets the
part of the preset that makes sense for it and nothing it would refuse: ``c=0`` belongs
with the priors and RAVE that replace UCB exploration, so a back end without them keeps
its own ``c``; a back end that learns an option later (``playout`` for LinUCT,
``threads``) gets its group from then on without a change here.  Explicit options always
win over a preset's.
"""

from . import registry
from .parallel import cores

DEFAULT = "strong"


def _cores() -> str:
    """every core"""
    return str(cores())


# name -> game -> groups of (option, value) pairs; a value may be a function, called at use
_PRESETS = {
    "strong": {
        "go": [(("playout", "heavy"),),
               (("prior", "1"), ("rave", "1"), ("c", "0")),
               (("prior", "1"), ("priors", "elo"), ("patterns", "tygem")),
               (("stop_early", "1"),),
               (("width", "gd"),),
               (("threads", _cores),)],
        "gobang": [(("playout", "shape"),),
                   (("shape_prior", "20"), ("widen", "8"), ("expand_after", "3")),
                   (("vcf", "1"), ("near", "2")),
                   # the root's threat remedies for a search that judges by playouts (an
                   # alpha-beta reads the threats itself)
                   (("playout", "shape"), ("vcf_defence", "1"), ("vct", "1"),
                    ("vct_nodes", "30000")),
                   (("stop_early", "1"),),
                   (("solver", "1"), ("threat_nodes", "50")),
                   (("width", "gd"),),
                   (("threads", _cores),)],
    },
    "paper": {"go": [], "gobang": []},
}


def names() -> list[str]:
    return list(_PRESETS)


def _chosen(preset: str, game: str, back_end: str) -> dict:
    """The preset's (option, value) pairs for the back end: the groups whose every option
    it knows; a value may be a function, called at use.  ValueError for an unknown preset
    or back end."""
    if preset not in _PRESETS:
        raise ValueError(f"unknown preset {preset!r} (known: {', '.join(_PRESETS)})")
    known = registry.option_names(back_end)
    chosen = {}
    for group in _PRESETS[preset].get(game, []):
        if all(key in known for key, _ in group):
            chosen.update(group)
    return chosen


def options(preset: str, game: str, back_end: str) -> dict[str, str]:
    """The options preset ``preset`` gives back end ``back_end`` on ``game``: the groups
    whose every option the back end knows.  ValueError for an unknown preset or back end."""
    return {key: value() if callable(value) else value
            for key, value in _chosen(preset, game, back_end).items()}


def described(preset: str, game: str, back_end: str) -> dict[str, str]:
    """``options`` as a reader is told them: a value computed at use (the cores of the
    machine) shown by its docstring, so the reference does not depend on the machine."""
    return {key: value.__doc__ if callable(value) else value
            for key, value in _chosen(preset, game, back_end).items()}
