"""EKO files under concurrency and signals (issue 33 items 1-2).

- Two processes given one path: both pass the up-front check, the first to
  finish publishes, the second gets OutputExistsError naming the path and
  the first file stays (it used to be replaced by os.replace).
- SIGTERM while the file is written (as a script, and under
  ``python -m ekoc.accel``; and in a worker process whose main thread runs
  something else): the process still ends by SIGTERM, and neither the
  staging folder in $TMPDIR nor the partial tar is left.
- kill -9 while the file is written leaves the staging folder (and the
  partial tar, in the moment the tar is made); the next write on the host
  removes them, and leaves those of a writer still alive
  (test_publish.py: which names remove_stale takes).

Each writer is a child process that holds inside its progress callback
until told to go on, so the signal lands mid-write on every run."""

import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time

import pytest

import cards
import ekoc

eko = pytest.importorskip("eko", reason="eko is not installed (pip install eko==0.15.7): EKO files need it")

WRITER = r"""
import os, pathlib, sys, tempfile, threading, time
path, flags, tmp = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
alphas, mode = float(sys.argv[4]), sys.argv[5]
tempfile.tempdir = tmp
import ekoc, cards
from eko.io.exceptions import OutputExistsError
th, op = cards.card("lo_ffns")
th["couplings"]["alphas"] = alphas

try:
    from ekoc._sigterm import requested as stop_requested
except ImportError:  # a package before ekoc._sigterm (to show these tests fail there)
    stop_requested = lambda: False

def hold(done, total):  # the first row: say so, then wait for go (never, for a signal test)
    ready = flags / f"ready-{alphas}"
    if not ready.exists():
        ready.touch()
        # (or until a worker's SIGTERM handler asks the writes to stop: a real row ends in milliseconds)
        while not (flags / f"go-{alphas}").exists() and not stop_requested():
            time.sleep(0.01)

def write():
    try:
        ekoc.solve_to_eko(th, op, path, backend="batch", progress=hold)
    except OutputExistsError as exc:
        print("OutputExistsError", exc.filename, flush=True)
    else:
        print("written", flush=True)

if mode == "worker":  # as a Dask worker: the write on a thread, the main thread elsewhere
    from ekoc import _sigterm
    _sigterm.install_worker_handler(grace_s=30)
    threading.Thread(target=write).start()
    while True:
        time.sleep(0.05)
else:
    write()
"""


@pytest.fixture
def env(tmp_path):
    """(folder of the targets, flag folder, $TMPDIR of the children, writer script, environment)."""
    out, flags, tmp = tmp_path / "out", tmp_path / "flags", tmp_path / "tmp"
    for d in (out, flags, tmp):
        d.mkdir()
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path), TMPDIR=str(tmp))
    return out, flags, tmp, script, environ


def _start(env, path, alphas, mode="script"):
    out, flags, tmp, script, environ = env
    cmd = [sys.executable, str(script)] if mode != "accel" else [sys.executable, "-m", "ekoc.accel", str(script)]
    return subprocess.Popen(cmd + [str(path), str(flags), str(tmp), str(alphas), mode], env=environ,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _wait_ready(env, alphas, proc, timeout=120):
    flag = env[1] / f"ready-{alphas}"
    t0 = time.monotonic()
    while not flag.exists():
        if proc.poll() is not None:
            pytest.fail(f"the writer exited early: {proc.communicate()}")
        if time.monotonic() - t0 > timeout:
            proc.kill()
            pytest.fail("the writer never reached its first row")
        time.sleep(0.02)


def _go(env, alphas):
    (env[1] / f"go-{alphas}").touch()


def _leftovers(env):
    out, _, tmp, _, _ = env
    return sorted(p.name for p in tmp.iterdir()) + sorted(p.name for p in out.iterdir() if p.name.startswith("."))


def test_second_writer_gets_output_exists_and_first_file_stays(env):
    path = env[0] / "one.tar"
    first, second = _start(env, path, 0.118), _start(env, path, 0.2)
    _wait_ready(env, 0.118, first)
    _wait_ready(env, 0.2, second)  # both have passed the check that path does not exist
    _go(env, 0.118)
    out1, err1 = first.communicate(timeout=120)
    assert first.returncode == 0 and out1.split() == ["written"], err1
    _go(env, 0.2)
    out2, err2 = second.communicate(timeout=120)
    assert second.returncode == 0 and out2.split() == ["OutputExistsError", str(path)], out2 + err2
    with eko.EKO.read(path) as e:  # the first writer's file, whole
        assert e.theory_card.couplings.alphas == 0.118
        assert e.evolgrid and all(e[ep].operator is not None for ep in e.evolgrid)
    assert _leftovers(env) == []


@pytest.mark.parametrize("mode", ["script", "accel", "worker"])
def test_sigterm_mid_write_leaves_nothing(env, mode):
    path = env[0] / "x.tar"
    proc = _start(env, path, 0.118, mode)
    _wait_ready(env, 0.118, proc)
    assert _leftovers(env) != []  # mid-write: the staging folder exists
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGTERM, (proc.returncode, out, err)  # ended by SIGTERM, as before
    assert not path.exists()
    assert _leftovers(env) == [], err


def test_kill_9_leftovers_removed_by_the_next_write(env, monkeypatch):
    killed, alive = _start(env, env[0] / "killed.tar", 0.118), _start(env, env[0] / "alive.tar", 0.2)
    try:
        _wait_ready(env, 0.118, killed)
        _wait_ready(env, 0.2, alive)
        before = _leftovers(env)
        assert len(before) == 4, before  # each writer's staging folder and partial tar (written as it goes)
        killed.kill()
        killed.communicate(timeout=60)
        # the next write on this host, in this process (same $TMPDIR, same target folder)
        monkeypatch.setattr(tempfile, "tempdir", str(env[2]))
        th, op = cards.card("lo_ffns")
        ekoc.solve_to_eko(th, op, env[0] / "next.tar", backend="batch")
        left = _leftovers(env)
        assert len(left) == 2 and all(str(alive.pid) in name for name in left), left  # the live writer's only
    finally:
        if killed.poll() is None:  # a failed assertion above: no writer outlives the test
            killed.kill()
            killed.communicate(timeout=60)
        _go(env, 0.2)
        try:
            out, err = alive.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            alive.kill()
            raise
    assert out.split() == ["written"], err  # the live writer was not disturbed
    assert _leftovers(env) == []
    assert sorted(p.name for p in env[0].iterdir()) == ["alive.tar", "next.tar"]
