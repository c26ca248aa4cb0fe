#!/usr/bin/env python3
"""Generate rust-bridge/ekore/src/as4/tables_2512.rs: the approximate four-loop
singlet splitting functions of the "2512" set, in N space.

    python3 rust-bridge/ekore/gen/gen_as4_2512.py        # needs sympy and mpmath

The set. arXiv:2512.10783 (Falcioni, Herzog, Moch, Pelloni, Vogt et al., 2025)
adds nf = 6 to the x-space approximations of the four-loop singlet splitting
functions and a new moment of P_gq. HOPPET 2.2+ calls the resulting set
`n3lo_splitting_approximation_up_to_2512` (its module splitting_functions_n3lo
with the "Nfit" variants): P_ps from arXiv:2302.07593 (HOPPET xpps3a.f90),
P_qg from arXiv:2307.04158 (xpqg3a.f90), P_gq of 2512.10783 (xpgq3a_2512.f90),
P_gg of arXiv:2410.08089 (xpgg3a_2410.f90), each now with an nf = 6 branch, and the
non-singlet approximations of arXiv:1707.08315 (xpns3p/m/s.f90), which are
polynomials in nf. The non-singlet ones are those eko's FHMRUVV variant already
has (src/as4/tables_fhmruvv.rs, checked against HOPPET in src/as4/tests_2512.rs),
so only the four singlet functions are generated here.

Every function is A(x) (regular) + B [1/(1-x)]_+ + C delta(1-x) in the
normalisation a_s = alpha_s/(4 pi), with two approximations App1, App2 per nf
(HOPPET IMOD = 1, 2) and the central value their average (IMOD = 0): variation 0,
1, 2 here, as in eko's FHMRUVV tables. The coefficients below are transcribed from
HOPPET 2.3.0's Fortran (decimal literals as printed there; the papers give the same
numbers); `check_against_hoppet` compares the transcription with HOPPET's compiled
functions when the `hoppet` Python package is installed.

The Mellin transform M[f](N) = int_0^1 x^(N-1) f(x) dx is taken term by term,
exactly (coefficients as rationals, sympy):
  x^a ln^k x                -> (-1)^k k! / (N+a)^(k+1)
  x^a ln^m(1-x), a = 0,1,2  -> the atoms M[(1-x)^j ln^m(1-x)] (LM1mMj), with x^a
                               written in powers of (1-x)
  ln x ln(1-x)              -> S1/N^2 + (S2 - z2)/N             (d/dN of -S1/N)
  ln x ln^2(1-x)            -> (2 S1 (z2 - S2) + 2 z3 - 2 S3)/N - (S1^2 + S2)/N^2
  [1/(1-x)]_+               -> -S1 + 1/N ;   delta(1-x) -> 1
and gamma(N) = -M[P](N) (eko's sign). `check_mellin` compares each table with a
numerical integral of the x-space expression (mpmath, 1e-12 relative).
"""

import functools
import pathlib
import re

import mpmath as mp
import numpy as np
import sympy as sp

OUT = pathlib.Path(__file__).resolve().parents[1] / "src" / "as4" / "tables_2512.rs"

from as4_2512_xspace import FUNCS, NFS, NONSINGLET  # noqa: E402

# ------------------------------------------------------------- exact algebra
Y, DM, DL, DL1, NF = sp.symbols("Y DM DL DL1 nf")
NAMES = {"Y": Y, "DM": DM, "DL": DL, "DL1": DL1, "nf": NF, "Y1": 1 - Y, "YM": 1 / Y}


def exact(expr, extra=None, f32=False):
    """sympy expression with every decimal literal an exact rational. With f32, a
    literal written without exponent is first rounded to single precision: HOPPET's
    Fortran has such literals (no D0) as default REAL, so its compiled functions
    differ from the printed decimals by up to ~1e-6 relative (see `hoppet_shift`)."""
    def lit(m):
        t = m.group(0)
        if f32 and "e" not in t:
            t = repr(float(np.float32(float(t))))
        return f"Rational('{t}')"

    text = re.sub(r"(?<![\w.])\d+\.?\d*(?:e[+-]?\d+)?", lit, expr)
    return sp.sympify(text, locals={**NAMES, "Rational": sp.Rational, **(extra or {})})


