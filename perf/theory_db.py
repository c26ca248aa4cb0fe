#!/usr/bin/env python3
"""NNPDF's theory database on pineko's grid through ekoc.solve_many (issue 34
item 2): every theory card of nnpdf-data turned into eko cards as pineko does
(perf/nnpdf_cards.py; pineko's 50-point grid, degree 4, --targets scales
log-spaced from the theory's Q0^2 to 1e5 GeV^2, pineko's scale-variation
treatment), computed on a LocalCluster of --workers processes as solve_many starts
one (one thread each, each keeping one NSpaceCache for the jobs it runs,
ekoc._dask.local_cluster) and written as EKO
files, streamed (ekoc.solve_to_eko on the workers).

    python3 perf/theory_db.py                       # all theories, 2 workers
    python3 perf/theory_db.py --ids 40000000 41000000 --check 2

Jobs with equal cards are computed once and their files copied (solve_many's
deduplicate; --no-dedup computes each). Printed: the cards' preparation (nnpdf-data, eko's Legacy conversion,
pineko's atlas: the caller's side, before anything is submitted), the wall
time from the cluster's start to the last file written, the workers' job
seconds, every worker's peak RSS, entries flagged, and with --check K the
operators and errors of K theories (spread over the list) read back from
their files and compared bit for bit with ekoc.solve of the theory alone
(no cache). The files go to --out (default a temporary folder, removed
afterwards unless --keep; ~28 MB per theory). Exits 1 when a job fails or a
check differs; 0 with a message when nnpdf-data, pineko, eko or dask are
missing.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys
import tempfile
import time
import warnings

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import nnpdf_cards  # noqa: E402


def theory_ids() -> list[int]:
    from ekoc._nnpdf import nnpdf_theory_ids

    return nnpdf_theory_ids()


def jobs_for(ids, n_targets: int, out: pathlib.Path):
    """(theory card, operator card, path) per theory, cards as plain dicts."""
    import ekoc
    from ekoc import _cards

    jobs = []
    for tid in ids:
        q2s = nnpdf_cards.log_targets(nnpdf_cards.nnpdf_theory(tid)["Q0"] ** 2, 1e5, n_targets)
        tc, oc = ekoc.nnpdf_cards(tid, q2s)  # pineko's cards, pineko's grid
        jobs.append((_cards.theory_dict(tc), _cards.operator_dict(oc), out / f"{tid}.tar"))
    return jobs


def worker_usage(client) -> dict:
    """{worker: (peak RSS bytes, CPU seconds)} of every worker process."""
    def usage():
        import resource

        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_maxrss * 1024, r.ru_utime + r.ru_stime

    return client.run(usage)


def scheduler_cpu(client) -> float:
    def usage():
        import resource

        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    return client.run_on_scheduler(usage)


def check_alone(job) -> tuple[bool, str]:
    """The file's operators and errors against ekoc.solve of the job alone."""
    import eko
    import ekoc

    theory, operator, path = job
    alone = ekoc.solve(theory, operator, n_threads=1, progress=False)
    with eko.EKO.read(path) as e:
        for ep in e.evolgrid:
            got = e[ep]
            if not (np.array_equal(got.operator, alone[ep].operator) and np.array_equal(got.error, alone[ep].error)):
                return False, f"{path.name}: {ep} differs"
    return True, f"{path.name}: {len(alone)} targets bit for bit"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ids", type=int, nargs="*", help="theory ids (default: all of nnpdf-data)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--targets", type=int, default=20)
    ap.add_argument("--out", type=pathlib.Path, help="folder for the EKO files (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the files")
    ap.add_argument("--check", type=int, default=0, help="theories read back and compared with a solve alone")
    ap.add_argument("--cache-bytes", type=int, default=0, help="each worker's NSpaceCache (0: default; -1: none)")
    ap.add_argument("--dask-environ", action="store_true", help="a plain LocalCluster, its workers with Dask's "
                    "allocator settings (MALLOC_TRIM_THRESHOLD_ 65536), not solve_many's (ekoc._dask.local_cluster)")
    ap.add_argument("--no-dedup", action="store_true", help="compute jobs with equal cards each (solve_many's "
                    "deduplicate=False)")
    args = ap.parse_args()
    missing = nnpdf_cards.missing_dependencies()
    try:
        import distributed  # noqa: F401
    except ImportError:
        missing.append("dask[distributed]")
    if missing:
        print(f"theory_db: skipped, missing {', '.join(missing)}")
        return 0
    import ekoc
    from distributed import Client, LocalCluster

    warnings.simplefilter("ignore")
    ids = args.ids or theory_ids()
    out = args.out or pathlib.Path(tempfile.mkdtemp(prefix="ekoc-theory-db-"))
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    c_start = time.process_time()
    jobs = jobs_for(ids, args.targets, out)
    t_cards = time.perf_counter() - t0
    from ekoc import _dask

    distinct = len({_dask._card_key(t, o) for t, o, _ in jobs})
    print(f"{len(jobs)} theories ({distinct} distinct pairs of eko cards), pineko's grid "
          f"({len(jobs[0][1]['xgrid'])} x), {args.targets} targets each; cards prepared in {t_cards:.1f} s "
          "(caller side)", flush=True)
    status = 0
    try:
        t1 = time.perf_counter()
        cluster = (LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0")
                   if args.dask_environ else _dask.local_cluster(args.workers))
        with cluster, Client(cluster) as client:
            t2 = time.perf_counter()
            results = ekoc.solve_many(jobs, client=client, n_threads=1, deduplicate=not args.no_dedup,
                                      cache_bytes=None if args.cache_bytes < 0 else args.cache_bytes)
            t3 = time.perf_counter()
            usage = worker_usage(client)
            sched = scheduler_cpu(client)
        failed = [r for r in results if not r.ok]
        busy = sum(r.seconds for r in results)
        flagged = sum(r.failures for r in results if r.ok)
        size = sum(p.stat().st_size for p in out.glob("*.tar"))
        print(f"cluster start {t2 - t1:.1f} s; jobs submitted to last file written {t3 - t2:.1f} s; cluster start "
              f"to last file {t3 - t1:.1f} s; workers busy {busy:.1f} s; {len(results) - len(failed)} files, "
              f"{size / 1e9:.2f} GB; {flagged} entries flagged")
        print("peak RSS per worker: " + ", ".join(f"{v[0] / 1e6:.0f} MB" for v in usage.values()) +
              "; CPU per worker: " + ", ".join(f"{v[1]:.1f} s" for v in usage.values()) +
              f"; scheduler CPU {sched:.1f} s; this process {time.process_time() - c_start:.1f} s CPU")
        flagged_by = sorted(((r.failures, jobs[r.index][2].stem) for r in results if r.ok and r.failures), reverse=True)
        if flagged_by:
            print(f"theories with flagged entries ({len(flagged_by)}): " +
                  ", ".join(f"{name} {n}" for n, name in flagged_by[:12]) + (" ..." if len(flagged_by) > 12 else ""))
        for r in failed:
            print(f"FAILED {jobs[r.index][2].name}: {r.error!r}")
            status = 1
        if args.check:
            step = max(1, len(jobs) // args.check)
            for job in jobs[::step][: args.check]:
                ok, msg = check_alone(job)
                print(("same: " if ok else "DIFFERENT: ") + msg)
                status |= 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(out, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
