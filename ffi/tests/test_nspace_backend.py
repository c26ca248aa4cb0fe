"""The N-space backend (issue 17; docs/physics.md §3.2) from Python.

backend="nspace" multiplies each target's parts in N-space and inverts its
operator once on banded paths; the batch backend inverts every part and
multiplies the x-space operators (eko's way). On one segment the two compute
the same integrals: every entry agrees within the stated errors. Along a
matched path they differ by the interpolation of the intermediate PDFs, which
the x-space product adds after each part: evolved PDFs agree to that level
and both converge to the same values as the grid is refined. What the
backend does not compute is refused, naming the field. The truncated and
perturbative methods get eko's per-row treatment of their spurious poles
(docs/physics.md §3.3): on one segment every entry is batch's, and "auto"
(the default) runs this engine wherever it computes the card."""

import pathlib
import sys

import numpy as np
import pytest

import cards
import ekoc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "perf"))
from nnpdf_cards import toy_pdf as pdf_on  # noqa: E402  the LHA toy PDFs f(x) on a grid, ekoc.PIDS order


def _on_grid(name, nx, degree):
    th, op = cards.card(name)
    op["xgrid"] = cards.lambert_grid(nx, 1e-4)
    op["configs"]["interpolation_polynomial_degree"] = degree
    return th, op


def _evolved_pdfs_agree_with_batch(name, pids, limit):
    """Card `name` on a 60-point grid, degree 5: the toy PDFs evolved by both
    backends (batch cut at 1e-3), asserted within `limit` relative where
    above 1e-3 of their largest value, for the flavours `pids`; returns the
    N-space solve's flagged count."""
    th, op = _on_grid(name, 60, 5)
    x = np.array(op["xgrid"])
    f0 = pdf_on(x)
    a = ekoc.solve(th, op, "nspace", progress=False)
    b = ekoc.solve(th, op, "batch", progress=False, mellin_cut=1e-3, epsrel=1e-7)
    for key in a:
        fa, fb = a[key].apply(f0) * x, b[key].apply(f0) * x
        for pid in pids:
            k = ekoc.PIDS.index(pid)
            big = np.abs(fb[k]) > 1e-3 * np.abs(fb[k]).max()
            rel = np.abs(fa[k] - fb[k])[big] / np.abs(fb[k])[big]
            assert rel.max() <= limit, f"{key} pid {pid}: {rel.max():.3g}"
    return a.failures


def test_one_segment_entries_agree_with_batch():
    """NNLO FFNS, one segment per target: every entry of both backends within
    10x the sum of their stated errors (the batch path cut at 1e-3, where its
    remainder is negligible; eko's 0.05 leaves up to ~1e-6 of some entries)."""
    th = cards.card("lo_ffns")[0]
    th["order"] = [3, 0]
    th["matching_order"] = [2, 0]
    _, op = _on_grid("lo_ffns", 25, 5)
    op["mugrid"] = [[3.0, 4], [100.0, 4]]
    op["configs"]["evolution_method"] = "ordered-exact"
    a = ekoc.solve(th, op, "nspace", progress=False)
    b = ekoc.solve(th, op, "batch", progress=False, mellin_cut=1e-3, epsrel=1e-7)
    assert a.failures == 0
    for key in a:
        va, ea, vb, eb = a[key].operator, a[key].error, b[key].operator, b[key].error
        d = np.abs(va - vb)
        ok = (d <= 10 * (ea + eb) + 1e-12) | b[key].failed
        assert ok.all(), f"{key}: worst {np.max(np.where(b[key].failed, 0, d / (ea + eb + 1e-300))):.3g} x"


@pytest.mark.parametrize("name", ["nnlo_vfns", "nlo_sv_exponentiated", "nnlo_sv_expanded", "n3lo_vfns",
                                  "pol_nlo_vfns", "tl_nnlo_vfns", "n3lo_backward_expanded", "msbar_nnlo_vfns",
                                  "msbar_nnlo_backward"])
def test_matched_paths_agree_with_batch(name):
    """Evolved toy PDFs (u, d, g, s, c) of both backends on a 60-point grid,
    degree 5: within 1e-4 where above 1e-3 of their largest value for the
    forward unpolarized paths (1e-3 polarized); the time-like and backward
    ones, whose x-space products interpolate more steeply varying
    intermediate PDFs, within 2e-2 (and converging together:
    test_matched_paths_converge_together)."""
    limit = 2e-2 if name.startswith("tl") or "backward" in name else 1e-3 if name.startswith("pol") else 1e-4
    failures = _evolved_pdfs_agree_with_batch(name, (2, 1, 21, 3, 4), limit)
    assert failures <= 2


