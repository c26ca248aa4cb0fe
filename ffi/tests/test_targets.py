"""Repeated targets and oversized requests (issue 15, finding 6, Python side).

A target the card lists many times is computed once: the C request holds
each distinct (mu^2, nf) once, the Solution has one TargetOperator for it
(its arrays are built once and shared by every lookup), and the values are
the bits of a solve without the repeats. A request the library refuses for
its size (EKOC_ERR_NO_MEMORY with its estimate) is an ekoc.EkocMemoryError,
also a MemoryError, carrying the library's message."""

import time

import numpy as np
import pytest

import cards
import ekoc
from ekoc import _cards, _errors, _solve


def test_hundred_thousand_copies_of_one_target_compute_once():
    th, op = cards.card("nlo_vfns")
    op["mugrid"] = [[10.0, 5]] * 100_000
    t0 = time.perf_counter()
    sol = ekoc.solve(th, op, backend="batch", progress=False)
    elapsed = time.perf_counter() - t0
    assert len(sol) == 1 and sol.targets == [(100.0, 5)]
    assert len(sol.setup.targets) == 100_000  # the card as given
    assert elapsed < 20, f"{elapsed:.1f} s: the repeats were computed"
    once = ekoc.solve(th, dict(op, mugrid=[[10.0, 5]]), backend="batch", progress=False)
    t = sol[(100.0, 5)]
    assert t.operator is sol[(100.0, 5)].operator  # one array, shared
    assert np.array_equal(t.operator, once[(100.0, 5)].operator)
    assert np.array_equal(t.error, once[(100.0, 5)].error)


@pytest.mark.parametrize("backend", ["adaptive", "batch"])
def test_repeats_do_not_change_the_bits(backend):
    th, op = cards.card("nlo_vfns")
    op["mugrid"] = [[10.0, 5], [100.0, 5], [10.0, 5], [100.0, 5], [10.0, 5]]
    rep = ekoc.solve(th, op, backend=backend, progress=False)
    plain = ekoc.solve(th, dict(op, mugrid=[[10.0, 5], [100.0, 5]]), backend=backend, progress=False)
    assert rep.targets == plain.targets
    for key in plain:
        assert np.array_equal(rep[key].operator, plain[key].operator)
        assert np.array_equal(rep[key].error, plain[key].error)
        assert np.array_equal(rep[key].failed, plain[key].failed)


def test_request_holds_each_target_once():
    th, op = cards.card("nlo_vfns")
    op["mugrid"] = [[10.0, 5], [100.0, 5], [10.0, 5]]
    setup = _cards.translate(th, op)
    distinct, first = _solve._distinct_targets(setup)
    assert distinct == [(100.0, 5), (10000.0, 5)] and first == [0, 1]
    _, request = _solve._request(setup, "batch", {}, [], None)
    assert request.n_targets == 2


def test_a_size_refusal_is_a_memory_error_with_the_library_message():
    cls = _errors.error_class(_errors.ERR_NO_MEMORY)
    assert cls is ekoc.EkocMemoryError and issubclass(cls, MemoryError) and issubclass(cls, ekoc.EkocError)
    message = "request: 50 targets x nx=2000 need about 3.1e+11 bytes (operators, errors, masks), over the budget"
    with pytest.raises(MemoryError, match="3.1e") as info:
        _errors.fail(_errors.ERR_NO_MEMORY, message, "ekoc_compute")
    assert info.value.message == message and info.value.status_name == "EKOC_ERR_NO_MEMORY"
