#!/usr/bin/env python3
"""ekoc and HOPPET side by side on the LHA toy evolution (issue 17 item 6).

Both codes run in this one process on the setup of docs/physics.md §9 (toy
PDFs at mu0^2 = 2 GeV^2, alpha_s(2 GeV^2) = 0.35, pole masses sqrt(2), 4.5,
175, mu_R = mu_F; ekoc iterate-exact, HOPPET its exact NNLO splitting and
threshold functions) for the cases LO VFNS, NLO VFNS, NNLO VFNS (the target)
and NNLO FFNS (nf = 4), and aN3LO FFNS with the 2512 set (n3lo_ffns_2512:
ekoc's n3lo_ad_set "2512", HOPPET's n3lo_splitting_approximation_up_to_2512 with
the Nfitav variant; not in the default --cases), evolved to Q^2 = 4, 100, 1e4, 1e5 GeV^2 and read at
17 x values from 1e-7 to 0.9 (the LHA print x values and a few more), in the
LHA combinations x u_v, x d_v, x L-, x L+, x s+, x c+, x b+, x g.

Reference: HOPPET at a fine grid (default dy 0.025, interpolation order -6,
dlnlnQ = dy/4, lnlnQ and y read-out orders as HOPPET's defaults), checked by
comparing with the same run at 2 dy (printed as the reference's
self-consistency: its deviation from the 2 dy run bounds the reference's own
error, which shrinks by ~dy^4 per halving).

Per code and setting the table gives the worst and median relative deviation
|v - ref| / |ref| over the (x, Q^2, combination) points with |ref| >= --tiny
and the CPU time (time.process_time, 1 thread):
  * HOPPET: init_s = StartExtended (splitting/threshold convolution tables),
    evolve_s = Evolve (the median of 3, tables kept); HOPPET is single-threaded;
  * ekoc: cold_s = ekoc.solve (n_threads=1) + apply with an empty N-space
    cache, warm_s = the same solve repeated with the cache the cold one
    filled (the median of 3; basis transforms, anomalous dimensions and node
    factors kept, as HOPPET keeps its tables between Evolve calls).
Then the CPU-time ratio HOPPET / ekoc at matched accuracy (--target, default
1e-6): the cheapest setting of each code reaching worst <= target, and the
time interpolated on each code's accuracy-vs-time front (log-log).

usage: EKOC_LIB=build/libekoc.so python3 perf/vs_hoppet.py [--cases nnlo_vfns,...]
           [--hoppet 0.2:-6,0.1:-6,...] [--ekoc 60:4:1e-5:10,...] [--ref-dy 0.025]
           [--physics eko|exact] [--ekoc-ref k0.1:6:1e-8:16:batch:oe]
Settings: HOPPET dy:order, ekoc grid:degree:epsrel:iterations[:backend[:method[:cut]]]
with grid N (lambert grid of N points from 1e-7) or kDZ (the read-out x on the
grid, steps <= DZ in ln(x/(1-x)), dense toward 1, as perf/lha.c's converged
grid), backend batch (default) or adaptive, method ie (iterate-exact, default)
or oe (ordered-exact), cut the Mellin cut (default eko's 0.05; at degree 6 and
more the small-x b+ needs 0.01, perf/STATS.md). --physics eko (default) runs
HOPPET with eko's NNLO choices (parametrised splitting functions, exact
threshold terms), so that the codes solve the same equations up to eko's P_ns^(2)+ constant (perf/STATS.md);
--ekoc-ref measures each code against its own converged run.
Exits 0 with a message when hoppet is not installed (pip install hoppet).
"""
import argparse
import math
import os
import pathlib
import sys
import time

import numpy as np

from lha_toy import toy_xf  # perf/ is this script's folder

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "ffi"))
os.environ.setdefault("EKOC_LIB", str(REPO / "build" / "libekoc.so"))
os.environ.setdefault("OMP_NUM_THREADS", "1")
# unbuffered Fortran output, so that quiet_fd1 catches HOPPET's banner
os.environ.setdefault("GFORTRAN_UNBUFFERED_PRECONNECTED", "y")

try:
    import hoppet
except ImportError:
    print("vs_hoppet: skipped, hoppet is not installed (pip install hoppet==2.3.0)")
    sys.exit(0)

import ekoc  # noqa: E402
from ekoc._lib import ffi, load  # noqa: E402  (ekoc_interp_eval: the grid's own basis)

