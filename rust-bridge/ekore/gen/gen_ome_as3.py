#!/usr/bin/env python3
"""Generate the Rust O(a_s^3) matching OMEs, src/ome/as3/a*.rs, from eko 0.15.7.

Usage (from the repository root; needs eko and sympy, takes a few seconds):

    python3 rust-bridge/ekore/gen/gen_ome_as3.py

Pipeline: `ome_as3_source` reads eko's formulas (the Python source of
ekore/operator_matrix_elements/unpolarized/space_like/as3/*.py and the
ln(1-x) Mellin transforms they call) into exact expressions
  entry = sum over (L^a nf^b * harmonic-sum monomial) of P(N) / prod (N+k)^e
with the float literals read as exact rationals (`ome_as3_algebra`); this
script groups each entry by power of L, then by denominator, then by sum
monomial with its nf^0 and nf^1 numerators side by side, and prints Rust that
evaluates every numerator by Horner (`poly`) and every denominator from the
reciprocals 1/(N+k) held by `Kin`, whose powers it tabulates as powers.rs
lists them.  Each coefficient is rounded to f64 once.
The output depends only on eko's source text, so a rerun gives identical bytes.
"""

import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ome_as3_algebra as alg  # noqa: E402
import ome_as3_source as source  # noqa: E402

OUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "ome", "as3")

# Rust file -> [(entry, Rust function name, doc lines)]
FILES = {
    "agg.rs": [("a_gg", "a_gg", ["A_gg,H^{S,(3)}: eko `as3/agg.py` (`A_gg`, with the parametrised", "n_f^0 part of a_gg^(3) of `a_gg3`)."])],
    "agq.rs": [("a_gq", "a_gq", ["A_gq,H^{S,(3)}: eko `as3/agq.py` (`A_gq`)."])],
    "ahg.rs": [("a_hg", "a_hg", ["A_Hg^{S,(3)}: eko `as3/aHg.py` (`A_Hg`) with a_Hg^(3) of `as3/aHg_param.py`", "(exact n_f part, parametrised n_f^0 part)."])],
    "ahq.rs": [("a_hq", "a_hq", ["A_Hq^{PS,(3)}: eko `as3/aHq.py` (`A_Hq`, with its fitted H1..H3 pieces)."])],
    "aqg.rs": [("a_qg", "a_qg", ["A_qg,H^{S,(3)}: eko `as3/aqg.py` (`A_qg`)."])],
    "aqq_ps.rs": [("a_qq_ps", "a_qq_ps", ["A_qq,H^{PS,(3)}: eko `as3/aqqPS.py` (`A_qqPS`)."])],
    "aqq_ns_singlet.rs": [
        ("a_qq_ns_singlet", "a_qq_ns_singlet", ["A_qq,H^{NS,(3)} for the singlet matrix: eko `as3/aqqNS.py` (`A_qqNS`, eta = +1:", "the parametrised even-N part; sums continued from even N)."]),
    ],
    "aqq_ns_nonsinglet.rs": [
        ("a_qq_ns_nonsinglet", "a_qq_ns_nonsinglet", ["A_qq,H^{NS,(3)} for the non-singlet matrix: eko `as3/aqqNS.py` (`A_qqNS`, eta = -1:", "the parametrised odd-N part; sums continued from odd N)."]),
    ],
}

ATOM_ORDER = ["S1", "S2", "S3", "S4", "S5", "Sm1", "Sm2", "Sm3", "Sm4", "Sm5", "S21", "S2m1", "Sm21", "Sm2m1", "S31", "Sm31", "Sm22", "S211", "Sm211"]


def float_literal(x):
    """Shortest round-trip decimal of the f64 nearest to the rational x."""
    text = repr(float(x))
    return text if ("." in text or "e" in text or "inf" in text) else text + ".0"


def split_monomial(m):
    """(L power, nf power, sum monomial) of a monomial."""
    d = dict(m)
    lp, nfp = d.pop("L", 0), d.pop("nf", 0)
    return lp, nfp, tuple(sorted(d.items(), key=lambda t: ATOM_ORDER.index(t[0])))


def linear_shift(f):
    """k of a denominator factor N + k (all of eko's are linear)."""
    if len(f) != 2 or f[1] != 1 or f[0].denominator != 1:
        raise ValueError("non-linear denominator factor %r" % (f,))
    return int(f[0])


