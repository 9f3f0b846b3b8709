"""argparse types for the command lines (engine, match runner, tsumego sweep): a bad
value is an argparse error naming the option, exit status 2, never a traceback or a run
that silently means something else (``--komi nan``, ``--workers 0``, a seed that does not
fit the generator's 64 bits)."""

import argparse
import math

from .search import registry

SEED_LIMIT = 2**64   # the generators are seeded with 64 bits: larger seeds would wrap
MAX_SECONDS = 1e6    # a timeout or clock longer than this (11.6 days) is a mistake, and
                     # waits beyond threading.TIMEOUT_MAX would overflow


def count(text: str) -> int:
    """An integer >= 0."""
    value = _int(text)
    return _require(value, value >= 0, f"must not be negative, not {text}")


def positive_int(text: str) -> int:
    value = _int(text)
    return _require(value, value >= 1, f"must be a positive integer, not {text}")


def seed(text: str) -> int:
    value = count(text)
    return _require(value, value < SEED_LIMIT, f"must be below 2**64, not {text}")


def finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text}") from None
    return _require(value, math.isfinite(value), f"must be a finite number, not {text}")


def positive_float(text: str) -> float:
    value = finite(text)
    return _require(value, value > 0, f"must be positive, not {text}")


def non_negative_float(text: str) -> float:
    value = finite(text)
    return _require(value, value >= 0, f"must not be negative, not {text}")


def seconds(text: str) -> float:
    """A positive duration of at most ``MAX_SECONDS``."""
    return _at_most(positive_float(text), text)


def clock_seconds(text: str) -> float:
    """A duration of 0 to ``MAX_SECONDS`` (a clock setting, a grace)."""
    return _at_most(non_negative_float(text), text)


def key_value(text: str) -> tuple[str, str]:
    """A back-end option ``KEY=VALUE`` (``registry.parse_pair``)."""
    try:
        return registry.parse_pair(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _at_most(value: float, text: str) -> float:
    return _require(value, value <= MAX_SECONDS, f"must be at most {MAX_SECONDS:g} s, not {text}")


def _require(value, ok: bool, message: str):
    """``value`` if ``ok``, else the argparse error ``message``."""
    if not ok:
        raise argparse.ArgumentTypeError(message)
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text}") from None


def threads_option(parser: argparse.ArgumentParser, algo: str, threads) -> list:
    """``--threads N`` as the option pair it stands for (none when not given), or the
    parser's error when the back end ``algo`` has no threads."""
    if threads is None:
        return []
    try:
        registry.require_option(algo, "threads")
    except ValueError as exc:
        parser.error(f"--threads: {exc}")
    return [("threads", str(threads))]
