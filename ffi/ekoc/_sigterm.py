"""SIGTERM handled like SIGINT while ekoc writes an EKO file.

A preempted cluster job, `kill`, a container stop: SIGTERM, whose default
action ends the process at once, with eko's staging folder and the partial
tar still on disk. ekoc turns it into an exception where it may:

- write_unit(), around each EKO write (ekoc._ekofile): on the main thread,
  when SIGTERM still has its default action (nobody else handles it), the
  signal raises Terminated (a KeyboardInterrupt, as Ctrl-C does) inside the
  write; the computation stops at its next callback, the write removes its
  files, and the process then ends by SIGTERM as it would have (same exit
  status for the caller, no leftovers). With a handler of the program's own
  installed, ekoc leaves SIGTERM to it.
- install_worker_handler(), in processes ekoc owns whose main thread runs
  something else (the Dask workers of solve_many's own LocalCluster): the
  handler asks the writes running on other threads to stop (their progress
  and target callbacks raise Terminated), waits for them to clean up, at most
  `grace_s`, then ends the process by SIGTERM.

What no handler can see (kill -9) is left to ekoc._publish.remove_stale.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while ekoc was writing an EKO: raised where Ctrl-C
    raises KeyboardInterrupt, so the same cleanup runs."""

    def __init__(self, message: str = "SIGTERM received: the EKO write was stopped and its files removed"):
        super().__init__(message)


_requested = threading.Event()  # set by the worker handler: every running write stops
_lock = threading.Condition()
_units = {"count": 0}  # EKO writes running in this process


def requested() -> bool:
    """True once the worker handler has asked the running writes to stop."""
    return _requested.is_set()


def _raise_terminated(signum, frame):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second SIGTERM must not cut the cleanup short
    raise Terminated()


def _die_by_sigterm() -> None:
    """Ends the process as SIGTERM's default action would (exit status, no atexit)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


@contextlib.contextmanager
def write_unit():
    """One EKO write: counted for the worker handler, and on the main
    thread with SIGTERM at its default, SIGTERM raises Terminated inside it
    and ends the process by SIGTERM once the write has cleaned up."""
    if _requested.is_set():
        raise Terminated()
    own = (threading.current_thread() is threading.main_thread()
           and signal.getsignal(signal.SIGTERM) is signal.SIG_DFL)
    if own:
        signal.signal(signal.SIGTERM, _raise_terminated)
    with _lock:
        _units["count"] += 1
    try:
        yield
    finally:
        with _lock:
            _units["count"] -= 1
            _lock.notify_all()
        if own:
            now = signal.getsignal(signal.SIGTERM)
            if now is signal.SIG_IGN:  # _raise_terminated ran: SIGTERM came, the write has cleaned up
                _die_by_sigterm()
            if now is _raise_terminated:
                signal.signal(signal.SIGTERM, signal.SIG_DFL)


def install_worker_handler(grace_s: float = 20.0) -> None:
    """SIGTERM in this process (main thread) stops the EKO writes of every
    thread, waits up to grace_s for them to remove their files, then ends
    the process by SIGTERM (module docstring). Main thread only."""

    def handler(signum, frame):
        _requested.set()
        with _lock:  # (a write on the main thread itself could not unwind here: it is left to remove_stale)
            _lock.wait_for(lambda: _units["count"] == 0, timeout=grace_s)
        _die_by_sigterm()

    signal.signal(signal.SIGTERM, handler)
