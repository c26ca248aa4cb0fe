#!/usr/bin/env python3
"""Reference numbers of the joint running of a_s and a_em (QED couplings,
docs/physics.md §15.2) for tests/test_couplings_qed.c; writes
tests/qed_couplings_reference.h.

Two columns per point:

* eko: the installed eko 0.15.7's own eko.couplings.Couplings(...).a(mu2, nf_to)
  at order (qcd, qed), pole masses. Its expanded modes are closed formulas (ekoc
  must agree to ~1e-13); its exact modes are scipy Radau with rtol 1e-6 (and
  solve_ivp's default atol 1e-6), so they only check ekoc to that error.
* tight: for the exact modes, a reference of this script's own: the same walk
  (eko's Atlas path, np.isclose short-segment skip, the split at m_tau^2 =
  1.777^2 with n_l = 3 above and 2 at or below, a_s-only decoupling with eko's
  matching coefficients) and the same differential equations
      da_s/du  = -a_s^2  (sum_k beta_k a_s^k + beta_qcd(2,1) a_em),
      da_em/du = -a_em^2 (beta_qed(0,2) [+ beta_qed(0,3) a_em] + beta_qed(1,2) a_s)
  (em_running) or da_s/du = -a_s^2 (beta_0 + a_em beta_qcd(2,1) + sum_{k>0} beta_k a_s^k)
  with a_em fixed (closed form at QCD LO), u = ln(mu2/mu2_from), solved with
  scipy's DOP853 at rtol 1e-13, atol 0. For the expanded modes the column
  repeats eko's number.

Where eko's number is NaN (its expanded running-a_em formula takes the log of
1 + beta_qed(0,2) a_s0 L, which turns negative on long segments since
beta_qed(0,2) < 0) the point is written with eko_nan = 1 and ekoc must
report EKOC_ERR_NUMERICAL.

The beta coefficients come from eko.beta (facts: Surguladze 1996 as eko cites
it, [Herzog17] of docs/physics.md), the matching coefficients from
eko.couplings.compute_matching_coeffs_up/down.

Usage: python3 tests/gen_qed_couplings_reference.py   (rewrites tests/qed_couplings_reference.h)
"""

import math
import pathlib

import numpy as np
from scipy.integrate import solve_ivp

from eko import beta as eko_beta
from eko.couplings import Couplings, compute_matching_coeffs_down, compute_matching_coeffs_up
from eko.quantities.couplings import CouplingEvolutionMethod, CouplingsInfo
from eko.quantities.heavy_quarks import QuarkMassScheme

OUT = pathlib.Path(__file__).resolve().parent / "qed_couplings_reference.h"
MTAU2 = 1.777**2

# name, alpha_s, alpha_em, mu_ref, nf_ref, pole masses (GeV), k_h^2
SETUPS = [
    # NNPDF's setup (reference at the Z, above m_tau)
    ("nnpdf", 0.118, 0.0077553, 91.2, 5, (1.51, 4.92, 172.5), (1.0, 1.0, 1.0)),
    # reference below m_tau (so that the walks cross m_tau upwards), LHA-like
    ("low", 0.35, 0.007496252, math.sqrt(2.0), 3, (math.sqrt(2.0), 4.5, 175.0), (1.0, 1.0, 1.0)),
]
# (mu2, nf_to; None = natural): below m_tau, between, across every threshold, both ways, and forced nf
POINTS = [
    (1.0, None), (2.0, None), (2.5, None), (3.0, None), (MTAU2, None), (3.3, None), (10.0, None), (24.0, None),
    (91.2**2, None), (1e3, None), (1e4, None), (4e4, None), (1e5, None),
    (1.0, 4), (1.5, 5), (10.0, 3), (1e4, 4), (1e5, 5), (3e4, 6), (1e4, 6), (2.0, 3),
]
ORDERS = [(q, e) for q in (1, 2, 3, 4) for e in (1, 2)]


