#!/usr/bin/env python3
"""Writes perf/lha_time_like_ref.h: a converged HOPPET reference for the
time-like (fragmentation-function) benchmark perf/lha_time_like.c.

Why HOPPET and not the published tables. The reference tables of time-like
evolution are those of V. Bertone, S. Carrazza, E. R. Nocera, "Reference
results for time-like evolution up to O(alpha_s^3)", arXiv:1501.00494,
JHEP 03 (2015) 046 (APFEL against MELA). Their text was not available here
beyond the abstract and introduction, so neither their settings nor their
values could be transcribed reliably (perf/STATS.md, docs/physics.md §16.4).
This script makes an independent converged reference on cards of our own:
HOPPET, x-space (G. P. Salam and J. Rojo, Comput. Phys. Commun. 180 (2009)
120, arXiv:0804.3755; PyPI hoppet 2.3.0), factorisation scheme
factscheme_FragMSbar, which evolves fragmentation functions at LO and NLO
only (HOPPET has no time-like NNLO) and matches at the NLO flavour thresholds
continuously (HOPPET warns "nloop=2 fragmentation flavour thresholds not
implemented"), so the NLO VFNS parts compare with ekoc at matching order 0.

The cards (perf/lha_time_like.c evolves the same):
  input:  the HKNS07 NLO pi+ light-parton fragmentation functions of
          M. Hirai, S. Kumano, T.-H. Nagai, K. Sudoh, hep-ph/0702250, in the
          form that MELA (the N-space code of arXiv:1501.00494) uses as its
          time-like input: x D_i(x) = M_i x^(a_i+1) (1-x)^b_i / B(a_i+2, b_i+1)
          (M_i the momentum fraction), D_u = D_dbar (M 0.401, a -0.963,
          b 1.370), D_d = D_ubar = D_s = D_sbar (M 0.094, a 0.718, b 6.266),
          D_g (M 0.238, a 1.943, b 8.0), heavy quarks 0; taken at
          mu_0^2 = 2 GeV^2 (the LHA scales, so that the LHA coupling setup
          of perf/gen_lha_hoppet.py carries over unchanged);
  QCD:    alpha_s = 0.35 at mu_R^2 = 2 GeV^2 (nf = 3 in the VFNS), pole masses
          sqrt(2), 4.5, 175; FFNS nf = 4; mu_F^2 = 1e4 GeV^2;
          mu_R^2/mu_F^2 = 1, 2, 1/2 at NLO (exponentiated in ekoc, as the LHA);
  output: x D at x = 1e-5 .. 0.9 (MELA's printed points) of u+ = u + ubar,
          d+, s+, c+, b+, g and u- = u - ubar (the ns- combination; the
          valence sum V vanishes for this pi+ model, so the nsV sector
          enters nowhere: see --nsv-slip).
Parts (table/part, our numbering): 1/1 LO FFNS, 1/2 LO VFNS; 2/1-2/3 NLO
FFNS at mu_R^2/mu_F^2 = 1, 2, 1/2; 3/1-3/3 the same in the VFNS.

HOPPET settings: as perf/gen_lha_hoppet.py (ymax 17, interpolation order -6,
dlnlnQ = dy/4, convolution eps 1e-10 through HOPPET's Fortran symbol, values
read with Eval at Q = 100 GeV, VFNS parts with mu_R != mu_F in two runs with
the LHA couplings); every part at dy = 0.05, 0.025, 0.0125 (--dys); the finest
is the reference, the largest relative change between the two finest (over
entries above 1e-12) its convergence figure. The error falls about 5x
per halving of dy (worst: c+ and b+ at x = 0.9), so dy = 0.0125 is the
default finest (HOPPET CPU time about 200 s).

--nsv-slip prints the effect of eko's time-like NNLO nsV sign (which ekoc
copies, docs/physics.md §16.2) on the Mellin moments of a valence
distribution evolved mu_0^2 = 2 -> 1e4 GeV^2 at nf = 4 (eko's own gamma_nsv
against gamma_nsm - nf P_S, eko's own pieces recombined).

usage: nice -n 10 python3 perf/gen_lha_time_like.py [--out perf/lha_time_like_ref.h]
           [--dys 0.05,0.025,0.0125] [--jobs 2] [--parts 2/1,3/2] [--nsv-slip]
Each HOPPET evolution runs in its own process (HOPPET's settings are module
state). Exits 0 with a message without hoppet.
"""
import argparse
import concurrent.futures
import math
import os
import pathlib
import sys
import tempfile
import time

