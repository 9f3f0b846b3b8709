"""Reproduce the published tables with one command (``nakade reproduce``,
``python scripts/reproduce.py``): every cell of the SHOT paper's tables 1-4 and bandit
figure, the LinUCT paper's tables 3-4 and figure 1, and the MDP sweeps of docs/mdp.md,
played as the papers print them (docs/published-tables.md says how each set-up was read),
resumable, each table written as markdown (the paper's number, ours, the interval, a
verdict) with one plot, raw rows beside it (one JSON line per game or run).

============  ===========================================================================
module        what it owns
============  ===========================================================================
tables        what each table is: its cells, the paper's figures, what a verdict needs
runs          running a table's cells (matches, bandit repetitions, MDP runs), resumable,
              with the load of the machine and the command recorded for each session
bandit        the two bandit figures as tasks of one repetition (or one problem) each
verdict       a cell's figure, interval and verdict, read only from the raw rows
report        the markdown table and the plot of a table, and the verdict table
cli           the command line
============  ===========================================================================

Results live in ``results/reproduce/<table>/``: a folder per match cell
(``results.jsonl``, the match runner's), ``rows.jsonl`` for the bandit and MDP tables,
``sessions.jsonl`` (one line per run of the command: commit, command, load before and
after), ``table.md`` and ``table.png``.
"""
