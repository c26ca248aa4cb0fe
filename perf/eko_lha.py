#!/usr/bin/env python3
"""Runs eko (PyPI, the reference implementation) on the LHA benchmark setups
that `make lha` computes with ekoc, on the same machine, and reports its wall
time and the evolved toy PDFs at the LHA print points.

usage: python3 perf/eko_lha.py [--parts 14/2,14/3,15/2,15/3] [--cores N] [--dump DIR]

Each part is (table/part) as in perf/lha.c. --dump writes eko's flavour-basis
operator (14, nx, 14, nx) and its x grid as .npy files for element-wise
comparisons with ekoc. Requires eko (pip install eko); exits 3 without it.
"""
import argparse
import math
import os
import pathlib
import sys
import tempfile
import time

import numpy as np

from lha_toy import toy_xf  # perf/ is this script's folder

try:
    import eko
    from eko import interpolation
    from eko.io import runcards
    from eko.io.types import ReferenceRunning
except ImportError:  # pragma: no cover - only without eko
    print("eko_lha: eko is not installed (pip install eko)", file=sys.stderr)
    sys.exit(3)

# (table, part) -> (order, vfns, mu_R^2/mu_F^2), as perf/lha.c
RUNS = {
    (2, 2): (1, False, 1.0), (2, 3): (1, True, 1.0),
    (3, 1): (2, False, 1.0), (3, 2): (2, False, 2.0), (3, 3): (2, False, 0.5),
    (4, 1): (2, True, 1.0), (4, 2): (2, True, 2.0), (4, 3): (2, True, 0.5),
    (14, 1): (3, False, 1.0), (14, 2): (3, False, 2.0), (14, 3): (3, False, 0.5),
    (15, 1): (3, True, 1.0), (15, 2): (3, True, 2.0), (15, 3): (3, True, 0.5),
}
PRINT_X = [1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7, 0.9]
PIDS = [22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6]


def cards(order, vfns, rho):
    """eko's LHA cards (benchmarks/lha_paper_bench.py settings)."""
    theory = dict(
        order=[order, 0],
        couplings=dict(alphas=0.35, alphaem=0.007496252, ref=(math.sqrt(2.0), 3 if vfns else 4)),
        heavy=dict(
            masses=[ReferenceRunning([m, math.nan]) for m in (math.sqrt(2.0), 4.5, 175.0)],
            masses_scheme="POLE",
            matching_ratios=[1.0, 1.0, 1.0] if vfns else [0.0, math.inf, math.inf],
        ),
        xif=math.sqrt(rho),
        n3lo_ad_variation=(0, 0, 0, 0, 0, 0, 0),
        matching_order=[order - 1, 0],
        use_fhmruvv=False,
    )
    operator = dict(
        init=(math.sqrt(2.0), 3 if vfns else 4),
        mugrid=[(100.0, 5 if vfns else 4)],
        xgrid=interpolation.lambertgrid(60).tolist(),
        configs=dict(
            evolution_method="iterate-exact",
            ev_op_max_order=[10, 0],
            ev_op_iterations=10,
            interpolation_polynomial_degree=4,
            interpolation_is_log=True,
            scvar_method="exponentiated" if rho != 1.0 else None,
            inversion_method=None,
            n_integration_cores=0,
            polarized=False,
            time_like=False,
        ),
        debug=dict(skip_singlet=False, skip_non_singlet=False),
    )
    return runcards.TheoryCard.from_dict(theory), runcards.OperatorCard.from_dict(operator)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", default="14/2,14/3,15/2,15/3")
    ap.add_argument("--cores", type=int, default=0, help="eko n_integration_cores (0: all)")
    ap.add_argument("--dump", default=None)
    args = ap.parse_args()
    total = 0.0
    for item in args.parts.split(","):
        table, part = (int(v) for v in item.split("/"))
        order, vfns, rho = RUNS[(table, part)]
        tc, oc = cards(order, vfns, rho)
        oc.configs.n_integration_cores = args.cores
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp) / "eko.tar"
            t0 = time.perf_counter()
            eko.solve(tc, oc, path)
            wall = time.perf_counter() - t0
            total += wall
            with eko.EKO.read(path) as ev:
                xgrid = np.array(ev.xgrid.raw)
                (ep, op), = list(ev.items())
                opv = np.array(op.operator)
                if args.dump:
                    os.makedirs(args.dump, exist_ok=True)
                    np.save(os.path.join(args.dump, f"eko_{table}_{part}.npy"), opv)
                    np.save(os.path.join(args.dump, "xgrid.npy"), xgrid)
        fin = np.zeros((14, xgrid.size))
        for i, pid in enumerate(PIDS):
            for j, x in enumerate(xgrid):
                if x < 1.0:
                    fin[i, j] = toy_xf(x).get(pid, 0.0) / x
        fout = np.einsum("aibj,bj->ai", opv, fin)
        disp = interpolation.InterpolatorDispatcher(xgrid, 4, True)
        rot = disp.get_interpolation(PRINT_X)
        fx = fout @ rot.T  # (14, print points)
        idx = {pid: i for i, pid in enumerate(PIDS)}
        print(f"== eko table {table} part {part}: order {order} {'VFNS' if vfns else 'FFNS'} rho {rho}: wall {wall:.1f} s")
        for k, x in enumerate(PRINT_X):
            uv = fx[idx[2], k] - fx[idx[-2], k]
            g = fx[idx[21], k]
            print(f"   x={x:<8g} xu_v={x * uv: .6e} xg={x * g: .6e}")
    print(f"eko total wall_s={total:.1f} parts={args.parts}")


if __name__ == "__main__":
    main()
