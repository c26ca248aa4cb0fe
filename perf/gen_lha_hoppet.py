#!/usr/bin/env python3
"""Writes perf/lha_hoppet_ref.h: a converged HOPPET reference for the 14
evolved parts of the Les Houches PDF-evolution benchmark that `make lha`
(perf/lha.c) compares with the published tables (perf/lha_tables.h).

HOPPET: G. P. Salam and J. Rojo, Comput. Phys. Commun. 180 (2009) 120,
arXiv:0804.3755; the PyPI package hoppet 2.3.0 (pip install hoppet==2.3.0).

Setup (docs/physics.md §2.4 and §9): the LHA toy PDFs at mu_0^2 = 2 GeV^2,
alpha_s = 0.35 at mu_R^2 = 2 GeV^2 (three flavours in the VFNS), pole masses
sqrt(2), 4.5, 175, printed at mu_F^2 = 1e4 GeV^2 as x times u_v, d_v, L_m,
L_p, s_v, s_p, c_p, b_p, g. Every part is evolved at three grid spacings
(--dys, default 0.1, 0.05, 0.025 in y = ln 1/x; interpolation order -6,
dlnlnQ = dy/4, ymax = 17, HOPPET's convolution precision raised from 1e-7 to
1e-10 (env LHA_HOPPET_CONV_EPS), read with Eval at Q = 100 GeV, the last node
of the Q table); the finest is the reference and the largest
relative difference between the two finest, over the entries above 1e-12
in size, is its convergence figure. At NNLO there are two variants:
  param: HOPPET's parametrised NNLO splitting and threshold functions
         (SetExactDGLAP(False, False)), the physics of the published tables;
  exact: the exact ones (SetExactDGLAP(True, True)).
At LO and NLO the variants coincide (they differ only at NNLO), so those
parts are computed once and written into both.

How the LHA scale variation maps onto HOPPET. mu_R = sqrt(rho) mu_F enters
as Evolve's muR_Q = sqrt(rho), with alpha_s given at its own argument:
Evolve(0.35, sqrt(2), ...). In the FFNS that is all. In the VFNS the LHA
coupling has its thresholds at mu_R = sqrt(rho) m_h, i.e. at the PDF
thresholds mu_F = m_h, with decoupling logarithms L = ln rho
(docs/physics.md §2.3, §7.1); HOPPET's streamlined interface puts them at
mu_R = m_h with L = 0 and extrapolates alpha_s^(nf) beyond, which differs
at the next order (about 1% in the PDFs). The VFNS parts with rho != 1 are
therefore evolved in two HOPPET runs with the LHA couplings:
  1. mu_0 -> m_b, with alpha_s given as the LHA alpha_s^(4) at 3 GeV, so
     that every four-flavour coupling HOPPET uses (its alpha_s at
     sqrt(rho) mu_F, at fixed nf = 4) is the LHA one;
  2. m_b -> 100 GeV from the PDFs of run 1 at m_b (read at the grid
     nodes, which both runs share), with the LHA alpha_s^(5) at 10 GeV.
The LHA couplings are computed here from the truncated RGE (integrated to
1e-13) and the pole-mass decoupling of docs/physics.md §2.3. HOPPET is
given m_c and m_b a hair (4.4e-10 relative) above sqrt(2) and 4.5 so that
the input scales stay below the thresholds, as in the LHA.

usage: nice -n 10 python3 perf/gen_lha_hoppet.py [--out perf/lha_hoppet_ref.h]
           [--dys 0.1,0.05,0.025] [--jobs 2] [--tables perf/lha_tables.h]
           [--parts 4/2,15/3] [--chain-check]
Prints the convergence figures and the published entries that differ from
the converged "param" values by more than one unit of their last printed
digit. --chain-check evolves the rho = 1 VFNS parts both ways (direct, and
in two runs as above) at the middle dy and prints the largest difference.
Each HOPPET evolution runs in its own process (HOPPET's settings are module
state that does not reset reliably). Exits 0 with a message without hoppet.
"""
import argparse
import bisect
import concurrent.futures
import json
import math
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

from lha_toy import toy_xf  # perf/ is this script's folder

