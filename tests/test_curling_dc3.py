"""The DigitalCurling3 protocol client against a transcript of the server's messages
(their shape as DigitalCurling3-Server's game.cpp sends them), without a server."""

import json

from engine.curling.dc3_client import Session, view_of
from engine.curling.game import Choice
from engine.curling.sheet import TEE_Y

SETTING = {"max_end": 2, "sheet_width": 4.75, "five_rock_rule": True,
           "thinking_time": {"team0": 120.0, "team1": 120.0},
           "extra_end_thinking_time": {"team0": 10.0, "team1": 10.0}}


def state(shot, hammer="team1", stones=None, scores=None):
    empty = [None] * 8
    stones = stones or {}
    return {"end": 1, "shot": shot, "hammer": hammer,
            "stones": {"team0": stones.get("team0", empty), "team1": stones.get("team1", empty)},
            "scores": scores or {"team0": [1, None], "team1": [0, None]},
            "extra_end_score": {"team0": None, "team1": None},
            "thinking_time_remaining": {"team0": 100.0, "team1": 100.0}, "game_result": None}


class Recorder:
    name = "recorder"

    def __init__(self):
        self.views = []

    def decide(self, view):
        self.views.append(view)
        return Choice(2 * 12)            # a draw to the button, ccw


def test_transcript():
    player = Recorder()
    session = Session(player, "nakade-test")
    guard = {"position": {"x": 0.1, "y": TEE_Y - 2.0}, "angle": 0.0}
    transcript = [
        ({"cmd": "dc", "version": {"major": 1, "minor": 0}, "game_id": "g",
          "date_time": "2026-12-02"}, {"cmd": "dc_ok", "name": "nakade-test"}),
        ({"cmd": "is_ready", "game": {"rule": "normal", "setting": SETTING,
                                      "simulator": {"type": "fcv1", "seconds_per_frame": 0.001},
                                      "players": {}}, "team": "team1"},
         {"cmd": "ready_ok", "player_order": [0, 1, 2, 3]}),
        ({"cmd": "new_game", "name": {"team0": "other", "team1": "nakade-test"}}, None),
        ({"cmd": "update", "next_team": "team0", "state": state(0), "last_move": None}, None),
        ({"cmd": "update", "next_team": "team1",
          "state": state(1, stones={"team0": [guard] + [None] * 7}),
          "last_move": {"actual_move": {"type": "shot", "velocity": {"x": 0.0, "y": 2.3},
                                        "rotation": "cw"}, "free_guard_zone_foul": False}},
         "move"),
        ({"cmd": "game_over"}, None),
    ]
    for message, expected in transcript:
        reply = session.handle(json.loads(json.dumps(message)))
        if expected == "move":
            assert reply["cmd"] == "move" and reply["move"]["type"] == "shot"
            assert reply["move"]["rotation"] == "ccw"
            assert 2.2 < reply["move"]["velocity"]["y"] < 2.6     # draw weight
        else:
            assert reply == expected
    assert session.over and session.team == "team1" and len(player.views) == 1
    view = player.views[0]
    assert view.shot == 1 and view.alive[0] and view.alive.sum() == 1   # team0 threw first
    assert view.ends_left == 0 and view.lead == -1                      # hammer team trails


def test_view_maps_team_stones_to_throw_order():
    stone = {"position": {"x": 0.5, "y": TEE_Y}, "angle": 0.0}
    s = state(4, hammer="team0",
              stones={"team0": [stone, None] + [None] * 6, "team1": [None, stone] + [None] * 6})
    view = view_of(s)
    assert view.alive[1] and view.alive[2] and view.alive.sum() == 2
