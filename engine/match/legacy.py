"""Results recorded before presets existed, when our engine with no ``--preset`` ran the
papers' plain back ends (``engine.search.presets``: today that is ``--preset paper``, and
no preset means ``strong``).  A results file written since says so in its header
(``PRESETS_MARKER``); one without the marker was recorded under the old meaning, and a
match resumes it only when its commands mean what the old ones meant: our engine's
commands pinned with ``--preset paper`` (dropped to compare), other engines' commands as
they are.  A bare command of ours never matches an old file: it now plays another engine.
"""

import shlex
from pathlib import Path

PRESETS_MARKER = "presets"          # header key of files written since presets exist
PIN = "--preset paper"
OUR_PROGRAMS = ("gtp_main.py", "nakade-gtp")


def _ours(command: str) -> bool:
    return any(Path(word).name in OUR_PROGRAMS for word in shlex.split(command))


def _legacy_command(command: str) -> str | None:
    """What ``command`` was written as before presets, or None when nothing then meant
    the same."""
    if not _ours(command):
        return command
    if f" {PIN}" not in command:
        return None
    return command.replace(f" {PIN}", "", 1)


def pre_presets_identity(identity: dict) -> dict | None:
    """The identity a pre-presets results file holds for a match of ``identity``, or None
    when no pre-presets match played the same engines."""
    old = dict(identity)
    for label in ("a", "b"):
        old[label] = _legacy_command(identity[label])
        if old[label] is None:
            return None
    return old


# Fields added to a match's setup after results were recorded: left out of the identity at
# their default, so the identities recorded before them stay valid.
LATER_TIME_FIELDS = {"periods": 0}   # TimeSettings: Japanese byo-yomi
LATER_SETUP_FIELDS = {"b_timeout_turn": None, "b_is_black": None}   # BrainSetup: time odds


def stable_setup(setup: dict) -> dict:
    """A setup (``asdict(GameSetup)``) as identities hold it."""
    time = setup.get("time")
    if time:
        time = {k: v for k, v in time.items()
                if not (k in LATER_TIME_FIELDS and v == LATER_TIME_FIELDS[k])}
        setup = {**setup, "time": time}
    return {k: v for k, v in setup.items()
            if not (k in LATER_SETUP_FIELDS and v == LATER_SETUP_FIELDS[k])}