REPO = pathlib.Path(__file__).resolve().parent.parent
SQRT2 = math.sqrt(2.0)
# thresholds a hair above the scales where the LHA starts a segment
MC_HOPPET = 1.414213563
MB_HOPPET = 4.500000002
MB, MT = 4.5, 175.0
Q_FINAL = 100.0
YMAX, ORDER = 17.0, -6
Q4_REF, Q5_REF = 3.0, 10.0  # where the LHA alpha_s^(4), alpha_s^(5) are handed to HOPPET
PRINT_X = (1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5, 0.7, 0.9)
CONV_EPS = float(os.environ.get("LHA_HOPPET_CONV_EPS", "1e-10"))
TINY = 1e-12  # entries at or below this size are left out of the convergence figures

# (table, part) -> (nloop, vfns, rho = mu_R^2 / mu_F^2), as perf/lha.c
PARTS = {
    (2, 2): (1, False, 1.0), (2, 3): (1, True, 1.0),
    (3, 1): (2, False, 1.0), (3, 2): (2, False, 2.0), (3, 3): (2, False, 0.5),
    (4, 1): (2, True, 1.0), (4, 2): (2, True, 2.0), (4, 3): (2, True, 0.5),
    (14, 1): (3, False, 1.0), (14, 2): (3, False, 2.0), (14, 3): (3, False, 0.5),
    (15, 1): (3, True, 1.0), (15, 2): (3, True, 2.0), (15, 3): (3, True, 0.5),
}
VARIANTS = ("param", "exact")


def labels_of(table):
    """The columns the published tables print (table 14, FFNS NNLO, has s_v instead of b_p)."""
    if table == 14:
        return ("u_v", "d_v", "L_m", "L_p", "s_v", "s_p", "c_p", "g")
    return ("u_v", "d_v", "L_m", "L_p", "s_p", "c_p", "b_p", "g")


# HOPPET's flavour order in the 13 entries: tbar bbar cbar sbar ubar dbar g d u s c b t
I_TB, I_BB, I_CB, I_SB, I_UB, I_DB, I_G, I_D, I_U, I_S, I_C, I_B, I_T = range(13)


HOPPET_PIDS = (-6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)  # the 13 entries' PDG ids


def hoppet_toy_xf(x, Q=None):
    """The LHA toy PDFs at mu_0 (x f, HOPPET order; perf/lha_toy.py)."""
    xf = toy_xf(x)
    return [xf.get(p, 0.0) for p in HOPPET_PIDS]


def combinations(xf):
    """x times the printed combinations, from x f in HOPPET order."""
    return {"u_v": xf[I_U] - xf[I_UB], "d_v": xf[I_D] - xf[I_DB], "L_m": xf[I_DB] - xf[I_UB],
            "L_p": 2.0 * (xf[I_UB] + xf[I_DB]), "s_v": xf[I_S] - xf[I_SB], "s_p": xf[I_S] + xf[I_SB],
            "c_p": xf[I_C] + xf[I_CB], "b_p": xf[I_B] + xf[I_BB], "g": xf[I_G]}


# ---------------------------------------------------------------- LHA coupling

def beta_coefficients(nf):
    """beta_0..beta_2 for a_s = alpha_s / (4 pi) (docs/physics.md §2.1)."""
    return (11.0 - 2.0 * nf / 3.0, 102.0 - 38.0 * nf / 3.0,
            2857.0 / 2.0 - 5033.0 / 18.0 * nf + 325.0 / 54.0 * nf * nf)


def run_coupling(a0, mu0, mu1, nf, nloop):
    """a_s(mu1) from a_s(mu0) at fixed nf: the truncated RGE da/dln mu^2 =
    -a^2 sum_k beta_k a^k, integrated to 1e-13 relative (DOP853)."""
    from scipy.integrate import solve_ivp
    betas = beta_coefficients(nf)[:nloop]

    def rhs(_, a):
        return [-a[0] ** 2 * sum(b * a[0] ** k for k, b in enumerate(betas))]
    if mu0 == mu1:
        return a0
    sol = solve_ivp(rhs, (0.0, math.log(mu1 * mu1 / (mu0 * mu0))), [a0], method="DOP853",
                    rtol=1e-13, atol=1e-20)
    return float(sol.y[0, -1])


