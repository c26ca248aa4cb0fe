"""Accuracy checks of perf/nnpdf_workloads.py: evolved PDFs and operator
entries of a tested ekoc solve against a converged reference on the same grid.

Evolved PDFs: the relative deviation |f - f_ref| / |f_ref| at the grid points
where |x f_ref| > 1e-8 of the largest |x f_ref| of that target (x f, not f,
because f grows like x^-1.1 at small x: a cut on f would drop every x above
~1e-3 on a grid reaching 1e-9).

Entries (flavour basis, what a user reads), two criteria:
- "off": |op - ref| > max(epsabs, epsrel |ref|) at the tested run's
  tolerances. This is issue 17's literal promise. A flavour entry is a sum of
  evolution-basis products (matching included), so an entry that cancels can
  be off while every integral behind it met its own tolerance;
- "beyond": |op - ref| > K_STATED x (its stated error) + 1e-15, the error the
  solve reports for the entry (propagated from the integrals).
Every off or beyond entry should be flagged in the failed mask. One that is
not counts as silent only where the reference is sure enough there: conv, the
same reference code at a 100 times looser tolerance, differs from it by at
most 0.1 of the deviation being judged (|ref - conv| bounds the looser run's
error, so the reference's own error is below it); the others are reported as
unjudged. |ref - conv| is kept per entry as a power-of-two upper bound (one
byte per entry), so that fit-size operators fit in memory.
"""

from __future__ import annotations

import time

import numpy as np

from nnpdf_cards import PIDS

#: a deviation is judged only where |ref - conv| is at most this fraction of it
CONVERGED_FRACTION = 0.1
#: the PDF cut, relative to the largest |x f| of each target
PDF_CUT = 1e-8
#: a PDF point is well conditioned when the terms summing to it are at most this times |f|
COND_LIMIT = 100.0
#: an entry is "beyond" its stated error when off the reference by more than this many times it
K_STATED = 10.0
#: absolute floor of the "beyond" test (rounding of entries of order 1)
STATED_FLOOR = 1e-15


def release(target) -> None:
    """Drops the dense arrays a TargetOperator keeps after the first access
    (operator, error, failed: 3 x 60 MB per target at nx = 196), so that a
    loop over 49 targets holds one target's arrays at a time."""
    target._op = target._err = target._failed = None


def pdf_deviation(test: np.ndarray, ref: np.ndarray, xgrid, q2s, cond: np.ndarray | None = None) -> dict:
    """Largest and median relative deviation of evolved PDFs (T, 14, nx).

    cond (same shape): sum_j |O_kj f0_j| of the reference, the size of the
    terms that cancel into f(x_k). Where cond >> |f| (a b quark just above
    its threshold at x ~ 1e-8: -5e6 out of terms of 1e13) no quadrature gives
    a small relative deviation, so the deviation is also reported relative
    to cond, and relative to |f| at the well-conditioned points only
    (cond <= COND_LIMIT |f|)."""
    x = np.asarray(xgrid, dtype=float)
    xf = np.abs(ref) * x
    mask = xf > PDF_CUT * xf.max(axis=(1, 2), keepdims=True)
    dev = np.abs(test - ref)
    rel = np.where(mask, dev / np.where(mask, np.abs(ref), 1.0), 0.0)
    t, p, k = np.unravel_index(int(np.argmax(rel)), rel.shape)
    out = {"max_rel": float(rel.max()), "median_rel": float(np.median(rel[mask])), "points": int(mask.sum()),
           "where": f"pid {PIDS[p]} x={x[k]:.3g} Q2={q2s[t]:.4g}"}
    if cond is not None:
        good = mask & (cond <= COND_LIMIT * np.abs(ref))
        rel_good = np.where(good, rel, 0.0)
        t, p, k = np.unravel_index(int(np.argmax(rel_good)), rel.shape)
        out.update(max_rel_conditioned=float(rel_good.max()), conditioned_points=int(good.sum()),
                   where_conditioned=f"pid {PIDS[p]} x={x[k]:.3g} Q2={q2s[t]:.4g}",
                   max_dev_over_cond=float(np.where(mask, dev / np.where(mask, cond, 1.0), 0.0).max()))
    return out


def _where(index, xgrid, q2, values) -> str:
    """An entry's place and its (reference, deviation, stated error)."""
    a, k, b, j = index
    ref, dev, err = (float(v[index]) for v in values)
    return (f"{PIDS[a]}<-{PIDS[b]} x_out={xgrid[k]:.3g} x_in={xgrid[j]:.3g} Q2={q2:.4g} "
            f"ref={ref:.3e} dev={dev:.1e} err={err:.1e}")


