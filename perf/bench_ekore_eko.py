"""Time eko's numba ``gamma_singlet`` (NNLO, all three orders) against ekore's C ABI.

Usage: python3 perf/bench_ekore_eko.py [--bench build/perf/bench_ekore] [--reps 200000]

In one run it
  1. runs the C micro-benchmark ``perf/bench_ekore.c`` (ns per evaluation of
     ``ekore_gamma_singlet`` etc., thread CPU time, best of 7),
  2. times eko's ``ekore.anomalous_dimensions.unpolarized.space_like.gamma_singlet``
     on the same N values after a warm-up (which also triggers numba's
     compilation or cache load):
       * "python call": a Python loop calling the numba dispatcher (what a Python
         caller pays),
       * "numba loop": an ``@njit`` loop calling ``gamma_singlet`` from compiled
         code (what eko's own compiled ``quad_ker`` pays; the fair comparison),
  3. prints one table with the ratios.

The N values are those of bench_ekore.c: N = 2.5+1.5i, and P = 1000 points of
eko's Talbot path for x = 1e-3 with the singlet offset o = 1,
N(t) = o + r (theta cot theta + i theta), theta = pi (2t-1), r = 6.4/(0.1 - ln x),
t = 0.5 + 0.45 (p + 1/2)/P. nf = 4 everywhere. Times are thread CPU time
(``time.thread_time_ns``), best of 7 runs, like the C side.
"""

import argparse
import math
import pathlib
import subprocess
import time

import numba as nb
import numpy as np
from ekore.anomalous_dimensions.unpolarized.space_like import gamma_singlet

REPO = pathlib.Path(__file__).resolve().parents[1]
NF = 4
ORDER = (3, 0)
VARIATION = (0, 0, 0, 0, 0, 0, 0)
P = 1000
RUNS = 7


def talbot_points(x=1e-3, o=1.0):
    r = 6.4 / (0.1 - math.log(x))
    pts = []
    for p in range(P):
        t = 0.5 + 0.45 * (p + 0.5) / P
        th = math.pi * (2.0 * t - 1.0)
        pts.append(complex(o + r * th / math.tan(th), r * th))
    return np.array(pts)


@nb.njit(cache=False)
def numba_loop(ns, reps, nf, variation):
    acc = 0.0
    for _ in range(reps):
        for n in ns:
            g = gamma_singlet((3, 0), n, nf, variation, True)
            acc += g[2, 1, 1].real
    return acc


def best_of(fn, evals):
    best = math.inf
    for _ in range(RUNS):
        t0 = time.thread_time_ns()
        fn()
        best = min(best, (time.thread_time_ns() - t0) / evals)
    return best


def run_c_bench(bench, reps):
    out = subprocess.run([str(bench), str(reps)], check=True, capture_output=True, text=True).stdout
    return {line.split()[0]: float(line.split()[1]) for line in out.splitlines() if line.strip()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=str(REPO / "build" / "perf" / "bench_ekore"))
    ap.add_argument("--reps", type=int, default=200000, help="calls at one N for the C benchmark")
    ap.add_argument("--py-reps", type=int, default=2000, help="calls at one N for eko")
    args = ap.parse_args()

    c = run_c_bench(args.bench, args.reps)

    one = np.array([complex(2.5, 1.5)])
    path = talbot_points()
    # warm-up: numba compile / cache load of gamma_singlet and of the loop
    gamma_singlet(ORDER, one[0], NF, VARIATION, True)
    numba_loop(one, 1, NF, VARIATION)

    def py_one():
        for _ in range(args.py_reps):
            gamma_singlet(ORDER, one[0], NF, VARIATION, True)

    def py_path():
        for n in path:
            gamma_singlet(ORDER, n, NF, VARIATION, True)

    eko_py_one = best_of(py_one, args.py_reps)
    eko_py_path = best_of(py_path, P)
    eko_nb_one = best_of(lambda: numba_loop(one, args.py_reps, NF, VARIATION), args.py_reps)
    eko_nb_path = best_of(lambda: numba_loop(path, 1, NF, VARIATION), P)

    rows = [
        ("one N = 2.5+1.5i", c["gamma_singlet_nnlo_one_N"], eko_nb_one, eko_py_one),
        ("Talbot path, single calls", c["gamma_singlet_nnlo_path_single"], eko_nb_path, eko_py_path),
        ("Talbot path, ekore batch", c["gamma_singlet_nnlo_path_batch_per_point"], eko_nb_path, eko_py_path),
    ]
    print("NNLO singlet gamma (3 orders, nf=4), ns per evaluation (thread CPU time, best of 7)")
    print(f"{'case':28s} {'ekore':>9s} {'eko numba loop':>15s} {'ratio':>7s} {'eko python call':>16s} {'ratio':>7s}")
    for name, ek, nbv, pyv in rows:
        print(f"{name:28s} {ek:9.1f} {nbv:15.1f} {nbv / ek:7.1f} {pyv:16.1f} {pyv / ek:7.1f}")
    print(f"ekore gamma_all (3 ns towers + singlet): {c['gamma_all_nnlo_path']:.1f} ns/point; "
          f"gamma_ns nsV: {c['gamma_ns_v_nnlo_path']:.1f} ns/point")


if __name__ == "__main__":
    main()