# (function, nf) whose per-nf App terms HOPPET 2.3.0 writes without D0 exponents
HOPPET_F32_APPS = {("PS", 6), ("QG", 6)} | {(f, nf) for f in ("GQ", "GG") for nf in NFS}


@functools.lru_cache(maxsize=None)
def x_space(name, nf, v, hoppet=False):
    """(regular part, plus coefficient, delta coefficient) of variation v at nf
    (None: symbolic nf, the non-singlet functions); hoppet: with HOPPET's
    single-precision literals. DM = 1/(1-x) in the regular part."""
    d = dict(FUNCS_BY_NAME[name])
    single = hoppet and (name in NONSINGLET or (name, nf) in HOPPET_F32_APPS)
    coef = {k: exact(e, f32=hoppet) for k, e in d["coef"].items()}
    if name not in NONSINGLET:
        coef = {k: c.subs(NF, nf) for k, c in coef.items()}
    common = exact(d["common"], coef)
    apps = [exact(e, coef, single) for e in d["app"][nf]]
    reg = common + (apps[0] + apps[1]) / 2 if v == 0 else common + apps[v - 1]

    def dist(key):
        e = d.get(key, "0")
        e = e if isinstance(e, str) else e[v]
        return sp.expand(exact(e, coef, hoppet).subs(NF, nf) if nf is not None else exact(e, coef, hoppet))

    return sp.expand(reg), dist("plus"), dist("delta")


FUNCS_BY_NAME = {n: d for n, d, _ in FUNCS}

# ------------------------------------------------------- Mellin transform
ZETA2, ZETA3 = sp.zeta(2), sp.zeta(3)


def add(out, c, pows=(), atoms=()):
    """Accumulate c * prod (N+a)^e * atoms into out (key: exponents, atoms)."""
    e = [0] * 6
    for a, k in pows:
        e[a + 1] += k
    key = (tuple(e), tuple(sorted(atoms)))
    out[key] = out.get(key, 0) + c


def mellin(reg, plus, delta):
    """M[A + plus [1/(1-x)]_+ + delta delta(1-x)](N) as {key: exact coefficient}
    (coefficients may be polynomials in nf)."""
    out = {}
    for mono, c in sp.Poly(reg, Y, 1 / Y, DM, DL, DL1).terms():
        a = mono[0] - mono[1]
        d, k, m = mono[2], mono[3], mono[4]
        if d == 1 and a == 0 and m == 0 and k >= 1:
            # int x^(N-1) ln^k x/(1-x) = (-1)^k k! (zeta_{k+1} - S_{k+1}(N) + 1/N^(k+1))
            f = c * (-1) ** k * sp.factorial(k)
            add(out, f * sp.zeta(k + 1), [])
            add(out, -f, [], [f"S{k + 1}"])
            add(out, f, [(0, -(k + 1))])
        elif d != 0:
            raise ValueError(f"x^{a} ln^{k}x ln^{m}(1-x)/(1-x)^{d} outside the basis")
        elif m == 0:
            add(out, c * (-1) ** k * sp.factorial(k), [(a, -(k + 1))])
        elif k == 0:
            if a not in (0, 1, 2):
                raise ValueError(f"x^{a} ln^{m}(1-x) outside the basis")
            for j, w in enumerate([[1], [1, -1], [1, -2, 1]][a]):
                add(out, c * w, [], [f"LM1{m}" + ("" if j == 0 else f"M{j}")])
        elif (a, k, m) == (0, 1, 1):
            add(out, c, [(0, -2)], ["S1"])
            add(out, c, [(0, -1)], ["S2"])
            add(out, -c * ZETA2, [(0, -1)])
        elif (a, k, m) == (0, 1, 2):
            add(out, 2 * c * ZETA2, [(0, -1)], ["S1"])
            add(out, -2 * c, [(0, -1)], ["S1", "S2"])
            add(out, 2 * c * ZETA3, [(0, -1)])
            add(out, -2 * c, [(0, -1)], ["S3"])
            add(out, -c, [(0, -2)], ["S1", "S1"])
            add(out, -c, [(0, -2)], ["S2"])
        else:
            raise ValueError(f"x^{a} ln^{k}x ln^{m}(1-x) outside the basis")
    if plus != 0:
        add(out, -plus, [], ["S1"])
        add(out, plus, [(0, -1)])
    if delta != 0:
        add(out, delta, [])
    return {k: sp.expand(v) for k, v in out.items() if sp.expand(v) != 0}


