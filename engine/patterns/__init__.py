"""Move patterns learned from game records: the game records GNU Go's self-play provides
(``selfplay``) and the strong games of the Tygem collection, streamed (``tygem``), the
training examples (``dataset``, with the move features of ``engine.core.move_features``,
the diamonds of ``engine.core.spatial`` and the symmetry of ``engine.knowledge.symmetry``),
the minorization-maximization fit of the features' Elo ratings (``mm``) and the
move-prediction measure (``accuracy``).  The weights file they write is read and written by
``engine.knowledge.pattern_weights``, which the search reads too.  docs/patterns.md tells the
whole story."""
