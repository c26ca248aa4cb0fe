"""Real workloads as benchmarks (issue 17 item 7): an NNPDF theory (40000000
unless --theory) turned into eko cards as pineko does (perf/nnpdf_cards.py),
solved with ekoc's Python API and, side by side, with eko 0.15.7.

    EKOC_LIB=$PWD/build/libekoc.so python3 perf/nnpdf_workloads.py [--quick]
        [--theory 40000000] [--only timing,accuracy,eko,edge]
        [--workloads pineko50,fit196,issue17] [--backends batch] [--repeat N]
        [--threads 2] [--eko-workloads issue17] [--eko-timeout S] [--json OUT]

Workloads (nf of each target from pineko's atlas; log-spaced targets run from
Q0^2 = 2.7225 to 1e5 GeV^2):
  pineko50  pineko's 50-point x grid, 20 log-spaced targets     (--quick: 3)
  fit196    196 x from 1e-9 (2/3 log below 0.1, 1/3 linear), 49 targets
                                                    (--quick: 40 x, 3 targets)
  issue17   pineko's grid, Q^2 = 4, 200, 1e4: the card of issue 17's question
Every measured run is a fresh worker process (this script with --worker), so
that its peak RSS (getrusage ru_maxrss, read right after the solve and the PDF
evolution) is its own; the wall time is that of the ekoc.solve / eko.solve
call alone. Steps (--only):
  timing    ekoc on each of --backends (batch; nspace takes the EXA theories,
            e.g. --theory 41000000), --threads threads, --repeat runs: median
            wall, peak RSS, failed integrals (Solution.failures) and flagged
            entries (failed mask); with several backends, the evolved toy PDFs
            of the others against the first's (pdf_deviation of
            perf/nnpdf_checks.py: nspace against batch is the interpolation of
            the intermediate PDFs in batch's x-space products);
  accuracy  the LHA toy PDFs (input at Q0) evolved with each operator against a
            reference on the same grid, so that only quadrature is tested
            (perf/nnpdf_checks.py): the reference is ekoc adaptive (GSL QAGS) at
            epsrel 1e-12, epsabs 1e-16, limit 1000, its convergence shown by the
            same at epsrel 1e-10 (fit196: every 12th target); tested: batch at
            eko's tolerances, batch at 1e-10 (an independent rule), adaptive at
            eko's tolerances (pineko50). Spot checks of single integrals by brute
            force are in perf/STATS.md;
  eko       eko (n_integration_cores = --threads, under nice, with a time limit)
            and ekoc batch in pairs: paired medians, eko's own deviation from
            the reference (by default on issue17 only: see EKO_SKIPPED);
  edge      issue 17's question on the issue17 card (perf/nnpdf_edge.py).
One summary line per workload and step (`nnpdf:` ...); --json writes all figures.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import nnpdf_cards as cards  # noqa: E402
import nnpdf_checks as checks  # noqa: E402

THEORY_ID = 40000000
Q2_MAX = 1e5
#: (x grid, targets) per workload, full and --quick; targets: a number of
#: scales log-spaced from Q0^2 to Q2_MAX, or a list of Q^2
WORKLOADS = {
    "pineko50": {"full": ("pineko", 20), "quick": ("pineko", 3)},
    "fit196": {"full": (("fit", 196), 49), "quick": (("fit", 40), 3)},
    # the card of issue 17's pineko question: pineko's grid, Q^2 = 4, 200, 1e4 GeV^2
    "issue17": {"full": ("pineko", [4.0, 200.0, 1e4]), "quick": ("pineko", [4.0, 200.0, 1e4])},
}
#: the reference (ekoc.solve arguments) and the same code at a looser tolerance,
#: whose agreement with it says where it is converged. epsrel 1e-12 and not
#: looser: GSL QAGS accepts its first 21-point estimate when that estimate's
#: error looks small, and on these grids it can be wrong by 1e-4 with a stated
#: error of 8e-11 (perf/STATS.md), which a request of 1e-10 still accepts
REFERENCE = ("adaptive", {"epsrel": 1e-12, "epsabs": 1e-16, "limit": 1000})
CONVERGENCE = ("adaptive", {"epsrel": 1e-10, "epsabs": 1e-15, "limit": 1000})
#: accuracy on every n-th target only (the adaptive reference on all 49 fit196
#: targets would take ~30 min on 2 cores); 1: all
ACCURACY_EVERY = {"fit196": 12}
#: an independent rule at a tight tolerance, compared with the reference too
INDEPENDENT = ("batch", {"epsrel": 1e-10, "epsabs": 1e-15})
EKO_DEFAULT_TOL = {"epsabs": 1e-12, "epsrel": 1e-5}
#: why eko is not run by default on a workload (add it to --eko-workloads to run it)
EKO_SKIPPED = {
    "pineko50": "eko took 1495 s for these 20 targets (2 cores shared, load ~5; perf/STATS.md); "
                "add pineko50 to --eko-workloads to rerun it",
    "fit196": "eko would need ~38 times its pineko50 time (15 times the integrals per part, 49 targets "
              "instead of 20): ~15 h here",
}


def workload_cards(name: str, quick: bool, theory_id: int, n_cores: int = 1, every: int = 1):
    """(legacy theory dict, operator dict) of a workload on NNPDF theory
    theory_id (every: keep the targets 0, every, 2 every, ... only)."""
    grid, targets = WORKLOADS[name]["quick" if quick else "full"]
    theory = cards.nnpdf_theory(theory_id)
    xgrid = cards.pineko_xgrid() if grid == "pineko" else cards.fit_xgrid(grid[1])
    q2s = targets if isinstance(targets, list) else cards.log_targets(theory["Q0"] ** 2, Q2_MAX, targets)
    q2s = q2s[::every]
    return theory, cards.operator_dict(theory, xgrid, q2s, n_cores=n_cores)


def peak_rss_mb() -> dict:
    """Peak RSS so far of this process and of its largest waited-for child, in MB."""
    return {"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "children_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}


# ----------------------------------------------------------------- workers


def worker_ekoc(args) -> dict:
    """One ekoc solve of a workload: wall, RSS, failures, evolved toy PDFs."""
    import ekoc

    theory, operator = workload_cards(args.workload, args.quick, args.theory)
    th, op = cards.eko_cards(theory, operator)
    options = json.loads(args.options)
    t0 = time.perf_counter()
    sol = ekoc.solve(th, op, args.backend, n_threads=args.threads, progress=False, **options)
    wall = time.perf_counter() - t0
    f0 = cards.toy_pdf(operator["xgrid"])
    evolved = np.array([sol[ep].apply(f0) for ep in sol])
    out = {"wall_s": wall, "compute_s": sol.timing["compute_s"], "failures": sol.failures, **peak_rss_mb()}
    flagged = 0
    for ep in sol:
        flagged += int(sol[ep].failed.sum())
        checks.release(sol[ep])
    nx = len(operator["xgrid"])
    out.update(flagged=flagged, entries=len(sol) * (14 * nx) ** 2, targets=len(sol))
    if args.npz:
        np.savez(args.npz, evolved=evolved, q2=np.array([ep[0] for ep in sol]))
    return out


def worker_baseline(args) -> dict:
    """The same imports and cards as worker_ekoc without solving: the RSS floor."""
    import ekoc  # noqa: F401

    theory, operator = workload_cards(args.workload, args.quick, args.theory)
    cards.eko_cards(theory, operator)
    return peak_rss_mb()


def worker_eko(args) -> dict:
    """One eko.solve of a workload (n_integration_cores = --threads); the
    operators are read back and the toy PDFs evolved with them."""
    import eko

    theory, operator = workload_cards(args.workload, args.quick, args.theory, n_cores=args.threads)
    th, op = cards.eko_cards(theory, operator)
    f0 = cards.toy_pdf(operator["xgrid"])
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "eko.tar"
        t0 = time.perf_counter()
        eko.solve(th, op, path)
        wall = time.perf_counter() - t0
        evolved, q2, operators = [], [], []
        with eko.EKO.read(path) as output:
            for mu, nf in operator["mugrid"]:
                o = output[(mu * mu, nf)]
                evolved.append(np.einsum("iajb,jb->ia", o.operator, f0))
                q2.append(mu * mu)
                if args.save_operators:
                    operators.append(o.operator)
    if args.npz:
        np.savez(args.npz, evolved=np.array(evolved), q2=np.array(q2), operators=np.array(operators))
    return {"wall_s": wall, **peak_rss_mb()}


def worker_accuracy(args) -> dict:
    """The reference, its convergence check and the tested settings on one workload."""
    every = 1 if args.quick else ACCURACY_EVERY.get(args.workload, 1)
    theory, operator = workload_cards(args.workload, args.quick, args.theory, every=every)
    th, op = cards.eko_cards(theory, operator)
    tested = [("batch", {})] + ([] if args.quick else [INDEPENDENT])
    if args.with_adaptive:
        tested.append(("adaptive", {}))
    return checks.accuracy_report(th, op, operator["xgrid"], cards.toy_pdf(operator["xgrid"]), REFERENCE, CONVERGENCE,
                                  tested,
                                  args.threads, EKO_DEFAULT_TOL, args.npz)


WORKERS = {"ekoc": worker_ekoc, "baseline": worker_baseline, "eko": worker_eko, "accuracy": worker_accuracy}


def run_worker(kind: str, workload: str, a, timeout: float, nice: int = 0, npz=None, **extra) -> dict:
    """Runs this script as a worker process; returns its JSON (or {'error': ...})."""
    cmd = [sys.executable, __file__, "--worker", kind, "--workload", workload, "--theory", str(a.theory), "--threads",
           str(a.threads)]
    if a.quick:
        cmd.append("--quick")
    if npz:
        cmd += ["--npz", str(npz)]
    for key, value in extra.items():
        cmd += [f"--{key.replace('_', '-')}", value if isinstance(value, str) else json.dumps(value)]
    if nice:
        cmd = ["nice", "-n", str(nice)] + cmd
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        return {"error": f"exit {done.returncode}: {done.stderr.strip()[-400:]}"}
    return json.loads(lines[-1])


# ------------------------------------------------------------------- steps


def step_timing(name: str, a, report: dict, tmp: pathlib.Path) -> None:
    base = run_worker("baseline", name, a, 120)
    backends = a.backends.split(",")
    for backend in backends:
        npz = tmp / f"{name}_{backend}_timing.npz" if len(backends) > 1 else None
        runs = [run_worker("ekoc", name, a, 900, npz=npz, backend=backend, options="{}") for _ in range(a.repeat)]
        bad = [r["error"] for r in runs if "error" in r]
        if bad:
            print(f"nnpdf: {name} timing backend={backend} FAILED: {bad[0]}")
            continue
        walls = [r["wall_s"] for r in runs]
        last = runs[-1]
        row = {"median_wall_s": statistics.median(walls), "walls_s": walls, "rss_mb": max(r["rss_mb"] for r in runs),
               "baseline_rss_mb": base.get("rss_mb"), "failures": last["failures"], "flagged": last["flagged"],
               "entries": last["entries"], "targets": last["targets"]}
        if npz and backend != backends[0] and (tmp / f"{name}_{backends[0]}_timing.npz").exists():
            first, mine = np.load(tmp / f"{name}_{backends[0]}_timing.npz"), np.load(npz)
            _, operator = workload_cards(name, a.quick, a.theory)
            row["pdf_vs_" + backends[0]] = checks.pdf_deviation(mine["evolved"], first["evolved"], operator["xgrid"],
                                                                first["q2"])
        report.setdefault(name, {}).setdefault("timing", {})[backend] = row
        dev = row.get("pdf_vs_" + backends[0])
        print(f"nnpdf: {name} timing backend={backend} threads={a.threads} runs={a.repeat} "
              f"median_wall_s={row['median_wall_s']:.3f} min_wall_s={min(walls):.3f} peak_rss_mb={row['rss_mb']:.0f} "
              f"(imports+cards {row['baseline_rss_mb']:.0f}) failures={row['failures']} "
              f"flagged_entries={row['flagged']}/{row['entries']}"
              + (f" pdfs_vs_{backends[0]}: max_rel_dev={dev['max_rel']:.2e} at {dev['where']} "
                 f"median_rel_dev={dev['median_rel']:.2e}" if dev else ""))


def step_accuracy(name: str, a, report: dict, tmp: pathlib.Path) -> None:
    res = run_worker("accuracy", name, a, 3000, nice=10, npz=tmp / f"{name}_ref.npz",
                     with_adaptive="1" if (name == "pineko50" and not a.quick) else "0")
    if "error" in res:
        print(f"nnpdf: {name} accuracy FAILED: {res['error']}")
        return
    report.setdefault(name, {})["accuracy"] = res
    for line in checks.accuracy_lines(name, res):
        print(line)


def step_edge(a, report: dict, tmp: pathlib.Path) -> None:
    """Issue 17's b<-b question on the issue17 card (needs the eko step's operators)."""
    import nnpdf_edge

    saved = tmp / "issue17_eko.npz"
    if not saved.exists():
        print("nnpdf: issue17 edge skipped: needs eko's operators from the eko step on issue17 (--only eko,edge)")
        return
    eko_out = np.load(saved)
    at = [i for i, q2 in enumerate(eko_out["q2"]) if abs(q2 - nnpdf_edge.Q2) < 1e-6 * nnpdf_edge.Q2]
    theory, operator = workload_cards("issue17", a.quick, a.theory)
    res = nnpdf_edge.analyse(theory, operator["xgrid"], eko_out["operators"][at[0]], a.threads)
    report.setdefault("issue17", {})["edge"] = res
    for line in nnpdf_edge.lines(res):
        print(line)


def step_eko(name: str, a, report: dict, tmp: pathlib.Path) -> None:
    ref_npz = tmp / f"{name}_ref.npz"
    pairs = []
    for i in range(a.eko_pairs):
        e = run_worker("eko", name, a, a.eko_timeout, nice=10, npz=tmp / f"{name}_eko.npz",
                       save_operators="1" if name == "issue17" else "0")
        if "error" in e:
            print(f"nnpdf: {name} eko skipped: {e['error']}")
            report.setdefault(name, {})["eko"] = {"error": e["error"]}
            return
        c = run_worker("ekoc", name, a, 900, nice=10, backend="batch", options="{}")
        pairs.append((e, c))
    eko_w = [e["wall_s"] for e, _ in pairs]
    ekoc_w = [c["wall_s"] for _, c in pairs]
    row = {"eko_walls_s": eko_w, "ekoc_walls_s": ekoc_w, "eko_median_s": statistics.median(eko_w),
           "ekoc_median_s": statistics.median(ekoc_w),
           "median_ratio": statistics.median([e / c for e, c in zip(eko_w, ekoc_w)]),
           "eko_rss_mb": max(e["rss_mb"] for e, _ in pairs),
           "eko_children_rss_mb": max(e["children_rss_mb"] for e, _ in pairs)}
    if ref_npz.exists():
        ref = np.load(ref_npz)
        mine = np.load(tmp / f"{name}_eko.npz")
        row["eko_vs_reference"] = checks.pdf_deviation(mine["evolved"], ref["evolved"], ref["xgrid"], ref["q2"],
                                                       ref["cond"])
    report.setdefault(name, {})["eko"] = row
    dev = row.get("eko_vs_reference", {})
    print(f"nnpdf: {name} eko n_integration_cores={a.threads} pairs={len(pairs)} "
          f"eko_median_s={row['eko_median_s']:.2f} ekoc_batch_median_s={row['ekoc_median_s']:.3f} "
          f"paired_ratio={row['median_ratio']:.0f} eko_rss_mb={row['eko_rss_mb']:.0f}"
          f"+children {row['eko_children_rss_mb']:.0f} "
          f"eko_pdf_max_rel_dev={dev.get('max_rel', float('nan')):.2e} at {dev.get('where', '-')} "
          f"(well-conditioned {dev.get('max_rel_conditioned', float('nan')):.2e})")


# -------------------------------------------------------------------- main


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small cards (< 30 s in all)")
    ap.add_argument("--only", default="timing,accuracy,eko,edge")
    ap.add_argument("--theory", type=int, default=THEORY_ID, help=f"NNPDF theory id ({THEORY_ID})")
    ap.add_argument("--workloads", default=None, help="default: all (--quick: pineko50,fit196)")
    ap.add_argument("--backends", default="batch", help="timing: the ekoc backends, the first the comparison's base")
    ap.add_argument("--repeat", type=int, default=None, help="timed runs per workload (5; --quick 2)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--eko-workloads", default="issue17", help="where eko runs too (issue17)")
    ap.add_argument("--eko-pairs", type=int, default=1, help="eko/ekoc pairs per workload (1)")
    ap.add_argument("--eko-timeout", type=float, default=1800.0, help="time limit of one eko run (s)")
    ap.add_argument("--json", default=None)
    # worker mode (internal)
    ap.add_argument("--worker", choices=sorted(WORKERS), default=None, help=argparse.SUPPRESS)
    ap.add_argument("--workload", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--backend", default="batch", help=argparse.SUPPRESS)
    ap.add_argument("--options", default="{}", help=argparse.SUPPRESS)
    ap.add_argument("--npz", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--with-adaptive", default="0", help=argparse.SUPPRESS)
    ap.add_argument("--save-operators", default="0", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    a.with_adaptive = a.with_adaptive == "1"
    a.save_operators = a.save_operators == "1"
    if a.repeat is None:
        a.repeat = 1 if a.quick else 5
    if a.workloads is None:
        a.workloads = "pineko50,fit196" if a.quick else ",".join(WORKLOADS)
    return a


def main(argv=None) -> int:
    a = parse(argv)
    missing = cards.missing_dependencies()
    if missing:
        print(f"nnpdf: skipped: needs {', '.join(missing)} (pip install {' '.join(missing)})")
        return 0
    if a.worker:
        print(json.dumps(WORKERS[a.worker](a)))
        return 0
    if "EKOC_LIB" not in os.environ:
        print("nnpdf: set EKOC_LIB to the libekoc.so to measure (e.g. EKOC_LIB=$PWD/build/libekoc.so)")
        return 2
    steps = a.only.split(",")
    report = {"theory": a.theory, "quick": a.quick, "threads": a.threads, "load_at_start": os.getloadavg()[0]}
    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = pathlib.Path(tmp_name)
        for name in a.workloads.split(","):
            if "timing" in steps:
                step_timing(name, a, report, tmp)
            if "accuracy" in steps:
                step_accuracy(name, a, report, tmp)
            if "eko" in steps and not a.quick:
                if name in a.eko_workloads.split(","):
                    step_eko(name, a, report, tmp)
                else:
                    print(f"nnpdf: {name} eko skipped: {EKO_SKIPPED.get(name, 'not in --eko-workloads')}")
            if name == "issue17" and "edge" in steps and not a.quick:
                step_edge(a, report, tmp)
    report["total_s"] = time.perf_counter() - t_start
    print(f"nnpdf: done in {report['total_s']:.0f} s (load average at start {report['load_at_start']:.1f})")
    if a.json:
        pathlib.Path(a.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