SQRT2 = math.sqrt(2.0)
# HOPPET crosses a threshold at Q >= m: a charm mass a hair above Q0 = sqrt(2)
# keeps the input and alpha_s(Q0) in nf = 3, as the LHA VFNS (and eko) do.
# The shift (4e-10 relative) moves nothing at the 1e-9 level.
MC_HOPPET = 1.414213563
MASSES = (SQRT2, 4.5, 175.0)
Q2S = (4.0, 100.0, 1e4, 1e5)
XS = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
COMBOS = ("u_v", "d_v", "L-", "L+", "s+", "c+", "b+", "g")
# name -> (order, vfns)
CASES = {"lo_vfns": (1, True), "nlo_vfns": (2, True), "nnlo_vfns": (3, True), "nnlo_ffns": (3, False),
         # aN3LO FFNS with the 2512 set (ekoc n3lo_ad_set "2512"; HOPPET up_to_2512, Nfitav)
         "n3lo_ffns_2512": (4, False)}
PIDS = (22, -6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)  # ekoc.PIDS
HOPPET_PIDS = (-6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)  # HOPPET's 13 entries
YMAX = 16.5  # ln(1/x) reach of HOPPET's grid: x down to 7e-8


def combos(xf):
    """LHA combinations from x f by pid (docs/physics.md §9.3); works on arrays."""
    return np.array([xf[2] - xf[-2], xf[1] - xf[-1], xf[-1] - xf[-2], 2 * (xf[-2] + xf[-1]),
                     xf[3] + xf[-3], xf[4] + xf[-4], xf[5] + xf[-5], xf[21]])


def hoppet_input(x, Q):
    d = toy_xf(x)
    return [d.get(p, 0.0) for p in HOPPET_PIDS]


