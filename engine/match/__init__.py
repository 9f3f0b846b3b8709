"""Engine-versus-engine matches over GTP: ``gtp_client`` talks to one engine process,
``referee`` plays one game under our own rules, ``runner`` plans, runs (process pool or
Dask) and records many games, ``stats`` turns the results into win rates and Elo.  The
command line is ``nakade match``; ``docs/matches.md`` explains the whole thing.
"""