# perf/ is this script's folder: the LHA coupling setup and HOPPET helpers are shared
from gen_lha_hoppet import (I_B, I_BB, I_C, I_CB, I_D, I_DB, I_G, I_S, I_SB, I_U, I_UB, ORDER, SQRT2, TINY, YMAX,
                            hoppet_version, run_chain, run_worker, segment_input, segment_result, start_worker)

REPO = pathlib.Path(__file__).resolve().parent.parent
PRINT_X = (1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7, 0.9)
LABELS = ("u_p", "d_p", "s_p", "c_p", "b_p", "g", "u_m")
CONV_EPS = float(os.environ.get("LHA_HOPPET_CONV_EPS", "1e-10"))
# (table, part) -> (nloop, vfns, rho = mu_R^2 / mu_F^2)
PARTS = {
    (1, 1): (1, False, 1.0), (1, 2): (1, True, 1.0),
    (2, 1): (2, False, 1.0), (2, 2): (2, False, 2.0), (2, 3): (2, False, 0.5),
    (3, 1): (2, True, 1.0), (3, 2): (2, True, 2.0), (3, 3): (2, True, 0.5),
}
# HKNS07 NLO pi+ at the input scale: (momentum fraction M, a, b) of x D = M x^(a+1) (1-x)^b / B(a+2, b+1)
HKNS_FAVOURED = (0.401, -0.963, 1.370)    # D_u = D_dbar
HKNS_UNFAVOURED = (0.094, 0.718, 6.266)  # D_d = D_ubar = D_s = D_sbar
HKNS_GLUON = (0.238, 1.943, 8.0)


def hkns_term(x, params):
    """x D(x) of one HKNS07 parton: M x^(a+1) (1-x)^b / B(a+2, b+1)."""
    m, a, b = params
    norm = math.exp(math.lgamma(a + 2.0) + math.lgamma(b + 1.0) - math.lgamma(a + b + 3.0))
    return m / norm * x ** (a + 1.0) * (1.0 - x) ** b


def hkns_xd(x, Q=None):
    """x D_i(x) of the pi+ model at mu_0 in HOPPET's order (tbar .. t); heavy quarks 0."""
    fav, unf, glue = hkns_term(x, HKNS_FAVOURED), hkns_term(x, HKNS_UNFAVOURED), hkns_term(x, HKNS_GLUON)
    xd = [0.0] * 13
    xd[I_U] = xd[I_DB] = fav
    xd[I_D] = xd[I_UB] = xd[I_S] = xd[I_SB] = unf
    xd[I_G] = glue
    return xd


def combinations(xd):
    """x times the printed combinations, from x D in HOPPET order."""
    return {"u_p": xd[I_U] + xd[I_UB], "d_p": xd[I_D] + xd[I_DB], "s_p": xd[I_S] + xd[I_SB],
            "c_p": xd[I_C] + xd[I_CB], "b_p": xd[I_B] + xd[I_BB], "g": xd[I_G], "u_m": xd[I_U] - xd[I_UB]}


# ---------------------------------------------------------------- worker (one HOPPET run)

def worker(spec_path):
    """One HOPPET time-like evolution described by the JSON file spec_path;
    writes its result (JSON) to spec["out"]. Segments as perf/gen_lha_hoppet.py:
    "full" (mu_0 -> 100 GeV), "to_mb" (mu_0 -> m_b, values at the grid nodes), "from_mb"."""
    spec, hoppet, q_lo, q_hi = start_worker(spec_path)
    t0 = time.process_time()
    hoppet.StartExtended(YMAX, spec["dy"], q_lo, q_hi, spec["dy"] / 4.0, spec["nloop"], ORDER,
                         hoppet.factscheme_FragMSbar)
    requested, missing = set(), []
    ff_in = segment_input(spec, hkns_xd, requested, missing)
    hoppet.Evolve(spec["alpha"], spec["q_alpha"], spec["nloop"], math.sqrt(spec["rho"]), ff_in, q_lo)
    segment_result(hoppet, spec, requested, missing, combinations, PRINT_X, {"cpu_s": time.process_time() - t0})


# ---------------------------------------------------------------- driver

def evolve_part(key, dy, workdir):
    """{x: {label: x D}} of one part at one dy, and the CPU seconds (two runs for
    the VFNS parts with mu_R != mu_F, as perf/gen_lha_hoppet.py explains)."""
    nloop, vfns, rho = PARTS[key]
    base = dict(key="%d-%d" % key, nloop=nloop, vfns=vfns, rho=rho, dy=dy, conv_eps=CONV_EPS)
    if not (vfns and rho != 1.0):
        r = run_worker(dict(base, segment="full", alpha=0.35, q_alpha=SQRT2), workdir, __file__)
        return r["values"], r["cpu_s"]
    r1, r2 = run_chain(base, nloop, rho, workdir, "tl", __file__)
    return r2["values"], r1["cpu_s"] + r2["cpu_s"]


