#!/usr/bin/env python3
"""Generate the coefficient tables of the N3LO (a_s^4) anomalous dimensions,
rust-bridge/ekore/src/as4/tables_fhmruvv.rs and tables_nnpdf.rs.

    python3 rust-bridge/ekore/gen/gen_as4_tables.py        # needs eko 0.15.7 and sympy

Where the numbers come from. The N3LO anomalous dimensions are parametrisations:
sums of fitted or exactly known coefficients times simple functions of N (powers of
1/(N+a), harmonic sums, Mellin transforms of (1-x)^j ln^k(1-x)). The coefficients
are those of the papers (FHMRUVV: arXiv:1707.08315, 2302.07593, 2307.04158,
2310.01245, 2404.09701; NNPDF: arXiv:2402.18635) as eko 0.15.7 evaluates them. This
script reads them from eko's modules by evaluating each function *symbolically*
(sympy symbols for N, nf, the sums and the log transforms), so no number is typed
by hand, and brings every function to one canonical form, a list of terms

    c * nf^k * prod_{a=-1..4} (N+a)^{e_a} * A_1 * A_2 * ...      (A_i: "atoms")

with the atoms the harmonic sums and the log transforms lm1k, lm1km1, lm1km2
(Rust: src/sums.rs). Terms shared by all variations of a function go to its
`fixed` list, the others to one list per variation (`var`). Before writing, every
table is evaluated here with eko's own sums and compared with eko's compiled
function at several N, nf and variations (1e-12 relative, else the script fails).

The Rust side (src/as4/terms.rs) evaluates such lists; the generated files hold
only data. Output is deterministic (terms sorted by their key).
"""

import math
import pathlib
import types

import numpy as np
import sympy as sp
from numba.core.registry import CPUDispatcher

import ekore.anomalous_dimensions.unpolarized.space_like.as4 as nnpdf
import ekore.anomalous_dimensions.unpolarized.space_like.as4.fhmruvv as fhmruvv
from ekore.anomalous_dimensions.unpolarized.space_like.as4 import gnsv as nnpdf_gnsv
from ekore.anomalous_dimensions.unpolarized.space_like.as4.fhmruvv import (
    gnsv as fhmruvv_gnsv,
)
from ekore.harmonics import cache as hcache
from ekore.harmonics import log_functions as logf

OUT_DIR = pathlib.Path(__file__).resolve().parents[1] / "src" / "as4"

# The atoms, in the order of src/as4/terms.rs (`atom` module); index 0 is "one".
SUM_ATOMS = [
    "S1", "S2", "S3", "S4", "S5", "Sm1", "Sm2", "Sm3", "Sm4", "Sm5",
    "S21", "S2m1", "Sm21", "Sm2m1", "S31", "Sm31", "S211", "Sm211", "Sm22",
]
LOG_ATOMS = [f"lm1{k}" for k in range(1, 6)] + [f"lm1{k}m1" for k in range(1, 6)] + [
    f"lm1{k}m2" for k in range(1, 6)
]
ATOMS = ["ONE"] + SUM_ATOMS + LOG_ATOMS
SHIFTS = [-1, 0, 1, 2, 3, 4]  # the a of (N+a)
POW_RANGE = (-8, 4)  # exponents the Rust power table holds
MAX_ATOMS = 4

N = sp.Symbol("n")
NF = sp.Symbol("nf")
SYM = {name: sp.Symbol(name) for name in ATOMS[1:]}
ALTERNATING = {name for name in SUM_ATOMS if "m" in name}


class SymbolicCache:
    """Stands in for ekore.harmonics.cache: `get` returns the sum's symbol and
    records the continuation (is_singlet) asked for each alternating sum."""

    def __init__(self):
        self.key_name = {getattr(hcache, name): name for name in SUM_ATOMS}
        self.continuation = {}

    def get(self, key, cache, n, is_singlet=None):
        name = self.key_name[key]
        if name in ALTERNATING:
            self.continuation.setdefault(name, set()).add(is_singlet)
        return SYM[name]

    def __getattr__(self, name):
        return getattr(hcache, name)


