#!/usr/bin/env python3
"""An alpha_s scan on NNPDF's fit grid (issue 34's second target): one cold
ekoc.solve of the theory (no cache), then --values alpha_s(M_Z) values (the
theory's times 0.98, 0.99, 1, 1.01, 1.02 by default) solved in turn with one
ekoc.NSpaceCache, the first of them on the empty cache; then --warm more
solves of the theory itself on that cache. The fit grid is NNPDF's (196 x
from 1e-9, perf/nnpdf_cards.py), the targets --targets scales log-spaced from
the theory's Q0^2 to 1e5 GeV^2, each solve on --threads threads.

    python3 perf/alphas_scan.py                     # theory 41000000, 2 threads
    python3 perf/alphas_scan.py --id 40000000 --threads 1

Printed: the cold solve's wall time, each scan solve's, the scan's total
against the cold solve (the issue asks <= 2x), the warm solves' median, and
the calling process's user and system CPU per warm solve. Exits 0 with a
message when nnpdf-data, eko or pineko (the cards' conversion) is missing.
"""

from __future__ import annotations

import argparse
import copy
import pathlib
import resource
import statistics
import sys
import time
import warnings

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--id", type=int, default=41000000, help="NNPDF theory id")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--targets", type=int, default=49)
    ap.add_argument("--factors", default="0.98,0.99,1,1.01,1.02", help="alpha_s(M_Z) over the theory's, comma-separated")
    ap.add_argument("--warm", type=int, default=5, help="warm solves of the theory itself after the scan")
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    import nnpdf_cards

    missing = nnpdf_cards.missing_dependencies()
    if missing:
        print(f"alphas_scan: skipped, missing {', '.join(missing)}")
        return 0
    import nnpdf_workloads as nw
    import ekoc
    from ekoc import _cards

    legacy = nw.cards.nnpdf_theory(args.id)
    q2s = nw.cards.log_targets(legacy["Q0"] ** 2, nw.Q2_MAX, args.targets)
    theory, operator = ekoc.nnpdf_cards(args.id, q2s, nw.cards.fit_xgrid(196))
    theory, operator = _cards.theory_dict(theory), _cards.operator_dict(operator)
    factors = [float(f) for f in args.factors.split(",")]

    def solve(card, cache=None):
        t = time.perf_counter()
        ekoc.solve(card, operator, n_threads=args.threads, progress=False, nspace_cache=cache)
        return time.perf_counter() - t

    def with_alphas(factor):
        card = copy.deepcopy(theory)
        card["couplings"]["alphas"] = theory["couplings"]["alphas"] * factor
        return card

    cold = solve(theory)
    cache = ekoc.NSpaceCache()
    scan = [solve(with_alphas(f), cache) for f in factors]
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    warm = [solve(theory, cache) for _ in range(args.warm)]
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    n = max(len(warm), 1)
    print(f"theory {args.id}, fit grid (196 x), {args.targets} targets, n_threads={args.threads}")
    print(f"cold solve: {cold:.3f} s")
    print(f"scan of {len(factors)} alpha_s values on one cache: {sum(scan):.3f} s = {sum(scan) / cold:.2f}x the cold "
          f"solve (solves {' '.join(f'{t:.3f}' for t in scan)})")
    if warm:
        print(f"warm solves: median {statistics.median(warm):.3f} s (min {min(warm):.3f}); per solve user "
              f"{(r1.ru_utime - r0.ru_utime) / n:.3f} s, sys {(r1.ru_stime - r0.ru_stime) / n:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
