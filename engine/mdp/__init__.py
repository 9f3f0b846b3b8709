"""Monte Carlo tree search for continuous, stochastic MDPs (the continuous-MDP thesis):
the Trap and Treasure Hunt problems, plain UCT, PW, DPW, Weighted UCT and the
depth-weighted state-abstraction tree, Trap's exact optimum, and the experiment sweep.
See docs/mdp.md."""
