"""MSbar heavy-quark masses against eko 0.15.7's eko.msbar_masses
(docs/physics.md §17): the fixed-nf running kernel (ker_exact / ker_expanded),
the running across thresholds (evolve) at several scales and orders, the
threshold masses m(m) (compute) on several reference setups, and eko's
refusals. eko's values come from data/eko_values_msbar.npz (eko_values.py;
gen_eko_values.py test_msbar.py writes it).

Tolerances: with the expanded coupling (eko's closed formulas) ekoc is eko
to rounding (rtol 1e-12; measured: running bitwise, m(m)^2 <= 1.6e-14). With
the exact coupling eko integrates a_s with scipy's solve_ivp at rtol 1e-6
(ekoc to ~1e-14), and the masses inherit that: rtol 1e-6 (measured <= 4.6e-7
on the running, <= 2.8e-7 on m(m)^2). The kernel
itself (eko: scipy quad, epsrel 1e-5, which lands at ~1e-16 on this smooth
integrand) is compared at 1e-13.

eko 0.15.7's msbar_masses.solve calls float() on numpy arrays of one
element (scipy's fsolve hands its function such arrays), which numpy 2
refuses: the eko side runs with gen_eko_reference._msbar_numpy2_shim (the
same numbers, a Python float handed to eko's function).
"""

import re

import numpy as np
import pytest

import ekoc
from ekoc._lib import ffi, load
from eko_values import MODE, Store

EKO = Store("msbar")
EXACT, EXPANDED = 0, 1
#: eko's exact a_s: solve_ivp rtol 1e-6 (see the module docstring)
RTOL_EXACT = 1e-6
RTOL_EXPANDED = 1e-12


def _last_error():
    return ffi.string(load().ekoc_last_error()).decode()


def _eko_ready():
    if MODE != "stored":
        from gen_eko_reference import _msbar_numpy2_shim

        _msbar_numpy2_shim()


def _rtol(mode):
    return RTOL_EXACT if mode == EXACT else RTOL_EXPANDED


def _method(mode):
    from eko.quantities.couplings import CouplingEvolutionMethod

    return CouplingEvolutionMethod.EXACT if mode == EXACT else CouplingEvolutionMethod.EXPANDED


