"""A scripted GTP engine for the match-runner tests: no rules, no search, only what its
command line says.

    python fake_gtp_engine.py --moves "D4 C3 pass" [--fault crash|hang|garbage --at K]
                              [--delay S] [--final-score B+3] [--playouts N]
                              [--refuse COMMAND]... [--banner] [--name NAME] [--log FILE]
                              [--hang-on COMMAND] [--ready S]

``genmove`` answers the next word of ``--moves`` (anything: a vertex, ``pass``, ``resign``,
an occupied point, nonsense), then ``pass`` once the list runs out; ``--delay`` seconds
before each.  At the K-th ``genmove`` (counted from 1) a ``--fault`` happens instead:
``crash`` exits at once with status 3, ``hang`` never answers, ``garbage`` writes a line
that is not GTP.  ``--refuse play`` answers ``? illegal move`` to every ``play``, and
``--refuse NAME`` ``? refused`` to every command NAME (repeatable);
``--final-score`` is the ``final_score`` answer (``? cannot score`` without it);
``--playouts N`` adds a ``nakade-stats`` command that reports N playouts per search (as
text, or with ``json`` as our engine's object: win rate 0.75, pv A1 B2);
``--banner`` writes a non-GTP line to stdout at start-up; ``--log`` appends every command
line received to a file; ``--hang-on NAME`` never answers the first command NAME (a
hung baseline engine); ``--ready S`` adds a ``nakade-ready`` command that answers after S
seconds (our engine loading its kernels).  Every other command is accepted with an empty
reply.
"""

import argparse
import sys
import time


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", default="")
    ap.add_argument("--fault", choices=("crash", "hang", "garbage"))
    ap.add_argument("--at", type=int, default=1)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--final-score")
    ap.add_argument("--playouts", type=int)
    ap.add_argument("--refuse", action="append", default=[], metavar="COMMAND")
    ap.add_argument("--banner", action="store_true")
    ap.add_argument("--name", default="fake")
    ap.add_argument("--log")
    ap.add_argument("--hang-on", metavar="COMMAND")
    ap.add_argument("--ready", type=float)
    a = ap.parse_args(argv)
    moves = a.moves.split()
    genmoves = 0
    last_color = "b"
    out = sys.stdout
    if a.banner:
        out.write("fake engine starting\n")
        out.flush()
    commands = ["protocol_version", "name", "version", "known_command", "list_commands",
                "quit", "boardsize", "clear_board", "komi", "play", "genmove",
                "time_settings", "time_left", "final_score"]
    if a.playouts:
        commands.append("nakade-stats")
    if a.ready is not None:
        commands.append("nakade-ready")
    for line in sys.stdin:
        if a.log:
            with open(a.log, "a") as f:
                f.write(line)
        words = line.split()
        if not words:
            continue
        ident = words.pop(0) if words[0].isdigit() else ""
        name, args = words[0].lower(), words[1:]
        ok, text = True, ""
        if name == a.hang_on:
            time.sleep(3600)
        if name in a.refuse:
            ok, text = False, "illegal move" if name == "play" else "refused"
        elif name == "genmove":
            genmoves += 1
            last_color = args[0].lower()[:1] if args else "b"
            if a.fault and genmoves == a.at:
                if a.fault == "crash":
                    sys.exit(3)
                if a.fault == "hang":
                    time.sleep(3600)
                out.write("thinking very hard...\n\n")
                out.flush()
                continue
            time.sleep(a.delay)
            text = moves[genmoves - 1] if genmoves <= len(moves) else "pass"
        elif name == "nakade-ready" and a.ready is not None:
            time.sleep(a.ready)
        elif name == "final_score":
            ok, text = (True, a.final_score) if a.final_score else (False, "cannot score")
        elif name == "nakade-stats" and a.playouts:
            text = (f'{{"color":"{last_color}","move":"A1","winrate":0.75,"playouts":{a.playouts},'
                    f'"visits":{a.playouts // 2},"pv":["A1","B2"]}}' if args == ["json"] else
                    f"fake: move A1 win rate 0.500, {a.playouts} playouts in 0.01 s, 1 nodes")
        elif name == "name":
            text = a.name
        elif name == "version":
            text = "1.0"
        elif name == "protocol_version":
            text = "2"
        elif name == "list_commands":
            text = "\n".join(commands)
        elif name == "known_command":
            text = "true" if args and args[0].lower() in commands else "false"
        elif name not in commands:
            ok, text = False, "unknown command"
        out.write(f"{'=' if ok else '?'}{ident} {text}\n\n")
        out.flush()
        if name == "quit":
            return


if __name__ == "__main__":
    main()
