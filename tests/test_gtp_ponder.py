"""Pondering: the session searches between commands while nothing waits, stops at the next
input line, and the tree it grew serves the next move."""

import io
import queue
import threading

from engine.game.coords import to_gtp
from engine.gtp import build_table, parse_settings
from engine.gtp.context import Context
from engine.gtp.protocol import Output, Request, Session


def _session(*extra):
    settings, searcher = parse_settings(["--preset", "paper", "--size", "9", "--playouts", "50",
                                         "--seed", "3",
                                         *extra])
    ctx = Context(settings, searcher)
    out = io.BytesIO()
    session = Session(build_table(), ctx, Output(out), idle=ctx.ponder)
    requests: queue.Queue = queue.Queue()
    worker = threading.Thread(target=session.serve, args=(requests,), daemon=True)
    worker.start()
    return ctx, requests, worker, out


def _send(requests, line) -> Request:
    request = Request.parse(line)
    requests.put(request)
    return request


def _root_visits(ctx) -> int:
    return ctx.searcher.pool.candidate(0).visits


def test_pondering_grows_the_tree_until_the_next_line_and_the_tree_is_kept():
    ctx, requests, worker, out = _session("--ponder")
    genmove = _send(requests, "genmove b")
    done = threading.Event()
    # wait until the ponder search has run well past the move's own 50 playouts
    for _ in range(600):
        if ctx.searcher.pool is not None and _root_visits(ctx) > 500:
            done.set()
            break
        threading.Event().wait(0.05)
    assert done.is_set(), "no pondering happened"
    reply = ctx.searcher.pool.candidate(ctx.searcher.pool.by_visits()[0])  # white's favourite
    genmove.followed.set()                 # what the reader does when a line comes
    _send(requests, f"play w {to_gtp(reply.move, 9)}")
    _send(requests, "quit")
    requests.put(None)
    worker.join(30)
    assert not worker.is_alive()
    assert _root_visits(ctx) >= reply.visits   # the subtree of the reply became the root
    assert out.getvalue().count(b"=") == 3


def test_without_ponder_the_session_stays_idle():
    ctx, requests, worker, out = _session()
    _send(requests, "genmove b")
    _send(requests, "quit")
    requests.put(None)
    worker.join(30)
    assert _root_visits(ctx) - 1 <= 50 + 1
