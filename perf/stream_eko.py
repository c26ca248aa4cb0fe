"""Peak memory of a many-target accelerated EKO, held vs streamed (issue 16,
item 2). Run under GNU time for the peak RSS:

    /usr/bin/time -v python3 perf/stream_eko.py held OUT.tar      # ekoc.solve(...).to_eko(OUT)
    /usr/bin/time -v python3 perf/stream_eko.py accel OUT.tar     # accelerated eko.runner.managed.solve (streamed)
    /usr/bin/time -v python3 perf/stream_eko.py stream OUT.tar    # ekoc.solve_to_eko

Cards: NNLO VFNS (ffi/tests/cards.py's theory), mu_0 = 1.65 GeV with nf0 = 4,
N targets (default 300) log-spaced in mu^2 from 2 to 1e4 GeV^2 with eko's
default nf, a 50-point Lambert grid (xmin 1e-5), batch backend
(EKOC_ACCEL_BACKEND=batch for `accel`). Options: --targets N --nx N."""

import argparse
import math
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "ffi" / "tests"))
import cards  # noqa: E402


def make_cards(n_targets, nx):
    th = cards._theory(3)
    op = cards._operator((1.65, 4), [], nx=nx)
    op["xgrid"] = cards.lambert_grid(nx, 1e-5)
    op["configs"]["inversion_method"] = "expanded"
    op["configs"]["n_integration_cores"] = 0
    masses2 = [m[0] ** 2 for m in th["heavy"]["masses"]]
    mugrid = []
    for i in range(n_targets):
        mu2 = 2.0 * (1e4 / 2.0) ** (i / (n_targets - 1))
        mugrid.append([math.sqrt(mu2), 3 + sum(mu2 >= m2 for m2 in masses2)])
    op["mugrid"] = mugrid
    return th, op


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["held", "accel", "stream"])
    ap.add_argument("out")
    ap.add_argument("--targets", type=int, default=300)
    ap.add_argument("--nx", type=int, default=50)
    a = ap.parse_args()
    th, op = make_cards(a.targets, a.nx)
    t0 = time.perf_counter()
    if a.mode == "held":
        import ekoc

        ekoc.solve(th, op, backend="batch", progress=False).to_eko(a.out)
    elif a.mode == "stream":
        import ekoc

        ekoc.solve_to_eko(th, op, a.out, backend="batch", progress=False)
    else:
        import os

        import ekoc.accel

        os.environ["EKOC_ACCEL_BACKEND"] = "batch"
        ekoc.accel.install()
        import eko

        eko.runner.managed.solve(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), pathlib.Path(a.out))
    print(f"{a.mode}: {a.targets} targets, nx {a.nx}: {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
