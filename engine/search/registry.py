"""Search back ends by name, and the one grammar that names a configured back end.

A back-end *spec* is ``NAME[:KEY=VALUE]...``, e.g. ``uct:playout=heavy:prior=1:rave=1:c=0``:
the name of a back end followed by its options.  ``--algo`` of every command line, GTP's
``nakade-algo``, the tsumego sweep, the benchmarks and the experiment cells all read specs
through ``parse_spec``; a single ``KEY=VALUE`` (``--set``, ``--option``) through
``parse_pair``.  ``make(spec, seed, options)`` builds the back end: ``options`` first, then
the spec's own, so a spec always says what it runs.  An alias (``ALIASES``) is a name
that stands for a back end with some options set, e.g. ``linuct-rave`` for
``linuct:rave=1``.

A back end is a class taking ``(seed, options)`` that follows
``engine.search.base.Searcher`` and declares its parameters as ``Options`` (a dataclass of
``engine.search.options``).  Every back end's search runs the root steps first
(``engine.search.searcher``): the proof search of ``engine.search.prover`` (a tsumego fight
proved at the root, ``prove_nodes``), then the root threat search of
``engine.search.threats_first`` (Gobang: a win by continuous fours is played at once);
every spec accepts their options.
"""

from dataclasses import dataclass, field, fields

from .alphabeta import AlphaBetaSearcher
from .linuct import LinuctSearcher
from .prover import OPTION_NAMES as PROOF_OPTIONS
from .shot import ShotSearcher
from .threats_first import OPTION_NAMES as THREAT_OPTIONS
from .uct import UctSearcher

_BACK_ENDS = {
    "uct": UctSearcher,
    "shot": ShotSearcher,
    "linuct": LinuctSearcher,
    "ab": AlphaBetaSearcher,
}

# names published before RAVE became an option of LinUCT: a name and the options it stands
# for, under the spec's own
ALIASES = {
    "linuct-plain": ("linuct", {"rave": "0"}),
    "linuct-rave": ("linuct", {"rave": "1"}),
}


@dataclass(frozen=True)
class Spec:
    name: str
    options: dict = field(default_factory=dict)

    def __str__(self) -> str:
        return ":".join([self.name] + [f"{k}={v}" for k, v in self.options.items()])


def parse_pair(text: str) -> tuple[str, str]:
    """``KEY=VALUE`` -> (key, value), stripped; ValueError otherwise."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ValueError(f"expected key=value, not {text!r}")
    return key.strip(), value.strip()


def parse_spec(text: str) -> Spec:
    """``NAME[:KEY=VALUE]...`` -> Spec; ValueError for an empty name or a pair without
    ``=``.  The name is not checked here (``make`` does)."""
    name, *pairs = text.strip().split(":")
    if not name.strip():
        raise ValueError(f"back-end spec {text!r} has no name")
    try:
        return Spec(name.strip(), dict(parse_pair(p) for p in pairs))
    except ValueError as exc:
        raise ValueError(f"back-end spec {text!r}: {exc}") from None


def names() -> list[str]:
    """The back ends (aliases left out)."""
    return list(_BACK_ENDS)


def resolve(spec: Spec) -> Spec:
    """``spec`` with an alias replaced by the back end and options it stands for."""
    if spec.name not in ALIASES:
        return spec
    name, options = ALIASES[spec.name]
    return Spec(name, {**options, **spec.options})


def back_end(name: str):
    """The class of back end (or alias) ``name``; ValueError naming the known ones
    otherwise."""
    factory = _BACK_ENDS.get(ALIASES.get(name, (name,))[0])
    if factory is None:
        known = ", ".join(list(_BACK_ENDS) + list(ALIASES))
        raise ValueError(f"unknown back end {name!r} (known: {known})")
    return factory


def option_names(name: str) -> set[str]:
    """The options back end ``name`` accepts, the root steps' included."""
    return {f.name for f in fields(back_end(name).Options)} | THREAT_OPTIONS | PROOF_OPTIONS


def require_option(spec: str, key: str):
    """ValueError unless the back end ``spec`` names knows option ``key`` (a command line's
    own flag for an option, e.g. ``--threads``, says so at start-up)."""
    name = parse_spec(spec).name
    if key not in option_names(name):
        raise ValueError(f"back end {name} has no {key} option")


def make(spec: str, seed: int = 0, options: dict[str, str] | None = None):
    """A new back end from a spec (a bare name is one) with ``options`` under the spec's
    own, its root steps' options among them; ValueError for a bad spec, an unknown name
    or option, or a bad value."""
    parsed = resolve(parse_spec(spec))
    return back_end(parsed.name)(seed=seed, options={**(options or {}), **parsed.options})
