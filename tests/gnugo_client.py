"""A minimal GTP client for the tests: start an engine process, send commands, read replies.

Written for GNU Go (the oracle of the rules and scoring tests) but speaks plain GTP, so it
drives any engine, ours included.  ``send_many`` writes a batch of commands before reading
any reply, which is what makes thousands of ``is_legal`` questions cheap.
"""

import os
import subprocess

GNUGO = "/usr/games/gnugo"


class GTPError(RuntimeError):
    """The engine answered ``?`` or went away."""


def gnugo_available(path: str = GNUGO) -> bool:
    return os.access(path, os.X_OK)


class GTPClient:
    """One engine process.  ``send(cmd) -> (ok, payload)``; use as a context manager."""

    # commands written before their replies are read: far below what fills a pipe buffer
    BATCH = 200

    def __init__(self, argv):
        self.argv = list(argv)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def send(self, command: str) -> tuple[bool, str]:
        return self.send_many([command])[0]

    def send_many(self, commands) -> list[tuple[bool, str]]:
        """Send several commands, reading the replies after each batch; one (ok, payload)
        per command, in order."""
        commands = list(commands)
        replies = []
        for start in range(0, len(commands), self.BATCH):
            chunk = commands[start:start + self.BATCH]
            for cmd in chunk:
                if "\n" in cmd:
                    raise ValueError(f"a GTP command is one line: {cmd!r}")
            try:
                self.proc.stdin.write("".join(cmd + "\n" for cmd in chunk))
                self.proc.stdin.flush()
            except BrokenPipeError as exc:
                raise GTPError(f"{self.argv[0]} has exited") from exc
            replies.extend(self._read_reply() for _ in chunk)
        return replies

    def ask(self, command: str) -> str:
        """The payload of a successful reply; GTPError on a failure reply."""
        ok, payload = self.send(command)
        if not ok:
            raise GTPError(f"{command!r} failed: {payload}")
        return payload

    def _read_reply(self) -> tuple[bool, str]:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise GTPError(f"{self.argv[0]} closed its output")
            line = line.rstrip("\r\n")
            if not lines and line == "":
                continue  # tolerate stray blank lines between replies
            if line == "":
                break
            lines.append(line)
        head = lines[0]
        if head[0] not in "=?":
            raise GTPError(f"not a GTP reply: {head!r}")
        ok = head[0] == "="
        first = head[1:].lstrip("0123456789")  # drop an optional command id
        payload = "\n".join([first] + lines[1:]).strip()
        return ok, payload

    def close(self):
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.stdin.close()
                self.proc.wait(timeout=5)
            except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.proc.stdout.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def start_gnugo(*args: str, path: str = GNUGO) -> GTPClient:
    """GNU Go in GTP mode; extra command-line ``args`` such as ``--chinese-rules``."""
    return GTPClient([path, "--mode", "gtp", *args])
