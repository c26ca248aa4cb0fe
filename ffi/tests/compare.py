"""The tolerance of ekoc-vs-eko operator comparisons (tests and perf).

eko integrates every operator element of every part in its evolution basis
with scipy's QUADPACK to epsrel = 1e-5 (epsabs = 1e-12): an integral stops
once its error estimate is below max(epsabs, epsrel |I|); ekoc's adaptive
backend uses the same rule through GSL. The operators compared here are in
the flavour basis, where an entry (a, x_k; b, x_j) is a combination, over
flavours, of evolution-basis entries at the same (x_k, x_j): a small flavour
entry can be a difference of large ones. So each entry gets

    tol = epsrel * (M_eko + M_ekoc)     # both codes' relative budgets, M = max over
                                          the 14 x 14 flavour pairs at (x_k, x_j)
        + |err_eko| + |err_ekoc|         # both propagated error estimates
        + epsabs * max|op_eko|           # eko's absolute floor through the products of parts

plus SUPPORT_NOISE * max|op_eko| where ekoc's entry is exactly 0 (x_k above the
support of basis function j: the exact value is 0, eko integrates the area that
ends at x_k and returns noise with an error estimate of ~1e-16), and a
comparison passes when |op_ekoc - op_eko| <= tol everywhere. (eko's
own error arrays can hold negative numbers in the flavour basis: it rotates
them with signed coefficients; their absolute value is used.)
"""

import numpy as np

EPSREL = 1e-5
EPSABS = 1e-12
#: eko's quadrature noise on entries that vanish exactly, of max|op| (see compare)
SUPPORT_NOISE = 1e-7


def compare(op, err, ref, ref_err, epsrel=EPSREL, epsabs=EPSABS, extra=0.0):
    """Statistics of op (ekoc) against ref (eko): max |deviation|, where,
    the deviation relative to max|ref|, the worst deviation / tolerance
    ratio (<= 1 passes) and the largest relative deviation over entries
    above 1e-6 of max|ref|. `extra` (a number or an array like op) is added
    to the tolerance: a known difference of eko's that its error estimates
    do not cover."""
    op, err, ref, ref_err = (np.asarray(a, dtype=float) for a in (op, err, ref, ref_err))
    d = np.abs(op - ref)
    scale = float(np.max(np.abs(ref)))
    m_ref = np.max(np.abs(ref), axis=(0, 2), keepdims=True)
    m_op = np.max(np.abs(op), axis=(0, 2), keepdims=True)
    tol = epsrel * (m_ref + m_op) + np.abs(ref_err) + np.abs(err) + epsabs * scale + extra
    # an entry ekoc finds exactly 0 (x_k above the whole support of basis function j,
    # in every part) where eko integrates the area that ends at x_k and gets noise:
    # 3.9e-8 (unpolarized) and -9.5e-11 (polarized) of 1.7 in the NLO backward cards
    tol = tol + np.where(op == 0.0, SUPPORT_NOISE * scale, 0.0)
    ratio = d / tol
    worst = np.unravel_index(int(np.argmax(ratio)), ratio.shape)
    big = np.abs(ref) > 1e-6 * scale
    return {
        "max_abs_dev": float(d.max()),
        "at": tuple(int(i) for i in np.unravel_index(int(np.argmax(d)), d.shape)),
        "max_dev_over_scale": float(d.max() / scale),
        "max_ratio": float(ratio.max()),
        "worst": tuple(int(i) for i in worst),
        "max_rel_dev_big": float(np.max(d[big] / np.abs(ref[big]))) if big.any() else 0.0,
        "scale": scale,
    }


def assert_close_to(got, want, rtol, floor, floor_scale=None, min_scale=0.0):
    """Elementwise |got - want| <= rtol |want| + floor * max(min_scale, S), S =
    floor_scale or max|want| (the mirror tests of ekoc.ekore against eko's
    ekore); the shapes must agree. Names the entries that miss."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape
    scale = np.max(np.abs(want)) if floor_scale is None else floor_scale
    bad = np.abs(got - want) > rtol * np.abs(want) + floor * max(min_scale, scale)
    assert not bad.any(), f"{np.count_nonzero(bad)} entries off: got {got[bad][:3]}, want {want[bad][:3]}"