def decouple_up(a, L, nloop):
    """a_s^(nf+1) from a_s^(nf) at a threshold with L = ln(mu^2 / m_h^2), pole
    masses (docs/physics.md §2.3): c11 = 2/3, c20 = 14/3, c21 = 38/3, c22 = 4/9,
    the terms up to a^(nloop-1)."""
    factor = 1.0
    if nloop >= 2:
        factor += a * (2.0 / 3.0) * L
    if nloop >= 3:
        factor += a * a * (14.0 / 3.0 + 38.0 / 3.0 * L + 4.0 / 9.0 * L * L)
    return a * factor


def lha_vfns_couplings(nloop, rho):
    """(alpha_s^(4)(Q4_REF), alpha_s^(5)(Q5_REF)) of the LHA VFNS: 0.35 = alpha_s^(3)
    at sqrt(2) GeV, thresholds at mu_R = sqrt(rho) m_h with L = ln rho."""
    k, L = math.sqrt(rho), math.log(rho)
    a3 = 0.35 / (4.0 * math.pi)
    a4 = decouple_up(run_coupling(a3, SQRT2, k * SQRT2, 3, nloop), L, nloop)
    a5 = decouple_up(run_coupling(a4, k * SQRT2, k * MB, 4, nloop), L, nloop)
    return (4.0 * math.pi * run_coupling(a4, k * SQRT2, Q4_REF, 4, nloop),
            4.0 * math.pi * run_coupling(a5, k * MB, Q5_REF, 5, nloop))


# ---------------------------------------------------------------- worker (one HOPPET run)

def set_convolution_eps(hoppet, eps):
    """HOPPET's precision for the numerical integrals that build the splitting and
    threshold convolution matrices (default 1e-7, which limits a reference at the
    1e-7 level). The Python interface does not expose it; the Fortran setter
    (module convolution, SetDefaultConvolutionEps(real(dp))) is called by its
    symbol in HOPPET's extension module, with the argument by reference."""
    import ctypes
    lib = ctypes.CDLL(hoppet._hoppet_swig.__file__)
    lib.__convolution_MOD_setdefaultconvolutioneps(ctypes.byref(ctypes.c_double(eps)))
    got = lib.__convolution_MOD_defaultconvolutioneps
    got.restype = ctypes.c_double
    if got() != eps:
        raise RuntimeError("HOPPET's convolution eps is %g after setting %g" % (got(), eps))


def hoppet_version(prog):
    """The installed hoppet's version, or None after saying that `prog` is skipped."""
    try:
        import importlib.metadata
        import hoppet  # noqa: F401
        return importlib.metadata.version("hoppet")
    except ImportError:
        print("%s: skipped, hoppet is not installed (pip install hoppet==2.3.0)" % prog)
        return None


def start_worker(spec_path):
    """The spec of a worker process (the JSON file spec_path), with HOPPET
    imported, its banner silenced, the convolution precision and the flavour
    scheme of spec["vfns"] / spec["segment"] set: (spec, hoppet, q_lo, q_hi)."""
    spec = json.loads(pathlib.Path(spec_path).read_text())
    os.environ["GFORTRAN_UNBUFFERED_PRECONNECTED"] = "y"
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # HOPPET's Fortran banner goes to fd 1; the result goes to a file
    import hoppet
    set_convolution_eps(hoppet, spec["conv_eps"])
    segment = spec["segment"]
    if not spec["vfns"]:
        hoppet.SetFFN(4)
    elif segment == "full":
        hoppet.SetPoleMassVFN(MC_HOPPET, MB, MT)
    else:
        hoppet.SetPoleMassVFN(MC_HOPPET, MB_HOPPET, MT)
    q_lo, q_hi = {"full": (SQRT2, Q_FINAL), "to_mb": (SQRT2, MB), "from_mb": (MB, Q_FINAL)}[segment]
    return spec, hoppet, q_lo, q_hi


