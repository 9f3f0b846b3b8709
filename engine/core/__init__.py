"""Compiled kernels: functions over flat numpy arrays only (no classes, no I/O, no globals
that depend on board size).  See ``engine.core.layout`` for the shared state layout."""