def max_rel_diff(a, b):
    """Largest |a - b| / |b| over the entries with |b| > TINY, and where."""
    worst, where = 0.0, ""
    for x in PRINT_X:
        for lab in LABELS:
            ref = b[repr(x)][lab]
            if abs(ref) > TINY:
                d = abs(a[repr(x)][lab] - ref) / abs(ref)
                if d > worst:
                    worst, where = d, "%s x=%g" % (lab, x)
    return worst, where


def write_header(path, results, conv, dys, version, cpu):
    finest = dys[-1]
    lines = [
        "/* lha_time_like_ref.h: a converged HOPPET reference for the time-like benchmark",
        " * perf/lha_time_like.c: x D(x) at mu_F^2 = 1e4 GeV^2 of the HKNS07 NLO pi+ light-parton",
        " * model (hep-ph/0702250; heavy quarks 0) given at mu_0^2 = 2 GeV^2, alpha_s(2 GeV^2) = 0.35,",
        " * pole masses sqrt(2), 4.5, 175, FFNS nf = 4 (docs/physics.md §16.4). The published tables",
        " * of arXiv:1501.00494 were not available (see the generator).",
        " * Generated by perf/gen_lha_time_like.py with HOPPET %s from PyPI (G. P. Salam and J. Rojo," % version,
        " * Comput. Phys. Commun. 180 (2009) 120, arXiv:0804.3755): factscheme_FragMSbar (LO and NLO;",
        " * NLO flavour thresholds continuous), StartExtended(ymax %g, dy, Q range of the run," % YMAX,
        " * dlnlnQ = dy/4, nloop, order %d), convolution eps %g, Eval at Q = 100 GeV;" % (ORDER, CONV_EPS),
        " * dy = %s, values from dy = %g. Do not edit." % (", ".join("%g" % d for d in dys), finest),
        " * Parts: 1/1 LO FFNS, 1/2 LO VFNS, 2/1-3 NLO FFNS and 3/1-3 NLO VFNS at",
        " * mu_R^2/mu_F^2 = 1, 2, 1/2 (VFNS rho != 1 in two runs with the LHA couplings).",
        " * rel_change: the largest |v(dy=%g) - v(dy=%g)| / |v| over the entries above %g;" % (dys[-2], finest, TINY),
        " * the error falls about 5x per halving of dy here (compare the two columns below;",
        " * the worst entries are the heavy quarks at x = 0.9), so the values' own error is",
        " * about 1/4 of rel_change.",
        " * Convergence (rel. change dy %g -> %g, and %g -> %g):" % (dys[-2], finest, dys[0], finest),
    ]
    for key in sorted(PARTS):
        c = conv[key]
        lines.append(" *   %d/%d  %.1e (%s)   %.1e" % (key[0], key[1], c[0], c[1], c[2]))
    lines.append(" * CPU time of the HOPPET runs: %.0f s (all dy and parts). */" % cpu)
    lines += [
        "#ifndef EKOC_LHA_TIME_LIKE_REF_H",
        "#define EKOC_LHA_TIME_LIKE_REF_H",
        "",
        "#define LHA_TL_NX %d" % len(PRINT_X),
        "static const double lha_tl_x[LHA_TL_NX] = {%s};" % ", ".join("%g" % x for x in PRINT_X),
        "#define LHA_TL_NCOL %d" % len(LABELS),
        "",
        "/* value: x D(x) at lha_tl_x */",
        "typedef struct lha_tl_column { const char *label; double value[LHA_TL_NX]; } lha_tl_column;",
        "typedef struct lha_tl_part {",
        "  int table, part, order, vfns;",
        "  double rho;        /* mu_R^2 / mu_F^2 */",
        "  double rel_change; /* convergence figure, see above */",
        "  lha_tl_column columns[LHA_TL_NCOL];",
        "} lha_tl_part;",
        "",
        "static const lha_tl_part lha_tl_parts[] = {",
    ]
    body = []
    for key in sorted(PARTS):
        nloop, vfns, rho = PARTS[key]
        vals = results[(key, finest)]
        cols = ['{"%s", {%s}}' % (lab, ", ".join("%.10e" % vals[repr(x)][lab] for x in PRINT_X)) for lab in LABELS]
        body.append("  {%d, %d, %d, %d, %g, %.1e, {\n    %s}}" % (key[0], key[1], nloop, int(vfns), rho, conv[key][0],
                                                              ",\n    ".join(cols)))
    lines.append(",\n".join(body))
    lines += ["};", "#define LHA_TL_N_PARTS ((int)(sizeof lha_tl_parts / sizeof lha_tl_parts[0]))", "", "#endif", ""]
    pathlib.Path(path).write_text("\n".join(lines))


