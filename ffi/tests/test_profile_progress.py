"""ekoc.profile's stage table (the C node timer), progress callbacks,
cancellation and the polling Job. The stage and row counts are those of the
x-space pipeline (parts, then composition): the adaptive backend, named (the
default runs the N-space engine, whose stages are its bands)."""

import threading
import time

import numpy as np
import pytest

import cards
import ekoc


def test_profile_stages():
    th, op = cards.card("nlo_vfns")  # 4 -> 5 flavours: two segments and a matching, two targets
    sol, table = ekoc.profile(th, op, "adaptive")
    names = [r.stage for r in table]
    assert names[0] == "plan+couplings" and names[-1] == "compute"
    assert "composition" in names
    evol = [n for n in names if n.startswith("evolution nf=")]
    match = [n for n in names if n.startswith("matching nf=4->5")]
    # parts: nf=4 from mu0^2 to m_b^2, nf=5 from m_b^2 to each target, one matching (shared by both targets)
    assert len(evol) == 3 and len(match) == 1, names
    assert any(n.startswith("evolution nf=4") for n in evol) and sum(n.startswith("evolution nf=5") for n in evol) == 2
    total = table.total_ns("compute")
    end = table[-1].end_ns
    for r in table:  # every stage inside the whole compute
        assert isinstance(r, ekoc.Stage) and table[-1].start_ns <= r.start_ns <= r.end_ns <= end, r
    # the whole compute is the wall time of the C call, up to the Python around it
    assert total * 1e-9 <= sol.timing["compute_s"] + 1e-3
    assert table.dropped == 0
    text = str(table)
    assert "composition" in text and "ms" in text
    assert sol.profile is table


def test_progress_callback_counts_rows():
    th, op = cards.card("nnlo_vfns")
    seen = []
    lock = threading.Lock()

    def cb(done, total):
        with lock:
            seen.append((done, total))

    sol = ekoc.solve(th, op, "adaptive", progress=cb, n_threads=2)
    nx = len(op["xgrid"])
    # rows of every integrated part: nf=4 segment, matching, nf=5 segment
    assert len(seen) == 3 * nx
    assert [d for d, _ in seen] == list(range(1, 3 * nx + 1))
    assert all(t == 3 * nx for _, t in seen)
    assert len(sol) == 1


def test_progress_bar_text(capsys, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "tqdm", None)  # force the plain-text bar
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    th, op = cards.card("lo_ffns")
    ekoc.solve(th, op, "adaptive", progress=True)
    err = capsys.readouterr().err
    assert "100%" in err and f"({len(op['xgrid'])}/{len(op['xgrid'])} rows)" in err


def test_cancel_from_callback():
    th, op = cards.card("nnlo_vfns")

    def cb(done, total):
        if done >= 3:
            raise ekoc.Cancel("enough")

    with pytest.raises(ekoc.Cancel, match="enough") as info:
        ekoc.solve(th, op, progress=cb, n_threads=1)
    assert isinstance(info.value.__cause__, ekoc.EkocCancelled)
    assert "cancelled" in info.value.__cause__.message


def test_job_polls_and_matches_solve():
    th, op = cards.card("nlo_vfns")
    job = ekoc.submit(th, op, n_threads=1)
    while not job.done():
        d, t = job.progress
        assert d <= t or t == 0
        time.sleep(0.001)
    sol = job.result()
    done, total = job.progress
    assert done == total > 0
    ref = ekoc.solve(th, op, n_threads=1)
    for ep in ref:
        np.testing.assert_array_equal(sol[ep].operator, ref[ep].operator)


def test_job_cancel():
    th, op = cards.card("nnlo_vfns")
    job = ekoc.submit(th, op, n_threads=1, progress=lambda d, t: time.sleep(0.01))
    job.cancel()
    with pytest.raises(ekoc.EkocCancelled):
        job.result(timeout=60)


def test_ctrl_c_stops_the_computation(tmp_path):
    """SIGINT during ekoc.solve (a ~seconds NNLO card on one thread) raises
    KeyboardInterrupt from solve, with the C cancellation as its cause."""
    import os
    import signal
    import subprocess
    import sys

    code = (
        "import time, cards, ekoc\n"
        "th, op = cards.card('nnlo_vfns'); op['xgrid'] = cards.lambert_grid(60)\n"
        "print('started', flush=True)\n"
        "try:\n"
        "    ekoc.solve(th, op, 'adaptive', n_threads=1)\n"
        "    print('finished', flush=True)\n"
        "except KeyboardInterrupt as e:\n"
        "    print('interrupted', type(e.__cause__).__name__, flush=True)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert out.strip() == "interrupted EkocCancelled", (out, err)