class quiet_fd1:
    """Sends file descriptor 1 to /dev/null: HOPPET's Fortran banner and grid
    warnings would break the table (the CPU time is unaffected)."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)

    def __exit__(self, *exc):
        os.dup2(self.saved, 1)
        os.close(self.saved)


HOPPET_PHYSICS = {"eko": (True, False), "exact": (True, True)}  # SetExactDGLAP(threshold, splitting)
PHYSICS = "eko"
WARM_REPEATS = 3  # warm times: the median of this many repeats (HOPPET's Evolve, ekoc's solve with a cache)


def run_hoppet(case, dy, order, repeats=WARM_REPEATS):
    """(init_s, evolve_s, values[Q2, x, combo]) of one HOPPET evolution (Evolve `repeats` times)."""
    nloop, vfns = CASES[case]
    hoppet.SetExactDGLAP(*HOPPET_PHYSICS[PHYSICS])
    if nloop == 4:  # the 2512 set: HOPPET's approximate (Nfit) N3LO functions, central
        hoppet.SetApproximateDGLAPN3LO(hoppet.n3lo_splitting_approximation_up_to_2512)
        hoppet.SetSplittingN3LO(hoppet.n3lo_splitting_Nfitav)
    if vfns:
        hoppet.SetPoleMassVFN(MC_HOPPET, MASSES[1], MASSES[2])
    else:
        hoppet.SetFFN(4)
    with quiet_fd1():
        t0 = time.process_time()
        hoppet.StartExtended(YMAX, dy, SQRT2, 1.05 * math.sqrt(max(Q2S)), dy / 4.0, nloop, order,
                             hoppet.factscheme_MSbar)
        t1 = time.process_time()
        evolves = []
        for _ in range(repeats):  # the tables kept: HOPPET's warm evolution, median of the repeats
            t = time.process_time()
            hoppet.Evolve(0.35, SQRT2, nloop, 1.0, hoppet_input, SQRT2)
            evolves.append(time.process_time() - t)
    vals = np.empty((len(Q2S), len(XS), len(COMBOS)))
    for iq, q2 in enumerate(Q2S):
        for ix, x in enumerate(XS):
            e = hoppet.Eval(x, math.sqrt(q2))
            vals[iq, ix] = combos({p: e[k] for k, p in enumerate(HOPPET_PIDS)} | {22: 0.0})
    hoppet.DeleteAll()
    return t1 - t0, float(np.median(evolves)), vals


METHODS = {"ie": "iterate-exact", "oe": "ordered-exact"}
EKO_MELLIN_CUT = 0.05  # eko's default mellin_cut: a setting's cut unless it gives one


def knots_grid(dz, dz_high=None, split=1.0):
    """Every read-out x on the grid, between neighbours equal steps of at most
    dz in ln(x/(1-x)) (log-spaced at small x, geometric in 1-x toward 1), up to
    0.99, then 1 (as perf/lha.c's converged grid, with this script's x); with
    dz_high, steps of at most dz_high between read-out x above `split` (the
    large-x valence-like combinations, L- at x = 0.6-0.8, set the accuracy)."""
    knots = list(XS) + [0.99]
    z = [math.log(k / (1 - k)) for k in knots]
    out = []
    for a, b, za, zb in zip(knots, knots[1:], z, z[1:]):
        step = dz if dz_high is None or b <= split else dz_high
        steps = max(1, math.ceil((zb - za) / step - 0.3))
        out += [a] + [1 / (1 + math.exp(-(za + (zb - za) * q / steps))) for q in range(1, steps)]
    return np.array(out + [0.99, 1.0])


def ekoc_grid(spec):
    """'N': lambert grid of N points from 1e-7; 'kDZ': knots_grid(DZ);
    'kDZ/DZHIGH@SPLIT': knots_grid(DZ, DZHIGH, SPLIT)."""
    if spec.startswith("k") and "/" in spec:
        dz, rest = spec[1:].split("/")
        dz_high, split = rest.split("@")
        return knots_grid(float(dz), float(dz_high), float(split))
    return knots_grid(float(spec[1:])) if spec.startswith("k") else ekoc.lambert_grid(int(spec), 1e-7)


def ekoc_cards(case, xgrid, degree, iterations, method="iterate-exact"):
    order, vfns = CASES[case]
    nf0 = 3 if vfns else 4
    theory = dict(
        order=[order, 0],
        couplings=dict(alphas=0.35, alphaem=0.007496252, ref=[SQRT2, nf0], em_running=False),
        heavy=dict(masses=[[m, math.nan] for m in MASSES], masses_scheme="pole",
                   matching_ratios=[1.0, 1.0, 1.0] if vfns else [0.0, math.inf, math.inf]),
        xif=1.0, n3lo_ad_variation=[0] * 7, use_fhmruvv=False, matching_order=[order - 1, 0])
    if order == 4:
        theory.update(use_fhmruvv=True, n3lo_ad_set="2512")

    def nf_at(q2):
        return 4 if not vfns else 3 + sum(q2 > m * m for m in MASSES)

    operator = dict(
        init=[SQRT2, nf0], mugrid=[[math.sqrt(q2), nf_at(q2)] for q2 in Q2S], xgrid=list(map(float, xgrid)),
        configs=dict(evolution_method=method, ev_op_max_order=[10, 0], ev_op_iterations=iterations,
                     scvar_method=None, inversion_method=None, interpolation_polynomial_degree=degree,
                     interpolation_is_log=True, polarized=False, time_like=False, n_integration_cores=1),
        debug=dict(skip_singlet=False, skip_non_singlet=False))
    return theory, operator


def interp_weights(xgrid, degree):
    """weights[ix, j]: the grid's interpolation basis at the read-out x (ekoc_interp_eval)."""
    lib = load()
    grid = np.ascontiguousarray(xgrid, dtype=float)
    out = ffi.new("ekoc_interp **")
    assert lib.ekoc_interp_alloc(ffi.from_buffer("double[]", grid), len(grid), degree, out) == 0
    w = np.empty((len(XS), len(grid)))
    try:
        for ix, x in enumerate(XS):
            row = np.empty(len(grid))
            assert lib.ekoc_interp_eval(out[0], x, ffi.from_buffer("double[]", row), len(grid)) == 0
            w[ix] = row
    finally:
        lib.ekoc_interp_free(out[0])
    return w


def run_ekoc(case, grid, degree, epsrel, iterations, backend, method="ie", cut=EKO_MELLIN_CUT):
    """(cold_s, warm_s, failures, values[Q2, x, combo]); warm_s is None off the batch and nspace
    backends (their warm_s: the same solve again with the N-space cache the cold one filled)."""
    xgrid = ekoc_grid(grid)
    nx = len(xgrid)
    theory, operator = ekoc_cards(case, xgrid, degree, iterations, METHODS[method])
    f0 = np.zeros((14, nx))
    xf0 = toy_xf(xgrid)
    for k, p in enumerate(PIDS):
        if p in xf0:
            f0[k] = xf0[p] / xgrid
    times, sol, out = [], None, None
    cache = ekoc.NSpaceCache() if backend in ("batch", "nspace") else None
    for _ in range(1 + WARM_REPEATS if backend in ("batch", "nspace") else 1):
        kw = dict(nspace_cache=cache) if cache is not None else {}
        t0 = time.process_time()
        sol = ekoc.solve(theory, operator, backend, n_threads=1, progress=False, epsrel=epsrel, mellin_cut=cut,
                         physics=PHYSICS, **kw)
        out = sol.apply(f0)
        times.append(time.process_time() - t0)
    w = interp_weights(xgrid, degree)
    vals = np.empty((len(Q2S), len(XS), len(COMBOS)))
    keys = sorted(out)  # (mu2, nf) ascending in mu2, as Q2S
    for iq, key in enumerate(keys):
        f = out[key] @ w.T  # (14, nx_out): f at the read-out x
        xf = {p: f[k] * np.asarray(XS) for k, p in enumerate(PIDS)}
        vals[iq] = combos(xf).T
    return times[0], (float(np.median(times[1:])) if len(times) > 1 else None), sol.failures, vals


