"""The ekore C ABI (through libekoc.so and ctypes) against eko's Python ``ekore``.

At 50 random complex N (Re N in [1.5, 6], Im N in [-10, 10], fixed seed) and
nf = 3..6, every LO/NLO/NNLO anomalous dimension (ns+, ns-, nsV, singlet 2x2)
and every OME entry (A^(1), A^(2); L = 0 and L = 1.3) must agree with eko to
1e-12 relative. Entries that vanish (or nearly, by cancellation) are compared
with an absolute floor of 1e-13 times the largest entry of the same tower.

The library is ``$EKOC_LIB`` (default ``build/libekoc.so`` in the repository).
eko's values come from data/eko_values_ekore_vs_eko.npz (eko_values.py: numba
compiles eko's functions on first use, minutes on a cold cache); `make test-eko`
computes them with eko and checks the file still holds them.
"""

import ctypes
import os
import pathlib

import numpy as np
import pytest

from eko_values import Store

EKO = Store("ekore_vs_eko")
sl_ad = EKO.module("ekore.anomalous_dimensions.unpolarized.space_like")

REPO = pathlib.Path(__file__).resolve().parents[2]
RTOL = 1e-12
FLOOR = 1e-13
N3LO_VARIATION = (0, 0, 0, 0, 0, 0, 0)  # unused below N3LO, but part of eko's signature
MODES = (10101, 10201, 10200)

D = ctypes.c_double
U32 = ctypes.c_uint32
PD = ctypes.POINTER(ctypes.c_double)


