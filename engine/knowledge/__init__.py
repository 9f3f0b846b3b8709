"""What the engine knows of Go moves as data files, read at the level below search and
training: the learned pattern weights file (``pattern_weights``) and the symmetry of the
3x3 patterns it names (``symmetry``).  The search reads the weights through it, and the
training package (``engine.patterns``) writes them through it; neither imports the other."""