def test_matched_paths_converge_together():
    """Time-like NNLO VFNS: g and c at five x from both backends, on grids of
    30 and 240 points: the difference of the backends shrinks from ~1e-4 to
    ~1e-8 (the x-space products' interpolation error), far below what the
    grid changes the values."""
    xs = np.log([1e-3, 1e-2, 0.1, 0.3, 0.5])
    diffs = []
    for nx in (30, 240):
        th, op = _on_grid("tl_nnlo_vfns", nx, 4)
        x = np.array(op["xgrid"])
        f0 = pdf_on(x)
        out = []
        for backend, kw in (("nspace", {}), ("batch", dict(mellin_cut=1e-3))):
            sol = ekoc.solve(th, op, backend, progress=False, **kw)
            f = sol[sorted(sol)[0]].apply(f0) * x
            out.append(np.array([np.interp(xs, np.log(x), f[ekoc.PIDS.index(p)]) for p in (21, 4)]))
        diffs.append(np.max(np.abs(out[0] - out[1]) / np.abs(out[1])))
    assert diffs[1] < 1e-6 and diffs[1] < diffs[0] / 100, diffs


@pytest.mark.parametrize("method, order, direction", [
    ("truncated", 3, "up"), ("truncated", 3, "down"),
    ("perturbative-exact", 3, "up"), ("truncated", 4, "up"),
    # 10.3x before the bands lowered off the poles got taller paths (quad/band_plan.h, EKOC_BAND_ARM_IM)
    ("perturbative-expanded", 3, "down"),
])
def test_poles_one_segment_entries_agree_with_batch(method, order, direction):
    """The methods whose singlet solutions have spurious poles right of N = 1,
    one segment per target, a grid from 1e-7 (rows whose eko path encloses
    none of them, some, all): every entry within 10x the sum of both stated
    errors of batch (eko's per-row integrals, cut at 1e-3 where the remainder
    is negligible; the engine's own standard, tests/test_nspace_engine.c: the
    truncated cards stay within 3x); none flagged upward. Backward, a few entries' stated
    errors exceed the tolerance while the values agree with batch to 1e-9
    (the band error estimate of growing kernels; perf/STATS.md)."""
    th = cards.card("lo_ffns")[0]
    th["order"] = [order, 0]
    th["matching_order"] = [order - 1, 0]
    _, op = _on_grid("lo_ffns", 30, 4)
    op["xgrid"] = cards.lambert_grid(30, 1e-7)
    op["init"] = [10.0, 4] if direction == "down" else [1.65, 4]
    op["mugrid"] = [[2.0, 4], [4.0, 4]] if direction == "down" else [[3.0, 4], [100.0, 4]]
    op["configs"]["evolution_method"] = method
    a = ekoc.solve(th, op, "nspace", progress=False)
    b = ekoc.solve(th, op, "batch", progress=False, mellin_cut=1e-3, epsrel=1e-7)
    assert a.failures <= (0 if direction == "up" else 8) and a.backend == "nspace"
    for key in a:
        va, ea, vb, eb = a[key].operator, a[key].error, b[key].operator, b[key].error
        d = np.abs(va - vb)
        ok = (d <= 10 * (ea + eb) + 1e-13) | b[key].failed
        assert ok.all(), f"{key}: worst {np.max(np.where(b[key].failed, 0, d / (ea + eb + 1e-300))):.3g} x"


def test_auto_is_the_default_and_names_the_engine():
    """No backend argument: the N-space engine where it computes the card
    (QED, backward-exact matchings and ordered-truncated included); Solution.backend names the
    one that ran, never "auto"."""
    th, op = cards.card("nnlo_vfns")
    op["configs"]["evolution_method"] = "truncated"
    assert ekoc.solve(th, op, progress=False).backend == "nspace"
    th, op = cards.card("nlo_backward_exact")
    assert ekoc.solve(th, op, progress=False).backend == "nspace"
    th, op = cards.card("qed_lo_ffns")
    assert ekoc.solve(th, op, progress=False).backend == "nspace"
    th, op = cards.card("nnlo_vfns")
    op["configs"]["evolution_method"] = "ordered-truncated"
    assert ekoc.solve(th, op, progress=False).backend == "nspace"
    th, op = cards.card("nnlo_vfns")
    assert ekoc.solve(th, op, "adaptive", progress=False).backend == "adaptive"


@pytest.mark.parametrize("name", ["qed_lo_ffns", "qed_nlo_fixed"])
def test_qed_one_segment_entries_agree_with_batch(name):
    """QCD x QED (the unified bases, the 8- and 16-element families), one
    segment per target: every entry within 10x the summed stated errors of
    batch (cut 1e-3) or both within epsabs, none flagged."""
    th, op = _on_grid(name, 25, 4)
    op["mugrid"] = [[3.0, 4], [4.5, 4]]
    a = ekoc.solve(th, op, "nspace", progress=False)
    b = ekoc.solve(th, op, "batch", progress=False, mellin_cut=1e-3, epsrel=1e-7)
    assert a.failures == 0
    for key in a:
        d = np.abs(a[key].operator - b[key].operator)
        ok = (d <= 10 * (a[key].error + b[key].error) + 1e-12) | b[key].failed
        assert ok.all(), f"{key}: worst {np.max(d / (a[key].error + b[key].error + 1e-300)):.3g} x"


