"""A client of the DigitalCurling3 match server (JSON objects, one per line, over TCP),
so that any player of ``engine.curling.players`` can join a real match.

The exchange, as the server runs it (read from DigitalCurling3-Server's game.cpp):

    server: {"cmd": "dc", "version": {...}, "game_id": ..., "date_time": ...}
    client: {"cmd": "dc_ok", "name": NAME}
    server: {"cmd": "is_ready", "game": {"rule", "setting", "simulator", "players"},
             "team": "team0" | "team1"}
    client: {"cmd": "ready_ok", "player_order": [0, 1, 2, 3]}
    server: {"cmd": "new_game", "name": {"team0": ..., "team1": ...}}
    server: {"cmd": "update", "next_team": ..., "state": GAME_STATE, "last_move": ...}
    client (when next_team is its team):
            {"cmd": "move", "move": {"type": "shot", "velocity": {"x", "y"},
                                     "rotation": "ccw" | "cw"}}
    ...
    server: {"cmd": "update", ..., "state": {..., "game_result": {"winner", "reason"}}}
    server: {"cmd": "game_over"}

The state's stones are in the end's shot coordinates (ours too), per team, team stone i
being the one it threw at its i-th shot; here stone k of an end is the one thrown at
shot k, so the team throwing first (without the hammer) owns k = 2 i, the other 2 i + 1.
``Session.handle`` maps one server message to the reply (or None) and is what the
transcript test drives; ``play`` runs it over a socket.  A session keeps the last state
and its own shots, so a game's result can be read from it (``result``).
"""

import json
import socket

import numpy as np

from .game import View
from .shots import delivery_of
from .sheet import STONES


def view_of(state: dict) -> View:
    """Our view of a server game state (the shooter is the next team)."""
    hammer = state["hammer"]
    first = "team1" if hammer == "team0" else "team0"
    pos, alive = np.zeros((STONES, 2)), np.zeros(STONES, np.bool_)
    for team, parity in ((first, 0), (hammer, 1)):
        for i, stone in enumerate(state["stones"][team]):
            if stone is not None:
                k = 2 * i + parity
                pos[k] = stone["position"]["x"], stone["position"]["y"]
                alive[k] = True
    totals = {t: sum(s or 0 for s in state["scores"][t])
              + (state["extra_end_score"][t] or 0) for t in ("team0", "team1")}
    max_end = len(state["scores"]["team0"])
    return View(pos, alive, int(state["shot"]), max(max_end - int(state["end"]) - 1, 0),
                totals[hammer] - totals[first])


def move_of(action: int, view: View) -> dict:
    vx, vy, spin = delivery_of(action, view.pos)
    return {"type": "shot", "velocity": {"x": float(vx), "y": float(vy)},
            "rotation": "ccw" if spin == 0 else "cw"}


class Session:
    """One game's protocol state for ``player`` under ``name``."""

    def __init__(self, player, name: str = "nakade"):
        self.player, self.name = player, name
        self.team = None
        self.over = False
        self.moves = 0
        self.state = None
        self.shots = []      # (end, shot, team index, action, playouts) of its own moves

    def handle(self, message: dict):
        cmd = message.get("cmd")
        if cmd == "dc":
            return {"cmd": "dc_ok", "name": self.name}
        if cmd == "is_ready":
            self.team = message["team"]
            return {"cmd": "ready_ok", "player_order": [0, 1, 2, 3]}
        if cmd == "update":
            self.state = message["state"]
        if cmd == "update" and message.get("next_team") == self.team:
            view = view_of(message["state"])
            self.moves += 1
            choice = self.player.decide(view)
            self.shots.append((int(self.state["end"]), view.shot, int(self.team[-1]),
                               choice.action, choice.playouts))
            return {"cmd": "move", "move": move_of(choice.action, view)}
        if cmd == "game_over":
            self.over = True
        return None


    def result(self):
        """(scores per end as (team 0, team 1), winner 0 / 1 / -1 for a draw) of the
        finished game; the extra ends' score counts as one end."""
        state = self.state
        scores = [(a or 0, b or 0) for a, b in zip(state["scores"]["team0"],
                                                    state["scores"]["team1"])]
        extra = state["extra_end_score"]
        if extra["team0"] is not None or extra["team1"] is not None:
            scores.append((extra["team0"] or 0, extra["team1"] or 0))
        winner = (state.get("game_result") or {}).get("winner")
        return scores, {"team0": 0, "team1": 1}.get(winner, -1)


def play(player, host: str = "localhost", port: int = 10000, name: str = "nakade",
         transcript=None) -> Session:
    """Join the server at (host, port) as one team and play until game_over; every
    line received and sent goes to ``transcript`` (a list) when one is given."""
    session = Session(player, name)
    with socket.create_connection((host, port)) as sock, sock.makefile("rwb") as stream:
        for line in stream:
            message = json.loads(line)
            reply = session.handle(message)
            if transcript is not None:
                transcript.append((message, reply))
            if reply is not None:
                stream.write(json.dumps(reply).encode() + b"\n")
                stream.flush()
            if session.over:
                break
    return session
