#!/usr/bin/env python3
"""lh23.py: the Les Houches 2023 aN3LO evolution benchmark (`make lh23`).

A. Cooper-Sarkar et al., "A Benchmarking of QCD Evolution at Approximate
N3LO", arXiv:2406.16188. The LHA toy PDFs (perf/lha_toy.py) at mu_0 = sqrt2
GeV with alpha_s(mu_0) = 0.35 are evolved at aN3LO to mu_F = 100 GeV, FFNS
(nf = 4) and VFNS (nf = 3..5, m = sqrt2, 4.5, 175 GeV), with the study's eko
settings (eko's extras/lh_bench_23/cfg.py): NNLO matching (matching_order
[2, 0]), 60-point lambertgrid, degree-4 log interpolation, iterate-exact
with 30 iterations, exponentiated scale variation with xif = 1, sqrt2,
1/sqrt2 (mu_R^2 = mu_F^2, 2 mu_F^2, mu_F^2/2). Each part is a scheme, an
N3LO approximation (use_fhmruvv true: FHMRUVV; false: eko's own, the
"NNPDF" approximation of the paper) and a scale; all with the central
parametrisation (n3lo_ad_variation all 0).

Comparisons (subject vs reference), each with its summary line:
- ekoc vs eko-tables: eko's own results of the study (EKO.zip), 12 parts;
  they came from an eko before 0.14.4 (docs/benchmarks.md);
- ekoc vs eko-0.15.7: the installed eko on the same cards, for the parts
  perf/lh23_eko_now.py holds (perf/eko_lh23.py), ekoc's actual reference;
- ekoc vs msht: MSHT's x-space evolution with FHMRUVV (MSHT.zip), central
  scale, 2 parts (the same ekoc runs as eko's FHMRUVV central parts);
- eko-tables vs msht: the study's own eko/MSHT agreement, for scale;
- eko-0.15.7-study-gq-gg vs eko-tables: eko 0.15.7 with the gq/gg N3LO
  parametrisations of the study's eko (perf/lh23_eko_study.py), which
  shows what separates ekoc from the tables.
The references are printed in full precision; within_digit is within one
unit of the fifth significant digit, the paper's printed precision (%.4e):
|subject - ref| <= 10^(floor(log10|ref|) - 4). max/median_rel_dev are over
the entries above 1e-6 of their column's largest value, as `make lha`'s.
Per part, the largest |ekoc - eko-tables| over the half-width of the
envelope of eko's variation files (the aN3LO uncertainty the paper shows)
is printed too, over the entries a variation moves.

usage: python3 perf/lh23.py [--backend batch|adaptive|gpu] [--threads N]
                            [--parts FFNS/FHMRUVV/central,...] [--quiet]
Prints one table per part and comparison, then one summary line each:
  LH23 summary: subject=S ref=R parts=P entries=E within_digit=K/E failures=F
  max_rel_dev=.. median_rel_dev=.. worst=.. wall_s=W backend=B
(wall_s: ekoc's solves; 0 and backend=- on the reference-to-reference lines)
"""
import argparse
import math
import pathlib
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import ekoc  # noqa: E402
from ekoc._core import check, dptr, load  # noqa: E402  (the C interpolation, to reach the print points)
from ekoc._lib import ffi  # noqa: E402
from lh23_tables import EKO, MSHT_FHMRUVV, X  # noqa: E402
from lha_toy import toy_xf  # noqa: E402

try:  # eko 0.15.7 itself on some parts (perf/eko_lh23.py); absent: that comparison is skipped
    from lh23_eko_now import EKO_NOW
except ImportError:
    EKO_NOW = {}
try:  # eko 0.15.7 with the study's gq/gg parametrisations (perf/eko_lh23.py --study-gq-gg)
    from lh23_eko_study import EKO_NOW as EKO_STUDY_PARAMS
except ImportError:
    EKO_STUDY_PARAMS = {}

SQRT2 = math.sqrt(2.0)
XIF = {"central": 1.0, "up": SQRT2, "down": 1.0 / SQRT2}
NGRID, DEGREE, ITERATIONS = 60, 4, 30
PIDS = list(ekoc.PIDS)


