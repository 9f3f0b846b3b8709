"""Move patterns learned from game records: the move features (``features``), the
minorization-maximization fit of their Elo ratings (``mm``), the weights file
(``weights``), the game records GNU Go's self-play provides (``selfplay``) and the
move-prediction measure (``accuracy``).  docs/patterns.md tells the whole story."""
