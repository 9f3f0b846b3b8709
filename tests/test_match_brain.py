"""Matches between Gomocup brains: the brain referee (against a scripted fake brain, and
our own brain on both sides) and a tiny match through the runner and nakade match."""

import json
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engine.core.layout import BLACK, WHITE
from engine.game.coords import point
from engine.match.brain_client import BrainClient
from engine.match.brain_referee import BrainReferee, BrainSetup
from engine.match.records import write_sgfs
from engine.match.runner import EngineSpec, MatchConfig, read_results, run_match, warm_up

ROOT = Path(__file__).resolve().parent.parent
FAKE = str(Path(__file__).with_name("fake_brain.py"))
OURS = f"{sys.executable} -m engine.pbrain --playouts 100 --seed {{seed}}"
SETUP = BrainSetup(size=9, command_timeout=10, startup_timeout=60, move_timeout=10)


def fake(*args) -> list[str]:
    return [sys.executable, FAKE, *args]


def referee_game(black_argv, white_argv, setup=SETUP, opening=()):
    with BrainClient(black_argv) as black, BrainClient(white_argv) as white:
        return BrainReferee(setup, black, white, opening=opening).play()


def test_five_wins_and_playouts_are_counted():
    black = fake("--moves", "0,0 1,0 2,0 3,0 4,0")
    white = fake("--moves", "0,8 1,8 2,8 3,8")
    out = referee_game(black, white)
    assert (out.winner, out.reason, out.result) == (1, "five", "B+")
    assert out.players[1].playouts == 35 and out.players[1].name == "fake 1"
    assert len(out.state.moves) == 9


@pytest.mark.parametrize("black_moves, reason", [
    ("4,4 4,4", "illegal"), ("4,4 9,1", "bad reply"), ("4,4 ERROR no", "bad reply")])
def test_faults_lose(black_moves, reason):
    out = referee_game(fake("--moves", black_moves), fake("--moves", "0,0 0,1 0,2"))
    assert (out.winner, out.reason) == (2, reason)


def test_a_slow_move_loses_on_time_and_a_refused_start_voids():
    setup = BrainSetup(size=9, timeout_turn=0.3, time_grace=0.2, move_timeout=10)
    out = referee_game(fake("--moves", "4,4"), fake("--delay", "1"), setup)
    assert (out.winner, out.reason, out.result) == (1, "time", "B+T")
    out = referee_game(fake("--refuse-start"), fake())
    assert (out.winner, out.reason) == (None, "error")


def test_openings_go_out_as_board_then_turn(tmp_path):
    logs = [tmp_path / "black.log", tmp_path / "white.log"]
    setup = BrainSetup(size=9, timeout_turn=5, timeout_match=60, max_memory=2**28,
                       rule="exact5")
    opening = [point(4, 4, 9), point(0, 0, 9)]     # (x, y) 4,4 then 0,0
    referee_game(fake("--moves", "1,1 2,2", "--log", str(logs[0])),
                 fake("--moves", "8,8", "--log", str(logs[1])), setup, opening)
    black, white = (log.read_text().splitlines() for log in logs)
    assert black[:2] == ["START 9", "INFO timeout_turn 5000"]
    assert "INFO rule 1" in black and "INFO max_memory 268435456" in black
    assert black[black.index("BOARD"):black.index("DONE") + 1] == \
        ["BOARD", "4,4,1", "0,0,2", "DONE"]
    assert white[white.index("BOARD"):white.index("DONE") + 1] == \
        ["BOARD", "4,4,2", "0,0,1", "1,1,2", "DONE"]
    assert "TURN 8,8" in black and "TURN 2,2" in white
    assert black[black.index("TURN 8,8") - 1].startswith("INFO time_left ")


