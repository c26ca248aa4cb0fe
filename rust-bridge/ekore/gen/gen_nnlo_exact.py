#!/usr/bin/env python3
"""Generate the exact NNLO (a_s^3) unpolarised space-like anomalous dimensions
in N space, src/as3/exact/{sums_table.rs, formulas.rs, moments_table.rs}.

Usage (from the repository root; needs mpmath, takes about a minute):

    python3 rust-bridge/ekore/gen/gen_nnlo_exact.py HEPRES_H HEPRES2_H

HEPRES_H, HEPRES2_H: the FORM files of the arXiv submissions hep-ph/0403192
(non-singlet, MD5 503139c7f0891dce5a13cf8dd84602c3) and hep-ph/0404111
(singlet, MD5 b53c223914821b5d371adf6d0f8e757f); see `nnlo_exact_source`.
They are not kept in this repository.

Pipeline:
  * `nnlo_exact_source.read` turns each N-space expression into exact terms
    c * zeta-product * colour * 1/(N+j)^p * S_w(N+s);
  * the colour factors are set to QCD's (C_A = 3, C_F = 4/3,
    d^abc d_abc / n_c = 40/9; n_f kept as a variable, T_F = 1/2 is inside
    the files' normalisation) and each term's coefficient is rounded to f64
    once (mpmath, 50 digits);
  * the terms are grouped by harmonic sum S_w(N+s) (s = -1..2) and printed as
    Rust: one function per anomalous dimension returning its n_f^0, n_f^1,
    n_f^2 parts;
  * `nnlo_exact_sums.expansions` computes the large-N expansion of every sum
    that occurs (the set is closed under dropping the first index), printed
    as the table that `exact::NestedSums` evaluates at a large argument
    before recurring down to N - 1;
  * the N = 2 values the files give separately (their delta(N-2) parts: the
    papers' own second moments) and the moments at N = 1..10 from exact
    rational sums become test data (moments_table.rs).
The output depends only on the two input files, so a rerun gives identical
bytes.
"""

import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mpmath as mp  # noqa: E402

import nnlo_exact_source as source  # noqa: E402
import nnlo_exact_sums as asy  # noqa: E402

mp.mp.dps = 50

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "as3", "exact")

COLOUR = {"ca": Fraction(3), "cf": Fraction(4, 3), "dabc2n": Fraction(40, 9)}
M_OUT = 20  # orders 1/N^m, m <= M_OUT, kept in the expansion table
SHIFTS = (-1, 0, 1, 2)

# Rust name -> (file key, FORM name, keep dabc part?) ; the dabc^2 part of
# gqq2m is gamma_s (valence minus "minus"), [MVV-NS] eq. (3.9)
FUNCS = [
    ("gamma_nsp", "ns", "gqq2p", None, "[MVV-NS] eq. (3.7): gamma^(2)+_ns, even N"),
    ("gamma_nsm", "ns", "gqq2m", False, "[MVV-NS] eq. (3.8): gamma^(2)-_ns, odd N"),
    ("gamma_nss", "ns", "gqq2m", True, "[MVV-NS] eq. (3.9): gamma^(2)s_ns = gamma_v - gamma_-, odd N"),
    ("gamma_ps", "s", "gqqps2", None, "[MVV-S] eq. (3.10): gamma^(2)_ps, even N"),
    ("gamma_qg", "s", "gqg2", None, "[MVV-S] eq. (3.11): gamma^(2)_qg, even N"),
    ("gamma_gq", "s", "ggq2", None, "[MVV-S] eq. (3.12): gamma^(2)_gq, even N"),
    ("gamma_gg", "s", "ggg2", None, "[MVV-S] eq. (3.13): gamma^(2)_gg, even N"),
]


def mpf(fr):
    return mp.mpf(fr.numerator) / fr.denominator


def rust_f64(x):
    v = float(x)
    if v == 0.0:
        return "0.0"
    r = repr(v)
    if "e" not in r and "." not in r:
        r += ".0"
    return r


def split_terms(poly, dabc):
    """{nf_power: {(word, shift): {den_key: mpf}}}, den_key = ((j, p), ...) sorted."""
    out = {}
    for mono, c in poly.t.items():
        colour = [a[1] for a in mono if a[0] == "c"]
        has_dabc = "dabc2n" in colour
        if dabc is not None and has_dabc != dabc:
            continue
        nfp = colour.count("nf")
        val = mpf(c)
        for name in colour:
            if name != "nf":
                val *= mpf(COLOUR[name])
        for a in mono:
            if a[0] == "z":
                val *= mp.zeta(a[1])
        sums = [a for a in mono if a[0] == "S"]
        assert len(sums) <= 1
        key = (sums[0][1], sums[0][2]) if sums else None
        dens = {}
        for a in mono:
            if a[0] == "den":
                dens[a[1]] = dens.get(a[1], 0) + 1
        dk = tuple(sorted(dens.items()))
        grp = out.setdefault(nfp, {}).setdefault(key, {})
        grp[dk] = grp.get(dk, 0) + val
    return out


