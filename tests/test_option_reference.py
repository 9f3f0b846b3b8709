"""docs/options.md is what ``nakade gtp --list-options`` prints from the declarations, and
every back-end option has its line of help there: an option is described in one place."""

import dataclasses
from pathlib import Path

from engine.gtp import argument_parser
from engine.gtp.option_reference import reference
from engine.search import registry
from engine.search.prover import ProofOptions
from engine.search.threats_first import ThreatOptions

DOC = Path(__file__).resolve().parents[1] / "docs" / "options.md"


def test_the_document_is_the_generated_reference():
    assert DOC.read_text() == reference(argument_parser()), \
        "docs/options.md is stale: nakade gtp --list-options > docs/options.md"


def test_every_option_is_declared_with_help_and_listed_once_per_back_end():
    text = reference(argument_parser())
    for name in registry.names():
        section = text.split(f"### `{name}`")[1].split("###")[0]
        for f in dataclasses.fields(registry.back_end(name).Options):
            assert f.metadata["help"], (name, f.name)
            assert section.count(f"| `{f.name}` |") == 1, (name, f.name)
    steps = text.split("### Root steps")[1]
    for f in dataclasses.fields(ThreatOptions) + dataclasses.fields(ProofOptions):
        assert f.metadata["help"] and f"| `{f.name}` |" in steps


def test_the_strong_preset_column_shows_what_the_preset_sets_not_this_machine():
    uct = reference(argument_parser()).split("### `uct`")[1].split("###")[0]
    assert "| `playout` | text | light | light, heavy, elo, shape | heavy / shape |" in uct
    assert "| every core / every core |" in uct      # not this machine's count of cores