def collect(expr):
    """{L power: {denominator: {sum monomial: {nf power: numerator}}}} with, per
    (L power, sum monomial), the nf powers brought onto one denominator (their LCM)."""
    by_l_mono = {}
    for m, r in expr.items():
        lp, nfp, mono = split_monomial(m)
        by_l_mono.setdefault((lp, mono), {})[nfp] = r
    out = {}
    for (lp, mono), parts in by_l_mono.items():
        lcm = {}
        for num, den in parts.values():
            for f, e in den:
                lcm[f] = max(lcm.get(f, 0), e)
        den = tuple(sorted(lcm.items()))
        nums = {}
        for nfp, (num, d) in parts.items():
            have = dict(d)
            missing = tuple((f, e - have.get(f, 0)) for f, e in den if e > have.get(f, 0))
            nums[nfp] = alg.p_mul(num, alg.den_poly(missing))
        key = tuple((linear_shift(f), e) for f, e in den)
        out.setdefault(lp, {}).setdefault(key, {})[mono] = nums
    return out


def rust_poly(coeffs, indent):
    """poly(&[c0, c1, ...], n), wrapped at 96 columns."""
    lits = [float_literal(c) for c in coeffs]
    lines, cur = [], "poly(&["
    for i, lit in enumerate(lits):
        piece = lit + ("], n)" if i == len(lits) - 1 else ", ")
        if len(indent) + len(cur) + len(piece.rstrip()) > 96:
            lines.append(cur.rstrip())
            cur = "    "
        cur += piece
    lines.append(cur)
    return ("\n" + indent).join(lines)


def rust_monomial(mono):
    parts = []
    for atom, e in mono:
        field = "s." + atom.lower()
        parts.append(field if e == 1 else "%s.powi(%d)" % (field, e))
    return " * ".join(parts)


# largest exponent e of 1/(N+a)^e the emitted code uses, by shift a (powers.rs)
MAX_POWER = {}


def rust_den(key):
    for a, e in key:
        MAX_POWER[a] = max(MAX_POWER.get(a, 0), e)
    return " * ".join("k.inv(%d, %d)" % (a, e) for a, e in key) or "C64::ONE"


def den_comment(key):
    parts = []
    for a, e in key:
        base = "N" if a == 0 else "(N%+d)" % a
        parts.append(base + ("^%d" % e if e > 1 else ""))
    return "1/(" + " ".join(parts) + ")" if parts else "polynomial part"


def rust_numerator(nums, indent):
    """The numerator sum_b nf^b P_b(N) of one group."""
    pieces = []
    for nfp in sorted(nums):
        p = rust_poly(nums[nfp], indent)
        pieces.append(p if nfp == 0 else ("nf * " + p if nfp == 1 else "nf.powi(%d) * %s" % (nfp, p)))
    return pieces[0] if len(pieces) == 1 else "(" + ("\n" + indent + "    + ").join(pieces) + ")"


def proportional_classes(monos):
    """Bucket the sum monomials of one denominator by numerator up to a rational
    factor: [(numerator, [(factor, monomial), ...])], deterministic order."""
    classes = {}
    for mono in sorted(monos, key=mono_sort_key):
        nums = monos[mono]
        lead_nf = min(nums)
        scale = nums[lead_nf][-1]
        key = tuple((nfp, tuple(c / scale for c in nums[nfp])) for nfp in sorted(nums))
        if key not in classes:
            classes[key] = (nums, scale, [])
        base_nums, base_scale, members = classes[key]
        members.append((scale / base_scale, mono))
    return [(nums, members) for nums, _, members in classes.values()]


def rust_sum_combination(members):
    """c1 m1 + c2 m2 + ... with c = 1 written as m."""
    out = []
    for c, mono in members:
        m = rust_monomial(mono) if mono else "C64::ONE"
        if c == 1:
            term = m
        elif c == -1:
            term = "-" + m
        else:
            term = "%s * %s" % (float_literal(c), m) if mono else "C64::real(%s)" % float_literal(c)
        out.append(term)
    lines, cur = [], ""
    for i, term in enumerate(out):
        piece = term if i == 0 else (" - " + term[1:] if term.startswith("-") else " + " + term)
        if cur and len(cur) + len(piece) > 84:
            lines.append(cur)
            cur = piece.lstrip()
            cur = cur if not cur.startswith("- ") and not cur.startswith("+ ") else cur
        else:
            cur += piece
    lines.append(cur)
    text = "\n            ".join(lines)
    return text if len(out) == 1 and not text.startswith("-") else "(" + text + ")"


def rust_term(nums, members, indent):
    value = rust_numerator(nums, indent)
    if len(members) == 1 and members[0] == (1, ()):
        return value
    return "%s * %s" % (value, rust_sum_combination(members))


