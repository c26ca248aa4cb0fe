"""eko 0.15.7 against ekoc (adaptive and batch backends, through the Python
package) on the same runcards, in one run: times, ratios and the largest
deviations; then the Python call overhead of ekoc.solve on a small card.

    python3 perf/vs_eko.py [--lib build/libekoc.so] [--cards NAME ...] [--repeat 5]
                           [--append perf/STATS.md] [--commit HASH]

The cards are ffi/tests/cards.py (nx = 15, degree 4, one or two targets).
eko runs once per card on one core (the cards say n_integration_cores = 1)
after a warm-up that loads its numba cache; ekoc runs `--repeat` times per
backend on one thread and on all threads, best wall time kept. The
deviation is measured with ffi/tests/compare.py's tolerance (max dev/tol
<= 1 means within eko's integration tolerance).

Overhead: ekoc.solve's wall time minus the C library's own "compute" stage
(node timer), relative to that stage, best of 30 on the smallest card; the
same with progress=False (no C progress callback, so no Python in the
computation at all) isolates the callback's share.
"""

import argparse
import datetime
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "ffi"))
sys.path.insert(0, str(REPO / "ffi" / "tests"))


def machine():
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.node() or 'host'}: {os.cpu_count()} CPUs ({model}), Linux {platform.release()}, "
            f"Python {platform.python_version()}, load average {load:.1f} at start")


def run_eko(th, op):
    import eko
    from gen_eko_reference import _msbar_numpy2_shim

    _msbar_numpy2_shim()  # eko 0.15.7's MSbar masses under numpy 2 (ffi/tests/gen_eko_reference.py)

    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "e.tar"
        w0, c0 = time.perf_counter(), time.process_time()
        eko.solve(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), path)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        out = {}
        with eko.EKO.read(path) as e:
            for mu, nf in op["mugrid"]:
                o = e[(mu**2, nf)]
                out[(mu**2, nf)] = (o.operator, o.error)
    return wall, cpu, out


def best_ekoc(th, op, backend, n_threads, repeat, **kw):
    import ekoc

    best, sol = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        s = ekoc.solve(th, op, backend=backend, n_threads=n_threads, **kw)
        dt = time.perf_counter() - t0
        if best is None or dt < best:
            best, sol = dt, s
    return best, sol


def deviation(sol, ref):
    from compare import compare

    worst = None
    for ep, (o, e) in ref.items():
        st = compare(sol[ep].operator, sol[ep].error, o, e)
        if worst is None or st["max_ratio"] > worst["max_ratio"]:
            worst = st
    return worst


def overhead(name, repeat):
    """Per variant: best-of-`repeat` Python time (the whole call minus the C
    call, plus the Python run inside the progress callbacks) against the
    median C compute time (the C call minus the callbacks' Python)."""
    import cards
    import ekoc

    th, op = cards.card(name)
    rows = []
    variants = (("ekoc.solve (default: progress callback, so Ctrl-C works)", {}),
                ("ekoc.solve(progress=False)", {"progress": False}),
                ("ekoc.solve(profile=True)", {"profile": True}))
    for label, kw in variants:
        py, c = [], []
        for _ in range(repeat):
            s = ekoc.solve(th, op, n_threads=1, **kw)
            t = s.timing
            py.append(t["python_s"] - t["compute_s"] + t["callback_s"])
            c.append(t["compute_s"] - t["callback_s"])
        rows.append((label, min(py), float(np.median(c)), min(py) / float(np.median(c))))
    return rows


def main():
    import cards

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", help="libekoc.so to use (default: EKOC_LIB or build/libekoc.so)")
    ap.add_argument("--cards", nargs="*", default=list(cards.CARDS), choices=list(cards.CARDS))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--append", type=pathlib.Path, help="append the markdown section to this file")
    ap.add_argument("--commit", help="commit hash to head the section with (default: git HEAD)")
    args = ap.parse_args()
    if args.lib:
        os.environ["EKOC_LIB"] = str(pathlib.Path(args.lib).resolve())
    import eko
    import ekoc

    commit = args.commit or subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                           capture_output=True, text=True).stdout.strip()
    cmd = "python3 perf/vs_eko.py " + " ".join(sys.argv[1:])
    lines = [f"## {datetime.date.today().isoformat()} · {commit} · eko {eko.__version__} vs ekoc (Python, adaptive"
             " and batch) on the small runcards of ffi/tests/cards.py", "",
             "Command:", "", "```", cmd, "```", "",
             f"Machine: {machine()}. libekoc: {ekoc.library_path()}.", ""]
    print("\n".join(lines), flush=True)

    # warm-up: eko's first solve in a process loads its numba cache
    w0 = time.perf_counter()
    run_eko(*cards.card("lo_ffns"))
    warm = time.perf_counter() - w0

    head = ("| card | eko wall s | eko CPU s | ekoc adaptive 1 thr s | batch 1 thr s | adaptive all thr s | "
            "eko/adaptive | eko/batch | max dev/tol adaptive | batch | max abs dev adaptive (of max op) |")
    table = [head, "|" + "---|" * 11]
    print(head, flush=True)
    ratios_a, ratios_b = [], []
    for name in args.cards:
        th, op = cards.card(name)
        ew, ec, ref = run_eko(th, op)
        ta, sa = best_ekoc(th, op, "adaptive", 1, args.repeat)
        tb, sb = best_ekoc(th, op, "batch", 1, args.repeat)
        tm, _ = best_ekoc(th, op, "adaptive", 0, args.repeat)
        da, db = deviation(sa, ref), deviation(sb, ref)
        ratios_a.append(ew / ta)
        ratios_b.append(ew / tb)
        row = (f"| {name} | {ew:.2f} | {ec:.2f} | {ta * 1e3:.1f} ms | {tb * 1e3:.1f} ms | {tm * 1e3:.1f} ms | "
               f"{ew / ta:.0f} | {ew / tb:.0f} | {da['max_ratio']:.2f} | {db['max_ratio']:.2f} | "
               f"{da['max_abs_dev']:.2g} ({da['max_dev_over_scale']:.1e}) |")
        table.append(row)
        print(row, flush=True)
    geo = lambda r: float(np.exp(np.mean(np.log(r))))  # noqa: E731
    table += ["", f"Geometric mean of eko wall / ekoc wall: adaptive {geo(ratios_a):.0f}x, batch "
                  f"{geo(ratios_b):.0f}x (eko single core, ekoc one thread; eko's numba-cache warm-up, "
                  f"{warm:.1f} s, not counted).", ""]
    ov = overhead("lo_ffns", 30)
    table += ["Python call overhead of ekoc.solve on the smallest card (lo_ffns, LO FFNS, nx = 15, one thread, "
              "30 calls): time in Python (the call minus the C call, plus the Python inside the progress "
              "callbacks; best of 30) against the C computation (median of 30):", "",
              "| variant | Python ms | C compute ms | overhead |", "|---|---:|---:|---:|"]
    for label, py, c, rel in ov:
        table.append(f"| {label} | {py * 1e3:.3f} | {c * 1e3:.3f} | {100 * rel:.2f} % |")
    table.append("")
    print("\n".join(table[table.index(""):]), flush=True)
    if args.append:
        with open(args.append, "a") as fh:
            fh.write("\n" + "\n".join(lines + table) + "\n")
        print(f"appended to {args.append}")


if __name__ == "__main__":
    main()