class SymbolicNumpy:
    power = staticmethod(lambda a, b: a**b)
    pi = math.pi


CACHE = SymbolicCache()


SYMBOLIC = {}


def symbolic(dispatcher):
    """The Python function behind a numba dispatcher, re-bound to globals in which
    the sums, the log transforms and numpy are symbolic (recursively for the
    dispatchers it calls; memoised, since a module's functions see each other)."""
    if dispatcher in SYMBOLIC:
        return SYMBOLIC[dispatcher]
    py = dispatcher.py_func
    env = dict(py.__globals__)
    func = types.FunctionType(py.__code__, env, py.__name__, py.__defaults__)
    SYMBOLIC[dispatcher] = func
    for name, value in py.__globals__.items():
        if name in SYM and isinstance(value, CPUDispatcher):
            env[name] = lambda *args, _s=SYM[name]: _s
        elif isinstance(value, CPUDispatcher):
            env[name] = symbolic(value)
    env["c"] = CACHE
    env["np"] = SymbolicNumpy
    return func


def linear_shift(factor):
    """a for a factor n + a (integer a), else an error."""
    poly = sp.Poly(factor, N)
    coeffs = poly.all_coeffs()
    if poly.degree() != 1 or coeffs[0] != 1 or not coeffs[1].is_integer:
        raise ValueError(f"denominator factor {factor} is not n + integer")
    return int(coeffs[1])


def canonical(expr):
    """{(nf power, exponents of (N+a), atoms): coefficient} of an expression."""
    expr = sp.sympify(expr)
    # integral floats (1., -1., 2. in eko's denominators) as integers, so that the
    # polynomials in the denominators factor over the integers
    expr = expr.xreplace(
        {f: sp.Integer(int(f)) for f in expr.atoms(sp.Float) if float(f).is_integer()}
    )
    out = {}
    for term in sp.Add.make_args(sp.expand(expr)):
        coef, nf_pow, pows, atoms = 1.0, 0, [0] * len(SHIFTS), []
        for factor in sp.Mul.make_args(term):
            if factor.is_Number:
                coef *= float(factor)
                continue
            base, exp = factor.as_base_exp()
            exp = int(exp)
            if base == N:
                pows[SHIFTS.index(0)] += exp
            elif base == NF:
                nf_pow += exp
            elif base.is_Symbol:
                if exp <= 0:
                    raise ValueError(f"atom {base} with power {exp}")
                atoms += [str(base)] * exp
            else:
                lead, factors = sp.factor_list(base, N)
                coef *= float(lead) ** exp
                for f, mult in factors:
                    pows[SHIFTS.index(linear_shift(f))] += int(mult) * exp
        if nf_pow < 0 or len(atoms) > MAX_ATOMS:
            raise ValueError(f"term {term} does not fit the table format")
        if any(not POW_RANGE[0] <= p <= POW_RANGE[1] for p in pows):
            raise ValueError(f"term {term}: power outside {POW_RANGE}")
        key = (nf_pow, tuple(pows), tuple(sorted(atoms, key=ATOMS.index)))
        out[key] = out.get(key, 0.0) + coef
    return {k: v for k, v in out.items() if v != 0.0}


def split(variants):
    """Terms equal in every variation -> fixed; the rest per variation."""
    first = variants[0]
    fixed = {k: v for k, v in first.items() if all(t.get(k) == v for t in variants)}
    var = [{k: v for k, v in t.items() if k not in fixed} for t in variants]
    return fixed, var


# ---------------------------------------------------------------------------
# numerical check of the tables against eko


