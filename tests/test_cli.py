"""``nakade``: one command line whose subcommands are the jobs' own ``main``s; each one's
``--help`` is short and names it; an unknown subcommand is one line and status 2."""

import subprocess
import sys

import pytest

from engine import cli


def test_the_overview_lists_every_subcommand(capsys):
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert all(f"  {name}" in out for name in cli.SUBCOMMANDS)


@pytest.mark.parametrize("name", sorted(set(cli.SUBCOMMANDS) - {"bench", "mdp"}))
def test_each_subcommand_has_a_help_of_its_own(name, capsys):
    with pytest.raises(SystemExit) as done:
        cli.main([name, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: nakade {name}") and len(out.splitlines()) < 120


def test_bench_and_mdp_list_their_own_subcommands(capsys):
    assert cli.main(["bench", "--help"]) == 0
    assert "playouts" in capsys.readouterr().out
    assert cli.main(["bench", "nope"]) == 2
    assert cli.main(["mdp", "--help"]) == 0
    assert "nakade mdp sweep" in capsys.readouterr().out


def test_an_unknown_subcommand_is_refused_with_the_usage(capsys):
    assert cli.main(["play"]) == 2
    err = capsys.readouterr().err
    assert "unknown subcommand 'play'" in err and err.startswith("usage: nakade {")


def test_python_dash_m_engine_is_the_same_command_line():
    done = subprocess.run([sys.executable, "-m", "engine", "--version"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("nakade ")
