"""Games through the official DigitalCurling3 match server (a binary built from
DigitalCurling3-Server's source; see docs/curling.md for the build).

``server_game`` starts the server for one game (its configuration given on the command
line: the ends, the FCV1 simulator, the rules' normal-distribution players with seeds
from the game's seed, free ports), then both clients: player ``a`` in this process
through ``dc3_client.play``, player ``b`` in another process, either one of ours
(``python -m engine.mdp curling connect``) or the official rulebased example client
(``b`` = ``dc3-rulebased``, its binary ``Games.example``).  The result is read from our
client's last state, the server's own verdict.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from ..match.runner import derive_seed
from .dc3_client import play
from .game import GameResult
from .players import make_player
from .sheet import MAX_SPEED, NOISE_ANGLE, NOISE_SPEED

EXAMPLE = "dc3-rulebased"
ROOT = Path(__file__).resolve().parents[2]      # the tree whose engine the clients run


def free_ports(n: int) -> list:
    socks = [socket.socket() for _ in range(n)]
    for s in socks:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def config(ends: int, ports, seed: int, thinking: float) -> dict:
    """The server's configuration for one game (its config.json, as JSON)."""
    def team_players(team):
        return [{"type": "normal_dist", "max_speed": MAX_SPEED, "stddev_speed": NOISE_SPEED,
                 "stddev_angle": NOISE_ANGLE, "seed": derive_seed(seed, team, i) % 2 ** 32}
                for i in range(4)]
    teams = ("team0", "team1")
    return {"server": {"port": dict(zip(teams, ports)), "timeout_dc_ok": 60.0,
                       "update_interval": 0.0, "send_trajectory": False,
                       "steps_per_trajectory_frame": 10},
            "game": {"rule": "normal",
                     "setting": {"max_end": ends, "sheet_width": 4.75, "five_rock_rule": True,
                                 "thinking_time": dict.fromkeys(teams, thinking),
                                 "extra_end_thinking_time": dict.fromkeys(teams, thinking)},
                     "simulator": {"type": "fcv1", "seconds_per_frame": 0.001},
                     "players": {t: team_players(t) for t in teams}}}


def opponent_command(games, b: str, port: int, seed: int) -> list:
    if b == EXAMPLE:
        if not games.example:
            raise ValueError("b = dc3-rulebased needs the example client's binary (--example)")
        return [games.example, "localhost", str(port)]
    return [sys.executable, "-m", "engine.mdp", "curling", "connect", "--port", str(port),
            "--player", b, "--budget", str(games.budget), "--seconds", str(games.seconds),
            "--seed", str(seed)]


def server_game(games, a: str, b: str, a_team: int, seed: int, transcript=None) -> GameResult:
    """One game through the server, ``a`` playing team ``a_team``; a's shots only in
    ``shots`` (b's playouts are not seen from here)."""
    ports = free_ports(2)
    per_shot = games.seconds if games.seconds > 0 else games.budget / 100.0
    thinking = 8 * (games.ends + 4) * per_shot * 4 + 120.0    # never the limit
    with tempfile.TemporaryDirectory(prefix="dc3-") as logs:
        server = subprocess.Popen(
            [games.server, "--config-json", json.dumps(config(games.ends, ports, seed, thinking)),
             "--log-dir", logs], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        opponent = None
        try:
            for line in server.stdout:            # listening once it says so
                if "server started" in line:
                    break
            else:
                raise RuntimeError(f"the server did not start (exit {server.wait()})")
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            opponent = subprocess.Popen(
                opponent_command(games, b, ports[1 - a_team], derive_seed(seed, "b")),
                cwd=logs, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            player = make_player(a, derive_seed(seed, "a"), games.budget, games.seconds)
            session = play(player, "localhost", ports[a_team], a, transcript)
            opponent.wait(timeout=60)
            server.stdout.read()
            server.wait(timeout=60)
        finally:
            for process in (opponent, server):
                if process is not None and process.poll() is None:
                    process.kill()
    if session.team != f"team{a_team}":
        raise RuntimeError(f"joined as {session.team}, not team{a_team}")
    scores, winner = session.result()
    return GameResult(scores, winner, session.shots)
