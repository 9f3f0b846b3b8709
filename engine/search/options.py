"""Typed back-end options: each back end's parameters are a dataclass whose fields are
declared with ``option(default, lo, hi, choices)``; ``set_option`` parses a text value by the
field's type (bool, int, float or str) and checks its range, with messages meant for a GTP
user.  ``CommonOptions`` holds what every back end accepts, ``PlayoutOptions`` what the back
ends with a choice of playout policy add, and ``threads_option`` is the field of
those that search on several threads.
"""

import dataclasses
from dataclasses import dataclass

_TRUE = ("1", "true", "on", "yes")
_FALSE = ("0", "false", "off", "no")


class OptionConflict(ValueError):
    """Options each valid alone that a search cannot honour together (found when a search
    starts, since options are set one at a time in any order): the user's to change."""


def option(default, lo=None, hi=None, choices=None, help=""):
    """A dataclass field with the bounds (inclusive) or the choices ``set_option`` enforces
    and its one line of help: the one place an option is declared, from which the command
    lines, GTP's ``nakade-set`` and the option reference (``engine.search.option_docs``)
    all read it."""
    return dataclasses.field(default=default,
                             metadata={"lo": lo, "hi": hi, "choices": choices, "help": help})


@dataclass
class CommonOptions:
    """What every back end accepts."""
    seed: int = option(0, 0, 2**63 - 1, help="every random choice of the search flows from "
                       "it; setting it restarts the generator and drops the tree")
    resign_threshold: float = option(0.1, 0.0, 0.5, help="resign when the best win rate is "
                                     "below it (0: never)")
    max_nodes: int = option(1_000_000, 1_000, 100_000_000, help="the node pool's capacity "
                            "(about 64 bytes a node); a full pool stops the tree growing, "
                            "not the search")


@dataclass
class PlayoutOptions(CommonOptions):
    """The back ends with a choice of playout policy.  Only what a session asks for is
    compiled (``engine.search.go_priors``, ``engine.core.go_playout``)."""
    playout: str = option("light", choices=("light", "heavy", "elo", "shape"), help="light: "
                          "uniform random; heavy: Go atari, pattern and self-atari knowledge "
                          "(engine.core.go_policy), Gobang complete a five, block a four; "
                          "elo: Go the softmax over learned move features (Gobang: heavy); "
                          "shape: Gobang the best shape near the stones "
                          "(engine.core.gobang_shape)")
    knowledge: str = option("builtin", help="a Go knowledge file (engine.go_knowledge: "
                            "playout probabilities, prior weights, patterns), or builtin")
    priors: str = option("hand", choices=("hand", "ladder", "elo"), help="what prior=1 "
                         "gives new Go nodes: the knowledge file's weights (hand), the "
                         "same with ladder reading (ladder), or the learned ratings (elo)")
    patterns: str = option("builtin", help="the learned weights file of priors=elo and "
                           "playout=elo: builtin (fitted on GNU Go games), tsumego (on "
                           "tsumego answers), tygem (on 9-dan 19x19 games) or a path")


@dataclass
class WideningOptions(PlayoutOptions):
    """Progressive widening (``engine.search.widening``)."""
    widen: int = option(0, 0, 100_000, help="progressive widening: the children a node "
                        "opens at first, ranked by their priors (Go with prior=1); 0: all")
    widen_after: float = option(40.0, 1.0, 1e12, help="one more child each time a node's "
                                "visits pass widen_after * widen_rate^j (CrazyStone's 40)")
    widen_rate: float = option(1.4, 1.01, 100.0, help="the growth of widening's thresholds "
                               "(CrazyStone's 1.4)")
    bias: bool = option(True, help="the priors' virtual games count in the values (0: with "
                        "widen they only rank the children)")


def threads_option():
    """The ``threads`` field of a back end that searches on several threads
    (``engine.search.parallel``), declared last among its options: 1, the registry's
    default and what the published tables ran, keeps a search exactly repeatable by its
    seed; the ``strong`` preset gives every core."""
    return option(1, 1, 256, help="search threads sharing the tree (virtual loss, lock-free "
                  "updates); 1 repeats a search exactly by its seed")


def _parse(name: str, kind: type, text: str):
    t = text.strip()
    if kind is bool:
        if t.lower() in _TRUE:
            return True
        if t.lower() in _FALSE:
            return False
        raise ValueError(f"option {name} needs 0 or 1, not {text!r}")
    if kind is int:
        try:
            return int(t)
        except ValueError:
            raise ValueError(f"option {name} needs an integer, not {text!r}") from None
    if kind is float:
        try:
            value = float(t)
        except ValueError:
            raise ValueError(f"option {name} needs a number, not {text!r}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"option {name} needs a finite number, not {text!r}")
        return value
    return t


def set_option(params, backend: str, key: str, text: str):
    """Set ``params.key`` from ``text``; ValueError naming the problem when it is bad."""
    fields = {f.name: f for f in dataclasses.fields(params)}
    f = fields.get(key)
    if f is None:
        raise ValueError(f"unknown option {key!r} for {backend} (known: {', '.join(fields)})")
    value = _parse(key, f.type, str(text))
    lo, hi, choices = f.metadata["lo"], f.metadata["hi"], f.metadata["choices"]
    if choices is not None and value not in choices:
        raise ValueError(f"option {key} must be one of {', '.join(choices)}, not {text!r}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ValueError(f"option {key} must be between {lo} and {hi}, not {text!r}")
    setattr(params, key, value)


def as_dict(params) -> dict:
    return dataclasses.asdict(params)


def kernel_params(kind, params, **derived):
    """A compiled search's parameter tuple ``kind`` (a namedtuple) from ``params``: each of
    its fields the option of that name, cast to the option's type, unless ``derived``
    gives the field (a value the back end computes: from the knowledge file, from two
    options together), so a field that is an option is described only where the option is
    declared."""
    types = {f.name: f.type for f in dataclasses.fields(params)}
    return kind(**{name: derived[name] if name in derived else types[name](getattr(params, name))
                   for name in kind._fields})
