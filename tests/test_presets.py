"""Presets (``engine.search.presets``): with no options each game gets its strongest
configuration, filtered by what the chosen back end knows; ``--preset paper`` is the plain
back end of the papers; explicit options win over either."""

import dataclasses

import pytest

from engine.gtp import parse_settings
from engine.gtp.context import Context
from engine.search import presets, registry
from engine.search.prover import ProofOptions
from engine.search.threats_first import ThreatOptions

STRONG_GO = {"playout": "heavy", "prior": True, "priors": "elo", "patterns": "tygem", "rave": True,
             "c": 0.0, "stop_early": True}


def registry_defaults(name: str) -> dict:
    """Every option of back end ``name`` at its declared default (seed aside), the root
    threat search's and the root proof's included."""
    fields = (dataclasses.fields(registry.back_end(name).Options)
              + dataclasses.fields(ThreatOptions) + dataclasses.fields(ProofOptions))
    return {f.name: f.default for f in fields if f.name != "seed"}


def without_seed(options: dict) -> dict:
    return {k: v for k, v in options.items() if k != "seed"}


def test_no_options_give_go_the_strongest_configuration():
    _, searcher = parse_settings(["--size", "9"])
    options = searcher.options()
    assert {k: options[k] for k in STRONG_GO} == STRONG_GO
    # everything else as the back end declares it (threads: every core, once it exists)
    expected = {**registry_defaults("uct"), **STRONG_GO}
    if "threads" in options:
        expected["threads"] = int(presets._cores())
    assert without_seed(options) == expected


def test_no_options_give_gobang_the_shape_playouts_and_priors_and_the_root_vcf():
    _, searcher = parse_settings(["--game", "gobang", "--size", "10"])
    assert searcher.options()["playout"] == "shape" and searcher.options()["vcf"] is True
    assert searcher.options()["shape_prior"] == 20 and searcher.options()["widen"] == 8
    assert searcher.options()["solver"] is True and searcher.options()["threat_nodes"] == 50
    assert searcher.options()["near"] == 2
    assert searcher.options()["rave"] is False and searcher.options()["c"] == 0.7


def test_the_paper_preset_is_every_back_end_plain():
    for name in registry.names():
        _, searcher = parse_settings(["--size", "9", "--preset", "paper", "--algo", name])
        assert without_seed(searcher.options()) == registry_defaults(name)
        assert presets.options("paper", "go", name) == {}


def test_a_back_end_gets_only_the_groups_it_knows_whole():
    # SHOT has playouts but neither priors nor RAVE: c=0 without them would leave it no
    # exploration, so it keeps its own c
    assert presets.options("strong", "go", "shot") == {"playout": "heavy"} | (
        {"threads": presets._cores()} if "threads" in registry.option_names("shot") else {})
    # LinUCT takes the playouts, and the priors and RAVE that go with c=0 (plain LinUCT's
    # alias keeps rave=0, where the priors do nothing: engine/search/linuct.py)
    rave = presets.options("strong", "go", "linuct-rave")
    assert {"playout": "heavy", "prior": "1", "rave": "1", "c": "0"}.items() <= rave.items()


def test_the_filter_follows_the_registry_when_a_back_end_learns_an_option(monkeypatch):
    real = registry.option_names

    def with_playout(name):
        return real(name) | ({"playout"} if name == "linuct-plain" else set())
    monkeypatch.setattr(registry, "option_names", with_playout)
    assert presets.options("strong", "go", "linuct-plain")["playout"] == "heavy"


def test_explicit_options_win_over_the_preset():
    _, searcher = parse_settings(["--size", "9", "--set", "c=0.5", "--algo", "uct:rave=0"])
    assert searcher.options()["c"] == 0.5 and searcher.options()["rave"] is False
    assert searcher.options()["playout"] == "heavy"


def test_a_switch_at_run_time_applies_the_preset_to_the_new_back_end():
    settings, searcher = parse_settings(["--size", "9"])
    ctx = Context(settings, searcher)
    assert ctx.switch_algo("linuct-rave") == []
    assert ctx.searcher.options()["playout"] == "heavy" and ctx.searcher.options()["c"] == 0
    ctx.switch_algo("linuct-plain")   # the alias keeps rave=0 against the preset's rave=1
    assert ctx.searcher.options()["rave"] is False and ctx.searcher.options()["prior"]
    ctx.switch_algo("shot")
    assert ctx.searcher.options()["playout"] == "heavy"


def test_an_unknown_preset_is_refused():
    with pytest.raises(SystemExit):
        parse_settings(["--preset", "fastest"])
    with pytest.raises(ValueError, match="unknown preset"):
        presets.options("fastest", "go", "uct")