def rust_l_function(fname, lp, groups):
    lines = ["/// Coefficient of L^%d." % lp, "pub(super) fn %s_l%d(k: &Kin, nf: f64) -> C64 {" % (fname, lp)]
    uses_nf = any(nfp for g in groups.values() for nums in g.values() for nfp in nums)
    if not uses_nf:
        lines.append("    let _ = nf;")
    uses_sums = any(mono for g in groups.values() for mono in g)
    lines += ["    let (n, s) = (k.n, k.s);" if uses_sums else "    let n = k.n;", "    let mut acc = C64::ZERO;"]
    for key in sorted(groups):
        monos = groups[key]
        lines.append("    // %s" % den_comment(key))
        terms = [rust_term(nums, members, "        ") for nums, members in proportional_classes(monos)]
        lines.append("    acc += (" + "\n        + ".join(terms) + ")")
        lines.append("        * %s;" % rust_den(key))
    lines += ["    acc", "}"]
    return "\n".join(lines)


def mono_sort_key(mono):
    return (sum(e for _, e in mono), [(ATOM_ORDER.index(a), e) for a, e in mono])


def rust_entry(fname, doc, expr):
    groups = collect(expr)
    top = max(groups)
    out = ["/// " + d for d in doc]
    out.append("/// Polynomial in L = ln(mu^2/m_h^2) of degree %d; `nf` light flavours." % top)
    out.append("/// At L = 0 (matching at the mass itself) only the L^0 layer is evaluated:")
    out.append("/// the Horner form below adds 0 * (finite) = 0 there, so the value is the same.")
    out.append("pub(super) fn %s(k: &Kin, nf: f64, l: f64) -> C64 {" % fname)
    out.append("    if l == 0.0 {")
    out.append("        return %s_l0(k, nf);" % fname)
    out.append("    }")
    horner = "%s_l%d(k, nf)" % (fname, top)
    for lp in range(top - 1, -1, -1):
        term = "%s_l%d(k, nf)" % (fname, lp) if lp in groups else "C64::ZERO"
        horner = "%s + l * (%s)" % (term, horner)
    out.append("    " + horner)
    out.append("}")
    funcs = ["\n".join(out)]
    for lp in sorted(groups):
        funcs.append(rust_l_function(fname, lp, groups[lp]))
    return funcs


def header(sources):
    return "\n".join(
        [
            "// @generated by rust-bridge/ekore/gen/gen_ome_as3.py from eko %s; do not edit." % source.eko_version(),
            "// Source formulas (read as exact rationals, regrouped, each coefficient",
            "// rounded to f64 once; numerators by Horner in N, denominators from 1/(N+k)):",
        ]
        + ["//   %s" % p for p in sources]
        + ["// References: see src/ome/as3/mod.rs.", "", "use super::{poly, Kin};", "use crate::complex::C64;", ""]
    )


def powers_file():
    """powers.rs: the shifts a and, per shift, the largest power of 1/(N+a)
    that the entries use, so that `Kin` tabulates exactly those powers."""
    lo, hi = min(MAX_POWER), max(MAX_POWER)
    table = ", ".join(str(MAX_POWER.get(a, 0)) for a in range(lo, hi + 1))
    return "\n".join(
        [
            "// @generated by rust-bridge/ekore/gen/gen_ome_as3.py from eko %s; do not edit." % source.eko_version(),
            "//! The denominators the entry files use: 1/(N+k)^e for k = SHIFT_MIN..=SHIFT_MAX",
            "//! and e = 1..=MAX_POWER[k - SHIFT_MIN] (`Kin` tabulates these powers once per N).",
            "",
            "pub(super) const SHIFT_MIN: i32 = %d;" % lo,
            "pub(super) const SHIFT_MAX: i32 = %d;" % hi,
            "pub(super) const MAX_POWER: [usize; %d] = [%s];" % (hi - lo + 1, table),
            "",
        ]
    )


def main():
    entries, sources = source.build_entries()
    os.makedirs(OUT_DIR, exist_ok=True)
    outputs = {}
    for fname, items in FILES.items():
        chunks = [header(sources)]
        for entry, rust_name, doc in items:
            chunks += rust_entry(rust_name, doc, entries[entry])
        outputs[fname] = "\n\n".join(chunks).replace("\n\n\n", "\n\n") + "\n"
    outputs["powers.rs"] = powers_file()  # after the entries: it lists what they use
    for fname, text in outputs.items():
        with open(os.path.join(OUT_DIR, fname), "w", encoding="utf-8") as f:
            f.write(text)
        print("wrote %s (%d lines)" % (fname, text.count("\n")))


if __name__ == "__main__":
    main()
