"""The match runner's GTP client against the scripted fake engine: replies, failures, and
every way an engine can break (timeout, crash, garbage), and that closing kills it."""

import sys
import time
from pathlib import Path

import pytest

from engine.match.gtp_client import (CommandFailed, EngineCrash, EngineGarbage,
                                     EngineTimeout, GtpClient)

FAKE = str(Path(__file__).with_name("fake_gtp_engine.py"))


def fake(*args) -> GtpClient:
    return GtpClient([sys.executable, FAKE, *args])


def test_replies_carry_payloads_and_failures():
    with fake("--name", "tester", "--moves", "D4") as c:
        assert c.ask("name", timeout=10) == "tester"
        assert c.ask("genmove b", timeout=10) == "D4"
        listed = c.send("list_commands", timeout=10)
        assert listed.ok and "genmove" in listed.text.split("\n")
        refused = c.send("final_score", timeout=10)
        assert not refused.ok and refused.text == "cannot score"
        with pytest.raises(CommandFailed, match="cannot score"):
            c.ask("final_score", timeout=10)


def test_a_command_must_be_one_line():
    with fake() as c, pytest.raises(ValueError):
        c.send("name\nversion")


def test_a_hang_times_out_and_close_kills_the_engine():
    c = fake("--fault", "hang")
    with pytest.raises(EngineTimeout):
        c.send("genmove b", timeout=0.3)
    start = time.monotonic()
    c.close()
    assert c.proc.poll() is not None
    assert time.monotonic() - start < 10


def test_a_late_reply_is_skipped_after_a_timeout():
    with fake("--delay", "0.5", "--moves", "C3", "--name", "late") as c:
        with pytest.raises(EngineTimeout):
            c.send("genmove b", timeout=0.05)
        assert c.ask("name", timeout=10) == "late"


def test_a_crash_is_reported_with_its_exit_status():
    with fake("--fault", "crash") as c:
        with pytest.raises(EngineCrash, match="exit status 3"):
            c.send("genmove b", timeout=10)
        with pytest.raises(EngineCrash):
            c.send("name", timeout=10)


def test_garbage_is_not_a_reply():
    with fake("--fault", "garbage") as c, pytest.raises(EngineGarbage):
        c.send("genmove b", timeout=10)
    with fake("--banner") as c, pytest.raises(EngineGarbage, match="fake engine starting"):
        c.send("name", timeout=10)


def test_a_missing_program_cannot_start(tmp_path):
    with pytest.raises(OSError):
        GtpClient([str(tmp_path / "no-such-engine")])
