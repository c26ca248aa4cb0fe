"""Array-API N-space functions against eko's ekore / kernels, on numpy
arrays of any shape, on a DLPack-only host array, and (skipped without a
GPU) on CuPy device arrays. eko's values come from
data/eko_values_nspace.npz (eko_values.py; `make test-eko` computes them)."""

import numpy as np
import pytest

import ekoc
from eko_values import Store

EKO = Store("nspace")
sl_ad = EKO.module("ekore.anomalous_dimensions.unpolarized.space_like")

VAR = (0, 0, 0, 0, 0, 0, 0)
RNG = np.random.default_rng(11)
N = (RNG.uniform(1.5, 6, 12) + 1j * RNG.uniform(-8, 8, 12)).reshape(3, 4)


def test_gamma_shapes_and_values():
    for nf in (3, 5):
        got_ns = ekoc.gamma_ns(3, "ns-", N, nf)
        got_s = ekoc.gamma_singlet(3, N, nf)
        assert got_ns.shape == (3, 4, 3) and got_s.shape == (3, 4, 3, 2, 2)
        for idx in np.ndindex(N.shape):
            want_ns = sl_ad.gamma_ns((3, 0), 10201, N[idx], nf, VAR, True)
            want_s = sl_ad.gamma_singlet((3, 0), N[idx], nf, VAR, True)
            np.testing.assert_allclose(got_ns[idx], want_ns, rtol=1e-12)
            np.testing.assert_allclose(got_s[idx], want_s, rtol=1e-12, atol=1e-13 * np.abs(want_s).max())
    # scalars and lists
    assert ekoc.gamma_ns(1, 10101, 2.0, 4).shape == (1,)
    assert abs(ekoc.gamma_ns(1, 10101, 1.0, 4)[0]) < 1e-14  # quark number conservation at N = 1
    assert ekoc.gamma_singlet(2, [2.0, 3.0], 4).shape == (2, 2, 2, 2)


class HostDLPack:
    """A foreign host array: only DLPack and an array namespace."""

    def __init__(self, a):
        self._a = a

    def __dlpack__(self, **kwargs):
        return self._a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._a.__dlpack_device__()

    def __array_namespace__(self):
        return np


def test_dlpack_host_array():
    got = ekoc.gamma_singlet(2, HostDLPack(N), 4)
    np.testing.assert_array_equal(got, ekoc.gamma_singlet(2, N, 4))


def test_device_array_without_device_path_is_refused():
    class FakeDevice(HostDLPack):
        def __dlpack_device__(self):
            return (2, 0)  # kDLCUDA

    with pytest.raises(ekoc.EkocNoDevice, match="device"):
        ekoc.gamma_ns(2, "ns+", FakeDevice(N), 4)


def test_cupy_device_array():
    cp = pytest.importorskip("cupy")
    try:
        cp.cuda.runtime.getDeviceCount()
    except Exception:  # noqa: BLE001
        pytest.skip("no CUDA device")
    from ekoc import _lib
    if not _lib.has("ekoc_gpu_nspace_evaluate_batch"):
        pytest.skip("libekoc has no device N-space entry point")
    got = ekoc.gamma_singlet(2, cp.asarray(N), 4)
    assert isinstance(got, cp.ndarray)
    np.testing.assert_allclose(cp.asnumpy(got), ekoc.gamma_singlet(2, N, 4), rtol=1e-12)


def _eko_ns_kernel(order, method, mode, n, nf, a0, a1):
    """eko's non-singlet kernel: ekore's gamma_ns into eko.kernels.non_singlet.dispatcher."""
    def now():
        from eko.kernels import EvoMethods, non_singlet

        g = sl_ad.gamma_ns((order, 0), mode, n, nf, VAR, True)
        em = EvoMethods[method.upper().replace("-", "_")]
        return non_singlet.dispatcher((order, 0), int(em), g, a1, a0, nf)

    return EKO.value(("ns kernel", order, method, mode, n, nf, a0, a1), now)


def _eko_singlet_kernel(order, method, n, nf, a0, a1):
    """eko's singlet kernel: ekore's gamma_singlet into eko.kernels.singlet.dispatcher
    (ev_op_iterations 10, ev_op_max_order (10, 0))."""
    def now():
        from eko.kernels import EvoMethods, singlet

        g = sl_ad.gamma_singlet((order, 0), n, nf, VAR, True)
        em = EvoMethods[method.upper().replace("-", "_")]
        return singlet.dispatcher((order, 0), int(em), g, a1, a0, nf, 10, (10, 0))

    return EKO.value(("singlet kernel", order, method, n, nf, a0, a1), now)


@pytest.mark.parametrize("order", [1, 2, 3])
@pytest.mark.parametrize("method", ["iterate-exact", "truncated", "perturbative-expanded"])
def test_evolution_kernel_vs_eko(order, method):
    nf, a0, a1 = 4, 0.025, 0.014
    got_ns = ekoc.evolution_kernel(N, family="ns", order=order, nf=nf, a0=a0, a1=a1, method=method)
    got_s = ekoc.evolution_kernel(N, family="singlet", order=order, nf=nf, a0=a0, a1=a1, method=method)
    assert got_ns.shape == (3, 4, 3) and got_s.shape == (3, 4, 2, 2)
    for idx in np.ndindex(N.shape):
        n = N[idx]
        for m, mode in enumerate((10101, 10201, 10200)):
            want = _eko_ns_kernel(order, method, mode, n, nf, a0, a1)
            np.testing.assert_allclose(got_ns[idx][m], want, rtol=1e-10)
        want = _eko_singlet_kernel(order, method, n, nf, a0, a1)
        np.testing.assert_allclose(got_s[idx], want, rtol=1e-10, atol=1e-12 * np.abs(want).max())


def test_kernel_identity_and_matching_limits():
    # no evolution: E = 1
    e = ekoc.evolution_kernel(N, family="singlet", order=3, nf=4, a0=0.02, a1=0.02)
    np.testing.assert_allclose(e, np.broadcast_to(np.eye(2), e.shape), atol=1e-14)
    # LO matching (no OME term): the identity on (g, q, H) up to the heavy-quark slot
    m = ekoc.matching_kernel(N, family="singlet", order=0, nf=4, a_s=0.02)
    np.testing.assert_allclose(m, np.broadcast_to(np.eye(3), m.shape), atol=1e-15)
    # forward then backward-exact matching invert each other
    fwd = ekoc.matching_kernel(N, family="singlet", order=2, nf=4, a_s=0.02, L=0.4)
    bwd = ekoc.matching_kernel(N, family="singlet", order=2, nf=4, a_s=0.02, L=0.4, method="backward-exact")
    np.testing.assert_allclose(fwd @ bwd, np.broadcast_to(np.eye(3), fwd.shape), atol=1e-12)