def split_nf(terms):
    """{(e, atoms): c(nf)} -> {(k, e, atoms): exact coefficient of nf^k}."""
    out = {}
    for key, c in terms.items():
        for (k,), ck in sp.Poly(c, NF).terms():
            out[(k,) + key] = ck
    return out


def gamma_terms(name, nf, v, hoppet=False):
    """gamma = -M[P]: {(nf power, exponents, atoms): float coefficient}."""
    exact_terms = split_nf(mellin(*x_space(name, nf, v, hoppet)))
    return {k: -float(sp.N(c, 30)) for k, c in exact_terms.items() if c != 0}


# ------------------------------------------------------------- checks
mp.mp.dps = 30


def sums(n):
    """S1..S5 at n and the atoms LM1mMj (as src/sums.rs defines them)."""
    def s(k, m):
        return mp.harmonic(m) if k == 1 else mp.zeta(k) - mp.zeta(k, m + 1)

    def lm(k, m):
        s1, s2, s3, s4, s5 = (s(i, m) for i in range(1, 6))
        poly = {1: -s1, 2: s1**2 + s2, 3: -(s1**3 + 3 * s1 * s2 + 2 * s3),
                4: s1**4 + 6 * s1**2 * s2 + 3 * s2**2 + 8 * s1 * s3 + 6 * s4,
                5: -(s1**5 + 10 * s1**3 * s2 + 15 * s1 * s2**2 + 20 * s1**2 * s3
                     + 20 * s2 * s3 + 30 * s1 * s4 + 24 * s5)}[k]
        return poly / m

    v = {f"S{k}": s(k, n) for k in range(1, 6)}
    for k in range(1, 6):
        v[f"LM1{k}"] = lm(k, n)
        v[f"LM1{k}M1"] = lm(k, n) - lm(k, n + 1)
        v[f"LM1{k}M2"] = lm(k, n) - 2 * lm(k, n + 1) + lm(k, n + 2)
    return v


def evaluate(terms, n, nf):
    v = sums(n)
    tot = 0
    for (p, e, atoms), c in terms.items():
        t = mp.mpf(c) * nf**p
        for i, k in enumerate(e):
            t *= (n + i - 1) ** k
        for a in atoms:
            t *= v[a]
        tot += t
    return tot


def check_mellin(name, nf, v, terms):
    """The table against quadrature of the x-space expression (1e-12 relative)."""
    for nfv in ([nf] if nf is not None else NFS):
        reg, plus, delta = (sp.sympify(e).subs(NF, nfv) for e in x_space(name, nf, v))
        fx = sp.lambdify((Y, DM, DL, DL1), reg, "mpmath")
        plus, delta = mp.mpf(sp.N(plus, 30)), mp.mpf(sp.N(delta, 30))
        for n in (2, 3, 4.5, 7):
            f = lambda x: x ** (n - 1) * fx(x, 1 / (1 - x), mp.log(x), mp.log(1 - x)) + plus * (x ** (n - 1) - 1) / (1 - x)
            want = -(mp.quad(f, [0, 0.5, 1]) + delta)
            got = evaluate(terms, n, nfv)
            if abs(got - want) > 1e-12 * abs(want):
                raise SystemExit(f"{name} nf={nfv} v={v} N={n}: table {got} vs quad {want}")


def hoppet_functions():
    """HOPPET's compiled x-space functions {name: (A, B, C)} via ctypes, or None."""
    try:
        import ctypes
        import glob
        import os

        import hoppet
    except ImportError:
        return None
    lib = ctypes.CDLL(glob.glob(os.path.dirname(hoppet.__file__) + "/_hoppet_swig*.so")[0])

    def fortran(mod, fn):
        f = getattr(lib, f"__{mod}_MOD_{fn}")
        f.restype = ctypes.c_double
        return lambda x, nf, imod: f(ctypes.byref(ctypes.c_double(x)),
                                     ctypes.byref(ctypes.c_int(nf)), ctypes.byref(ctypes.c_int(imod)))

    return {
        "PS": (fortran("xpps3a", "p3psa"), None, None),
        "QG": (fortran("xpqg3a", "p3qga"), None, None),
        "GQ": (fortran("xpgq3a_2512", "p3gqa_2512"), None, None),
        "GG": tuple(fortran("xpgg3a_2410", f"p3gg{p}_2410") for p in "abc"),
        "NSP": tuple(fortran("xpns3p", f"p3nsp{p}") for p in "abc"),
        "NSM": tuple(fortran("xpns3m", f"p3nsm{p}") for p in "abc"),
        "NSS": (fortran("xpns3s", "p3nssa"), None, None),
    }