def cards(scheme, approx, sv):
    """eko 0.15 cards with the study's settings (eko's lh_bench_23/cfg.py)."""
    vfns = scheme == "VFNS"
    nf0 = 3 if vfns else 4
    # cfg.py's FFNS card has masses (0, inf, inf) with ratios 1, which ekoc
    # refuses (a mass must be finite and > 0); thresholds at 0, inf, inf are
    # the same with the masses kept and ratios (0, inf, inf), as perf/eko_lha.py
    ratios = [1.0, 1.0, 1.0] if vfns else [0.0, math.inf, math.inf]
    theory = dict(
        order=[4, 0],
        couplings=dict(alphas=0.35, alphaem=0.007496, ref=[SQRT2, nf0], em_running=False),
        heavy=dict(masses=[[m, math.nan] for m in (SQRT2, 4.5, 175.0)], masses_scheme="pole",
                   matching_ratios=ratios),
        xif=XIF[sv],
        n3lo_ad_variation=[0, 0, 0, 0, 0, 0, 0],
        use_fhmruvv=approx == "FHMRUVV",
        matching_order=[2, 0],
    )
    operator = dict(
        init=[SQRT2, nf0],
        mugrid=[[100.0, 5 if vfns else 4]],
        xgrid=ekoc.lambert_grid(NGRID, 1e-7).tolist(),
        configs=dict(
            evolution_method="iterate-exact", ev_op_max_order=[10, 0], ev_op_iterations=ITERATIONS,
            interpolation_polynomial_degree=DEGREE, interpolation_is_log=True,
            scvar_method="exponentiated" if sv != "central" else None,
            inversion_method=None, n_integration_cores=1, polarized=False, time_like=False,
        ),
        debug=dict(skip_singlet=False, skip_non_singlet=False),
    )
    return theory, operator


def interpolation_matrix(xgrid, points):
    """(len(points), len(xgrid)): the grid's basis functions at the points
    (ekoc_interp_eval), to read the evolved PDFs off the grid as eko does."""
    lib = load()
    grid = np.ascontiguousarray(xgrid, dtype=float)
    handle = ffi.new("ekoc_interp **")
    check(lib.ekoc_interp_alloc(dptr(grid), grid.size, DEGREE, handle), "ekoc_interp_alloc")
    try:
        out = np.empty((len(points), grid.size))
        for i, x in enumerate(points):
            row = np.empty(grid.size)
            check(lib.ekoc_interp_eval(handle[0], float(x), dptr(row), grid.size), "ekoc_interp_eval")
            out[i] = row
    finally:
        lib.ekoc_interp_free(handle[0])
    return out


def lha_combinations(labels):
    """(len(labels), 14): the LHA combinations from the flavour basis."""
    ix = {pid: i for i, pid in enumerate(PIDS)}
    rows = {
        "u_v": {2: 1, -2: -1}, "d_v": {1: 1, -1: -1}, "L_m": {-1: 1, -2: -1}, "L_p": {-1: 2, -2: 2},
        "s_v": {3: 1, -3: -1}, "s_p": {3: 1, -3: 1}, "c_p": {4: 1, -4: 1}, "b_p": {5: 1, -5: 1}, "g": {21: 1},
    }
    out = np.zeros((len(labels), len(PIDS)))
    for r, label in enumerate(labels):
        for pid, w in rows[label].items():
            out[r, ix[pid]] = w
    return out


def evolve(scheme, approx, sv, backend, threads, cache):
    """ekoc's x*f at the print points, (11, 8) in the part's LHA labels."""
    theory, operator = cards(scheme, approx, sv)
    t0 = time.perf_counter()
    kw = dict(nspace_cache=cache) if cache is not None else {}
    sol = ekoc.solve(theory, operator, backend=backend, n_threads=threads, **kw)
    wall = time.perf_counter() - t0
    xgrid = np.array(operator["xgrid"])
    pdf0 = np.zeros((len(PIDS), xgrid.size))
    for j, x in enumerate(xgrid):
        if x < 1.0:
            for pid, xf in toy_xf(x).items():
                pdf0[PIDS.index(pid), j] = xf / x
    (target,) = sol.values()
    fout = target.apply(pdf0)  # (14, nx) of f
    labels = EKO[(scheme, approx, sv)]["labels"]
    at_x = interpolation_matrix(xgrid, X) @ fout.T  # (11, 14)
    return np.array(X)[:, None] * (at_x @ lha_combinations(labels).T), int(sol.failures), wall


def within_digit(value, ref):
    """Within one unit of the fifth significant digit of ref (%.4e)."""
    if ref == 0.0:
        return value == 0.0
    return abs(value - ref) <= 10.0 ** (math.floor(math.log10(abs(ref))) - 4) * (1 + 1e-9)