def eko_couplings(setup, order, exact, em_running):
    _, alphas, alphaem, mu_ref, nf_ref, masses, k2 = setup
    return Couplings(
        CouplingsInfo(alphas=alphas, alphaem=alphaem, ref=(mu_ref, nf_ref), em_running=em_running),
        order,
        CouplingEvolutionMethod.EXACT if exact else CouplingEvolutionMethod.EXPANDED,
        masses=[m**2 for m in masses],
        hqm_scheme=QuarkMassScheme.POLE,
        thresholds_ratios=list(k2),
    )


def qcd_betas(order, nf):
    return [eko_beta.beta_qcd((k + 2, 0), nf) for k in range(order[0])]


def tight_segment(order, em_running, a, nf, nl, mu2_from, mu2_to):
    """(a_s, a_em) over one fixed-nf, fixed-nl segment, exact modes, DOP853."""
    u = math.log(mu2_to / mu2_from)
    betas = qcd_betas(order, nf)
    mix_qcd = eko_beta.beta_qcd((2, 1), nf)
    if em_running:
        qed = [eko_beta.beta_qed((0, 2), nf, nl)] + ([eko_beta.beta_qed((0, 3), nf, nl)] if order[1] >= 2 else [])
        mix_qed = eko_beta.beta_qed((1, 2), nf, nl)

        def rhs(_u, y):
            a_s, a_em = y
            d_s = -(a_s**2) * (sum(b * a_s**k for k, b in enumerate(betas)) + a_em * mix_qcd)
            d_em = -(a_em**2) * (sum(b * a_em**k for k, b in enumerate(qed)) + a_s * mix_qed)
            return [d_s, d_em]

        sol = solve_ivp(rhs, (0.0, u), list(a), method="DOP853", rtol=1e-13, atol=0.0)
        assert sol.success, sol.message
        return [sol.y[0][-1], sol.y[1][-1]]
    beta0 = betas[0] + a[1] * mix_qcd
    if order[0] == 1:
        return [a[0] / (1.0 + beta0 * a[0] * u), a[1]]
    shifted = [beta0] + betas[1:]

    def rhs_s(_u, y):
        return [-(y[0] ** 2) * sum(b * y[0] ** k for k, b in enumerate(shifted))]

    sol = solve_ivp(rhs_s, (0.0, u), [a[0]], method="DOP853", rtol=1e-13, atol=0.0)
    assert sol.success, sol.message
    return [sol.y[0][-1], a[1]]


def tight_a(setup, order, em_running, mu2, nf_to):
    """The walk of eko's Couplings.a, with tight_segment for every segment."""
    _, alphas, alphaem, mu_ref, nf_ref, masses, k2 = setup
    walls = [m**2 * k for m, k in zip(masses, k2)]
    if nf_to is None:
        nf_to = 3 + sum(1 for w in walls if w <= mu2)
    a = [alphas / 4.0 / np.pi, alphaem / 4.0 / np.pi]
    scale, nf = mu_ref**2, nf_ref

    def run(a, nf, origin, target):
        if np.isclose(origin, target):
            return a
        nl_o = 3 if origin > MTAU2 else 2
        nl_t = 3 if target > MTAU2 else 2
        if nl_o != nl_t:
            a = tight_segment(order, em_running, a, nf, nl_o, origin, MTAU2)
            return tight_segment(order, em_running, a, nf, nl_t, MTAU2, target)
        return tight_segment(order, em_running, a, nf, nl_o, origin, target)

    while nf != nf_to:
        up = nf_to > nf
        h = nf - 3 if up else nf - 4
        a = run(a, nf, scale, walls[h])
        coeffs = compute_matching_coeffs_up("POLE", nf) if up else compute_matching_coeffs_down("POLE", nf - 1)
        L = math.log(k2[h])
        fact = 1.0 + sum(a[0] ** n * L**l * coeffs[n, l] for n in range(1, order[0]) for l in range(n + 1))
        a = [a[0] * fact, a[1]]
        scale = walls[h]
        nf += 1 if up else -1
    return run(a, nf, scale, mu2)