def difference_bound(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """int8 e with |a - b| <= 2^e (e = -127 for equal entries)."""
    diff = np.abs(a - b)
    return np.clip(np.ceil(np.log2(np.maximum(diff, 2.0**-127))), -127, 127).astype(np.int8)


class EntryTally:
    """Accumulates the entry comparison of one tested solve over its targets."""

    def __init__(self, epsabs: float, epsrel: float):
        self.epsabs, self.epsrel = epsabs, epsrel
        self.n = {"entries": 0, "flagged": 0, "flagged_but_within": 0}
        for crit in ("off", "beyond"):
            self.n.update({crit: 0, f"{crit}_flagged": 0, f"{crit}_silent": 0, f"{crit}_unjudged": 0})
        self.worst = {"off": (0.0, "-"), "beyond": (0.0, "-")}
        self.max_dev = 0.0
        self.max_ref = 0.0

    def _count(self, crit, ratio, failed, converged, xgrid, q2, values):
        bad = ratio > 1.0
        silent = bad & ~failed & converged
        self.n[crit] += int(bad.sum())
        self.n[f"{crit}_flagged"] += int((bad & failed).sum())
        self.n[f"{crit}_silent"] += int(silent.sum())
        self.n[f"{crit}_unjudged"] += int((bad & ~failed & ~converged).sum())
        if silent.any():
            worst = np.where(silent, ratio, 0.0)
            at = np.unravel_index(int(np.argmax(worst)), worst.shape)
            if worst[at] > self.worst[crit][0]:
                self.worst[crit] = (float(worst[at]), _where(at, xgrid, q2, values))
        return bad

    def add(self, op, err, ref, failed, ref_bound, xgrid, q2) -> None:
        """ref_bound: difference_bound(ref, conv), or None to judge every entry."""
        dev = np.abs(op - ref)
        values = (ref, dev, err)
        if ref_bound is None:
            converged = np.ones(dev.shape, dtype=bool)
        else:
            converged = np.ldexp(1.0, ref_bound.astype(np.int32)) <= CONVERGED_FRACTION * dev
        off = self._count("off", dev / np.maximum(self.epsabs, self.epsrel * np.abs(ref)), failed, converged,
                          xgrid, q2, values)
        beyond = self._count("beyond", dev / (K_STATED * err + STATED_FLOOR), failed, converged, xgrid, q2, values)
        self.n["entries"] += op.size
        self.n["flagged"] += int(failed.sum())
        self.n["flagged_but_within"] += int((failed & ~off & ~beyond).sum())
        self.max_dev = max(self.max_dev, float(dev.max()))
        self.max_ref = max(self.max_ref, float(np.abs(ref).max()))

    def result(self) -> dict:
        out = dict(self.n)
        for crit, (ratio, at) in self.worst.items():
            out[f"worst_{crit}_silent"] = ratio
            out[f"worst_{crit}_silent_at"] = at
        out["max_entry_dev_over_max_entry"] = self.max_dev / self.max_ref if self.max_ref else 0.0
        return out


def _solve(th, op, backend, options, threads):
    import ekoc

    t0 = time.perf_counter()
    sol = ekoc.solve(th, op, backend, n_threads=threads, progress=False, **options)
    return sol, time.perf_counter() - t0


def _evolve(sol, f0) -> np.ndarray:
    return np.array([sol[ep].apply(f0) for ep in sol])


def _condition(sol, f0) -> np.ndarray:
    """sum_j |O_kj| |f0_j| per target (see pdf_deviation)."""
    nx = f0.shape[-1]
    out = []
    for ep in sol:
        t = sol[ep]
        out.append((np.abs(t.operator).reshape(14 * nx, 14 * nx) @ np.abs(f0).reshape(-1)).reshape(14, nx))
        release(t)
    return np.array(out)


def _compare(sol, ref, targets, bounds, tolerance, xgrid) -> EntryTally:
    """The entry tally of `sol` against `ref` over the targets (bounds: the
    reference's difference_bound per target, or None: judge every entry)."""
    tally = EntryTally(**tolerance)
    for i, ep in enumerate(targets):
        t, r = sol[ep], ref[ep]
        tally.add(t.operator, t.error, r.operator, t.failed, None if bounds is None else bounds[i], xgrid, ep[0])
        release(t)
        release(r)
    return tally


def accuracy_report(th, op, xgrid, f0, reference, convergence, others, threads, tolerance, npz=None) -> dict:
    """Solves the reference, then the same code at a looser tolerance (its
    convergence: which entries are judged), then each of `others` (backend,
    options), and compares each with the reference (see the module doc).
    Holds at most two solutions at a time."""
    xgrid = np.asarray(xgrid, dtype=float)
    ref, ref_s = _solve(th, op, *reference, threads)
    targets = list(ref)
    q2s = [ep[0] for ep in targets]
    f_ref = _evolve(ref, f0)
    cond = _condition(ref, f0)
    out = {"reference": {"backend": reference[0], **reference[1], "wall_s": ref_s, "failures": ref.failures}}
    conv, conv_s = _solve(th, op, *convergence, threads)
    bounds, unconverged = [], 0
    for ep in targets:
        r, c = ref[ep], conv[ep]
        bounds.append(difference_bound(r.operator, c.operator))
        unconverged += int((np.abs(r.operator - c.operator) > CONVERGED_FRACTION * np.maximum(
            tolerance["epsabs"], tolerance["epsrel"] * np.abs(r.operator))).sum())
    out["convergence"] = {"backend": convergence[0], **convergence[1], "wall_s": conv_s, "failures": conv.failures,
                          "pdf": pdf_deviation(_evolve(conv, f0), f_ref, xgrid, q2s, cond),
                          "entries_not_converged": unconverged,
                          "entries": _compare(conv, ref, targets, None, tolerance, xgrid).result()}
    del conv
    out["tested"] = []
    for backend, options in others:
        sol, wall = _solve(th, op, backend, options, threads)
        out["tested"].append({"backend": backend, **options, "wall_s": wall, "failures": sol.failures,
                              "pdf": pdf_deviation(_evolve(sol, f0), f_ref, xgrid, q2s, cond),
                              "entries": _compare(sol, ref, targets, bounds, tolerance, xgrid).result()})
        del sol
    if npz:
        np.savez(npz, evolved=f_ref, xgrid=xgrid, q2=np.array(q2s), cond=cond)
    return out


def _settings(row: dict) -> str:
    tol = " ".join(f"{k}={row[k]:g}" for k in ("epsrel", "epsabs", "limit") if k in row)
    return f"{row['backend']} {tol or '(eko tolerances)'}"


def accuracy_lines(name: str, res: dict) -> list[str]:
    """The summary lines of one workload's accuracy step."""
    ref, conv = res["reference"], res["convergence"]
    lines = [f"nnpdf: {name} reference {_settings(ref)} wall_s={ref['wall_s']:.1f} failures={ref['failures']}; "
             f"vs {_settings(conv)}: pdf max_rel_dev={conv['pdf']['max_rel']:.2e} "
             f"(well-conditioned {conv['pdf']['max_rel_conditioned']:.2e}, "
             f"/cond {conv['pdf']['max_dev_over_cond']:.1e}) "
             f"entries max_dev/max={conv['entries']['max_entry_dev_over_max_entry']:.1e} "
             f"unconverged_entries={conv['entries_not_converged']}/{conv['entries']['entries']}"]
    for t in res["tested"]:
        e = t["entries"]
        lines.append(
            f"nnpdf: {name} accuracy {_settings(t)} wall_s={t['wall_s']:.2f} failures={t['failures']} "
            f"flagged={e['flagged']} pdf max_rel_dev={t['pdf']['max_rel']:.2e} at {t['pdf']['where']} "
            f"median={t['pdf']['median_rel']:.1e} well-conditioned={t['pdf']['max_rel_conditioned']:.2e} at "
            f"{t['pdf']['where_conditioned']} ({t['pdf']['conditioned_points']}/{t['pdf']['points']} points) "
            f"/cond={t['pdf']['max_dev_over_cond']:.1e} | entries off_tol={e['off']} flagged={e['off_flagged']} "
            f"silent={e['off_silent']} unjudged={e['off_unjudged']} worst_silent={e['worst_off_silent']:.3g}x_tol "
            f"({e['worst_off_silent_at']}) | beyond_{K_STATED:g}x_stated={e['beyond']} flagged={e['beyond_flagged']} "
            f"silent={e['beyond_silent']} unjudged={e['beyond_unjudged']} "
            f"worst={e['worst_beyond_silent']:.3g}x ({e['worst_beyond_silent_at']}) "
            f"| flagged_within={e['flagged_but_within']}")
    return lines
