"""A scripted Gomocup brain for the brain-referee tests: no rules, no search.

    python fake_brain.py --moves "7,7 8,8 ..." [--delay S] [--refuse-start] [--log FILE]

``BEGIN``, ``TURN`` and ``BOARD`` (after its ``DONE``) answer the next word of ``--moves``
(anything: a point, an occupied one, ``ERROR no``), ``--delay`` seconds first, with a
``DEBUG 7 playouts`` line before each; ``START`` answers OK (``ERROR`` with
``--refuse-start``), ``ABOUT`` a name, INFO nothing; ``END`` exits.  ``--log`` appends every
line received to a file.
"""

import argparse
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", default="")
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--refuse-start", action="store_true")
    ap.add_argument("--log")
    a = ap.parse_args()
    moves = a.moves.replace(" ERROR", " ERROR_").split()
    log = open(a.log, "a") if a.log else None

    def say(text):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    in_board = False
    for raw in sys.stdin:
        line = raw.strip()
        if log:
            log.write(line + "\n")
            log.flush()
        word = line.split(" ")[0].upper()
        if in_board:
            in_board = word != "DONE"
            if in_board:
                continue
        if word == "END":
            return
        if word == "START":
            say("ERROR no size for me" if a.refuse_start else "OK")
        elif word == "ABOUT":
            say('name="fake", version="1"')
        elif word == "BOARD":
            in_board = True
        elif word in ("BEGIN", "TURN", "DONE"):
            time.sleep(a.delay)
            say("DEBUG 7 playouts")
            say(moves.pop(0).replace("_", " ") if moves else "0,0")


if __name__ == "__main__":
    main()
