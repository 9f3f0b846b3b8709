"""The tsumego research harness: problems and their loaders (``problem``), the frame that
makes a local fight decide the game (``frame``), what a problem without a goal is about
(``stakes``: the attacker, the stones at stake), solving one problem with one back end
(``solve``) or playing its answer tree out (``sequence``), the solve-rate arithmetic (``stats``),
the sweep over problems, back ends, budgets and seeds (``sweep``) and what it writes (``report``),
SVG diagrams of runs (``diagram``). Answers are checked by readers that are not our search:
``oracle`` (an exact minimax, GNU Go's owl code) and ``gobang_oracle`` (continuous fours); our own
problems are defined in ``collection``. ``nakade solve`` (``engine.tsumego.cli``) and
``scripts/research/make_tsumego_problems.py`` are the command lines."""