def _load():
    path = pathlib.Path(os.environ.get("EKOC_LIB", REPO / "build" / "libekoc.so"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        pytest.fail(f"shared library {path} not found: run `make` (or set EKOC_LIB)")
    lib = ctypes.CDLL(str(path))
    sig = {
        "ekore_gamma_ns": [U32, U32, D, D, U32, PD, PD],
        "ekore_gamma_singlet": [U32, D, D, U32, PD, PD],
        "ekore_gamma_all": [U32, D, D, U32, PD, PD, PD, PD],
        "ekore_ome_ns": [U32, D, D, U32, D, PD, PD],
        "ekore_ome_singlet": [U32, D, D, U32, D, PD, PD],
    }
    for name, args in sig.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = ctypes.c_int32
    lib.ekore_last_error.argtypes = []
    lib.ekore_last_error.restype = ctypes.c_char_p
    return lib


@pytest.fixture(scope="module")
def lib():
    return _load()


def _call(lib, name, size, *args):
    """Calls an ekore_* function writing `size` complex values; returns them."""
    re = (D * size)()
    im = (D * size)()
    code = getattr(lib, name)(*args, re, im)
    assert code == 0, f"{name}{args}: {code} {lib.ekore_last_error().decode()}"
    return np.array(re[:]) + 1j * np.array(im[:])


def _points():
    rng = np.random.default_rng(20240601)
    re = rng.uniform(1.5, 6.0, 50)
    im = rng.uniform(-10.0, 10.0, 50)
    return [(complex(r, i), 3 + k % 4) for k, (r, i) in enumerate(zip(re, im))]


POINTS = _points()


def _assert_close(got, want, what):
    got = np.asarray(got).reshape(-1)
    want = np.asarray(want, dtype=complex).reshape(-1)
    assert got.shape == want.shape, f"{what}: shape {got.shape} vs {want.shape}"
    scale = max(np.max(np.abs(want)), 1e-300)
    bad = np.abs(got - want) > RTOL * np.abs(want) + FLOOR * scale
    if np.any(bad):
        k = int(np.argmax(bad))
        rel = abs(got[k] - want[k]) / max(abs(want[k]), 1e-300)
        pytest.fail(f"{what}[{k}]: ekore {got[k]!r} vs eko {want[k]!r} (rel {rel:.3g})")


@pytest.mark.parametrize("n,nf", POINTS)
def test_gamma_ns(lib, n, nf):
    for mode in MODES:
        want = sl_ad.gamma_ns((3, 0), mode, n, nf, N3LO_VARIATION, True)
        for order in (1, 2, 3):
            got = _call(lib, "ekore_gamma_ns", order, order, mode, n.real, n.imag, nf)
            # each order is compared with its own scale
            for k in range(order):
                _assert_close(got[k], want[k], f"gamma_ns mode={mode} order={order} k={k} N={n} nf={nf}")


@pytest.mark.parametrize("n,nf", POINTS)
def test_gamma_singlet(lib, n, nf):
    want = sl_ad.gamma_singlet((3, 0), n, nf, N3LO_VARIATION, True)
    assert want.shape == (3, 2, 2)
    for order in (1, 2, 3):
        got = _call(lib, "ekore_gamma_singlet", 4 * order, order, n.real, n.imag, nf).reshape(order, 2, 2)
        for k in range(order):
            _assert_close(got[k], want[k], f"gamma_singlet order={order} k={k} N={n} nf={nf}")


@pytest.mark.parametrize("n,nf", POINTS[:10])
def test_gamma_all(lib, n, nf):
    ns_re, ns_im = (D * 9)(), (D * 9)()
    s_re, s_im = (D * 12)(), (D * 12)()
    assert lib.ekore_gamma_all(3, n.real, n.imag, nf, ns_re, ns_im, s_re, s_im) == 0
    ns = (np.array(ns_re[:]) + 1j * np.array(ns_im[:])).reshape(3, 3)  # [order][mode]
    sg = (np.array(s_re[:]) + 1j * np.array(s_im[:])).reshape(3, 2, 2)
    for m, mode in enumerate(MODES):
        want = sl_ad.gamma_ns((3, 0), mode, n, nf, N3LO_VARIATION, True)
        for k in range(3):
            _assert_close(ns[k, m], want[k], f"gamma_all ns mode={mode} k={k}")
    want = sl_ad.gamma_singlet((3, 0), n, nf, N3LO_VARIATION, True)
    for k in range(3):
        _assert_close(sg[k], want[k], f"gamma_all singlet k={k}")


def _eko_ome(n, L):
    """eko's OME towers for matching order (2, 0), without the MSbar terms
    (_eko_ome_now's, stored or computed now)."""
    return EKO.value(("OME towers as1, as2 (singlet, non-singlet)", n, L), lambda: _eko_ome_now(n, L))


def _eko_ome_now(n, L):
    """eko's OME towers for matching order (2, 0), without the MSbar terms.

    eko's ``A_singlet((2, 0), n, nf, L, False)`` and ``A_non_singlet((2, 0), n, nf, L)``
    are exactly ``[as1.A_*(n, cache, L), as2.A_*(n, cache, L)]`` (nf is not used
    below O(a_s^3)); the per-order functions are called directly because numba
    compiling the tower functions also compiles the O(a_s^3) OMEs (tens of minutes).
    """
    from ekore.harmonics import cache as harmonics_cache
    from ekore.operator_matrix_elements.unpolarized.space_like import as1 as ome_as1, as2 as ome_as2

    cache = harmonics_cache.reset()
    a_s = np.array([ome_as1.A_singlet(n, cache, L), ome_as2.A_singlet(n, cache, L, False)])
    cache = harmonics_cache.reset()
    a_ns = np.array([ome_as1.A_ns(n, cache, L), ome_as2.A_ns(n, cache, L)])
    return a_s, a_ns


@pytest.mark.parametrize("L", [0.0, 1.3])
@pytest.mark.parametrize("n,nf", POINTS)
def test_ome(lib, n, nf, L):
    want_s, want_ns = _eko_ome(n, L)
    assert want_s.shape == (2, 3, 3) and want_ns.shape == (2, 2, 2)
    for order in (1, 2):
        got_s = _call(lib, "ekore_ome_singlet", 9 * order, order, n.real, n.imag, nf, L).reshape(order, 3, 3)
        got_ns = _call(lib, "ekore_ome_ns", 4 * order, order, n.real, n.imag, nf, L).reshape(order, 2, 2)
        for k in range(order):
            _assert_close(got_s[k], want_s[k], f"A_singlet order={order} k={k} N={n} nf={nf} L={L}")
            _assert_close(got_ns[k], want_ns[k], f"A_non_singlet order={order} k={k} N={n} nf={nf} L={L}")