@pytest.mark.parametrize("order", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", [EXACT, EXPANDED])
def test_kernel(order, mode):
    lib = load()
    out = ffi.new("double *")
    for a0, a1, nf in [(0.02, 0.015, 5), (0.03, 0.018, 4), (0.025, 0.04, 3), (0.0095, 0.0085, 6)]:
        def compute():
            from eko import msbar_masses

            f = msbar_masses.ker_exact if mode == EXACT else msbar_masses.ker_expanded
            return float(f(a0, a1, (order, 0), nf))

        want = EKO.value(("msbar.ker", order, mode, a0, a1, nf), compute)
        assert lib.ekoc_msbar_kernel(order, mode, nf, a0, a1, out) == 0
        assert out[0] == pytest.approx(want, rel=1e-13, abs=0), (order, mode, a0, a1, nf)


#: eko's MSbar coupling of the evolve tests: alpha_s(91.2) = 0.118 with nf = 5,
#: thresholds m(m) = 1.4, 4.2, 165 GeV, k_h = 1 (and 1.3, 0.8, 1 for the last case)
ALPHAS, REF, M2 = 0.118, (91.2, 5), (1.4**2, 4.2**2, 165.0**2)


def _eko_couplings(order, mode, k2):
    from eko.couplings import Couplings
    from eko.quantities.couplings import CouplingsInfo
    from eko.quantities.heavy_quarks import QuarkMassScheme

    info = CouplingsInfo(alphas=ALPHAS, alphaem=0.007496252, ref=REF, em_running=False)
    return Couplings(info, order=(order, 0), method=_method(mode), masses=list(M2), thresholds_ratios=list(k2),
                     hqm_scheme=QuarkMassScheme.MSBAR)


def _ekoc_couplings(order, mode, k2):
    lib = load()
    cfg = ffi.new("ekoc_couplings_config *")
    lib.ekoc_couplings_config_default(cfg)
    cfg.order, cfg.mode, cfg.alphas_ref, cfg.mu2_ref, cfg.nf_ref = order, mode, ALPHAS, REF[0] ** 2, REF[1]
    for h in range(3):
        cfg.masses2[h], cfg.thresholds_ratio2[h] = M2[h], k2[h]
    cfg.max_nf, cfg.masses_scheme = 6, 1
    handle = ffi.new("ekoc_couplings **")
    assert lib.ekoc_couplings_new(cfg, handle) == 0
    return ffi.gc(handle[0], lib.ekoc_couplings_free)


#: (m2_ref, q2m_ref, nf_ref, q2_to, nf_to): m_b(10 GeV) = 3.6 up and down
#: across the b, c and t thresholds, and within one patch
EVOLVE_CASES = [(3.6**2, 100.0, 5, 2.0, 3), (3.6**2, 100.0, 5, 30.0, 5), (3.6**2, 100.0, 5, 4e4, 6),
                (1.1**2, 9.0, 4, 1.5, 3), (1.1**2, 9.0, 4, 500.0, 5), (160.0**2, 1e4, 5, 3e4, 6),
                (160.0**2, 1e4, 5, 5.0, 3)]


@pytest.mark.parametrize("order", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", [EXACT, EXPANDED])
@pytest.mark.parametrize("k2", [(1.0, 1.0, 1.0), (1.69, 0.64, 1.0)])
def test_evolve(order, mode, k2):
    lib = load()
    c = _ekoc_couplings(order, mode, k2)
    out = ffi.new("double *")
    for m2_ref, q2m_ref, nf_ref, q2_to, nf_to in EVOLVE_CASES:
        def compute():
            _eko_ready()
            from eko import msbar_masses

            return float(msbar_masses.evolve(m2_ref, q2m_ref, _eko_couplings(order, mode, k2), list(k2), 1.0, q2_to,
                                             nf_ref=nf_ref, nf_to=nf_to))

        want = EKO.value(("msbar.evolve", order, mode, k2, m2_ref, q2m_ref, nf_ref, q2_to, nf_to), compute)
        assert lib.ekoc_msbar_evolve(c, 1.0, m2_ref, q2m_ref, nf_ref, q2_to, nf_to, out) == 0, _last_error()
        assert out[0] == pytest.approx(want, rel=_rtol(mode), abs=0), (m2_ref, q2m_ref, nf_ref, q2_to, nf_to)


#: (alpha_s, (mu_ref, nf_ref), [[m, mu] for c, b, t], k_h^2, xif^2): the
#: references eko's rules allow with nf_ref = 5, 4 and 3, masses given at
#: their own value (kept), below and above it
COMPUTE_CASES = [
    (0.118, (91.2, 5), [[0.95, 10.0], [3.6, 10.0], [165.0, 100.0]], (1.0, 1.0, 1.0), 1.0),
    (0.118, (91.2, 5), [[1.27, 1.27], [4.18, 4.18], [165.0, 100.0]], (1.0, 1.0, 1.0), 1.0),
    (0.118, (91.2, 5), [[1.0, 3.0], [4.0, 5.0], [165.0, 100.0]], (1.0, 1.0, 1.0), 1.0),
    (0.3, (2.0, 4), [[1.1, 1.5], [4.5, 3.0], [165.0, 100.0]], (1.0, 1.0, 1.0), 1.0),
    (0.3, (1.0, 3), [[1.3, 1.2], [4.5, 3.0], [165.0, 100.0]], (1.0, 1.0, 1.0), 1.0),
    (0.118, (91.2, 5), [[0.95, 10.0], [3.6, 10.0], [165.0, 100.0]], (2.25, 4.0, 0.49), 1.0),
    (0.118, (91.2, 5), [[0.95, 10.0], [3.6, 10.0], [165.0, 100.0]], (1.0, 1.0, 1.0), 2.0),
]


def _ekoc_masses2(order, mode, alphas, ref, masses, k2, xif2):
    lib = load()
    cfg = ffi.new("ekoc_couplings_config *")
    lib.ekoc_couplings_config_default(cfg)
    cfg.order, cfg.mode, cfg.alphas_ref, cfg.mu2_ref, cfg.nf_ref = order, mode, alphas, ref[0] ** 2, ref[1]
    for h in range(3):
        cfg.thresholds_ratio2[h] = k2[h]
    out = ffi.new("double[3]")
    rc = lib.ekoc_msbar_masses(cfg, [m[0] for m in masses], [m[1] for m in masses], xif2, out)
    return rc, list(out)


def _eko_masses2(order, mode, alphas, ref, masses, k2, xif2):
    _eko_ready()
    from eko import msbar_masses
    from eko.quantities.couplings import CouplingsInfo
    from eko.quantities.heavy_quarks import HeavyQuarkMasses, QuarkMassRef

    info = CouplingsInfo(alphas=alphas, alphaem=0.007496252, ref=ref, em_running=False)
    hq = HeavyQuarkMasses([QuarkMassRef(list(m)) for m in masses])
    return [float(v) for v in msbar_masses.compute(hq, info, (order, 0), _method(mode), list(k2), xif2=xif2)]


@pytest.mark.parametrize("order", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", [EXACT, EXPANDED])
def test_threshold_masses(order, mode):
    for alphas, ref, masses, k2, xif2 in COMPUTE_CASES:
        key = ("msbar.compute", order, mode, alphas, ref, masses, k2, xif2)
        want = EKO.value(key, lambda: _eko_masses2(order, mode, alphas, ref, masses, k2, xif2))
        rc, got = _ekoc_masses2(order, mode, alphas, ref, masses, k2, xif2)
        assert rc == 0, _last_error()
        np.testing.assert_allclose(got, want, rtol=_rtol(mode), atol=0, err_msg=str(key))


def _theory(masses, ref=(91.2, 5), order=3):
    return dict(order=[order, 0], couplings=dict(alphas=0.118, alphaem=0.007496252, ref=list(ref), em_running=False),
                heavy=dict(masses=masses, masses_scheme="msbar", matching_ratios=[1.0, 1.0, 1.0]), xif=1.0,
                n3lo_ad_variation=[0] * 7, use_fhmruvv=True, matching_order=[order - 1, 0])


def test_solve_takes_the_threshold_masses():
    """ekoc.solve's thresholds are eko's m(m): the natural nf of a target just
    above / below m_b(m_b) changes there."""
    masses = [[0.95, 10.0], [3.6, 10.0], [165.0, 100.0]]
    m2 = EKO.value(("msbar.compute", 3, EXACT, 0.118, (91.2, 5), masses, (1.0, 1.0, 1.0), 1.0),
                   lambda: _eko_masses2(3, EXACT, 0.118, (91.2, 5), masses, (1.0, 1.0, 1.0), 1.0))
    th = _theory(masses)
    from ekoc._evolve import operator_card_for

    op = operator_card_for(th, [m2[1] * 0.999, m2[1] * 1.001], xgrid=[1e-3, 0.1, 0.5, 1.0], mu0=1.2)
    assert [nf for _, nf in op["mugrid"]] == [4, 5]
    assert op["init"][1] == 3


#: eko's refusals (its ValueError messages) and ekoc's (the field named)
REFUSALS = [
    ([[0.95, 100.0], [3.6, 10.0], [165.0, 100.0]], None),  # c given in the nf = 5 patch: computed (evolve first)
    ([[0.95, 10.0], [3.6, 95.0], [165.0, 100.0]], "masses\\[1\\]"),   # b above mu_ref with nf_ref = 5
    ([[0.95, 10.0], [3.6, 10.0], [165.0, 80.0]], "masses\\[2\\]"),    # t below mu_ref with nf_ref = 5
    ([[0.95, 10.0], [3.6, 2.0], [165.0, 100.0]], "masses\\[1\\]"),    # b given below its mass (backward patch)
    ([[0.95, 10.0], [3.6, 10.0], [165.0, 200.0]], "masses\\[2\\]"),   # t given above its mass (forward patch)
    ([[5.0, 10.0], [3.6, 10.0], [165.0, 100.0]], "not ascending"),    # m_c(m_c) above m_b(m_b)
]


@pytest.mark.parametrize("case", range(len(REFUSALS)))
def test_refusals_name_the_field(case):
    masses, pattern = REFUSALS[case]
    key = ("msbar.compute", 3, EXPANDED, 0.118, (91.2, 5), masses, (1.0, 1.0, 1.0), 1.0)
    try:
        want = EKO.value(key, lambda: _eko_masses2(3, EXPANDED, 0.118, (91.2, 5), masses, (1.0, 1.0, 1.0), 1.0))
        eko_refused = False
    except ValueError:
        eko_refused = True
    rc, got = _ekoc_masses2(3, EXPANDED, 0.118, (91.2, 5), masses, (1.0, 1.0, 1.0), 1.0)
    if not eko_refused:  # then ekoc computes what eko does
        assert rc == 0, _last_error()
        np.testing.assert_allclose(got, want, rtol=RTOL_EXPANDED, atol=0)
        return
    assert rc != 0
    assert re.search(pattern, _last_error()), _last_error()
    op = dict(init=[10.0, 5], mugrid=[[100.0, 5]], xgrid=[1e-3, 0.1, 1.0],
              configs=dict(evolution_method="iterate-expanded", ev_op_max_order=[10, 0], ev_op_iterations=1,
                           scvar_method=None, inversion_method=None, interpolation_polynomial_degree=1,
                           interpolation_is_log=True, polarized=False, time_like=False, n_integration_cores=1),
              debug=dict(skip_singlet=False, skip_non_singlet=False))
    with pytest.raises(ekoc.EkocError, match="theory_card.heavy.masses"):
        ekoc.solve(_theory(masses), op)


def test_card_refusals():
    """An MSbar mass is a pair [m(mu), mu]; a bare number is refused naming it."""
    th = _theory([1.3, [3.6, 10.0], [165.0, 100.0]])
    op = dict(init=[10.0, 5], mugrid=[[100.0, 5]], xgrid=[1e-3, 0.1, 1.0],
              configs=dict(evolution_method="iterate-exact", ev_op_max_order=[10, 0], ev_op_iterations=1,
                           scvar_method=None, inversion_method=None, interpolation_polynomial_degree=1,
                           interpolation_is_log=True, polarized=False, time_like=False, n_integration_cores=1),
              debug=dict(skip_singlet=False, skip_non_singlet=False))
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card.heavy.masses\[0\]"):
        ekoc.solve(th, op)


def test_msbar_scale_must_be_a_scale():
    """A pole card switched to MSbar keeps eko's [m, nan] pairs: refused naming the scale."""
    import cards

    th, op = cards.card("nlo_vfns")
    th["heavy"]["masses_scheme"] = "MSbar"  # eko's card reader takes either case
    with pytest.raises(ekoc.EkocFieldError, match=r"theory_card.heavy.masses\[0\]\[1\]"):
        ekoc.solve(th, op)