def test_our_brains_play_a_game_to_a_result():
    argv = shlex.split(OURS.replace("{seed}", "5"))
    out = referee_game(argv, argv, BrainSetup(size=9, timeout_turn=5, startup_timeout=120))
    assert out.reason in ("five", "full board"), out.detail
    assert out.players[1].name.startswith("nakade ") and out.players[1].playouts > 0
    assert len(out.winrates) == len(out.state.moves)
    assert all(0 <= w <= 1 for w in out.winrates if w is not None)
    assert sum(w is not None for w in out.winrates) > len(out.winrates) // 2


def test_a_tiny_match_through_the_runner(tmp_path):
    config = MatchConfig(a=EngineSpec("a", OURS), b=EngineSpec("b", OURS.replace(
        "--playouts 100", "--playouts 20")), setup=BrainSetup(size=9, timeout_turn=5,
                                                                startup_timeout=120),
        games=2, random_opening=2)
    with ThreadPoolExecutor(max_workers=1) as pool:
        summary = run_match(config, tmp_path, pool, warm_up, progress=False)
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert rows[0]["match"]["protocol"] == "brain"
    assert sorted(r["index"] for r in rows[1:]) == [0, 1]
    assert all(r["reason"] in ("five", "full board") for r in rows[1:])
    assert summary.total.wins + summary.total.losses + summary.total.draws == 2
    header, recorded, _, _ = read_results(tmp_path / "results.jsonl")
    assert write_sgfs(header, recorded, tmp_path / "sgf") == (2, 0)
    assert "RU[freestyle]" in (tmp_path / "sgf" / "game-0000.sgf").read_text()


def match_script(*args):
    return subprocess.run([sys.executable, "-m", "engine", "match", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_match_script_plays_brains_and_refuses_gtp_options(tmp_path):
    done = match_script("--protocol", "brain", "--a", OURS, "--b", shlex.join(fake(
        "--moves", "0,0 0,1 0,2 0,3 0,4 0,5 0,6 0,7 0,8")), "--size", "9", "--move-time", "5",
        "--match-time", "120", "--max-memory", "1024", "--games", "2", "--workers", "1",
        "--out", str(tmp_path / "m"), "--no-progress")
    assert done.returncode == 0, done.stderr
    assert "games: 2 counted, 0 void" in done.stdout, done.stdout
    # a move the root's threat reading decides (a forced block) searches nothing, so the
    # cap shows as an upper bound: without it a move would search 10,000 playouts
    per_move = re.search(r"^A: .*, (\d+) playouts per move$", done.stdout, re.M)
    assert per_move and 0 < int(per_move.group(1)) <= 100, done.stdout
    rows = [json.loads(line) for line in (tmp_path / "m" / "results.jsonl").read_text()
            .splitlines()[1:]]
    assert all(0 < r["playouts"]["a"] <= 100 * r["genmoves"]["a"] for r in rows)
    refused = match_script("--protocol", "brain", "--a", "x", "--b", "y", "--playouts", "5")
    assert refused.returncode == 2 and "--protocol brain" in refused.stderr


def test_time_odds_give_engine_b_its_own_turn_limit(tmp_path):
    setup = BrainSetup(size=9, timeout_turn=1, b_timeout_turn=0.1)
    assert setup.seated(True).timeout_turn_of(BLACK) == 0.1       # b has black
    assert setup.seated(True).timeout_turn_of(WHITE) == 1
    assert setup.seated(False).infos(BLACK)[0] == "INFO timeout_turn 1000"
    assert setup.seated(False).infos(WHITE)[0] == "INFO timeout_turn 100"
    assert BrainSetup(size=9, timeout_turn=1).seated(True).timeout_turn_of(BLACK) == 1
    logs = [tmp_path / "black.log", tmp_path / "white.log"]
    referee_game(fake("--moves", "1,1 2,2", "--log", str(logs[0])),
                 fake("--moves", "8,8 7,7", "--log", str(logs[1])), setup.seated(False))
    black, white = (log.read_text().splitlines() for log in logs)
    assert "INFO timeout_turn 1000" in black and "INFO timeout_turn 100" in white