def atom_values(n, is_singlet):
    """The atoms at n from eko's cache and log functions."""
    cache = hcache.reset()
    s = {name: hcache.get(getattr(hcache, name), cache, n, is_singlet) for name in SUM_ATOMS}
    sums = [s["S1"], s["S2"], s["S3"], s["S4"], s["S5"]]
    vals = dict(s)
    for k in range(1, 6):
        for suffix in ("", "m1", "m2"):
            name = f"lm1{k}{suffix}"
            if hasattr(logf, name):
                vals[name] = getattr(logf, name)(n, *sums[:k])
            else:  # not in eko (lm15m2): never used by a table
                vals[name] = complex("nan")
    return vals


def evaluate(terms, n, nf, vals):
    acc = 0j
    for (nf_pow, pows, atoms), c in terms.items():
        v = c * nf**nf_pow
        for a, p in zip(SHIFTS, pows):
            v *= (n + a) ** p
        for name in atoms:
            v *= vals[name]
        acc += v
    return acc


CHECK_POINTS = [complex(0.7, 3.0), complex(2.5, 1.5), complex(-3.5, 9.0), complex(17.0, -20.0)]


def check(name, fixed, var, reference, nfs, is_singlet):
    """reference(n, nf, variation) -> eko's value; compare at CHECK_POINTS."""
    worst = 0.0
    for n in CHECK_POINTS:
        vals = atom_values(n, is_singlet)
        for nf in nfs:
            for v, terms in enumerate(var):
                got = evaluate(fixed, n, nf, vals) + evaluate(terms, n, nf, vals)
                want = reference(n, nf, v)
                rel = abs(got - want) / abs(want)
                worst = max(worst, rel)
                if not rel < 1e-12:
                    raise AssertionError(f"{name} n={n} nf={nf} v={v}: {got} vs {want}")
    print(f"  {name}: worst relative deviation {worst:.1e}")


# ---------------------------------------------------------------------------
# Rust output


def lit(x):
    s = repr(float(x))
    return s if ("." in s or "e" in s) else s + ".0"


def rust_terms(terms, indent):
    pad = " " * indent
    lines = []
    for (nf_pow, pows, atoms), c in sorted(terms.items()):
        names = [a.upper() for a in atoms] + ["ONE"] * (MAX_ATOMS - len(atoms))
        lines.append(
            f"{pad}t({lit(c)}, {nf_pow}, [{', '.join(map(str, pows))}], [{', '.join(names)}]),"
        )
    return "\n".join(lines)


def rust_param(fixed, var, indent):
    pad = " " * indent
    body = [f"{pad}Param {{", f"{pad}    fixed: &["]
    if fixed:
        body.append(rust_terms(fixed, indent + 8))
    body.append(f"{pad}    ],")
    body.append(f"{pad}    var: &[")
    for i, terms in enumerate(var):
        body.append(f"{pad}        // variation {i}")
        body.append(f"{pad}        &[")
        if terms:
            body.append(rust_terms(terms, indent + 12))
        body.append(f"{pad}        ],")
    body.append(f"{pad}    ],")
    body.append(f"{pad}}}")
    return "\n".join(body)


HEADER = """// @generated by rust-bridge/ekore/gen/gen_as4_tables.py -- do not edit by hand.
//! {title}
//!
//! Coefficient tables read from eko 0.15.7 by symbolic evaluation of
//! {source},
//! and brought to the canonical term form of `super::terms` (see the
//! generator's doc string). Each table was checked against eko's compiled
//! function at generation time (1e-12 relative).

use super::terms::atom::*;
use super::terms::{{t, Param}};
"""


