"""The tsumego research harness: problems and their loaders (``problem``), the frame that
makes a local fight decide the game (``frame``), solving one problem with one back end
(``solve``), the solve-rate arithmetic (``stats``) and the sweep over problems, back ends,
budgets and seeds (``sweep``).  ``scripts/solve_tsumego.py`` is its command line."""