class Tally:
    """One comparison: a subject's values against a reference's."""

    def __init__(self, subject, ref):
        self.subject, self.ref = subject, ref
        self.parts, self.entries, self.within, self.failures = 0, 0, 0, 0
        self.devs, self.worst, self.worst_where = [], -1.0, "-"

    def add(self, where, ours, labels, refv, failures=0, band=None, quiet=False):
        self.parts += 1
        self.failures += failures
        ours, refv = np.asarray(ours), np.asarray(refv)
        colmax = np.abs(refv).max(axis=0)
        if not quiet:
            print(f"\n== {self.subject} vs {self.ref}: {where}  (rel. dev. {self.subject}/{self.ref} - 1; "
                  "'*' beyond one unit of the 5th digit)")
            print("  x      " + "".join(f"{lab:>12}" for lab in labels))
        worst_band = 0.0
        for i, x in enumerate(X):
            cells = []
            for j, lab in enumerate(labels):
                a, b = ours[i, j], refv[i, j]
                ok = within_digit(a, b)
                self.entries += 1
                self.within += ok
                rel = abs(a / b - 1.0) if b != 0.0 else abs(a)
                if abs(b) > 1e-6 * colmax[j]:
                    self.devs.append(rel)
                    if rel > self.worst:
                        self.worst, self.worst_where = rel, f"{where}:{lab}@x={x:g}"
                if band is not None and band[i][j] > 1e-6 * abs(b):  # entries a variation moves
                    worst_band = max(worst_band, abs(a - b) / band[i][j])
                cells.append(f"{a / b - 1.0 if b else a:+11.2e}{' ' if ok else '*'}")
            if not quiet:
                print(f"  {x:<7g}" + "".join(cells))
        if not quiet and band is not None:
            print(f"  largest |{self.subject} - {self.ref}| / (half-width of eko's variation envelope): "
                  f"{worst_band:.3g}")

    def summary(self, wall, backend):
        if not self.parts:
            return
        d = sorted(self.devs)
        median = (d[len(d) // 2] if len(d) % 2 else 0.5 * (d[len(d) // 2 - 1] + d[len(d) // 2])) if d else 0.0
        print(f"LH23 summary: subject={self.subject} ref={self.ref} parts={self.parts} entries={self.entries} "
              f"within_digit={self.within}/{self.entries} failures={self.failures} "
              f"max_rel_dev={self.worst:.3e} median_rel_dev={median:.3e} worst={self.worst_where} "
              f"wall_s={wall:.1f} backend={backend}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="batch", choices=("batch", "adaptive", "gpu"))
    ap.add_argument("--threads", type=int, default=0, help="ekoc threads (0: all cores)")
    ap.add_argument("--parts", default=None, help="comma list of SCHEME/APPROX/sv (default: all 12)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    parts = [tuple(p.split("/")) for p in args.parts.split(",")] if args.parts else list(EKO)
    tallies = {
        "eko": Tally("ekoc", "eko-tables"),  # the study's eko results (older eko)
        "eko_now": Tally("ekoc", "eko-0.15.7"),  # the installed eko, where perf/lh23_eko_now.py has the part
        "msht": Tally("ekoc", "msht"),
        "study": Tally("eko-tables", "msht"),  # the study's own eko/MSHT agreement, for scale
        # what separates ekoc (= eko 0.15.7) from the tables: eko 0.15.7 with the study's gq/gg
        "attribution": Tally("eko-0.15.7-study-gq-gg", "eko-tables"),
    }
    cache = ekoc.NSpaceCache() if args.backend == "batch" else None
    total = 0.0
    for scheme, approx, sv in parts:
        ref = EKO[(scheme, approx, sv)]
        labels = ref["labels"]
        ours, failures, wall = evolve(scheme, approx, sv, args.backend, args.threads, cache)
        total += wall
        where = f"{scheme}/{approx}/{sv}"
        if not args.quiet:
            print(f"\n{where}: ekoc {wall:.1f} s, {failures} flagged integrals")
        tallies["eko"].add(where, ours, labels, ref["central"], failures, band=ref["half_width"], quiet=args.quiet)
        if (scheme, approx, sv) in EKO_NOW:
            tallies["eko_now"].add(where, ours, labels, EKO_NOW[(scheme, approx, sv)], failures, quiet=args.quiet)
        if (scheme, approx, sv) in EKO_STUDY_PARAMS:
            tallies["attribution"].add(where, EKO_STUDY_PARAMS[(scheme, approx, sv)], labels, ref["central"],
                                       quiet=args.quiet)
        if approx == "FHMRUVV" and sv == "central":
            msht = MSHT_FHMRUVV[scheme]["values"]
            tallies["msht"].add(where, ours, labels, msht, failures, quiet=args.quiet)
            tallies["study"].add(where, ref["central"], labels, msht, quiet=args.quiet)
    print()
    for name, tally in tallies.items():
        ours = tally.subject == "ekoc"
        tally.summary(total if ours else 0.0, args.backend if ours else "-")
    return 0


if __name__ == "__main__":
    sys.exit(main())
