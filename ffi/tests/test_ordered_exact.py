"""ekoc's own solution method "ordered-exact" (include/ekoc.h, docs/physics.md
§6.3): the exact path-ordered solution that eko's iterate-exact approaches as
ev_op_iterations grows. Through ekoc.solve on an NNLO VFNS card: ordered-exact
with 8 steps equals iterate-exact with many steps (whose own error falls as
steps^-2), and it is far from iterate-exact at eko's 10 steps; the
non-singlet sectors are the same closed form in both."""

import numpy as np

import ekoc
from cards import card


def _operator(method, iterations):
    th, op = card("nnlo_vfns")
    op["mugrid"] = [[100.0, 5]]
    op["configs"]["evolution_method"] = method
    op["configs"]["ev_op_iterations"] = iterations
    sol = ekoc.solve(th, op, backend="batch")
    # (entries whose remainder beyond eko's Mellin cut exceeds their tolerance are flagged: docs/physics.md §3)
    return sol[(1e4, 5)].operator


def test_ordered_exact_is_the_limit_of_iterate_exact():
    ordered = _operator("ordered-exact", 8)
    scale = np.max(np.abs(ordered))
    d = {n: np.max(np.abs(_operator("iterate-exact", n) - ordered)) / scale for n in (10, 40, 160)}
    # iterate-exact's steps^-2 error: x16 from 10 to 40 and from 40 to 160 steps
    # (measured 8.3e-4, 5.2e-5, 3.3e-6 of the largest entry)
    assert d[10] > 8 * d[40] > 64 * d[160], d
    assert d[160] < 1e-5, d


def test_ordered_exact_converges_in_few_steps():
    a, b = _operator("ordered-exact", 4), _operator("ordered-exact", 8)
    assert np.max(np.abs(a - b)) / np.max(np.abs(b)) < 1e-6


def test_ordered_exact_is_accepted_in_cards():
    th, op = card("lo_ffns")
    op["configs"]["evolution_method"] = "ordered-exact"
    ok, why = ekoc.supported(th, op)
    assert ok, why  # ekoc computes it; eko's own cards do not know the name