SKIP = ()  # combinations left out of the comparison (--skip)


def deviations(vals, ref, tiny):
    mask = np.abs(ref) >= tiny
    for c in SKIP:
        mask[:, :, COMBOS.index(c)] = False
    rel = np.abs(vals - ref)[mask] / np.abs(ref)[mask]
    at = np.argwhere(mask)[int(np.argmax(rel))]
    where = f"{COMBOS[at[2]]}@x={XS[at[1]]:g},Q2={Q2S[at[0]]:g}"
    return float(rel.max()), float(np.median(rel)), where, int(mask.sum())


def time_at(points, target):
    """CPU time to reach worst <= target on the accuracy-vs-time front (log-log
    interpolation between the last front point above and the first below)."""
    front, best = [], math.inf
    for t, worst in sorted(points):
        if worst < best:
            best = worst
            front.append((t, worst))
    for (t0, w0), (t1, w1) in zip(front, front[1:]):
        if w0 > target >= w1:
            s = (math.log(target) - math.log(w0)) / (math.log(w1) - math.log(w0))
            return math.exp(math.log(t0) + s * (math.log(t1) - math.log(t0)))
    if front and front[0][1] <= target:
        return front[0][0]
    return None


def fmt(v, spec=".3g"):
    return "-" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default="nnlo_vfns,lo_vfns,nlo_vfns,nnlo_ffns")
    ap.add_argument("--hoppet", default="0.2:-6,0.1:-6,0.1:-5,0.05:-6")
    ap.add_argument("--ekoc", default="60:4:1e-5:10,100:4:1e-6:40,150:4:1e-6:40,200:4:1e-7:160,"
                                      "100:5:1e-6:40,150:5:1e-7:160,100:6:1e-7:40,150:6:1e-7:160,200:6:1e-8:160")
    ap.add_argument("--other-cases", default="first,last",
                    help="which settings of each list run on the cases after the first: 'all' or 'first,last'")
    ap.add_argument("--ref-dy", type=float, default=0.025)
    ap.add_argument("--ref-order", type=int, default=-6)
    ap.add_argument("--tiny", type=float, default=1e-7, help="points with |x f_ref| below this are skipped")
    ap.add_argument("--target", type=float, default=1e-6)
    ap.add_argument("--physics", default="eko", choices=sorted(HOPPET_PHYSICS),
                    help="HOPPET's NNLO: 'eko' = parametrised splitting functions and exact threshold terms "
                         "(eko's and ekoc's choice), 'exact' = both exact; ekoc runs with the same physics= "
                         "(exact: the exact g3 and the exact NNLO anomalous dimensions, docs/physics.md §12.11)")
    ap.add_argument("--ekoc-ref", default="",
                    help="an ekoc setting (same syntax as --ekoc) as ekoc's own reference: ekoc's accuracy is then "
                         "measured against it, HOPPET's against HOPPET's, and the two references are compared")
    ap.add_argument("--skip", default="",
                    help="combinations to leave out, e.g. 'L-,L+' (the ones eko's P_ns^(2)+ constant moves most)")
    a = ap.parse_args()
    global PHYSICS, SKIP
    PHYSICS = a.physics
    SKIP = tuple(c for c in a.skip.split(",") if c)

    hsets = [(float(d), int(o)) for d, o in (s.split(":") for s in a.hoppet.split(","))]
    def parse_ekoc(s):
        f = s.split(":")
        return (f[0], int(f[1]), float(f[2]), int(f[3]), f[4] if len(f) > 4 else "batch", f[5] if len(f) > 5 else "ie",
                float(f[6]) if len(f) > 6 else EKO_MELLIN_CUT)

    esets = [parse_ekoc(s) for s in a.ekoc.split(",")]
    eref = parse_ekoc(a.ekoc_ref) if a.ekoc_ref else None
    cases = a.cases.split(",")
    print(f"# vs_hoppet: hoppet {getattr(hoppet, '__version__', '2.3.0')}, ekoc {ekoc.library_path()}")
    print(f"# {len(XS)} x in [1e-7, 0.9], Q2 = {Q2S}, combos {COMBOS}, |x f_ref| >= {a.tiny:g}, "
          f"HOPPET physics {PHYSICS}, skipped {SKIP or 'none'}")
    summary = {}
    for ic, case in enumerate(cases):
        hs, es = hsets, esets
        if ic > 0 and a.other_cases != "all":
            hs, es = [hsets[0], hsets[-1]], [esets[0], esets[-1]]
        t_ref = time.process_time()
        ri, rv, ref = run_hoppet(case, a.ref_dy, a.ref_order, 1)
        ci, cv, chk = run_hoppet(case, 2 * a.ref_dy, a.ref_order, 1)
        cw, cm, cwhere, npts = deviations(chk, ref, a.tiny)
        print(f"\n## {case}: reference HOPPET dy={a.ref_dy:g} order={a.ref_order} (init {ri:.2f} s, evolve "
              f"{rv:.2f} s); self-consistency vs dy={2 * a.ref_dy:g}: worst {cw:.2e} ({cwhere}) median {cm:.2e}; "
              f"{npts} points ({time.process_time() - t_ref:.0f} s)")
        eref_vals = None
        if eref:
            _, _, rfails, eref_vals = run_ekoc(case, *eref)
            w, m, where, _ = deviations(eref_vals, ref, a.tiny)
            print(f"ekoc reference {eref} ({rfails} failures) vs HOPPET reference: worst {w:.2e} ({where}) "
                  f"median {m:.2e}: the difference of the two codes' physics and numerics at convergence")
        print(f"| code | setting | worst | median | worst at | CPU s (HOPPET init+evolve / ekoc cold) "
              f"| CPU s (HOPPET evolve / ekoc warm) | failures |")
        print("|---|---|---:|---:|---|---:|---:|---:|")
        hp, ep = [], []
        for dy, order in hs:
            if dy == 2 * a.ref_dy and order == a.ref_order:
                ti, tv, v = ci, cv, chk
            else:
                ti, tv, v = run_hoppet(case, dy, order)
            w, m, where, _ = deviations(v, ref, a.tiny)
            hp.append((ti + tv, tv, w))
            print(f"| HOPPET | dy={dy:g} order={order} | {w:.2e} | {m:.2e} | {where} | {ti + tv:.3f} "
                  f"({ti:.3f}+{tv:.3f}) | {tv:.3f} | - |", flush=True)
        for grid, deg, eps, it, backend, method, cut in es:
            tc, tw, fails, v = run_ekoc(case, grid, deg, eps, it, backend, method, cut)
            w, m, where, _ = deviations(v, ref if eref_vals is None else eref_vals, a.tiny)
            ep.append((tc, tw, w))
            gname = f"knots dz {grid[1:]} ({len(ekoc_grid(grid))} pts)" if grid.startswith("k") else f"lambert {grid}"
            name = f"{gname} deg {deg} epsrel {eps:g} {METHODS[method]} {it}" + ("" if backend == "batch" else f" {backend}")
            name += "" if cut == EKO_MELLIN_CUT else f" cut {cut:g}"
            print(f"| ekoc | {name} | {w:.2e} | {m:.2e} | {where} | {tc:.3f} | {fmt(tw, '.3f')} | {fails} |",
                  flush=True)
        summary[case] = (hp, ep)
    for case, (hp, ep) in summary.items():
        print(f"\n## {case}: CPU time at matched accuracy worst <= {a.target:g}")
        for label, hi, ei in (("cold (HOPPET init+evolve vs ekoc cold)", 0, 0),
                              ("warm (HOPPET evolve vs ekoc warm)", 1, 1)):
            hok = [p[hi] for p in hp if p[2] <= a.target]
            eok = [p[ei] for p in ep if p[2] <= a.target and p[ei] is not None]
            hmin, emin = (min(hok) if hok else None), (min(eok) if eok else None)
            hint = time_at([(p[hi], p[2]) for p in hp], a.target)
            eint = time_at([(p[ei], p[2]) for p in ep if p[ei] is not None], a.target)
            ratio = f"{hmin / emin:.2f}" if hmin and emin else "-"
            iratio = f"{hint / eint:.2f}" if hint and eint else "-"
            print(f"- {label}: cheapest reaching it HOPPET {fmt(hmin, '.3f')} s, ekoc {fmt(emin, '.3f')} s, "
                  f"ratio HOPPET/ekoc {ratio}; interpolated on the fronts HOPPET {fmt(hint, '.3f')} s, "
                  f"ekoc {fmt(eint, '.3f')} s, ratio {iratio}")


if __name__ == "__main__":
    main()