def segment_input(spec, initial, requested, missing):
    """The input function of one segment for hoppet.Evolve: `initial(x)` at mu_0
    (the x asked for recorded in `requested`), or for "from_mb" the values of
    run 1 at its grid nodes (an x that run 1 did not record goes to `missing`)."""
    if spec["segment"] != "from_mb":
        def at_mu0(x, Q):
            requested.add(x)
            return initial(x)
        return at_mu0
    nodes = json.loads(pathlib.Path(spec["input"]).read_text())["nodes"]
    node_x = [n[0] for n in nodes]

    def at_mb(x, Q):
        i = bisect.bisect_left(node_x, x)
        for j in (i, i - 1):
            if 0 <= j < len(node_x) and abs(node_x[j] - x) <= 1e-14 * x:
                return nodes[j][1]
        missing.append(x)
        return [0.0] * 13
    return at_mb


def segment_result(hoppet, spec, requested, missing, combine, print_x, result):
    """Completes and writes a worker's result: an error for missing inputs, the
    values at m_b on run 1's nodes ("to_mb"), or combine(Eval(x, 100 GeV)) at
    the printed x values print_x."""
    if missing:
        result["error"] = "input asked at %d x values that run 1 did not record, e.g. %r" % (
            len(missing), missing[0])
    elif spec["segment"] == "to_mb":
        result["nodes"] = [[x, list(hoppet.Eval(x, MB)) if x < 1.0 else [0.0] * 13]
                           for x in sorted(requested)]
    else:
        result["values"] = {repr(x): combine(hoppet.Eval(x, Q_FINAL)) for x in print_x}
    pathlib.Path(spec["out"]).write_text(json.dumps(result))


def worker(spec_path):
    """One HOPPET evolution described by the JSON file spec_path; writes its
    result (JSON) to spec["out"]. Segments: "full" (mu_0 -> 100 GeV, printed
    values), "to_mb" (mu_0 -> m_b, PDFs at the grid nodes), "from_mb"."""
    spec, hoppet, q_lo, q_hi = start_worker(spec_path)
    exact = spec["variant"] == "exact"
    hoppet.SetExactDGLAP(exact, exact)
    t0 = time.process_time()
    hoppet.StartExtended(YMAX, spec["dy"], q_lo, q_hi, spec["dy"] / 4.0, spec["nloop"], ORDER,
                         hoppet.factscheme_MSbar)
    t1 = time.process_time()
    requested, missing = set(), []
    pdf_in = segment_input(spec, hoppet_toy_xf, requested, missing)
    hoppet.Evolve(spec["alpha"], spec["q_alpha"], spec["nloop"], math.sqrt(spec["rho"]), pdf_in, q_lo)
    t2 = time.process_time()
    result = {"init_s": t1 - t0, "evolve_s": t2 - t1, "alphas_final": hoppet.AlphaS(q_hi)}
    segment_result(hoppet, spec, requested, missing, combinations, PRINT_X, result)


# ---------------------------------------------------------------- driver

def run_worker(spec, workdir, script=__file__):
    """Runs `script --worker` on spec in a process under nice; returns its result dict."""
    name = "%s_%s_%s_%g_%s" % (spec["key"], spec.get("variant", "tl"), spec["segment"], spec["dy"], os.getpid())
    spec = dict(spec, out=str(workdir / (name + ".out.json")))
    spec_path = workdir / (name + ".spec.json")
    spec_path.write_text(json.dumps(spec))
    proc = subprocess.run(["nice", "-n", "10", sys.executable, str(script), "--worker", str(spec_path)],
                          capture_output=True, text=True)
    out = pathlib.Path(spec["out"])
    if proc.returncode != 0 or not out.exists():
        raise RuntimeError("HOPPET worker %s failed (rc %d): %s" % (name, proc.returncode, proc.stderr[-2000:]))
    result = json.loads(out.read_text())
    if "error" in result:
        raise RuntimeError("HOPPET worker %s: %s" % (name, result["error"]))
    return result