def write(path, title, source, params):
    """params: list of (rust name, doc, [(fixed, var)], note) ; several entries
    mean an array (indexed by nf - 3)."""
    out = []
    for rust_name, doc, entries, note in params:
        out.append("")
        out.append(f"/// {doc}")
        if note:
            out.append(f"/// Alternating sums: {note}.")
        if len(entries) == 1:
            out.append(f"pub const {rust_name}: Param = ")
            out[-1] += rust_param(*entries[0], 0).lstrip() + ";"
        else:
            out.append(f"pub const {rust_name}: [Param; {len(entries)}] = [")
            for nf, entry in zip(range(3, 3 + len(entries)), entries):
                out.append(f"    // nf = {nf}")
                out.append(rust_param(*entry, 4) + ",")
            out.append("];")
    text = HEADER.format(title=title, source=source)
    path.write_text(text + "\n".join(out) + "\n")
    print(f"wrote {path}")


def family(name, func, variations, nfs, singlet, nf_symbolic=True, nf_fixed=None):
    """Tables of one function: symbolic evaluation per variation, split, check."""
    CACHE.continuation = {}
    f = symbolic(func)
    nf_arg = NF if nf_symbolic else nf_fixed
    if variations is None:
        variants = [canonical(f(N, nf_arg, None))]
    else:
        variants = [canonical(f(N, nf_arg, None, v)) for v in range(variations)]
    fixed, var = split(variants)

    def reference(n, nf, v):
        cache = hcache.reset()
        if variations is None:
            return complex(func(n, nf, cache))
        return complex(func(n, nf, cache, v))

    check(name, fixed, var, reference, nfs if nf_symbolic else [nf_fixed], singlet)
    note = ", ".join(
        f"{k} ({'even' if True in fl else 'odd'} N)" for k, fl in sorted(CACHE.continuation.items())
    )
    return (fixed, var), note


def main():
    all_nf = [3, 4, 5, 6]
    # eko's own approximation (use_fhmruvv = False), NNPDF arXiv:2402.18635
    params = []
    for rust_name, doc, func, nvar, singlet in [
        ("NSP", "gamma_ns,+ (eko as4.gnsp; no variations).", nnpdf.gamma_nsp, None, False),
        ("NSM", "gamma_ns,- (eko as4.gnsm; no variations).", nnpdf.gamma_nsm, None, False),
        ("NSS", "gamma_ns,s = gamma_ns,v - gamma_ns,- (eko as4.gnsv: nf gamma_nss_nf1 + nf^2 gamma_nss_nf2).",
         None, None, False),
        ("PS", "gamma_ps (eko as4.gps), variations 0..6.", nnpdf.gamma_ps, 7, True),
        ("QG", "gamma_qg (eko as4.gqg), variations 0..15.", nnpdf.gamma_qg, 16, True),
        ("GQ", "gamma_gq (eko as4.ggq), variations 0..15.", nnpdf.gamma_gq, 16, True),
        ("GG", "gamma_gg (eko as4.ggg), variations 0..19.", nnpdf.gamma_gg, 20, True),
    ]:
        if rust_name == "NSS":
            entry, note = sea_nnpdf()
        else:
            entry, note = family(f"nnpdf {rust_name}", func, nvar, all_nf, singlet)
        params.append((rust_name, doc, [entry], note))
    write(
        OUT_DIR / "tables_nnpdf.rs",
        "N3LO anomalous dimensions, eko's own approximation (use_fhmruvv = false; NNPDF, arXiv:2402.18635).",
        "module ekore.anomalous_dimensions.unpolarized.space_like.as4",
        params,
    )

    # FHMRUVV (use_fhmruvv = True)
    params = []
    for rust_name, doc, func in [
        ("NSP", "gamma_ns,+ (eko as4.fhmruvv.gnsp, arXiv:1707.08315), variations 0..2.", fhmruvv.gamma_nsp),
        ("NSM", "gamma_ns,- (eko as4.fhmruvv.gnsm, arXiv:1707.08315), variations 0..2.", fhmruvv.gamma_nsm),
        ("NSS", "gamma_ns,s = gamma_ns,v - gamma_ns,- (eko as4.fhmruvv.gnsv.gamma_nss), variations 0..2.",
         fhmruvv_gnsv.gamma_nss),
    ]:
        entry, note = family(f"fhmruvv {rust_name}", func, 3, all_nf, False)
        params.append((rust_name, doc, [entry], note))
    check_nsv_fhmruvv(params)  # the sea part also through gamma_nsv = nsm + nss
    for rust_name, doc, func in [
        ("PS", "gamma_ps (eko as4.fhmruvv.gps, arXiv:2302.07593) for nf = 3, 4, 5; variations 0..2.", fhmruvv.gamma_ps),
        ("QG", "gamma_qg (eko as4.fhmruvv.gqg, arXiv:2307.04158) for nf = 3, 4, 5; variations 0..2.", fhmruvv.gamma_qg),
        ("GQ", "gamma_gq (eko as4.fhmruvv.ggq, arXiv:2310.01245) for nf = 3, 4, 5; variations 0..2.", fhmruvv.gamma_gq),
        ("GG", "gamma_gg (eko as4.fhmruvv.ggg, arXiv:2404.09701) for nf = 3, 4, 5; variations 0..2.", fhmruvv.gamma_gg),
    ]:
        entries, notes = [], set()
        for nf in (3, 4, 5):
            entry, note = family(f"fhmruvv {rust_name} nf={nf}", func, 3, None, True,
                                 nf_symbolic=False, nf_fixed=nf)
            entries.append(entry)
            notes.add(note)
        params.append((rust_name, doc, entries, ", ".join(sorted(n for n in notes if n))))
    write(
        OUT_DIR / "tables_fhmruvv.rs",
        "N3LO anomalous dimensions, FHMRUVV parametrisations (use_fhmruvv = true).",
        "module ekore.anomalous_dimensions.unpolarized.space_like.as4.fhmruvv",
        params,
    )