def den_expr(dk):
    if not dk:
        return None
    return " * ".join(f"h.d[{j + 1}][{p}]" for j, p in dk)


def emit_function(rname, doc, terms, word_index):
    lines = [f"/// {doc}", "/// Returns its n_f^0, n_f^1, n_f^2 parts.", f"pub(super) fn {rname}(h: &Hs) -> [C64; 3] {{"]
    lines.append("    let mut r = [C64::ZERO; 3];")
    keys = set()
    for grp in terms.values():
        keys |= set(grp.keys())
    order = sorted(keys, key=lambda k: (-1, 0) if k is None else (word_index[k[0]], k[1]))
    for key in order:
        for nfp in sorted(terms):
            grp = terms[nfp].get(key)
            if not grp:
                continue
            parts = []
            const = mp.mpf(0)
            for dk, v in sorted(grp.items()):
                if float(v) == 0.0:
                    continue
                if not dk:
                    const += v
                    continue
                parts.append(f"{den_expr(dk)} * {rust_f64(v)}")
            if const != 0:
                parts.insert(0, f"C64::real({rust_f64(const)})")
            if not parts:
                continue
            poly = "\n            + ".join(parts)
            if key is None:
                lines.append(f"    r[{nfp}] += {poly};")
            else:
                w, s = key
                lines.append(f"    // S_{{{','.join(map(str, w))}}}(N{s:+d})")
                lines.append(f"    r[{nfp}] += h.s[{word_index[w]}][{s + 1}]\n        * ({poly});")
    lines.append("    r")
    lines.append("}")
    return "\n".join(lines)


def exact_sum(word, n, cache):
    key = (word, n)
    if key in cache:
        return cache[key]
    if not word:
        return Fraction(1)
    if n <= 0:
        return Fraction(0)
    a, rest = word[0], word[1:]
    tot = Fraction(0)
    for k in range(1, n + 1):
        t = Fraction(1, k ** abs(a)) * exact_sum(rest, k, cache)
        if a < 0 and k % 2:
            t = -t
        tot += t
    cache[key] = tot
    return tot


def moment(terms, n, nf, cache):
    tot = mp.mpf(0)
    for nfp, groups in terms.items():
        for key, grp in groups.items():
            sv = mp.mpf(1) if key is None else mpf(exact_sum(key[0], n + key[1], cache))
            for dk, v in grp.items():
                t = v * sv
                for j, p in dk:
                    t /= mp.mpf(n + j) ** p
                tot += t * nf**nfp
    return tot


