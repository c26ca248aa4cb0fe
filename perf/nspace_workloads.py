#!/usr/bin/env python3
"""The N-space backend on real workloads (issue 17 item 7): NNPDF theory
cards with ModEv EXA (the ones backend="nspace" computes: iterate-exact, no
truncated solution, no QED; perf/nnpdf_cards.py turns them into eko cards as
pineko does) on pineko's 50-point grid with 20 targets and on the 196-point
fit grid from 1e-9 with 49 targets, nspace and batch side by side.

    EKOC_LIB=$PWD/build/libekoc.so python3 perf/nspace_workloads.py
        [--theories 41000000,41000100] [--workloads pineko50,fit196]
        [--repeat 3] [--threads 2]

Every run is a fresh worker process (this script with --worker), so that its
peak RSS is its own; the wall time is that of the ekoc.solve call. Printed per
(theory, workload, backend): median wall, peak RSS, failures (flagged
entries), and the largest relative difference between the two backends' LHA
toy PDFs evolved to every target (u, d, g, s, c at the grid points where
above 1e-3 of their largest value): the x-space products of the batch
backend interpolate the intermediate PDFs after every part, the N-space
products do not (docs/physics.md §3.2), so this is the interpolation error of
the batch operators on that grid.
"""

import argparse
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import nnpdf_cards as cards  # noqa: E402

Q2_MAX = 1e5
WORKLOADS = {"pineko50": ("pineko", 20), "fit196": (196, 49)}


def workload_cards(theory_id: int, name: str):
    grid, n_targets = WORKLOADS[name]
    theory = cards.nnpdf_theory(theory_id)
    xgrid = cards.pineko_xgrid() if grid == "pineko" else cards.fit_xgrid(grid)
    q2s = cards.log_targets(theory["Q0"] ** 2, Q2_MAX, n_targets)
    return cards.eko_cards(theory, cards.operator_dict(theory, xgrid, q2s)), xgrid


def worker(a) -> dict:
    import ekoc

    (th, op), xgrid = workload_cards(a.theory, a.workload)
    t0 = time.perf_counter()
    sol = ekoc.solve(th, op, a.backend, n_threads=a.threads, progress=False)
    wall = time.perf_counter() - t0
    f0 = cards.toy_pdf(xgrid)
    evolved = np.array([sol[ep].apply(f0) for ep in sol])
    flagged = sum(int(sol[ep].failed.sum()) for ep in sol)
    np.save(a.npz, evolved)
    return {"wall_s": wall, "failures": sol.failures, "flagged": flagged,
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run_worker(a, theory: int, workload: str, backend: str, npz: pathlib.Path) -> dict:
    cmd = [sys.executable, __file__, "--worker", "--theory", str(theory), "--workload", workload, "--backend",
           backend, "--threads", str(a.threads), "--npz", str(npz)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": f"exit {done.returncode}: {done.stderr.strip()[-300:]}"}
    return json.loads(lines[-1])


def max_rel_diff(a: np.ndarray, b: np.ndarray, xgrid) -> float:
    """Largest |a - b| / |b| of x f for u, d, g, s, c where |x f_b| > 1e-3 of its max (per target, flavour)."""
    import ekoc

    x = np.asarray(xgrid)
    worst = 0.0
    for t in range(b.shape[0]):
        for pid in (2, 1, 21, 3, 4):
            k = ekoc.PIDS.index(pid)
            fa, fb = a[t, k] * x, b[t, k] * x
            big = np.abs(fb) > 1e-3 * np.abs(fb).max()
            if big.any():
                worst = max(worst, float((np.abs(fa - fb)[big] / np.abs(fb)[big]).max()))
    return worst


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--theories", default="41000000,41000100")
    ap.add_argument("--workloads", default="pineko50,fit196")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--theory", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--workload", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--backend", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--npz", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    missing = cards.missing_dependencies()
    if missing:
        print(f"nspace_workloads: skipped: needs {', '.join(missing)} (pip install {' '.join(missing)})")
        return 0
    if a.worker:
        print(json.dumps(worker(a)))
        return 0
    tmp = pathlib.Path("/tmp") / f"nspace_workloads_{time.time_ns()}"
    tmp.mkdir()
    for theory in map(int, a.theories.split(",")):
        for workload in a.workloads.split(","):
            evolved = {}
            for backend in ("nspace", "batch"):
                runs = [run_worker(a, theory, workload, backend, tmp / f"{backend}.npy") for _ in range(a.repeat)]
                bad = [r["error"] for r in runs if "error" in r]
                if bad:
                    print(f"nspace_workloads: theory {theory} {workload} {backend} FAILED: {bad[0]}")
                    continue
                evolved[backend] = np.load(tmp / f"{backend}.npy")
                walls = [r["wall_s"] for r in runs]
                print(f"nspace_workloads: theory {theory} {workload} backend={backend} threads={a.threads} "
                      f"median_wall_s={statistics.median(walls):.3f} min_wall_s={min(walls):.3f} "
                      f"peak_rss_mb={max(r['rss_mb'] for r in runs):.0f} failures={runs[-1]['failures']} "
                      f"flagged_entries={runs[-1]['flagged']}", flush=True)
            if len(evolved) == 2:
                _, xgrid = workload_cards(theory, workload)
                print(f"nspace_workloads: theory {theory} {workload} evolved toy PDFs, nspace vs batch: "
                      f"max_rel_diff={max_rel_diff(evolved['nspace'], evolved['batch'], xgrid):.2e}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
