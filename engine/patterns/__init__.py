"""Move patterns learned from game records: the game records GNU Go's self-play provides
(``selfplay``), the training examples (``dataset``, with the move features of
``engine.core.move_features`` and the symmetry of ``symmetry``), the
minorization-maximization fit of the features' Elo ratings (``mm``), the weights file
(``weights``) and the move-prediction measure (``accuracy``).  docs/patterns.md tells the
whole story."""
