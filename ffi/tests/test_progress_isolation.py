"""Progress callbacks and concurrency (issue 15, findings 1 and 2), from Python.

Each scenario runs in a child interpreter with a 60 s timeout, so a
deadlock fails the test instead of hanging the suite. Before the
per-computation progress lock of the C library (a process-wide `omp
critical` serialised every callback) the first deadlocked and the second
stalled; a third checks that the interpreter exits cleanly after many
worker threads (issue 15 finding 3: the library is never unloaded).
"""

import os
import subprocess
import sys

import pytest


REENTRANT = r"""
import ekoc, cards
inner = []
def progress(done, total):
    if not inner:                       # once: a whole solve from inside the callback
        inner.append(len(ekoc.solve(*cards.card("lo_ffns"), backend="batch")))
sol = ekoc.solve(*cards.card("nlo_vfns"), progress=progress)
print("ok", inner, len(sol))
"""

CROSSTALK = r"""
import threading, time, ekoc, cards
inside = threading.Event()
def slow(done, total):
    if not inside.is_set():
        inside.set()
        time.sleep(5.0)                 # a slow callback in computation A
a = threading.Thread(target=lambda: ekoc.solve(*cards.card("nlo_vfns"), progress=slow))
a.start()
inside.wait(30)
t0 = time.perf_counter()
ekoc.solve(*cards.card("lo_ffns"), backend="batch", progress=False)   # computation B, no callback
b = time.perf_counter() - t0
a.join()
print("b_seconds", b)
"""


def _child(code, passive=True):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    if passive:
        env["OMP_WAIT_POLICY"] = "passive"  # a blocked worker sleeps instead of spinning on the shared cores
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the child did not finish in 60 s (deadlock)")


def test_solve_from_inside_a_progress_callback_returns():
    res = _child(REENTRANT)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[0] == "ok" and "[1]" in res.stdout, res.stdout


def test_slow_callback_does_not_stall_another_computation():
    res = _child(CROSSTALK)
    assert res.returncode == 0, res.stderr
    seconds = float(res.stdout.split()[-1])
    assert seconds < 2.5, f"computation B took {seconds:.2f} s while A's callback slept 5 s"


EXIT_AFTER_THREADS = r"""
import ekoc, cards
sol = ekoc.solve(*cards.card("lo_ffns"), backend="batch", n_threads=64)
print("ok", len(sol))
"""


def test_interpreter_exits_cleanly_after_many_threads():
    """64 worker threads (the cap on 2 cores), then interpreter exit: no crash, five times."""
    for _ in range(5):
        out = _child(EXIT_AFTER_THREADS, passive=False)
        assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
        assert out.stdout.strip().startswith("ok")
