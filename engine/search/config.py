"""What builds a session's search, for every front end alike (the GTP engine's
``Settings``, the brain's ``BrainSettings`` and the compile worker of ``engine.warmup``):
the game (``GameConfig``) and the back end -- its spec (``algo``), seed, preset, the front
end's own defaults and the start-up options, as the command line gave them.

The options a back end gets, from the weakest say to the strongest: the preset's for the
game (``engine.search.presets``), the front end's ``defaults`` where the back end knows
them (the brain's MCTS-Solver, say), the start-up options, the spec's own.  They are text
until the back end parses them, once, into its typed parameters (``registry.make``).
"""

from dataclasses import dataclass

from ..game.registry import GameConfig
from . import presets, registry


@dataclass(frozen=True)
class SearchConfig(GameConfig):
    algo: str = "uct"
    seed: int = 0
    options: tuple[tuple[str, str], ...] = ()    # start-up back-end parameters, in order
    preset: str = presets.DEFAULT
    defaults: tuple[tuple[str, str], ...] = ()   # the front end's own, over the preset

    def back_end_options(self, spec: str | None = None) -> dict[str, str]:
        """Every option the back end of ``spec`` (default: ``algo``) gets from the preset,
        the defaults and the start-up options, unknown start-up ones included (``make``
        refuses them); ValueError for an unknown back end or preset."""
        name = registry.parse_spec(self.algo if spec is None else spec).name
        known = registry.option_names(name)
        return {**presets.options(self.preset, self.game, name),
                **{k: v for k, v in self.defaults if k in known}, **dict(self.options)}

    def make_searcher(self, spec: str | None = None):
        """(the back end, the start-up options it does not know).  Without ``spec``, the
        start-up back end, which must know every start-up option; with one (a switch at
        run time), the start-up options it does not know are returned, not refused, so
        a front end can report them.  ValueError for a bad spec, name, option, value or
        preset."""
        if spec is None:
            return registry.make(self.algo, seed=self.seed,
                                 options=self.back_end_options()), []
        known = registry.option_names(registry.parse_spec(spec).name)
        unknown = [(k, v) for k, v in self.options if k not in known]
        options = {k: v for k, v in self.back_end_options(spec).items() if k in known}
        return registry.make(spec, seed=self.seed, options=options), unknown
