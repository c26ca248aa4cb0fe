#!/usr/bin/env python3
"""Every NNPDF theory card (PyPI nnpdf-data), turned into eko cards as pineko
does (perf/nnpdf_cards.py), through ekoc.supported, and with --compute through
ekoc.solve on a small grid: how much of NNPDF's real theory database ekoc
computes, and why it refuses the rest.

    python3 perf/nnpdf_theories.py                 # supported() on all cards (~1 min)
    python3 perf/nnpdf_theories.py --compute       # and compute each supported one
    python3 perf/nnpdf_theories.py --ids 40000000 40008000 --compute

The operator card is pineko's for this script's grid: --nx points (lambert,
x from 1e-5), degree 4, targets --q2 (GeV^2), ModEv/IterEv/ModSV/XIF as pineko
maps them; --backend (default auto, ekoc's default: the N-space engine, batch
where it does not compute the card). --compute prints per order the cards
computed, the wall time (median, max), the engines that ran and how many
entries were flagged; any card that raises is listed with its exception. Exit status 1 when a supported card
fails to compute.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import statistics
import sys
import time
import warnings

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import nnpdf_cards  # noqa: E402


def theory_ids() -> list[int]:
    from ekoc._nnpdf import nnpdf_theory_ids

    return nnpdf_theory_ids()


def cards_of(theory_id: int, xgrid, q2s):
    theory = nnpdf_cards.nnpdf_theory(theory_id)
    op = nnpdf_cards.operator_dict(theory, xgrid, q2s, scale_variation=True)
    return theory, nnpdf_cards.eko_cards(theory, op)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ids", type=int, nargs="*", help="theory ids (default: all of nnpdf-data)")
    ap.add_argument("--compute", action="store_true", help="also compute every supported card")
    ap.add_argument("--nx", type=int, default=20)
    ap.add_argument("--q2", type=float, nargs="*", default=[10.0, 1e4])
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--backend", default="auto", help="ekoc backend (default auto)")
    args = ap.parse_args()
    missing = nnpdf_cards.missing_dependencies()
    if missing:
        print(f"nnpdf_theories: needs {', '.join(missing)} (pip install ...)")
        return 0
    import ekoc

    xgrid = list(ekoc.lambert_grid(args.nx, 1e-5))
    ids = args.ids or theory_ids()
    refused = collections.Counter()
    by_order = collections.defaultdict(list)  # (qcd, qed) order -> [(id, wall, flagged, engine)]
    failures = []
    accepted = 0
    for tid in ids:
        try:
            theory, (tc, oc) = cards_of(tid, xgrid, args.q2)
        except Exception as exc:  # a card pineko itself would not turn into an eko card
            refused[f"not an eko card: {type(exc).__name__}: {exc}"[:120]] += 1
            continue
        ok, why = ekoc.supported(tc, oc)
        if not ok:
            refused[why.split(":")[0][:120]] += 1
            continue
        accepted += 1
        if not args.compute:
            continue
        order = (tc.order[0], tc.order[1])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                sol = ekoc.solve(tc, oc, backend=args.backend, n_threads=args.threads, progress=False)
                wall = time.perf_counter() - t0
            flagged = sol.failures
            finite = all(np.isfinite(sol[ep].operator).all() for ep in sol.targets)
            if not finite:
                failures.append((tid, "non-finite operator entries"))
            by_order[order].append((tid, wall, flagged, sol.backend))
        except Exception as exc:
            failures.append((tid, f"{type(exc).__name__}: {exc}"[:200]))
    print(f"nnpdf_theories: {len(ids)} cards, {accepted} accepted by ekoc.supported, "
          f"{len(ids) - accepted} refused")
    for why, count in refused.most_common():
        print(f"  refused {count:4d}: {why}")
    if args.compute:
        names = {1: "LO", 2: "NLO", 3: "NNLO", 4: "aN3LO"}
        for order in sorted(by_order):
            rows = by_order[order]
            walls = [w for _, w, _, _ in rows]
            label = names[order[0]] + (" x QED" if order[1] else "")
            engines = collections.Counter(e for *_, e in rows)
            print(f"  computed {label:11s} {len(rows):4d} cards: wall median {statistics.median(walls):.3f} s, "
                  f"max {max(walls):.3f} s, engines {dict(engines)}, {sum(f for _, _, f, _ in rows)} entries flagged "
                  f"in {sum(1 for _, _, f, _ in rows if f)} cards")
        flagged_cards = sorted((tid, f) for rows in by_order.values() for tid, _, f, _ in rows if f)
        if flagged_cards:
            print("  flagged entries in: " + ", ".join(f"{tid} ({f})" for tid, f in flagged_cards))
        for tid, why in failures:
            print(f"  FAILED {tid}: {why}")
        print(f"nnpdf_theories: computed {sum(len(r) for r in by_order.values())} of {accepted} accepted, "
              f"{len(failures)} failed (nx={args.nx}, q2={args.q2}, {args.backend}, {args.threads} threads)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