def nsv_slip():
    """Prints, for valence moments N = 2..10 (eko divides by zero at N = 1), the factor by which eko's time-like NNLO
    gamma_nsv changes the evolution mu_0^2 = 2 -> 1e4 GeV^2 (nf = 4, alpha_s(2) = 0.35,
    the NNLO coupling) against gamma_nsm - nf P_S: exp(dgamma2 * int a / (b0 + b1 a + b2 a^2) da)
    over [a(mu_0), a(mu)], from the exact NNLO solution of the non-singlet equation."""
    import numpy as np
    from scipy.integrate import quad
    from ekore.anomalous_dimensions.unpolarized.time_like import as3
    from ekore.harmonics import cache as hcache
    from gen_lha_hoppet import beta_coefficients, run_coupling
    nf = 4
    b0, b1, b2 = beta_coefficients(nf)
    a0 = 0.35 / (4 * math.pi)
    a1 = run_coupling(a0, SQRT2, 100.0, nf, 3)
    weight = quad(lambda a: a / (b0 + b1 * a + b2 * a * a), a1, a0, epsabs=0, epsrel=1e-12)[0]
    print("eko time-like NNLO nsV sign (docs/physics.md §16.2): valence moments, mu_0^2 = 2 -> 1e4 GeV^2, nf = 4,")
    print("a_s %.6f -> %.6f; factor = E(eko gamma_nsv) / E(gamma_nsm - nf P_S)" % (a0, a1))
    for n in range(2, 11):
        c = hcache.reset()
        g_v = complex(as3.gamma_nsv(complex(n), nf, c))
        c = hcache.reset()
        g_m = complex(as3.gamma_nsm(complex(n), nf, c))
        # eko: g_v = -(g_m + nf PS2), so the intended value g_m - nf PS2 = -g_v - 2 nf PS2 + ... ;
        # solved: nf PS2 = -g_v - g_m, intended = g_m + (g_v + g_m) = g_v + 2 g_m
        intended = g_v + 2 * g_m
        factor = np.exp((intended - g_v).real * weight)
        print("  N=%2d  gamma_nsv(eko) %10.3f  intended %10.3f  factor %.6f" % (n, g_v.real, intended.real, factor))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(REPO / "perf" / "lha_time_like_ref.h"))
    ap.add_argument("--dys", default="0.05,0.025,0.0125")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--parts", help="only these parts (no header is written), e.g. 2/1,3/2")
    ap.add_argument("--nsv-slip", action="store_true")
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return 0
    if args.nsv_slip:
        nsv_slip()
        return 0
    version = hoppet_version("gen_lha_time_like")
    if version is None:
        return 0
    dys = [float(d) for d in args.dys.split(",")]
    keys = sorted(PARTS)
    if args.parts:
        keys = [tuple(int(v) for v in p.split("/")) for p in args.parts.split(",")]
    tasks = sorted(((key, dy) for dy in dys for key in keys), key=lambda t: -1.0 / t[1])  # fine grids first
    results, cpu, t_start = {}, 0.0, time.time()
    with tempfile.TemporaryDirectory(prefix="lha_time_like_") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(evolve_part, key, dy, pathlib.Path(tmp)): (key, dy) for key, dy in tasks}
        for f in concurrent.futures.as_completed(futures):
            key, dy = futures[f]
            results[(key, dy)], s = f.result()
            cpu += s
            print("  %d/%d dy %-6g %6.1f s CPU  (%.0f s wall so far)" % (key[0], key[1], dy, s, time.time() - t_start),
                  file=sys.stderr)
    conv = {}
    print("convergence (max rel change over entries > %g): dy %g -> %g, and %g -> %g" % (
        TINY, dys[-2], dys[-1], dys[0], dys[-1]))
    for key in keys:
        fine = results[(key, dys[-1])]
        d1, where = max_rel_diff(results[(key, dys[-2])], fine)
        d0, _ = max_rel_diff(results[(key, dys[0])], fine)
        conv[key] = (d1, where, d0)
        print("  %d/%d %.1e (%s)  %.1e" % (key[0], key[1], d1, where, d0))
    print("HOPPET CPU time %.0f s, wall %.0f s" % (cpu, time.time() - t_start))
    if not args.parts:
        write_header(args.out, results, conv, dys, version, cpu)
        print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