def run_chain(base, nloop, rho, workdir, tag, script=__file__):
    """The two runs of a VFNS part with mu_R != mu_F (the module docstring):
    mu_0 -> m_b with the LHA alpha_s^(4), then m_b -> 100 GeV from its values at
    the grid nodes with alpha_s^(5); returns both results."""
    alpha4, alpha5 = lha_vfns_couplings(nloop, rho)
    r1 = run_worker(dict(base, segment="to_mb", alpha=alpha4, q_alpha=Q4_REF), workdir, script)
    nodes_path = workdir / ("nodes_%s_%s_%g.json" % (base["key"], tag, base["dy"]))
    nodes_path.write_text(json.dumps({"nodes": r1["nodes"]}))
    r2 = run_worker(dict(base, segment="from_mb", alpha=alpha5, q_alpha=Q5_REF, input=str(nodes_path)),
                    workdir, script)
    return r1, r2


def evolve_part(key, variant, dy, workdir, chain=None):
    """x-times-combination values {x: {label: v}} of one part at one dy, and the CPU seconds.
    chain=None: two runs when the VFNS coupling needs them (rho != 1); True/False forces."""
    nloop, vfns, rho = PARTS[key]
    base = dict(key="%d-%d" % key, nloop=nloop, vfns=vfns, rho=rho, variant=variant, dy=dy, conv_eps=CONV_EPS)
    if chain is None:
        chain = vfns and rho != 1.0
    if not chain:
        r = run_worker(dict(base, segment="full", alpha=0.35, q_alpha=SQRT2), workdir)
        return r["values"], r["init_s"] + r["evolve_s"]
    r1, r2 = run_chain(base, nloop, rho, workdir, variant)
    return r2["values"], r1["init_s"] + r1["evolve_s"] + r2["init_s"] + r2["evolve_s"]


def max_rel_diff(a, b, labels):
    """Largest |a - b| / |b| over the entries with |b| > TINY, and where."""
    worst, where = 0.0, ""
    for x in PRINT_X:
        for lab in labels:
            ref = b[repr(x)][lab]
            if abs(ref) > TINY:
                d = abs(a[repr(x)][lab] - ref) / abs(ref)
                if d > worst:
                    worst, where = d, "%s x=%g" % (lab, x)
    return worst, where


def literal_unit(literal):
    """One unit of the last digit of a number as written (2.092e-8 -> 1e-11)."""
    mantissa, _, exponent = literal.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def parse_tables(path):
    """The published values of perf/lha_tables.h, the unit of their last digit at five
    significant digits (as lha_tables.h gives it) and that of the literal as written
    there: {(t, p): {label: (values, units, literal_units)}}."""
    src = pathlib.Path(path).read_text()
    parts = {}
    starts = list(re.finditer(r"^  \{(\d+), (\d+), \d+, \{", src, re.M))
    for m, nxt in zip(starts, starts[1:] + [None]):
        chunk = src[m.end():nxt.start() if nxt else len(src)]
        cols = {}
        for c in re.finditer(r'\{"(\w+)", \{([^}]*)\},\s*\{([^}]*)\}', chunk):
            literals = [v.strip() for v in c.group(2).split(",")]
            cols[c.group(1)] = ([float(v) for v in literals], [float(v) for v in c.group(3).split(",")],
                                [literal_unit(v) for v in literals])
        parts[(int(m.group(1)), int(m.group(2)))] = cols
    return parts


def off_table(key, values, published):
    """Published entries farther than one unit of their last digit from values."""
    rows = []
    for lab, (vals, units, literal_units) in published.get(key, {}).items():
        for i, x in enumerate(PRINT_X):
            h = values[repr(x)][lab]
            if abs(h - vals[i]) > units[i] * (1.0 + 1e-9) and not (vals[i] == 0.0 and abs(h) < TINY):
                rows.append((lab, x, vals[i], h, (h - vals[i]) / units[i] if units[i] else math.inf,
                             (h - vals[i]) / literal_units[i]))
    return rows


def c_part(key, values, rel_change):
    cols = []
    for lab in labels_of(key[0]):
        cols.append('{"%s", {%s}}' % (lab, ", ".join("%.10e" % values[repr(x)][lab] for x in PRINT_X)))
    return "  {%d, %d, %d, %.1e, {\n    %s}}" % (key[0], key[1], len(cols), rel_change, ",\n    ".join(cols))


