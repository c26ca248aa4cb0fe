"""QCD x QED evolution (docs/physics.md §15): the N-space kernels against
eko's own (anomalous dimensions and kernels together), conservation laws
eko does not enter, the refusals eko makes, the photon. The NNPDF QED
theory cards are in test_nnpdf_theories.py; the operators themselves are compared with eko in
test_solve_vs_eko.py (the qed_* cards of cards.py). eko's kernels come from
data/eko_values_qed.npz (eko_values.py; `make test-eko` computes them)."""

import numpy as np
import pytest

import cards
import ekoc
from eko_values import Store

EKO = Store("qed")

RNG = np.random.default_rng(2026)
N_POINTS = RNG.uniform(1.6, 5.0, 5) + 1j * RNG.uniform(-12, 12, 5)
STEPS = 4
AS_ENDS = np.array([0.0265, 0.0221, 0.0187, 0.0160, 0.0139])
AS_HALF = 0.5 * (AS_ENDS[1:] + AS_ENDS[:-1]) * 1.002
AEM_HALF = np.array([6.0e-4, 6.1e-4, 6.2e-4, 6.3e-4])
MU2_FROM, MU2_TO = 3.0, 300.0
#: part of the keys of eko's stored kernels: other steps or couplings are other values
KERNEL_SETUP = (STEPS, AS_ENDS, AS_HALF, AEM_HALF, MU2_FROM, MU2_TO)


def _kernel(family, order, nf, n, **kw):
    return ekoc.evolution_kernel_qed(n, family=family, order=order, nf=nf, as_ends=AS_ENDS, as_half=AS_HALF,
                                     aem_half=AEM_HALF, mu2_from=MU2_FROM, mu2_to=MU2_TO, **kw)


def _eko_kernel(family, order, n, nf, mode=None):
    """eko's quad_ker pieces now: ad.gamma_*_qed into the non_singlet_qed /
    valence_qed / singlet_qed dispatchers (iterate-exact, STEPS steps)."""
    from eko.kernels import EvoMethods, non_singlet_qed, singlet_qed, valence_qed
    from ekore.anomalous_dimensions.unpolarized import space_like as ad

    var = (0, 0, 0, 0, 0, 0, 0)
    a_half = np.stack([AS_HALF, AEM_HALF], axis=1)
    if family == "ns":
        g = ad.gamma_ns_qed(order, mode, n, nf, var, True)
        return non_singlet_qed.dispatcher(order, EvoMethods.ITERATE_EXACT, g, AS_ENDS, AEM_HALF, True, nf,
                                          STEPS, MU2_FROM, MU2_TO)
    if family == "valence":
        g = ad.gamma_valence_qed(order, n, nf, var, True)
        return valence_qed.dispatcher(order, EvoMethods.ITERATE_EXACT, g, AS_ENDS, a_half, nf, STEPS, (10, 0))
    g = ad.gamma_singlet_qed(order, n, nf, var, True)
    return singlet_qed.dispatcher(order, EvoMethods.ITERATE_EXACT, g, AS_ENDS, a_half, nf, STEPS, (10, 0))


@pytest.mark.parametrize("order", [(1, 1), (2, 2), (3, 1), (3, 2), (4, 2)])
@pytest.mark.parametrize("nf", [3, 5])
def test_kernels_match_eko(order, nf):
    """ekoc's N-space QED kernels (the crate's anomalous dimensions and the C
    kernels) equal eko's quad_ker pieces: ad.gamma_*_qed then the
    non_singlet_qed / valence_qed / singlet_qed dispatchers."""
    got_ns = _kernel("ns", order, nf, N_POINTS)
    got_s = _kernel("singlet", order, nf, N_POINTS)
    for p, n in enumerate(N_POINTS):
        for m, mode in enumerate((10102, 10103, 10202, 10203)):
            want = EKO.value(("ns", order, mode, n, nf, KERNEL_SETUP), lambda: _eko_kernel("ns", order, n, nf, mode))
            assert abs(got_ns[p, m] - want) <= 1e-12 * abs(want), (mode, n)
        want_v = EKO.value(("valence", order, n, nf, KERNEL_SETUP), lambda: _eko_kernel("valence", order, n, nf))
        np.testing.assert_allclose(got_ns[p, 4:].reshape(2, 2), want_v, rtol=0, atol=1e-12 * np.abs(want_v).max())
        want_s = EKO.value(("singlet", order, n, nf, KERNEL_SETUP), lambda: _eko_kernel("singlet", order, n, nf))
        np.testing.assert_allclose(got_s[p], want_s, rtol=0, atol=1e-12 * np.abs(want_s).max())


