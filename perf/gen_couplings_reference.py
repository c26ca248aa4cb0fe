#!/usr/bin/env python3
"""Reference values of a_s = alpha_s/(4 pi) for tests/test_couplings.c.

Runs eko's own `eko.couplings.Couplings` (eko 0.15.7) on a few coupling
setups at ~15 (mu2, nf) points each, and, for the exact solver, an independent
30-digit mpmath solution of the same equations (docs/physics.md §2), and prints C
initialisers to paste into the test.

* eko's "exact" solver is scipy Radau with rtol 1e-6 (and scipy's default
  atol 1e-6), so its values are only good to ~1e-6 relative; the mpmath
  column is the one that checks ekoc's integrator to ~1e-12.
* eko's "expanded" solver is closed-form, so ekoc should agree to ~1e-13.

The mpmath column is a deliberately different method from ekoc's integrator:
it solves t = beta0 ln(mu2/mu2_0) = int_{a}^{a0} da' / (a'^2 (1 + b1 a' + b2 a'^2))
for a with quadrature + root finding. Thresholds, forced-nf paths and the
decoupling (docs/physics.md §2.3) are written here again from the spec.

Usage: python3 perf/gen_couplings_reference.py > /tmp/ref.txt
"""

import math

import mpmath as mp
import numpy as np

from eko.couplings import Couplings
from eko.quantities.couplings import CouplingEvolutionMethod, CouplingsInfo
from eko.quantities.heavy_quarks import QuarkMassScheme

mp.mp.dps = 30

INF = float("inf")

# name, order, exact?, alphas_ref, mu_ref (linear), nf_ref, masses (linear),
# k_h^2, threshold shift rho (thresholds at rho k^2 m^2, L_h = ln(rho k^2))
CONFIGS = [
    ("lha_vfns_nnlo_exact", 3, True, 0.35, math.sqrt(2.0), 3,
     [math.sqrt(2.0), 4.5, 175.0], [1.0, 1.0, 1.0], 1.0),
    ("lha_vfns_nlo_expanded_rho2", 2, False, 0.35, math.sqrt(2.0), 3,
     [math.sqrt(2.0), 4.5, 175.0], [1.0, 1.0, 1.0], 2.0),
    ("lha_ffns_nnlo_exact", 3, True, 0.35, math.sqrt(2.0), 4,
     [math.sqrt(2.0), 4.5, 175.0], [0.0, INF, INF], 1.0),
    ("mz_nnlo_expanded", 3, False, 0.118, 91.1876, 5,
     [1.51, 4.92, 172.5], [1.0, 4.0, 0.25], 1.0),
    ("mz_nnlo_exact", 3, True, 0.118, 91.1876, 5,
     [1.51, 4.92, 172.5], [1.0, 4.0, 0.25], 1.0),
    ("mz_nlo_exact_rhohalf", 2, True, 0.118, 91.1876, 5,
     [1.51, 4.92, 172.5], [1.0, 4.0, 0.25], 0.5),
    ("lo_expanded", 1, False, 0.2, 10.0, 4,
     [1.3, 4.75, 172.0], [2.0, 0.5, 1.0], 1.0),
]

# (mu2, nf_to or None for the natural nf)
POINTS = [
    (1.0, None), (1.0, 4), (2.5, None), (2.5, 3), (5.0, 5), (10.0, None),
    (20.0, None), (30.0, 4), (100.0, None), (100.0, 3), (1.0e3, 6),
    (8317.44, None), (1.0e4, None), (1.0e4, 4), (1.0e5, None),
]

C11, C20, C21, C22 = 2.0 / 3.0, 14.0 / 3.0, 38.0 / 3.0, 4.0 / 9.0


def betas(nf):
    b0 = mp.mpf(11) - mp.mpf(2) / 3 * nf
    b1 = mp.mpf(102) - mp.mpf(38) / 3 * nf
    b2 = mp.mpf(2857) / 2 - mp.mpf(5033) / 18 * nf + mp.mpf(325) / 54 * nf**2
    return b0, b1 / b0, b2 / b0


