"""Argument handling shared by the ekoc.ekore mirror: eko's argument forms
(the (qcd, qed) order pair, the seven-entry n3lo_ad_variation, N as a number
or an array) turned into the ekore C ABI's, and the result shaped as eko's."""

from __future__ import annotations

import numpy as np

from .. import _errors, _fields as F
from .._core import check_ekore, dptr
from .._lib import ffi, load
from .._nspace import _split


def qcd_order(order, where: str) -> int:
    """order[0] of eko's (qcd, qed) pair (an int is taken as the QCD order)."""
    if isinstance(order, (tuple, list, np.ndarray)):
        F.sequence(list(order), where, 2)
        return F.integer(order[0], f"{where}[0]")
    return F.integer(order, where)


def qed_orders(order, where: str) -> tuple[int, int]:
    """eko's (qcd, qed) pair of the QED functions; the QED order must be 1 or 2
    (eko's QED grids index a_em^1 unconditionally), the QCD order is checked by
    the crate."""
    F.sequence(list(order) if isinstance(order, (tuple, list, np.ndarray)) else order, where, 2)
    return F.integer(order[0], f"{where}[0]", 0), F.integer(order[1], f"{where}[1]", 1, 2)


def unsupported(field: str, value, why: str):
    raise _errors.EkocUnsupportedFieldError(field, value, f"{why} is not implemented in ekoc")


def n3lo_choice(n3lo_ad_variation, use_fhmruvv):
    """The crate's ekore_n3lo from eko's two arguments (ranges checked by the crate)."""
    raw = F.sequence(list(n3lo_ad_variation), "n3lo_ad_variation", 7)
    choice = ffi.new("ekore_n3lo *")
    for i, v in enumerate(raw):
        v = F.integer(v, f"n3lo_ad_variation[{i}]")
        if v < 0:
            raise _errors.EkocFieldError(f"n3lo_ad_variation[{i}]", v, "is negative (0 is the central value)")
        choice.variation[i] = v
    choice.use_fhmruvv = 1 if F.flag(bool(use_fhmruvv), "use_fhmruvv") else 0
    return choice


def points(n):
    """(Re N, Im N as contiguous float64 arrays, N's shape) of a number or an array."""
    arr = np.asarray(n, dtype=np.complex128)
    re, im = _split(arr)
    return re, im, arr.shape


def evaluate(call, n, tail: tuple, where: str):
    """Runs `call(n_re_ptr, n_im_ptr, count, out_re_ptr, out_im_ptr)` (an ekore
    batch entry point with its other arguments bound) on every N; returns the
    values shaped N.shape + tail (tail alone for a scalar N)."""
    load()
    re, im, shape = points(n)
    size = int(np.prod(tail)) if tail else 1
    out_re = np.empty(re.size * size)
    out_im = np.empty(re.size * size)
    check_ekore(call(dptr(re), dptr(im), re.size, dptr(out_re), dptr(out_im)), where)
    return (out_re + 1j * out_im).reshape(shape + tail)


def per_point(call, n, tail: tuple, where: str):
    """As `evaluate` for an entry point of one N: `call(re, im, out_re_ptr,
    out_im_ptr)` at each point."""
    load()
    re, im, shape = points(n)
    size = int(np.prod(tail)) if tail else 1
    out = np.empty((re.size, size), dtype=np.complex128)
    buf_re, buf_im = np.empty(max(size, 1)), np.empty(max(size, 1))
    for p in range(re.size):
        check_ekore(call(float(re[p]), float(im[p]), dptr(buf_re), dptr(buf_im)), where)
        out[p] = buf_re[:size] + 1j * buf_im[:size]
    return out.reshape(shape + tail)