@pytest.mark.parametrize("order", [(1, 1), (1, 2), (2, 1), (3, 2), (4, 2)])
def test_momentum_and_charge_conservation(order):
    """At N = 2 the momentum g + photon + Sigma is conserved by the QED
    singlet kernel, (1, 1, 1, 0) E = (1, 1, 1, 0), and at N = 1 the quark
    number V by the valence one, E_VV = 1, E_V,V_Delta = 0 -- as far as eko's
    anomalous dimensions conserve them: its O(a_s a_em) singlet misses the
    momentum sum by 4e-6 (rounded constants), its NLO one by 3.5e-5, the
    NNLO and aN3LO parametrisations by 3e-3 and 0.3, which after the a_s and
    a_em powers leave at most 3e-7 here. The photon matters: without its
    row, (1, 0, 1, 0) E misses (1, 0, 1, 0) by far more than that."""
    for nf in (3, 4, 5) if order[0] == 4 else (3, 4, 5, 6):
        e = _kernel("singlet", order, nf, 2.0)
        np.testing.assert_allclose(np.array([1, 1, 1, 0]) @ e, [1, 1, 1, 0], rtol=0, atol=5e-7)
        assert np.abs(np.array([1, 0, 1, 0]) @ e - [1, 0, 1, 0]).max() > 1e-5
        v = _kernel("ns", order, nf, 1.0)[4:].reshape(2, 2)
        np.testing.assert_allclose(v[0], [1, 0], rtol=0, atol=1e-7)


def test_refusals_as_eko():
    """What eko cannot compute with QED ekoc refuses, naming the field."""
    th, op = cards.card("qed_nlo_fixed")
    op["configs"]["evolution_method"] = "truncated"
    ok, why = ekoc.supported(th, op)
    assert not ok and "evolution_method" in why
    th, op = cards.card("qed_nlo_sv_exponentiated")
    th["couplings"]["em_running"] = False
    ok, why = ekoc.supported(th, op)
    assert not ok and "em_running" in why
    th, op = cards.card("qed_nlo_fixed")
    th["order"] = [2, 3]
    with pytest.raises(ValueError, match=r"order\[1\]"):
        ekoc.solve(th, op)
    with pytest.raises(ekoc.EkocError, match="exponentiated"):
        _kernel("singlet", (2, 2), 4, 2.0, em_running=False, sv_mode="exponentiated", xif=2.0)


def test_qed_order_changes_the_photon():
    """With QED the photon evolves and mixes (photon from gluons, photon to
    photon about 1); without QED ekoc, as eko, gives the photon no operator
    at all (its rows are zero)."""
    th, op = cards.card("qed_nlo_fixed")
    op["xgrid"] = cards.lambert_grid(8)
    sol = ekoc.solve(th, op)
    t = next(iter(sol.values()))
    ph = ekoc.PIDS.index(22)
    g = ekoc.PIDS.index(21)
    assert np.abs(t.operator[ph, :, g, :]).max() > 1e-4  # photon from gluons
    th0 = dict(th, order=[2, 0])
    t0 = next(iter(ekoc.solve(th0, op).values()))
    assert np.abs(t.operator[ph, :-1, ph, :-1].diagonal() - 1.0).max() < 0.05
    assert np.abs(t0.operator[ph]).max() == 0.0



def test_views_and_stream_in_the_unified_basis():
    """The operator of a QED computation lives in the unified bases: its
    streamed targets are the held ones bitwise, its evolution-basis view is
    the flavour one rotated with eko's matrix, and apply is the dense
    contraction."""
    br = pytest.importorskip("eko.basis_rotation")
    th, op = cards.card("qed_nnlo_running")
    op["xgrid"] = cards.lambert_grid(8)
    sol = ekoc.solve(th, op)
    streamed = []
    ekoc.solve_stream(th, op, lambda t: streamed.append(np.array(t.operator)))
    assert len(streamed) == len(sol)
    for got, ep in zip(streamed, sol):
        np.testing.assert_array_equal(got, sol[ep].operator)
    t = sol[(100.0**2, 5)]
    ev, _ = t.evolution_basis()
    r = br.rotate_flavor_to_evolution
    want = np.einsum("ab,bicj,cd->aidj", r, t.operator, np.linalg.inv(r))
    np.testing.assert_allclose(ev, want, rtol=0, atol=1e-12 * np.abs(want).max())
    pdf = RNG.normal(size=(14, len(op["xgrid"])))
    want = np.einsum("aibj,bj->ai", t.operator, pdf)
    np.testing.assert_allclose(t.apply(pdf), want, rtol=0, atol=1e-12 * np.abs(want).max())