def run_mp(a0, nf, order, exact, mu2_from, mu2_to):
    """a_s^(nf)(mu2_to) from a_s(mu2_from) = a0 in 30 digits."""
    b0, b1, b2 = betas(nf)
    lmu = mp.log(mp.mpf(mu2_to) / mp.mpf(mu2_from))
    alo = a0 / (1 + b0 * a0 * lmu)
    if order == 1:
        return alo
    if not exact:
        anlo = alo * (1 - b1 * alo * mp.log(1 + a0 * b0 * lmu))
        if order == 2:
            return anlo
        return alo * (1 + alo * (alo - a0) * (b2 - b1**2) + anlo * b1 * mp.log(anlo / a0))
    bb = [1, b1, b2][:order]
    t = b0 * lmu

    def f(x):  # 1 / (x^2 (1 + b1 x + b2 x^2))
        return 1 / (x**2 * sum(c * x**k for k, c in enumerate(bb)))

    a = alo  # Newton on g(a) = int_a^a0 f - t, g'(a) = -f(a)
    for _ in range(100):
        step = (mp.quad(f, [a, a0]) - t) / f(a)
        a += step
        if abs(step) < mp.mpf(10) ** (-26) * abs(a):
            return a
    raise RuntimeError("Newton did not converge")


def path_mp(cfg, mu2, nf_to):
    """eko's Atlas path (docs/physics.md §2.3) with decoupling, in mpmath."""
    _, order, exact, alphas, mu_ref, nf_ref, masses, k2, rho = cfg
    ratios = [mp.mpf(k) * rho for k in k2]
    walls = [mp.mpf(m) ** 2 * r for m, r in zip(masses, ratios)]
    mu2_ref = mp.mpf(mu_ref) ** 2
    if nf_to is None:
        nf_to = 3 + sum(1 for w in walls if w <= mu2)
    a = mp.mpf(alphas) / (4 * mp.pi)
    scale, nf = mu2_ref, nf_ref
    while nf != nf_to:
        up = nf_to > nf
        h = nf - 3 if up else nf - 4  # 0 charm, 1 bottom, 2 top
        if walls[h] in (0, mp.inf):
            return None
        if not mp.almosteq(scale, walls[h], rel_eps=1e-5, abs_eps=1e-8):
            a = run_mp(a, nf, order, exact, scale, walls[h])
        lh = mp.log(ratios[h])
        if up:
            c = [[0], [0, C11], [C20, C21, C22]]
        else:
            c = [[0], [0, -C11], [-C20, -C21, 2 * C11**2 - C22]]
        fact = 1 + sum(a**n * lh**l * c[n][l] for n in range(1, order) for l in range(n + 1))
        a *= fact
        scale, nf = walls[h], nf + (1 if up else -1)
    if not mp.almosteq(scale, mu2, rel_eps=1e-5, abs_eps=1e-8):
        a = run_mp(a, nf, order, exact, scale, mu2)
    return a


def main():
    for cfg in CONFIGS:
        name, order, exact, alphas, mu_ref, nf_ref, masses, k2, rho = cfg
        ratios = (np.array(k2) * rho).tolist()
        c = Couplings(
            CouplingsInfo(alphas=alphas, alphaem=0.007496, ref=(mu_ref, nf_ref)),
            (order, 0),
            CouplingEvolutionMethod.EXACT if exact else CouplingEvolutionMethod.EXPANDED,
            masses=[m**2 for m in masses],
            hqm_scheme=QuarkMassScheme.POLE,
            thresholds_ratios=ratios,
        )
        print(f"/* {name}: order {order}, {'exact' if exact else 'expanded'}, "
              f"alphas({mu_ref!r}^2, nf={nf_ref}) = {alphas}, masses {masses}, "
              f"k^2 {k2}, shift {rho} */")
        print(f"static const ref_config cfg_{name} = {{{order}, "
              f"{'EKOC_COUPLING_EXACT' if exact else 'EKOC_COUPLING_EXPANDED'}, "
              f"{alphas!r}, {mu_ref**2!r}, {nf_ref}, "
              f"{{{', '.join(repr(m**2) for m in masses)}}}, "
              f"{{{', '.join('INFINITY' if x == INF else repr(x) for x in k2)}}}, {rho!r}}};")
        print(f"static const ref_point pts_{name}[] = {{")
        for mu2, nf in POINTS:
            want_mp = path_mp(cfg, mu2, nf)
            try:
                with np.errstate(all="ignore"):
                    got = float(c.a_s(mu2, nf))
            except Exception:  # eko refuses (e.g. a wall at 0 or inf)
                got = float("nan")
            if want_mp is None or not math.isfinite(got):
                print(f"    /* ({mu2!r}, {nf}): not reachable (threshold at 0 or inf) */")
                continue
            nfs = -1 if nf is None else nf
            print(f"    {{{mu2!r}, {nfs}, {got!r}, {mp.nstr(want_mp, 20)}}},")
        print("};")
        print()


if __name__ == "__main__":
    main()
