"""The one back-end spec grammar (``engine.search.registry``) and its users: the GTP
``--algo``/``nakade-algo``, the tsumego sweep's ``--algo`` and the benchmarks."""

import pytest

from engine.gtp import parse_settings
from engine.gtp.context import Context
from engine.search import registry


def test_a_spec_is_a_name_and_options():
    assert registry.parse_spec("uct") == registry.Spec("uct", {})
    spec = registry.parse_spec(" uct:c=0.5:rave=1 ")
    assert spec == registry.Spec("uct", {"c": "0.5", "rave": "1"})
    assert str(spec) == "uct:c=0.5:rave=1"
    assert registry.parse_spec(str(spec)) == spec


@pytest.mark.parametrize("bad", ["uct:c", "uct:=1", ":c=1", "", "uct:c=1:"])
def test_a_malformed_spec_is_refused(bad):
    with pytest.raises(ValueError):
        registry.parse_spec(bad)


def test_make_puts_the_specs_options_over_the_given_ones():
    built = registry.make("uct:c=0.5", seed=3, options={"c": "0.9", "expand_after": "4"})
    params = built.options()
    assert params["c"] == 0.5 and params["expand_after"] == 4 and params["seed"] == 3
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        registry.make("uct:bogus=1")
    with pytest.raises(ValueError, match="unknown back end"):
        registry.make("nope:c=1")


def test_option_names_are_each_back_ends_own():
    assert {"c", "rave", "prior", "playout", "seed"} <= registry.option_names("uct")
    assert "rave" not in registry.option_names("shot")


def test_gtp_algo_takes_a_spec():
    settings, searcher = parse_settings(["--size", "9", "--algo", "uct:c=0.3:rave=1"])
    assert searcher.options()["c"] == 0.3 and searcher.options()["rave"] is True
    with pytest.raises(SystemExit):
        parse_settings(["--algo", "uct:c"])


def test_a_switch_keeps_the_start_up_options_the_new_back_end_knows_and_names_the_rest():
    settings, searcher = parse_settings(["--size", "9", "--preset", "paper",
                                         "--set", "playout=heavy", "--set", "rave=1",
                                         "--set", "resign_threshold=0.05"])
    ctx = Context(settings, searcher)
    unknown = ctx.switch_algo("shot")
    assert unknown == [("rave", "1")]
    assert ctx.searcher.options()["playout"] == "heavy"
    assert ctx.searcher.options()["resign_threshold"] == 0.05
    assert ctx.switch_algo("uct:c=0.9") == []
    assert ctx.searcher.options()["c"] == 0.9 and ctx.searcher.options()["rave"] is True
    assert ctx.algo == "uct"


def test_the_published_linuct_names_are_aliases_of_one_back_end():
    assert "linuct" in registry.names() and "linuct-rave" not in registry.names()
    assert registry.make("linuct-plain").options()["rave"] is False
    rave = registry.make("linuct-rave:kappa=2", options={"rave": "0"})
    assert rave.name == "linuct" and rave.options()["rave"] is True   # the alias wins
    assert rave.options()["kappa"] == 2
    assert registry.option_names("linuct-rave") == registry.option_names("linuct")
    with pytest.raises(ValueError, match=r"unknown back end 'linuct-x' \(known: .*linuct-rave"):
        registry.make("linuct-x")