def sea_nnpdf():
    """nf gamma_nss_nf1 + nf^2 gamma_nss_nf2 of eko's own approximation."""
    CACHE.continuation = {}
    nf1 = symbolic(nnpdf_gnsv.gamma_nss_nf1)
    nf2 = symbolic(nnpdf_gnsv.gamma_nss_nf2)
    fixed, var = split([canonical(NF * nf1(N, None) + NF**2 * nf2(N, None))])
    nsm = canonical(symbolic(nnpdf.gamma_nsm)(N, NF, None))

    def reference(n, nf, v):
        cache = hcache.reset()
        return complex(nnpdf.gamma_nsv(n, nf, cache)) - complex(nnpdf.gamma_nsm(n, nf, hcache.reset()))

    check("nnpdf NSS", fixed, var, reference, [3, 4, 5, 6], False)
    # and the sum nsm + nss against eko's gamma_nsv itself
    def nsv(n, nf, v):
        return complex(nnpdf.gamma_nsv(n, nf, hcache.reset()))

    both = dict(nsm)
    for k, c in fixed.items():
        both[k] = both.get(k, 0.0) + c
    check("nnpdf NSV (= NSM + NSS)", both, [{}], nsv, [3, 4, 5, 6], False)
    note = ", ".join(
        f"{k} ({'even' if True in fl else 'odd'} N)" for k, fl in sorted(CACHE.continuation.items())
    )
    return (fixed, var), note


def check_nsv_fhmruvv(params):
    (nsm_fixed, nsm_var), = params[1][2]
    (nss_fixed, nss_var), = params[2][2]

    def add(a, b):
        out = dict(a)
        for k, c in b.items():
            out[k] = out.get(k, 0.0) + c
        return out

    fixed = add(nsm_fixed, nss_fixed)
    var = [add(a, b) for a, b in zip(nsm_var, nss_var)]

    def nsv(n, nf, v):
        return complex(fhmruvv.gamma_nsv(n, nf, hcache.reset(), v))

    check("fhmruvv NSV (= NSM + NSS)", fixed, var, nsv, [3, 4, 5, 6], False)


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