HEADER = """/* qed_couplings_reference.h: the joint running of a_s and a_em (QED
 * couplings, docs/physics.md §15.2) for tests/test_couplings_qed.c.
 * GENERATED by tests/gen_qed_couplings_reference.py from eko 0.15.7's
 * eko.couplings.Couplings and a DOP853 (rtol 1e-13) solution of the same
 * equations; do not edit by hand (rerun the script). Include once. */
#ifndef EKOC_TESTS_QED_COUPLINGS_REFERENCE_H
#define EKOC_TESTS_QED_COUPLINGS_REFERENCE_H

#include <stddef.h>

typedef struct qedref_setup {
  const char *name;
  double alphas, alphaem, mu2_ref;
  int nf_ref;
  double m2[3], k2[3];
} qedref_setup;
typedef struct qedref_point {
  double mu2;
  int nf;          /* -1: natural */
  double eko[2];   /* eko's Couplings.a(mu2, nf): (a_s, a_em) */
  double tight[2]; /* exact modes: DOP853 rtol 1e-13 of the same walk; expanded: = eko */
  int eko_nan;     /* 1: eko gives NaN here (values 0): ekoc must fail with EKOC_ERR_NUMERICAL */
} qedref_point;
typedef struct qedref_set {
  const qedref_setup *setup;
  int order, qed_order, mode, em_running; /* mode: EKOC_COUPLING_EXACT / _EXPANDED */
  const qedref_point *pts;
  size_t n;
} qedref_set;
"""


def main():
    lines = [HEADER]
    for s in SETUPS:
        name, alphas, alphaem, mu_ref, nf_ref, masses, k2 = s
        lines.append(f"static const qedref_setup qedref_setup_{name} = {{\"{name}\", {alphas!r}, {alphaem!r},"
                     f" {mu_ref**2!r}, {nf_ref}, {{{', '.join(repr(m**2) for m in masses)}}},"
                     f" {{{', '.join(map(repr, k2))}}}}};")
    sets = []
    worst = 0.0
    n_nan = 0
    for s in SETUPS:
        for order in ORDERS:
            for exact in (True, False):
                for em in (False, True):
                    cpl = eko_couplings(s, order, exact, em)
                    tag = f"{s[0]}_{order[0]}{order[1]}_{'exa' if exact else 'exp'}_{'run' if em else 'fix'}"
                    lines.append(f"static const qedref_point qedref_pts_{tag}[] = {{")
                    for mu2, nf in POINTS:
                        e = [float(x) for x in cpl.a(mu2, nf)]
                        bad = not all(map(math.isfinite, e))
                        assert not (bad and exact), (tag, mu2, nf, e)
                        if bad:
                            e = [0.0, 0.0]
                            n_nan += 1
                        t = [float(x) for x in tight_a(s, order, em, mu2, nf)] if exact else e
                        if not bad:
                            worst = max(worst, *(abs(x / y - 1.0) for x, y in zip(e, t)))
                        lines.append(f"    {{{mu2!r}, {-1 if nf is None else nf}, {{{e[0]!r}, {e[1]!r}}},"
                                     f" {{{t[0]!r}, {t[1]!r}}}, {int(bad)}}},")
                    lines.append("};")
                    mode = "EKOC_COUPLING_EXACT" if exact else "EKOC_COUPLING_EXPANDED"
                    sets.append(f"    {{&qedref_setup_{s[0]}, {order[0]}, {order[1]}, {mode}, {int(em)},"
                                f" qedref_pts_{tag}, sizeof qedref_pts_{tag} / sizeof qedref_pts_{tag}[0]}},")
    lines.append("static const qedref_set qedref_sets[] = {")
    lines.extend(sets)
    lines.append("};")
    lines += ["", "#endif /* EKOC_TESTS_QED_COUPLINGS_REFERENCE_H */", ""]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT}: {len(sets)} sets x {len(POINTS)} points ({n_nan} NaN in eko);"
          f" worst eko-vs-tight rel. diff {worst:.2e}")


if __name__ == "__main__":
    main()