def write_header(path, results, conv, dys, version, timing):
    keys = sorted(PARTS)
    finest = dys[-1]
    lines = [
        "/* lha_hoppet_ref.h: a converged HOPPET reference for the 14 evolved parts of",
        " * the Les Houches PDF-evolution benchmark (perf/lha.c, perf/lha_tables.h): x f at",
        " * mu_F^2 = 1e4 GeV^2, the LHA toy PDFs at mu_0^2 = 2 GeV^2, alpha_s(2 GeV^2) = 0.35,",
        " * pole masses sqrt(2), 4.5, 175 (docs/physics.md §2.4, §9).",
        " * Generated by perf/gen_lha_hoppet.py (see there for how the LHA scale variation",
        " * maps onto HOPPET) with HOPPET %s from PyPI: G. P. Salam and J. Rojo," % version,
        " * Comput. Phys. Commun. 180 (2009) 120, arXiv:0804.3755. Do not edit.",
        " * HOPPET settings: StartExtended(ymax %g, dy, Q range of the run, dlnlnQ = dy/4," % YMAX,
        " * nloop, order %d, MSbar), convolution eps %g (set through HOPPET's Fortran symbol;" % (
            ORDER, CONV_EPS),
        " * the default 1e-7 stalls the convergence near 1e-6), read with Eval at Q = 100 GeV",
        " * (a table node); dy = %s;" % ", ".join("%g" % d for d in dys),
        " * values from dy = %g. Variants: param = SetExactDGLAP(False, False), HOPPET's" % finest,
        " * parametrised NNLO splitting and threshold functions (the tables' physics); exact =",
        " * SetExactDGLAP(True, True). LO and NLO parts are the same in both.",
        " * rel_change: the largest |v(dy=%g) - v(dy=%g)| / |v| over the entries above %g" % (
            dys[-2], finest, TINY),
        " * in size. The error falls ~16x per halving of dy (compare the two columns below),",
        " * so the values' own error is ~1/16 of rel_change.",
        " * VFNS parts with mu_R != mu_F: two HOPPET runs (mu_0 -> m_b -> 100 GeV) given the",
        " * LHA couplings, thresholds at mu_R = sqrt(rho) m_h with L = ln rho (see the generator).",
        " * Convergence (rel. change dy %g -> %g, and %g -> %g):" % (dys[-2], finest, dys[0], finest),
    ]
    for variant in VARIANTS:
        for key in keys:
            if variant == "exact" and PARTS[key][0] < 3:
                continue
            c = conv[(key, variant)]
            lines.append(" *   %2d/%d %-5s  %.1e (%s)   %.1e" % (key[0], key[1], variant, c[0], c[1], c[2]))
    lines.append(" * CPU time of the HOPPET runs: %.0f s (all dy, variants and parts). */" % timing)
    lines += [
        "#ifndef EKOC_LHA_HOPPET_REF_H",
        "#define EKOC_LHA_HOPPET_REF_H",
        "",
        "#define LHA_HOPPET_NX 11",
        "static const double lha_hoppet_x[LHA_HOPPET_NX] = {1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3, 0.5,"
        " 0.7, 0.9};",
        "",
        "/* value: x f(x) at lha_hoppet_x; columns as in lha_tables.h */",
        "typedef struct lha_hoppet_column { const char *label; double value[LHA_HOPPET_NX]; } lha_hoppet_column;",
        "typedef struct lha_hoppet_part {",
        "  int table, part, n_columns;",
        "  double rel_change; /* convergence figure, see above */",
        "  lha_hoppet_column columns[8];",
        "} lha_hoppet_part;",
        "",
    ]
    for variant, what in (("param", "parametrised NNLO splitting and threshold functions (the tables' physics)"),
                          ("exact", "exact NNLO splitting and threshold functions")):
        lines.append("/* %s */" % what)
        lines.append("static const lha_hoppet_part lha_hoppet_%s[] = {" % variant)
        body = []
        for key in keys:
            v = variant if PARTS[key][0] == 3 else "param"
            body.append(c_part(key, results[(key, v, finest)], conv[(key, v)][0]))
        lines.append(",\n".join(body))
        lines.append("};")
        lines.append("")
    lines += ["#define LHA_HOPPET_N_PARTS ((int)(sizeof lha_hoppet_param / sizeof lha_hoppet_param[0]))", "",
              "#endif", ""]
    pathlib.Path(path).write_text("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out", default=str(REPO / "perf" / "lha_hoppet_ref.h"))
    ap.add_argument("--tables", default=str(REPO / "perf" / "lha_tables.h"))
    ap.add_argument("--dys", default="0.1,0.05,0.025")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--parts", help="only these parts (no header is written), e.g. 4/2,15/3")
    ap.add_argument("--chain-check", action="store_true")
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return 0
    version = hoppet_version("gen_lha_hoppet")
    if version is None:
        return 0
    dys = [float(d) for d in args.dys.split(",")]
    keys = sorted(PARTS)
    if args.parts:
        keys = [tuple(int(v) for v in p.split("/")) for p in args.parts.split(",")]
    tasks = [(key, variant, dy) for dy in dys for key in keys
             for variant in (VARIANTS if PARTS[key][0] == 3 else ("param",))]
    # the slow ones first (fine grids, exact NNLO, two-run chains)
    tasks.sort(key=lambda t: (-1.0 / t[2], t[1] != "exact", not (PARTS[t[0]][1] and PARTS[t[0]][2] != 1.0)))
    results, cpu = {}, 0.0
    t_start = time.time()
    with tempfile.TemporaryDirectory(prefix="lha_hoppet_") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        workdir = pathlib.Path(tmp)
        futures = {pool.submit(evolve_part, *t, workdir): t for t in tasks}
        for f in concurrent.futures.as_completed(futures):
            key, variant, dy = futures[f]
            results[(key, variant, dy)], s = f.result()
            cpu += s
            print("  %2d/%d %-5s dy %-6g %6.1f s CPU  (%.0f s wall so far)" % (
                key[0], key[1], variant, dy, s, time.time() - t_start), file=sys.stderr)
        if args.chain_check:
            mid = dys[len(dys) // 2]
            for key in [k for k in keys if PARTS[k][1] and PARTS[k][2] == 1.0]:
                for variant in (VARIANTS if PARTS[key][0] == 3 else ("param",)):
                    direct = evolve_part(key, variant, mid, workdir, chain=False)[0]
                    chained = evolve_part(key, variant, mid, workdir, chain=True)[0]
                    d, where = max_rel_diff(chained, direct, labels_of(key[0]))
                    print("chain check %d/%d %s dy %g: two runs vs one: max rel diff %.1e (%s)" % (
                        key[0], key[1], variant, mid, d, where))
    conv = {}
    print("convergence (max rel change over entries > %g): dy %g -> %g, and %g -> %g" % (
        TINY, dys[-2], dys[-1], dys[0], dys[-1]))
    for key in keys:
        for variant in (VARIANTS if PARTS[key][0] == 3 else ("param",)):
            fine = results[(key, variant, dys[-1])]
            d1, where = max_rel_diff(results[(key, variant, dys[-2])], fine, labels_of(key[0]))
            d0, _ = max_rel_diff(results[(key, variant, dys[0])], fine, labels_of(key[0]))
            conv[(key, variant)] = (d1, where, d0)
            print("  %2d/%d %-5s %.1e (%s)  %.1e" % (key[0], key[1], variant, d1, where, d0))
    published = parse_tables(args.tables)
    print("published entries off the converged param values by more than one unit of their last digit:")
    for key in keys:
        rows = off_table(key, results[(key, "param", dys[-1])], published)
        n = sum(len(v[0]) for v in published.get(key, {}).values())
        print("  %d/%d: %d of %d" % (key[0], key[1], len(rows), n))
        for lab, x, tab, h, units, literal in rows:
            print("    %-4s x=%-6g table % .4e  HOPPET % .6e  (%+.1f units; %+.2f of the literal's last digit)"
                  % (lab, x, tab, h, units, literal))
    print("HOPPET CPU time %.0f s, wall %.0f s" % (cpu, time.time() - t_start))
    if not args.parts:
        write_header(args.out, results, conv, dys, version, cpu)
        print("wrote", args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
