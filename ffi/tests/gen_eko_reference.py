"""Runs eko on the cards of cards.py and stores its operators as the
reference of test_solve_vs_eko.py (eko is too slow to run at NNLO in the test
suite: minutes per card, and its numba cache is cold on a fresh machine).

    python ffi/tests/gen_eko_reference.py [--cards NAME ...] [--out DIR]

Writes DIR/eko_<name>.npz (default DIR: ffi/tests/data) holding the two
cards as JSON (the test checks they still equal cards.py), eko's version,
the targets (mu^2, nf), eko's operators and errors (flavour basis,
(n_targets, 14, nx, 14, nx)) and eko's wall and CPU seconds.
"""

import argparse
import json
import pathlib
import tempfile
import time

import numpy as np

import cards

HERE = pathlib.Path(__file__).resolve().parent


def _msbar_numpy2_shim():
    """eko 0.15.7's msbar_masses.solve hands scipy's fsolve a function that
    feeds its 1-element array argument to float() (couplings cache key) and
    then calls float() on fsolve's 1-element result: both raise under numpy 2.
    This wraps fsolve so eko's function sees a Python float and eko's float()
    gets a 0-d array: the same numbers, nothing of eko's algorithm changed."""
    import types

    import numpy as np
    from eko import msbar_masses
    from scipy import optimize

    def fsolve(func, x0, args=()):
        res = optimize.fsolve(lambda x, *a: func(float(np.ravel(x)[0]), *a), x0, args=args)
        return np.asarray(np.ravel(res)[0])

    msbar_masses.optimize = types.SimpleNamespace(fsolve=fsolve)


def run(name, out_dir):
    import eko

    _msbar_numpy2_shim()

    th, op = cards.card(name)
    tc = eko.TheoryCard.from_dict(th)
    oc = eko.OperatorCard.from_dict(op)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "eko.tar"
        w0, c0 = time.perf_counter(), time.process_time()
        eko.solve(tc, oc, path)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        targets, ops, errs = [], [], []
        with eko.EKO.read(path) as e:
            for mu, nf in op["mugrid"]:
                ep = (mu**2, nf)
                o = e[ep]
                targets.append(ep)
                ops.append(o.operator)
                errs.append(o.error)
    dest = out_dir / f"eko_{name}.npz"
    np.savez_compressed(
        dest,
        theory=json.dumps(th),
        operator=json.dumps(op),
        eko_version=eko.__version__,
        targets=np.array(targets, dtype=float),
        operators=np.array(ops),
        errors=np.array(errs),
        eko_wall_s=wall,
        eko_cpu_s=cpu,
    )
    print(f"{name}: eko {wall:.1f} s wall, {cpu:.1f} s CPU -> {dest}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cards", nargs="*", default=list(cards.CARDS), choices=list(cards.CARDS))
    ap.add_argument("--out", type=pathlib.Path, default=HERE / "data")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.cards:
        run(name, args.out)


if __name__ == "__main__":
    main()
