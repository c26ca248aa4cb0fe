"""ekoc.solve_many: many (theory, operator[, path]) jobs on a Dask cluster.

Each job runs ekoc.solve on one Dask worker; a job with a path writes its
EKO file there instead (ekoc.solve_to_eko, eko's tar format, streamed)
and sends back only the path, a job without one sends back the operator
arrays. A job's file carries the job's token: Dask's retry of a job whose
worker was lost after the file was published finds it and succeeds; a
file that is not the job's is never replaced nor claimed
(OutputExistsError). Results come
back in job order as JobResult objects; a job that fails carries its
exception in ``.error`` and the others are unaffected.

Jobs with the same cards (NNPDF's database: 423 theories, 302 distinct
pairs of eko cards on one grid, the others differing in settings eko does
not read) are computed once: one task solves the first, and the other jobs
of the group get copies (their arrays copied, or their EKO files written as
copies of the first's, ekoc._ekofile.copy_eko, each with its own token);
``deduplicate=False`` computes every job.

Each worker process keeps one ekoc.NSpaceCache (``cache_bytes``) for the
jobs it runs: the N-space values a grid's paths need (basis transforms,
anomalous dimensions at the nodes, node factors) are computed once per
worker and grid, not once per job: the same bits, less work (a database of
theories on one grid, alpha_s and scale scans).

Dask is an optional dependency (``pip install "ekoc[dask]"``): it is
imported when solve_many is called, never at ``import ekoc``.

Workers find libekoc as any ekoc process does (ffi/ekoc/_lib.py: EKOC_LIB,
the package's bundled lib, the checkout's build/). In addition every task
carries the path of the library the submitting process loaded: a worker
with no EKOC_LIB of its own and that file on its disk (a local cluster, a
shared file system) loads the same library, so a LocalCluster computes with
exactly the library of the caller.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import pathlib
import pickle
import socket
import time
import traceback as _traceback
import uuid
from typing import Any, Sequence

#: a target's arrays as sent back by a worker: (14, nx, 14, nx) operator and
#: error in eko's flavour basis (as TargetOperator.operator / .error)
TargetArrays = collections.namedtuple("TargetArrays", ["operator", "error"])

_UNSENDABLE = ("progress", "nspace_cache", "_state")


@dataclasses.dataclass
class JobResult:
    """The outcome of one job of solve_many, in job order.

    index: the job's position in the list.
    path: the EKO file written (jobs with a path), else None.
    operators: {(mu2, nf): TargetArrays} (jobs without a path), else None.
    failures: integrals that missed their tolerance (Solution.failures).
    physics: the physics the job computed with ("eko" or "exact", solve's).
    seconds: wall time of the job on its worker (solve and write).
    worker: "host:pid" of the process that ran it.
    error: the exception the job raised (None when it succeeded);
        traceback: its formatted traceback from the worker.
    """

    index: int
    path: pathlib.Path | None = None
    operators: dict | None = None
    failures: int = 0
    physics: str = "eko"
    seconds: float = 0.0
    worker: str = ""
    error: BaseException | None = None
    traceback: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def value(self):
        """The path (jobs with a path) or the operators; raises the job's error."""
        if self.error is not None:
            raise self.error
        return self.path if self.path is not None else self.operators

    def __repr__(self) -> str:
        what = f"error={self.error!r}" if self.error is not None else (
            f"path={str(self.path)!r}" if self.path is not None else f"targets={list(self.operators or {})}")
        return f"JobResult(index={self.index}, {what}, seconds={self.seconds:.3f}, worker={self.worker!r})"


def _pack_error(exc: BaseException) -> tuple:
    """An exception as something that survives pickling: the exception
    itself when it round-trips, else its class and constructor data (the
    ekoc errors take four arguments, which plain pickling loses)."""
    try:
        pickle.loads(pickle.dumps(exc))
        return ("pickled", exc)
    except Exception:  # noqa: BLE001 - any failure: fall back to the description
        pass
    from . import _errors

    if isinstance(exc, _errors.EkocError):
        name = type(exc).__name__ if hasattr(_errors, type(exc).__name__) else "EkocError"
        return ("ekoc", name, (exc.status, exc.status_name, exc.message, exc.where))
    return ("text", type(exc).__module__, type(exc).__qualname__, str(exc))


def _unpack_error(record: tuple) -> BaseException:
    kind = record[0]
    if kind == "pickled":
        return record[1]
    if kind == "ekoc":
        from . import _errors

        return getattr(_errors, record[1])(*record[2])
    _, module, qualname, text = record
    return RuntimeError(f"{module}.{qualname}: {text}")


def _use_library(hint: str | None) -> None:
    """Points this worker at the caller's library when it has none of its own."""
    if hint and not os.environ.get("EKOC_LIB") and os.path.isfile(hint):
        from . import _lib

        if _lib._lib is None:  # not loaded yet in this worker process
            os.environ["EKOC_LIB"] = hint


_WORKER_CACHE: dict = {}  # this worker process's NSpaceCache, by budget (one budget per solve_many call)


def _worker_cache(max_bytes: int | None):
    """The NSpaceCache this worker process shares between the jobs it runs
    (None: no cache). A job finding it in use by another thread of the worker
    runs without it (the same bits, slower)."""
    if max_bytes is None:
        return None
    if max_bytes not in _WORKER_CACHE:
        from ._core import NSpaceCache

        _WORKER_CACHE.clear()  # one cache per worker: a new budget replaces the old one
        _WORKER_CACHE[max_bytes] = NSpaceCache(max_bytes)
    return _WORKER_CACHE[max_bytes]


def _recorded(out: dict, work) -> dict:
    """out after work(): what work() put there, or its exception (packed, with
    the traceback), and the seconds it took; never raises, except SIGTERM's
    Terminated, which ends the worker (ekoc._sigterm) so that Dask retries
    the job instead of recording it as failed."""
    from ._sigterm import Terminated

    t0 = time.perf_counter()
    try:
        work()
    except Terminated:
        raise
    except Exception as exc:  # noqa: BLE001 - reported per job, not raised
        out["error"] = _pack_error(exc)
        out["traceback"] = _traceback.format_exc()
    out["seconds"] = time.perf_counter() - t0
    return out


def _run_job(index: int, theory, operator, path: str | None, backend: str, kwargs: dict,
             lib_hint: str | None, token: str | None = None, cache_bytes: int | None = None) -> dict:
    """One job on a worker: solve, or with a path write the EKO there
    streamed (solve_to_eko, marked with the job's `token`: a retry of this
    job, after its first run published and was lost, finds its own file and
    succeeds); errors go back in the result (_recorded)."""
    out: dict[str, Any] = {"index": index, "worker": f"{socket.gethostname()}:{os.getpid()}"}

    def work():
        _use_library(lib_hint)
        cache = _worker_cache(cache_bytes)
        args = dict(kwargs, nspace_cache=cache) if cache is not None else kwargs
        if path is not None:
            from ._ekofile import solve_to_eko

            summary = solve_to_eko(theory, operator, path, backend, job_token=token, **args)
            out["failures"] = summary["failures"]
            out["physics"] = summary.get("physics") or args.get("physics", "eko")
            out["path"] = path
        else:
            from ._solve import solve

            sol = solve(theory, operator, backend, **args)
            out["failures"] = sol.failures
            out["physics"] = sol.physics
            out["operators"] = {ep: TargetArrays(op.operator, op.error) for ep, op in sol.items()}

    return _recorded(out, work)


def _run_group(indices: list, theory, operator, paths: list, backend: str, kwargs: dict, lib_hint: str | None,
               tokens: list, cache_bytes: int | None = None) -> list:
    """Jobs with the same cards, each with its own path: the first that
    computes writes its file (_run_job), the others' files are copies of it
    (copy_eko, each with its own token); a job whose own write fails (its
    path taken) does not stop the others. Returns _run_job's dicts in order."""
    from ._ekofile import copy_eko

    out, source = [], None
    for index, path, token in zip(indices, paths, tokens):
        if source is None:
            raw = _run_job(index, theory, operator, path, backend, kwargs, lib_hint, token, cache_bytes)
            if raw.get("error") is None:
                source = raw
            out.append(raw)
            continue
        raw = {"index": index, "worker": source["worker"], "physics": source.get("physics", "eko")}

        def copy(raw=raw, path=path, token=token):
            raw.update(failures=copy_eko(source["path"], path, token)["failures"], path=path)

        out.append(_recorded(raw, copy))
    return out


def _card_key(theory: dict, operator: dict) -> str:
    """The cards of a job as one canonical string: equal for jobs that ask for the same computation."""
    import json

    def plain(v):
        if hasattr(v, "tolist"):
            return v.tolist()
        raise TypeError(f"a card holds a {type(v).__name__}")

    return json.dumps([theory, operator], sort_keys=True, default=plain)


def _groups(prepared: list, deduplicate: bool) -> list[list[int]]:
    """The jobs (indices) computed together: those with equal cards and all
    with paths or all without, when deduplicating; else one each."""
    groups: dict = {}
    for i, job in enumerate(prepared):
        if isinstance(job, Exception):
            continue
        theory, operator, path = job
        try:
            key = (_card_key(theory, operator), path is None) if deduplicate else i
        except (TypeError, ValueError):
            key = i  # a card that cannot be keyed is computed on its own
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def _sigterm_plugin():
    """A WorkerPlugin installing ekoc._sigterm's worker handler (SIGTERM
    stops the EKO writes, which remove their files, then ends the worker) on
    every worker of a cluster solve_many started, restarted ones included."""
    from distributed import WorkerPlugin

    class EkocSigterm(WorkerPlugin):
        name = "ekoc-sigterm"

        def setup(self, worker):
            import threading

            from ._sigterm import install_worker_handler

            if threading.current_thread() is threading.main_thread():  # a signal handler needs it
                install_worker_handler()

    return EkocSigterm()


def _result(raw: dict) -> JobResult:
    res = JobResult(index=raw["index"], operators=raw.get("operators"), failures=raw.get("failures", 0),
                    physics=raw.get("physics", "eko"), seconds=raw.get("seconds", 0.0), worker=raw.get("worker", ""),
                    traceback=raw.get("traceback"))
    if raw.get("path") is not None:
        res.path = pathlib.Path(raw["path"])
    if raw.get("error") is not None:
        res.error = _unpack_error(raw["error"])
    return res


def _split(job, index: int):
    """(theory, operator, path or None) of one job; cards as plain dicts so
    that a worker needs neither eko's classes to unpickle them nor the same
    eko version as the caller (it needs eko only to write an EKO file)."""
    from . import _cards

    if not isinstance(job, (tuple, list)) or len(job) not in (2, 3):
        raise TypeError(f"jobs[{index}] must be (theory, operator) or (theory, operator, path), "
                        f"not {type(job).__name__}" + (f" of length {len(job)}" if isinstance(job, (tuple, list))
                                                       else ""))
    theory, operator = _cards.theory_dict(job[0]), _cards.operator_dict(job[1])
    path = job[2] if len(job) == 3 else None
    if path is not None:
        path = str(pathlib.Path(path).expanduser().absolute())  # workers may run in another directory
    return theory, operator, path


def _library_hint() -> str | None:
    try:
        from ._lib import library_path

        return str(library_path())
    except ImportError:
        return None  # no library here: the workers look for their own


#: glibc's allocator settings of the worker processes of a cluster ekoc
#: starts, in place of Dask's MALLOC_TRIM_THRESHOLD_ = 65536 (its nannies'
#: "pre-spawn-environ"), which fixes glibc's mmap threshold at 128 KiB: every
#: array of an EKO (a 50-point target's operator is 3.9 MB) is then a fresh
#: mmap, zeroed by the kernel page by page and unmapped again, 13-18 % of a
#: theory's time on pineko's grid (perf/STATS.md). Arrays up to 32 MiB (glibc's
#: largest threshold) come from the heap instead, which keeps up to 256 MiB
#: free at its top.
WORKER_MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": "33554432", "MALLOC_TRIM_THRESHOLD_": "268435456"}


#: Dask settings of the workers of a cluster ekoc starts: no statistical
#: profiler (by default each worker samples its threads' stacks every 10 ms,
#: for the dashboard's profile page; ekoc's jobs are a few C calls).
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}


