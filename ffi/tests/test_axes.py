"""Polarized and time-like evolution (docs/physics.md §16): what eko 0.15.7
has of them is computed (the operators against eko are in
test_solve_vs_eko.py, the pol_* and tl_* cards), the rest is refused naming
the field, in Python and in the C library alike."""

import numpy as np
import pytest

import cards
import ekoc


@pytest.mark.parametrize(
    "name,edit,field",
    [
        ("pol_nlo_vfns", lambda th, op: op["configs"].update(time_like=True), "operator_card.configs.time_like"),
        ("pol_nlo_vfns", lambda th, op: th.update(order=[4, 0], matching_order=[3, 0]), "theory_card.order[0]"),
        ("tl_nlo_vfns", lambda th, op: th.update(order=[2, 2]), "operator_card.configs.time_like"),
    ],
)
def test_refused_naming_the_field(name, edit, field):
    th, op = cards.card(name)
    edit(th, op)
    ok, why = ekoc.supported(th, op)
    assert not ok and why.startswith(field), why


def test_time_like_nnlo_matching_warns_and_is_zero_beyond_nlo():
    """eko's time-like OMEs are O(a_s); at NNLO its matching takes the O(a_s^2)
    term as zero: ekoc warns, and the result equals the one with matching
    order 1."""
    th, op = cards.card("tl_nnlo_vfns")
    with pytest.warns(ekoc.EkocWarning, match="time-like matching is known to O"):
        a = ekoc.solve(th, op)
    th["matching_order"] = [1, 0]
    b = ekoc.solve(th, op)
    for ep in a:
        np.testing.assert_array_equal(a[ep].operator, b[ep].operator)


def test_polarized_lo_first_moments():
    """Polarized LO at N = 1 (values eko's ekore has, checked by the crate's
    tests): gamma_ns = gamma_qq = gamma_qg = 0, so the non-singlet kernels are
    1 and the singlet's quark row is (1, 0) -- the quark helicity is
    conserved at LO -- while the unpolarized singlet's is not."""
    n = 1.0 + 0j
    e = ekoc.evolution_kernel(n, family="ns", order=1, nf=4, a0=0.02, a1=0.01, polarized=True)
    np.testing.assert_allclose(e, [1.0, 1.0, 1.0], rtol=0, atol=1e-13)
    s = ekoc.evolution_kernel(n, family="singlet", order=1, nf=4, a0=0.02, a1=0.01, polarized=True)
    np.testing.assert_allclose(s[0], [1.0, 0.0], rtol=0, atol=1e-13)
    assert abs(s[1, 1] - 1.0) > 1e-3  # the gluon's moment does evolve (gamma_gg = -beta_0)
    t = ekoc.evolution_kernel(2.0 + 0j, family="singlet", order=1, nf=4, a0=0.02, a1=0.01, time_like=True)
    u = ekoc.evolution_kernel(2.0 + 0j, family="singlet", order=1, nf=4, a0=0.02, a1=0.01)
    assert np.abs(t - u).max() > 1e-4  # time-like is another evolution
