"""The option reference, made from the declarations (``engine.search.options.option``):
for each back end a table of its options -- type, default, bounds or choices, what the
``strong`` preset sets on each game, the line of help -- and one of the root steps' options,
which every back end accepts.  ``nakade gtp --list-options`` prints it and docs/options.md
holds it (a test keeps the two the same), so no option is described anywhere else.
"""

import dataclasses

from . import presets, registry
from .prover import ProofOptions
from .threats_first import ThreatOptions

GAMES = ("go", "gobang")
TYPE_NAMES = {bool: "0/1", int: "integer", float: "number", str: "text"}


def _allowed(f) -> str:
    meta = f.metadata
    if meta["choices"] is not None:
        return ", ".join(meta["choices"])
    if meta["lo"] is None and meta["hi"] is None:
        return ""
    return f"{_value(meta['lo'])} .. {_value(meta['hi'])}"


def _value(value) -> str:
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return "2^63 - 1" if value == 2**63 - 1 else f"{value:,}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _table(option_fields, strong: dict) -> str:
    lines = ["| option | type | default | allowed | strong: Go / Gobang | what it does |",
             "|---|---|---|---|---|---|"]
    for f in option_fields:
        preset = " / ".join(strong[game].get(f.name, "-") for game in GAMES)
        preset = "" if preset == "- / -" else preset
        lines.append(f"| `{f.name}` | {TYPE_NAMES[f.type]} | {_value(f.default)} | "
                     f"{_allowed(f)} | {preset} | {f.metadata['help']} |")
    return "\n".join(lines)


def back_end_tables() -> str:
    """The markdown reference of every back end's options and the root steps'."""
    parts = []
    for name in registry.names():
        strong = {game: presets.described(presets.DEFAULT, game, name) for game in GAMES}
        aliases = [a for a, (target, _) in registry.ALIASES.items() if target == name]
        also = (" (aliases: " + ", ".join(
            f"`{a}` = `{name}:" + ":".join(f"{k}={v}" for k, v in registry.ALIASES[a][1].items())
            + "`" for a in aliases) + ")") if aliases else ""
        table = _table(dataclasses.fields(registry.back_end(name).Options), strong)
        parts.append(f"### `{name}`{also}\n\n{table}")
    root = {game: presets.described(presets.DEFAULT, game, registry.names()[0])
            for game in GAMES}
    steps = dataclasses.fields(ThreatOptions) + dataclasses.fields(ProofOptions)
    parts.append("### Root steps, in front of every back end\n\n" + _table(steps, root))
    return "\n\n".join(parts) + "\n"