def main(ns_path, s_path):
    files = {"ns": source.read(ns_path), "s": source.read(s_path)}
    words = set()
    for f in files.values():
        for name, parts in f.items():
            for mono in parts["theta"].t:
                for a in mono:
                    if a[0] == "S":
                        words.add(a[1])
    closure = set()
    for w in words:
        for i in range(len(w)):
            closure.add(w[i:])
    wlist = sorted(closure, key=lambda w: (len(w), sum(map(abs, w)), w))
    windex = {w: i for i, w in enumerate(wlist)}

    exps, consts = asy.expansions(wlist)
    worst = asy.check(exps, wlist, M_OUT, n_test=(18, 19, 24, 25))
    print(f"{len(wlist)} sums; expansion (m <= {M_OUT}) vs exact at N = 18, 19, 24, 25: {mp.nstr(worst, 3)}")
    assert worst < 1e-17

    # --- sums_table.rs
    t = ["// @generated by rust-bridge/ekore/gen/gen_nnlo_exact.py -- do not edit.",
         "//! The nested harmonic sums of the exact NNLO anomalous dimensions and",
         "//! their large-N expansions (gen/nnlo_exact_sums.py):",
         "//!   S_w(N) ~ sum_{m,l} (A_{m,l} + (-1)^N B_{m,l}) N^-m ln^l N,",
         f"//! kept to m <= {M_OUT}.",
         "",
         f"/// Number of sums.",
         f"pub(super) const NW: usize = {len(wlist)};",
         f"/// Orders m = 0..=M_OUT of the expansion.",
         f"pub(super) const M_OUT: usize = {M_OUT};",
         "/// Each sum's indices (negative: alternating), for messages and tests.",
         "#[cfg_attr(not(test), allow(dead_code))]",
         "pub(super) const WORDS: [&[i8]; NW] = ["]
    for w in wlist:
        t.append(f"    &[{', '.join(map(str, w))}],")
    t.append("];")
    t.append("/// First index of each sum (S_{a,w}: a).")
    t.append(f"pub(super) const FIRST: [i8; NW] = [{', '.join(str(w[0]) for w in wlist)}];")
    t.append("/// Index of each sum's tail S_w (w = the indices after the first), or NW for S_{} = 1.")
    t.append("pub(super) const REST: [usize; NW] = [" + ", ".join(str(windex[w[1:]]) if len(w) > 1 else "NW" for w in wlist) + "];")
    t.append("/// One row of an expansion: sum `w`, (-1)^N part `alt` (0 = A, 1 = B), power `l` of ln N,")
    t.append("/// the non-zero coefficients (m, c_m) of N^-m, m <= M_OUT.")
    t.append("pub(super) struct Row {")
    t.append("    pub w: u8,")
    t.append("    pub alt: u8,")
    t.append("    pub l: u8,")
    t.append("    pub c: &'static [(u8, f64)],")
    t.append("}")
    rows = []
    for w in wlist:
        e = asy.truncate(exps[w], M_OUT)
        for eps in (0, 1):
            ls = sorted({l for (m, l) in e[eps]})
            for l in ls:
                coeffs = [e[eps].get((m, l), 0) for m in range(M_OUT + 1)]
                if all(float(c) == 0.0 for c in coeffs):
                    continue
                rows.append((windex[w], eps, l, coeffs))
    t.append(f"pub(super) const ROWS: [Row; {len(rows)}] = [")
    for wi, eps, l, coeffs in rows:
        cs = ", ".join(f"({m}, {rust_f64(c)})" for m, c in enumerate(coeffs) if float(c) != 0.0)
        t.append(f"    Row {{ w: {wi}, alt: {eps}, l: {l}, c: &[{cs}] }},")
    t.append("];")
    write("sums_table.rs", "\n".join(t) + "\n")

    # --- formulas.rs
    f = ["// @generated by rust-bridge/ekore/gen/gen_nnlo_exact.py -- do not edit.",
         "//! The exact three-loop anomalous dimensions gamma^(2)(N) = -M[P^(2)](N), from the",
         "//! N-space FORM results of [MVV-NS] hep-ph/0403192 and [MVV-S] hep-ph/0404111 (their",
         "//! eqs. 3.7-3.13), with C_A = 3, C_F = 4/3, d^abc d_abc/n_c = 40/9. Each term's",
         "//! coefficient (rational x zeta values) is rounded to f64 once.",
         "",
         "use super::Hs;",
         "use crate::complex::C64;",
         ""]
    maxp = 0
    all_terms = {}
    for rname, fk, form, dabc, doc in FUNCS:
        terms = split_terms(files[fk][form]["theta"], dabc)
        for groups in terms.values():
            for grp in groups.values():
                for dk in grp:
                    for j, p in dk:
                        maxp = max(maxp, p)
        all_terms[rname] = (terms, fk, form, dabc)
        f.append(emit_function(rname, doc, terms, windex))
        f.append("")
    f.insert(8, f"/// Highest power of 1/(N+j) in the formulas.\npub(super) const MAX_DEN_POWER: usize = {maxp};\n")
    write("formulas.rs", "\n".join(f))

    # --- moments_table.rs: papers' N = 2 values and exact integer moments
    m = ["// @generated by rust-bridge/ekore/gen/gen_nnlo_exact.py -- do not edit.",
         "//! Test data: the papers' second moments (the delta(N-2) parts of their FORM",
         "//! files, which the formulas must reproduce) and the moments at integer N from",
         "//! the same formulas with exact rational harmonic sums (mpmath, 50 digits),",
         "//! for n_f = 3, 4, 5: (name, N, nf, value).",
         "",
         "pub(super) const SECOND_MOMENTS: &[(&str, u32, f64)] = &["]
    cache = {}
    for rname, fk, form, dabc, doc in FUNCS:
        dpoly = files[fk][form]["delta"]
        if not dpoly.t or dabc is not None:
            continue
        dterms = split_terms(dpoly, None)
        for nf in (3, 4, 5):
            v = moment(dterms, 2, nf, cache)
            m.append(f"    (\"{rname}\", {nf}, {rust_f64(v)}),")
    m.append("];")
    m.append("")
    m.append("pub(super) const INTEGER_MOMENTS: &[(&str, u32, u32, f64)] = &[")
    for rname, (terms, fk, form, dabc) in all_terms.items():
        odd = rname in ("gamma_nsm", "gamma_nss")
        ns = [1, 3, 5, 7, 9] if odd else [2, 4, 6, 8, 10]
        for n in ns:
            if n == 1:
                continue  # 1/(N-1) terms: N = 1 is a limit (tested apart)
            for nf in (3, 4, 5):
                v = moment(terms, n, nf, cache)
                m.append(f"    (\"{rname}\", {n}, {nf}, {rust_f64(v)}),")
    m.append("];")
    write("moments_table.rs", "\n".join(m) + "\n")


def write(name, text):
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, name), "w") as fh:
        fh.write(text)
    print("wrote", name, len(text), "bytes")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
