"""Search back ends by name: ``make(name, seed, options)`` builds one, ``names()`` lists
them (the GTP layer's back-end switch and the contract tests read this table).  A back end
is a class taking ``(seed, options)`` that follows ``engine.search.base.Searcher``."""

from .linuct import LinuctRaveSearcher, LinuctSearcher
from .shot import ShotSearcher
from .uct import UctSearcher

_BACK_ENDS = {
    "uct": UctSearcher,
    "shot": ShotSearcher,
    "linuct-plain": LinuctSearcher,
    "linuct-rave": LinuctRaveSearcher,
}


def register(name: str, factory):
    """Add a back end (later modules, e.g. LinUCT, register themselves here)."""
    if name in _BACK_ENDS:
        raise ValueError(f"back end {name!r} is already registered")
    _BACK_ENDS[name] = factory


def names() -> list[str]:
    return list(_BACK_ENDS)


def make(name: str, seed: int = 0, options: dict[str, str] | None = None):
    """A new back end; ValueError for an unknown name or a bad option."""
    factory = _BACK_ENDS.get(name)
    if factory is None:
        raise ValueError(f"unknown back end {name!r} (known: {', '.join(_BACK_ENDS)})")
    return factory(seed=seed, options=options)
