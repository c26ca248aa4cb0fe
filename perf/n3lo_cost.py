"""What approximate N3LO costs against NNLO on one real card (issue 12).

The workload: NNPDF theory 40000000 as pineko turns it into eko runcards
(perf/nnpdf_cards.py: truncated solution, pineko's 50-point x grid), 20
log-spaced targets Q^2 = 4 .. 1e4 GeV^2, the batch backend; once as the card
says (NNLO, matching order 2) and once with order [4, 0] and matching order
[3, 0] (aN3LO: eko's own N3LO approximation, the default choice), nothing
else changed.

The two are timed in turn, NNLO then N3LO, `--pairs` times in one process
after one warm-up of each, so that both see the same machine state; printed
are the median wall time of each (ekoc.solve, from the cards to the
operators), the median of the per-pair ratios N3LO/NNLO and its range, and
the same for the process CPU time of each solve (all threads): on a shared
machine, where another process takes a core now and then, the CPU figures
move less than the wall ones.
`--profile` prints ekoc.profile's stage tables of both instead (where the
difference lies: matching, the first segment of each nf, later segments).

    EKOC_LIB=$PWD/build/libekoc.so python3 perf/n3lo_cost.py [--pairs 15] [--threads 2] [--profile]

Needs nnpdf-data, pineko and eko (skips with a message when one is absent).
"""

from __future__ import annotations

import argparse
import copy
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import nnpdf_cards  # noqa: E402  (perf/)


def cards(theory_id: int = 40000000) -> tuple[dict, dict, dict]:
    """(NNLO theory dict, its N3LO twin, operator dict) of the workload."""
    from ekoc._cards import theory_dict

    theory = nnpdf_cards.nnpdf_theory(theory_id)
    grid = nnpdf_cards.pineko_xgrid()
    targets = nnpdf_cards.log_targets(4.0, 1e4, 20)
    theory_card, operator_card = nnpdf_cards.eko_cards(theory, nnpdf_cards.operator_dict(theory, grid, targets))
    nnlo = theory_dict(theory_card)
    n3lo = copy.deepcopy(nnlo)
    n3lo["order"] = [4, 0]
    n3lo["matching_order"] = [3, 0]
    return nnlo, n3lo, operator_card.raw


def timed_solve(theory: dict, operator: dict, threads: int) -> tuple[float, float, int]:
    """Wall and process CPU seconds of one ekoc.solve (batch backend), and
    its failure count."""
    import ekoc

    t0, c0 = time.perf_counter(), time.process_time()
    sol = ekoc.solve(theory, operator, backend="batch", n_threads=threads)
    return time.perf_counter() - t0, time.process_time() - c0, sol.failures


def paired(nnlo: dict, n3lo: dict, operator: dict, pairs: int, threads: int, second_operator: dict | None = None) -> dict:
    """Alternating NNLO / N3LO solves after one warm-up of each (the second
    with `second_operator` when given, else with `operator` too)."""
    other = operator if second_operator is None else second_operator
    timed_solve(nnlo, operator, threads)
    timed_solve(n3lo, other, threads)
    out = {"wall": ([], []), "cpu": ([], []), "failures": set()}
    for _ in range(pairs):
        a = timed_solve(nnlo, operator, threads)
        b = timed_solve(n3lo, other, threads)
        for i, kind in enumerate(("wall", "cpu")):
            out[kind][0].append(a[i])
            out[kind][1].append(b[i])
        out["failures"].add((a[2], b[2]))
    return out


def summary(kind: str, t3: list, t4: list, names=("NNLO ", "aN3LO", "N3LO/NNLO")) -> str:
    """Medians, ranges and the per-pair ratio of one kind of time (t3 the
    first of each pair, t4 the second; names label them and their ratio)."""
    ratios = [b / a for a, b in zip(t3, t4)]
    m3, m4 = statistics.median(t3), statistics.median(t4)
    return "\n".join([
        f"{kind}: {names[0]} median {m3 * 1e3:7.1f} ms (min {min(t3) * 1e3:.1f}, max {max(t3) * 1e3:.1f})",
        f"{kind}: {names[1]} median {m4 * 1e3:7.1f} ms (min {min(t4) * 1e3:.1f}, max {max(t4) * 1e3:.1f})",
        f"{kind}: ratio {names[2]} median of pairs {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f}); of the medians {m4 / m3:.3f}",
    ])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=15, help="timed NNLO/N3LO pairs (default 15)")
    ap.add_argument("--threads", type=int, default=2, help="ekoc threads (default 2)")
    ap.add_argument("--profile", action="store_true", help="print the stage tables of one solve of each instead")
    args = ap.parse_args(argv)
    missing = nnpdf_cards.missing_dependencies()
    if missing:
        print("skipped: needs " + ", ".join(missing))
        return 0
    nnlo, n3lo, operator = cards()
    if args.profile:
        import ekoc

        for name, theory in (("NNLO", nnlo), ("aN3LO", n3lo)):
            _, table = ekoc.profile(theory, operator, backend="batch", n_threads=args.threads)
            print(name)
            print(table)
        return 0
    r = paired(nnlo, n3lo, operator, args.pairs, args.threads)
    print(f"{args.pairs} pairs, {args.threads} threads, failures (NNLO, N3LO): {sorted(r['failures'])}")
    print(summary("wall", *r["wall"]))
    print(summary("cpu ", *r["cpu"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
