"""Multi-armed bandits as compiled kernels over arrays, for the search back ends and for the
bandit experiments (``experiments``, run by ``engine.reproduce``).

================  ===========================================================================
module            what it holds
================  ===========================================================================
ucb               UCB1 scores, selection and final recommendation; the random-tie argmax
halving           Sequential Halving as an ask/tell state machine (fixed budget, best arm)
linucb            exact LinUCB, one shared theta, A^-1 by Sherman-Morrison; dense and sparse
flinucb           fLinUCB-GD, the O(d) gradient-descent approximation, with a reservoir of
                  past observations; dense and sparse
experiments       the simulators of the two published bandit experiments (best-arm
                  identification, regret of the linear bandits) and their result rows
================  ===========================================================================

Every kernel takes its state as arrays the caller allocates and updates them in place;
every random choice draws from an ``engine.core.rng`` state array.  Sparse kernels take
binary feature rows as index lists (what ``engine.core.features`` writes), addressed as
``idx[start : start + m]`` so a caller can keep many rows in one flat buffer.
"""