def local_cluster(n_workers: int, **cluster_kwargs):
    """A LocalCluster of `n_workers` processes of one thread each, as
    solve_many starts one: no dashboard, the workers' allocator set by
    WORKER_MALLOC_ENV (set before they are spawned, as Dask sets its own;
    this process's environment is left as it was), and WORKER_CONFIG.
    cluster_kwargs go to LocalCluster (they override these choices)."""
    import dask
    from distributed import LocalCluster

    opts = {"n_workers": n_workers, "threads_per_worker": 1, "processes": True, "dashboard_address": None}
    opts.update(cluster_kwargs)
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
    environ.update(WORKER_MALLOC_ENV)
    saved = {k: os.environ.get(k) for k in environ}
    try:
        with dask.config.set({"distributed.nanny.pre-spawn-environ": environ, **WORKER_CONFIG}):
            return LocalCluster(**opts)
    finally:  # the nannies put their pre-spawn variables into this process's environment
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _local_client(n_jobs: int, n_workers: int | None, cluster_kwargs: dict):
    from distributed import Client

    cluster = local_cluster(n_workers or max(1, min(n_jobs, os.cpu_count() or 1)), **cluster_kwargs)
    client = Client(cluster)
    try:
        client.register_plugin(_sigterm_plugin())  # ekoc owns these workers: SIGTERM cleans up (ekoc._sigterm)
    except BaseException:
        client.close()
        cluster.close()
        raise
    return client, cluster