@pytest.mark.parametrize("name", ["qed_nnlo_running", "qed_nlo_sv_exponentiated"])
def test_qed_matched_paths_agree_with_batch(name):
    """QCD x QED across the b threshold: evolved toy PDFs of both backends
    within 1e-4 where above 1e-3 of their largest value (60 points, degree 5),
    none flagged."""
    assert _evolved_pdfs_agree_with_batch(name, (2, 1, 21, 3, 22), 1e-4) == 0


@pytest.mark.parametrize("order", [2, 3])
@pytest.mark.parametrize("threshold", ["b", "c"])
def test_backward_exact_matching_agrees_with_batch(order, threshold):
    """A backward-exact matching alone (the target at the threshold's scale
    in the lower scheme): its exact inverse has a real pole (N ~ 12 at the
    charm threshold, ~ 23 at the bottom one) that eko's path encloses for
    the rows above x ~ 0.6 .. 0.8 and the band paths where their radii
    reach it; its residue is added or taken off per row as eko's path
    decides (evol/nspace_poles.h). Every entry within 3x the summed stated
    errors of batch (cut 1e-3) or within 3e-3 of the tolerance (as
    test_nspace_random_cards.py: the worst, 4.6x, is 1.8e-12 on 0.71, where
    batch and adaptive agree to 1e-15), none flagged; without the residues
    33-864 entries are off by up to 0.9 (b) and 660 (c)."""
    th, op = cards.card("nlo_backward_exact")
    th["order"], th["matching_order"] = [order, 0], [order - 1, 0]
    op["xgrid"] = cards.lambert_grid(25, 1e-5)
    op["init"], op["mugrid"] = ([4.92, 5], [[4.92, 4]]) if threshold == "b" else ([1.51, 4], [[1.51, 3]])
    a = ekoc.solve(th, op, progress=False)
    b = ekoc.solve(th, op, "batch", progress=False, mellin_cut=1e-3, epsrel=1e-7)
    assert a.backend == "nspace" and a.failures == 0
    for key in a:
        d = np.abs(a[key].operator - b[key].operator)
        ok = (d <= 3 * (a[key].error + b[key].error)) | (d <= np.maximum(1e-12, 3e-8 * np.abs(b[key].operator)))
        assert ok.all(), f"{key}: worst {np.max(d / (a[key].error + b[key].error + 1e-300)):.3g} x"


@pytest.mark.parametrize("method", ["iterate-exact", "truncated"])
def test_stream_is_bitwise_solve(method):
    """One target at a time (solve_stream) or all at once: the same bits,
    the pole corrections and the refinement included (a refinement writes a
    block only in the rows where that block missed its tolerance, whatever
    other targets share the band; the poles are those of the whole plan)."""
    th, op = _on_grid("nnlo_vfns", 30, 4)
    op["xgrid"] = cards.lambert_grid(30, 1e-6)
    op["configs"]["evolution_method"] = method
    op["mugrid"] = [[10.0, 5], [3.0, 4], [100.0, 5], [10.0, 5]]
    sol = ekoc.solve(th, op, "nspace", progress=False)
    seen = []

    def on_target(t):
        ref = sol[t.ep]
        assert np.array_equal(t.operator, ref.operator)
        assert np.array_equal(t.error, ref.error)
        seen.append(t.ep)

    summary = ekoc.solve_stream(th, op, on_target, backend="nspace", progress=False)
    assert seen == sol.targets
    assert summary["failures"] == sol.failures == 0


def test_threads_do_not_change_the_bits():
    th, op = _on_grid("nnlo_vfns", 40, 5)
    one = ekoc.solve(th, op, "nspace", n_threads=1, progress=False)
    two = ekoc.solve(th, op, "nspace", n_threads=3, progress=False)
    for key in one:
        assert np.array_equal(one[key].operator, two[key].operator)
        assert np.array_equal(one[key].error, two[key].error)


def test_cancel_from_progress():
    th, op = _on_grid("nnlo_vfns", 40, 5)
    calls = []

    def stop(done, total):
        calls.append((done, total))
        raise ekoc.Cancel()

    with pytest.raises(ekoc.Cancel):
        ekoc.solve(th, op, "nspace", progress=stop)
    assert len(calls) == 1 and calls[0][1] > 1