def check_against_hoppet():
    """The transcription against HOPPET's compiled x-space functions (if installed)."""
    import math

    funcs = hoppet_functions()
    if funcs is None:
        print("hoppet not installed: transcription check skipped")
        return
    worst = 0.0
    for name, (fa, fb, fc) in funcs.items():
        for nf in NFS:
            for v in range(3):
                reg, plus, delta = (sp.sympify(e).subs(NF, nf)
                                    for e in x_space(name, None if name in NONSINGLET else nf, v, True))
                fx = sp.lambdify((Y, DM, DL, DL1), reg, "math")
                for x in (1e-4, 0.01, 0.2, 0.5, 0.8, 0.99):
                    mine = fx(x, 1 / (1 - x), math.log(x), math.log1p(-x))
                    ref = fa(x, nf, v)
                    worst = max(worst, abs(mine - ref) / max(abs(ref), 1.0))
                if fb is not None:
                    worst = max(worst, abs(fb(0.5, nf, v) / 2 - float(plus)) / abs(float(plus)),
                                abs(fc(0.0, nf, v) - float(delta)) / abs(float(delta)))
    print(f"transcription vs HOPPET x-space: worst relative difference {worst:.2e}")
    if worst > 1e-10:
        raise SystemExit("transcription differs from HOPPET")


# ------------------------------------------------------------- output
def rust_term(key, c):
    p, e, atoms = key
    names = list(atoms) + ["ONE"] * (4 - len(atoms))
    return f"t({c!r}, {p}, [{', '.join(str(x) for x in e)}], [{', '.join(names)}]),"


def param(name, nf, indent):
    var = [gamma_terms(name, nf, v) for v in range(3)]
    for v, terms in enumerate(var):
        check_mellin(name, nf, v, terms)
    fixed = {k: c for k, c in var[0].items() if all(t.get(k) == c for t in var[1:])}
    i = " " * indent
    lines = [f"{i}Param {{", f"{i}    fixed: &["]
    lines += [f"{i}        {rust_term(k, fixed[k])}" for k in sorted(fixed)]
    lines += [f"{i}    ],", f"{i}    var: &["]
    for v, terms in enumerate(var):
        lines += [f"{i}        // variation {v}", f"{i}        &["]
        lines += [f"{i}            {rust_term(k, c)}" for k, c in sorted(terms.items()) if k not in fixed]
        lines.append(f"{i}        ],")
    lines += [f"{i}    ],", f"{i}}}"]
    return lines


def main():
    check_against_hoppet()
    out = [
        "// @generated by rust-bridge/ekore/gen/gen_as4_2512.py -- do not edit by hand.",
        "//! N3LO anomalous dimensions of the 2512 set (arXiv:2512.10783 and the papers it",
        "//! updates, as HOPPET 2.2+ `n3lo_splitting_approximation_up_to_2512` has them):",
        "//! Mellin transforms of the x-space approximations, exact in the printed",
        "//! coefficients, checked against numerical Mellin integrals at generation time.",
        "//! Singlet: one table per nf = 3, 4, 5, 6; non-singlet: one table, nf powers.",
        "//! Variation 0 = central (average of the two approximations), 1 = App1,",
        "//! 2 = App2 (HOPPET's IMOD).",
        "",
        "use super::terms::atom::*;",
        "use super::terms::{t, Param};",
    ]
    for name, _, doc in FUNCS:
        if name in NONSINGLET:
            out += ["", f"/// {doc}, any nf; variations 0..2.", f"pub const {name}: Param = "]
            lines = param(name, None, 0)
            out[-1] += lines[0]
            out += lines[1:-1] + ["};"]
            continue
        out += ["", f"/// {doc}, nf = 3..6; variations 0..2.", f"pub const {name}: [Param; 4] = ["]
        for nf in NFS:
            out.append(f"    // nf = {nf}")
            lines = param(name, nf, 4)
            out += lines[:-1] + [lines[-1] + ","]
        out.append("];")
    OUT.write_text("\n".join(out) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