def solve_many(jobs: Sequence, client=None, backend: str = "auto", *, n_workers: int | None = None,
               cluster_kwargs: dict | None = None, resources: dict | None = None, cache_bytes: int | None = 0,
               deduplicate: bool = True, **solve_kwargs) -> list[JobResult]:
    """Runs ekoc.solve on each job on a Dask cluster; returns JobResults in job order.

    jobs: a list of (theory_card, operator_card) or (theory_card,
        operator_card, path); cards as for ekoc.solve (eko objects or dicts).
        A database of NNPDF theory ids: ``[(*ekoc.nnpdf_cards(tid, q2s),
        path) for tid in ids]`` (pineko's cards, perf/theory_db.py).
        A job with a path writes its EKO file there (on the worker, so the
        path must be reachable from it) and returns the path; a job without
        one returns its operators as arrays.
    client: a dask.distributed Client; None starts a LocalCluster of
        `n_workers` processes (default: one per job up to the CPU count), one
        thread each, closed again before returning (ekoc._dask.local_cluster:
        its workers keep an EKO's arrays on the heap, WORKER_MALLOC_ENV; give
        a cluster of your own the same environment for the same throughput).
        `cluster_kwargs` go to LocalCluster.
    resources: Dask worker resources each job needs (client.submit's
        `resources`), e.g. {"ekoc": 1} with workers started with
        `--resources ekoc=1` so that each runs one job at a time.
    deduplicate: jobs with equal cards are computed once (the others get
        copies of the arrays, or of the EKO file with their own token);
        False: every job is computed.
    cache_bytes: the budget of the NSpaceCache each worker process keeps
        for the jobs it runs (0: the library's default, 512 MiB; about 5 MB on
        pineko's 50-point grid, 12 MB on 109 points); None: no cache.
    backend, solve_kwargs: as ekoc.solve (physics, n_threads, epsabs, ...),
        applied to every job; `progress` and `nspace_cache` cannot travel to
        a worker (each worker has its own cache, `cache_bytes`).

    A job that fails (a card ekoc cannot compute, an existing EKO file, a
    lost worker) gives a JobResult with `.error` set; the others go on.
    Needs dask.distributed (`pip install "ekoc[dask]"`).
    """
    for key in _UNSENDABLE:
        if key in solve_kwargs:
            raise TypeError(f"solve_many cannot send {key}= to Dask workers (it holds local state)")
    if cache_bytes is not None and (isinstance(cache_bytes, bool) or not isinstance(cache_bytes, int)
                                    or cache_bytes < 0):
        raise TypeError(f"cache_bytes must be a non-negative int or None, not {cache_bytes!r}")
    try:
        import distributed  # noqa: F401 - only to fail early with the install hint
    except ImportError as exc:
        raise ImportError("ekoc.solve_many needs dask.distributed: pip install \"ekoc[dask]\" "
                          "(or \"dask[distributed]\")") from exc
    prepared: list = []
    for i, job in enumerate(jobs):
        try:
            prepared.append(_split(job, i))
        except Exception as exc:  # noqa: BLE001 - a malformed job is that job's error
            prepared.append(exc)
    if all(isinstance(job, Exception) for job in prepared):  # nothing to send: no cluster
        return [JobResult(index=i, error=job) for i, job in enumerate(prepared)]
    hint = _library_hint()
    own = None
    if client is None:
        client, own = _local_client(len(prepared), n_workers, cluster_kwargs or {})
    try:
        futures = {}  # group (tuple of indices) -> future
        for group in _groups(prepared, bool(deduplicate)):
            theory, operator, path = prepared[group[0]]
            keys = [f"ekoc-job-{i}-{uuid.uuid4().hex}" for i in group]  # also each job's token in its EKO file
            if path is None or len(group) == 1:
                futures[tuple(group)] = client.submit(_run_job, group[0], theory, operator, path, backend,
                                                      solve_kwargs, hint, keys[0], cache_bytes, pure=False,
                                                      key=keys[0], resources=resources)
            else:
                futures[tuple(group)] = client.submit(_run_group, group, theory, operator,
                                                      [prepared[i][2] for i in group], backend, solve_kwargs, hint,
                                                      keys, cache_bytes, pure=False, key=keys[0],
                                                      resources=resources)
        raws: dict = {}
        for group, future in futures.items():
            try:
                got = future.result()
            except Exception as exc:  # noqa: BLE001 - the task itself failed (e.g. KilledWorker)
                for i in group:
                    raws[i] = JobResult(index=i, error=exc, traceback=_traceback.format_exc())
                continue
            if isinstance(got, list):  # a group with paths: one dict per job
                for raw in got:
                    raws[raw["index"]] = _result(raw)
                continue
            raws[group[0]] = _result(got)
            for i in group[1:]:  # the same cards without paths: copies of the first's arrays
                first = raws[group[0]]
                ops = None if first.operators is None else {
                    ep: TargetArrays(a.operator.copy(), a.error.copy()) for ep, a in first.operators.items()}
                raws[i] = dataclasses.replace(first, index=i, operators=ops, seconds=0.0)
        results = []
        for i, job in enumerate(prepared):
            results.append(JobResult(index=i, error=job) if isinstance(job, Exception) else raws[i])
        return results
    finally:
        if own is not None:
            client.close()
            own.close()
