"""ekoc.quad_kernel: the C integrand as a scipy.LowLevelCallable.

scipy.integrate.quad over [0.5, 1 - cut] with eko's settings (epsabs 1e-12,
epsrel 1e-5, limit 100) must equal ekoc_quad_integrate (GSL QAGS, the
adaptive driver's integral) to 1e-12, for evolution and matching elements,
with and without the per-thread cache; the inversion of a constant kernel
(E = 1) must give back the interpolation basis, p_j(x_k) = delta_kj.
"""

import numpy as np
import pytest

import ekoc

scipy_integrate = pytest.importorskip("scipy.integrate")

X = ekoc.lambert_grid(12, 1e-4)

CASES = [
    dict(family="ns", element="ns+", order=1, nf=4, a0=0.2, a1=0.1),
    dict(family="ns", element="nsV", order=3, nf=5, a0=0.02, a1=0.012, method="truncated"),
    dict(family="singlet", element="gg", order=2, nf=4, a0=0.2, a1=0.1),
    dict(family="singlet", element="qg", order=3, nf=5, a0=0.02, a1=0.01, sv_mode="exponentiated", xif=2 ** 0.5),
    dict(family="singlet", element="gq", order=2, nf=4, a0=0.03, a1=0.01, sv_mode="expanded", xif=0.5),
    dict(kind="matching", family="singlet", element="hg", order=2, nf=4, a1=0.02, L=0.3),
    dict(kind="matching", family="ns", element="qq", order=2, nf=4, a1=0.02, subtract=1.0),
    dict(kind="matching", family="singlet", element="gg", order=1, nf=3, a1=0.03,
         matching_method="backward-exact"),
]


@pytest.mark.filterwarnings("ignore::UserWarning")  # both integrators warn alike where QAGS stops short
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.get('kind', 'evolution')}-{c['family']}-{c['element']}")
@pytest.mark.parametrize("k,j", [(0, 0), (2, 5), (5, 2), (7, 8), (9, 11), (10, 10)])
def test_scipy_quad_equals_ekoc(case, k, j):
    kern = ekoc.quad_kernel(X, k, j, **case)
    want, want_err = kern.integrate()
    got, got_err = scipy_integrate.quad(kern.callable, 0.5, 1 - 0.05, epsabs=1e-12, epsrel=1e-5, limit=100)
    assert abs(got - want) <= 1e-12 * abs(want) + 1e-300, (got, want)
    assert abs(got_err - want_err) <= 1e-12 * abs(want_err) + 1e-300, (got_err, want_err)
    # without the cache (no workspace: one basis function, fresh N-space values)
    bare = ekoc.quad_kernel(X, k, j, cache=False, **case)
    got2, _ = scipy_integrate.quad(bare.callable, 0.5, 0.95, epsabs=1e-12, epsrel=1e-5, limit=100)
    assert abs(got2 - want) <= 1e-12 * abs(want) + 1e-300, (got2, want)
    assert kern.status == 0 and bare.status == 0


@pytest.mark.parametrize("k", range(len(X) - 1))
def test_identity_inverts_to_the_basis(k):
    """E(N) = 1 (LO, a0 = a1): the inverse Mellin transform of p_j at x_k is
    p_j(x_k) = delta_kj, up to the path cut (1e-6)."""
    for j in range(len(X)):
        kern = ekoc.quad_kernel(X, k, j, family="ns", element="ns+", order=1, nf=4, a0=0.1, a1=0.1)
        value, _ = kern.quad()
        assert abs(value - (1.0 if j == k else 0.0)) < 1e-6, (k, j, value)


def test_x_equal_one_row_vanishes():
    kern = ekoc.quad_kernel(X, len(X) - 1, 3, family="ns", element="ns+", order=1, nf=4, a0=0.2, a1=0.1)
    assert kern(0.7) == 0.0
    assert kern.quad()[0] == 0.0


def test_bad_input_raises_with_c_message():
    with pytest.raises(ekoc.EkocValueError, match="nf=7"):
        ekoc.quad_kernel(X, 2, 3, family="ns", order=1, nf=7, a0=0.2, a1=0.1).integrate()
    bad = ekoc.quad_kernel(X, 2, 3, family="ns", order=1, nf=7, a0=0.2, a1=0.1)
    with pytest.raises(ekoc.EkocError):
        bad.quad()  # the kernel returns NaN under scipy and sets its status; quad() raises it
    with pytest.raises(ekoc.EkocValueError, match="element"):
        ekoc.quad_kernel(X, 2, 3, family="ns", element="gg", order=1, nf=4)
    with pytest.raises(ekoc.EkocValueError, match="grid indices"):
        ekoc.quad_kernel(X, 20, 3, family="ns", order=1, nf=4)
    with pytest.raises(ekoc.EkocValueError, match="degree"):
        ekoc.quad_kernel(X, 2, 3, degree=12, family="ns", order=1, nf=4)
    with pytest.raises(ekoc.EkocValueError, match="cut"):
        ekoc.quad_kernel(X, 2, 3, family="ns", order=1, nf=4, a0=0.2, a1=0.1).integrate(cut=0.7)


def test_kernel_args_guarded():
    """issue 15, finding 8: k.args could point the kernel at memory it does
    not own (interp=NULL with n_areas=10**6 crashed); now the owned fields
    are read-only and the others are checked."""
    xg = np.geomspace(1e-4, 1.0, 8)
    k = ekoc.quad_kernel(xg, k=2, j=3, family="singlet", element="gg", order=2, nf=4, a0=0.2, a1=0.1)
    before = k(0.7)
    for name, value in (("interp", ekoc._lib.ffi.NULL), ("n_areas", 10**6), ("areas", ekoc._lib.ffi.NULL),
                        ("workspace", ekoc._lib.ffi.NULL), ("degree", 12)):
        with pytest.raises(AttributeError, match=f"args.{name} is read-only"):
            setattr(k.args, name, value)
    for name, value in (("basis_index", 10**6), ("basis_index", -1), ("element", 4), ("logx", 0.5),
                        ("logx", float("nan")), ("subtract", float("inf")), ("element", "gg"),
                        ("path_radius", -1.0), ("path_radius", float("nan")), ("path_radius", "wide")):
        with pytest.raises(ekoc.EkocError, match=f"args.{name}="):
            setattr(k.args, name, value)
    cfg = k.args.nspace
    cfg.order = 99
    with pytest.raises(ekoc.EkocError):
        k.args.nspace = cfg
    assert k.args.nspace.order == 2  # a read is a copy; the live struct is unchanged
    assert k(0.7) == before
    # the safe fields still work
    k.args.basis_index = 4
    k.args.logx = float(np.log(xg[1]))
    assert np.isfinite(k(0.7))
    # path_radius: 0 is eko's radius; another one is another path (other integrand values)
    default = k(0.7)
    k.args.path_radius = 6.4 / (0.1 - float(np.log(xg[1])))
    assert k.args.path_radius > 0 and k(0.7) == default
    k.args.path_radius = 1.1 * k.args.path_radius
    assert np.isfinite(k(0.7)) and k(0.7) != default
