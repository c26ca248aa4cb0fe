"""ekoc.solve_many on a dask.distributed LocalCluster (2 worker processes,
1 thread each): the same bits as serial ekoc.solve, EKO files written by the
workers, per-job errors in the results, and the cost per job (printed)."""

import os
import shutil
import subprocess
import sys
import time
import uuid

import numpy as np
import pytest

import cards
import ekoc

distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed "
                                                        "(pip install \"ekoc[dask]\" or \"dask[distributed]\")")

JOBS = ("lo_ffns", "nlo_vfns", "nlo_vfns_truncated", "nnlo_ffns_perturbative")


@pytest.fixture(scope="module")
def client():
    # each worker offers one "ekoc" resource (as a SLURM worker started with --resources ekoc=1)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                                       resources={"ekoc": 1})
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def test_no_dask_import_at_import_ekoc():
    code = "import sys, ekoc; assert 'distributed' not in sys.modules and 'dask' not in sys.modules; print('ok')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_local_cluster_workers_keep_arrays_on_the_heap():
    # solve_many's own cluster: glibc's settings of WORKER_MALLOC_ENV in the workers in place of Dask's
    # MALLOC_TRIM_THRESHOLD_ = 65536 (every EKO array a fresh mmap) and WORKER_CONFIG's Dask settings, this
    # process's environment and configuration untouched
    import dask

    from ekoc import _dask

    before = {k: os.environ.get(k) for k in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")}
    before_config = {k: dask.config.get(k) for k in _dask.WORKER_CONFIG}
    cluster = _dask.local_cluster(1)
    try:
        with distributed.Client(cluster) as c:
            got = list(c.run(lambda: {k: os.environ.get(k) for k in _dask.WORKER_MALLOC_ENV}).values())
            config = list(c.run(lambda: {k: dask.config.get(k) for k in _dask.WORKER_CONFIG}).values())
    finally:
        cluster.close()
    assert got == [_dask.WORKER_MALLOC_ENV]
    assert config == [_dask.WORKER_CONFIG]  # the workers' Dask settings, not this process's
    assert {k: os.environ.get(k) for k in before} == before
    assert {k: dask.config.get(k) for k in _dask.WORKER_CONFIG} == before_config


def test_same_bits_as_serial(client):
    jobs = [cards.card(name) for name in JOBS]
    t0 = time.perf_counter()
    results = ekoc.solve_many(jobs, client=client, resources={"ekoc": 1})
    wall = time.perf_counter() - t0
    assert [r.index for r in results] == list(range(len(jobs)))
    assert len({r.worker for r in results}) == 2, [r.worker for r in results]  # both workers took jobs
    for (th, op), res in zip(jobs, results):
        assert res.ok, res.traceback
        serial = ekoc.solve(th, op)
        assert list(res.operators) == list(serial), (list(res.operators), list(serial))
        assert res.failures == serial.failures
        for ep, arrays in res.operators.items():
            assert np.array_equal(arrays.operator, serial[ep].operator), ep
            assert np.array_equal(arrays.error, serial[ep].error), ep
    busy = sum(r.seconds for r in results)
    print(f"\nsolve_many: 4 jobs on 2 workers in {wall:.3f} s (jobs themselves {busy:.3f} s of worker time)")


def test_worker_cache_shared_between_jobs(client):
    """An alpha_s scan on one grid: each worker keeps one NSpaceCache for the
    jobs it runs (the N-space values of the grid's paths computed once per
    worker), and every job still has the bits of a serial solve without one;
    cache_bytes=None runs without."""
    from ekoc import _dask

    th, op = cards.card("nlo_vfns")
    jobs = []
    for alphas in (0.116, 0.118, 0.120, 0.122):
        scan = dict(th, couplings=dict(th["couplings"], alphas=alphas))
        jobs.append((scan, op))
    for cache_bytes in (0, None):
        results = ekoc.solve_many(jobs, client=client, cache_bytes=cache_bytes)
        for (t, o), res in zip(jobs, results):
            assert res.ok, res.traceback
            serial = ekoc.solve(t, o)
            for ep, arrays in res.operators.items():
                assert np.array_equal(arrays.operator, serial[ep].operator), ep
                assert np.array_equal(arrays.error, serial[ep].error), ep
        held = client.run(lambda: sum(c.nbytes for c in _dask._WORKER_CACHE.values()))
        assert sum(held.values()) > 0, held  # the caches of the first round stay with their workers
    with pytest.raises(TypeError, match="cache_bytes"):
        ekoc.solve_many(jobs, client=client, cache_bytes=-1)


def test_identical_cards_computed_once(client, tmp_path):
    """Jobs with equal cards (as NNPDF theories that differ only in what eko
    does not read) are computed once: the others get copies of the arrays,
    or of the EKO file with their own job token; every result is a serial
    solve's, and deduplicate=False computes each."""
    eko = pytest.importorskip("eko", reason="eko is not installed: EKO files need it")
    from ekoc import _ekofile

    th, op = cards.card("nlo_vfns")
    other = cards.card("lo_ffns")
    serial, serial_other = ekoc.solve(th, op), ekoc.solve(*other)
    jobs = [(th, op), other, (th, op), (dict(th), dict(op))]
    for dedup in (True, False):
        results = ekoc.solve_many(jobs, client=client, deduplicate=dedup)
        for (t, o), res in zip(jobs, results):
            assert res.ok, res.traceback
            ref = serial_other if (t, o) == other else serial
            for ep, arrays in res.operators.items():
                assert np.array_equal(arrays.operator, ref[ep].operator), ep
        first, copy = results[0].operators, results[2].operators
        ep = next(iter(first))
        assert first[ep].operator is not copy[ep].operator  # copies, not views of one array
    paths = [tmp_path / f"{k}.tar" for k in range(3)]
    results = ekoc.solve_many([(th, op, p) for p in paths], client=client)
    tokens = set()
    for path, res in zip(paths, results):
        assert res.ok, res.traceback
        assert res.path == path and res.failures == serial.failures
        with eko.EKO.read(path) as e:
            for ep in e.evolgrid:
                assert np.array_equal(e[ep].operator, serial[ep].operator), ep
                assert np.array_equal(e[ep].error, serial[ep].error), ep
        tokens.add(_ekofile.job_record(path, _ekofile._member_json(path, _ekofile.JOB_MEMBER)["token"])["token"])
        assert _ekofile.eko_file_metadata(path) == _ekofile.eko_file_metadata(paths[0])
    assert len(tokens) == 3  # each file names its own job
    # a copy never replaces a file: the second job's path is taken, the others still written
    paths = [tmp_path / f"again{k}.tar" for k in range(3)]
    paths[1].write_bytes(b"not mine")
    results = ekoc.solve_many([(th, op, p) for p in paths], client=client)
    assert results[0].ok and results[2].ok, (results[0].traceback, results[2].traceback)
    assert isinstance(results[1].error, FileExistsError) and paths[1].read_bytes() == b"not mine"


def test_eko_files_written_by_workers(client, tmp_path):
    eko = pytest.importorskip("eko")
    jobs = [(*cards.card(name), tmp_path / f"{name}.tar") for name in JOBS[:2]]
    results = ekoc.solve_many(jobs, client=client)
    for (th, op, path), res in zip(jobs, results):
        assert res.ok, res.traceback
        assert res.path == path and res.value() == path and res.operators is None
        serial = ekoc.solve(th, op)
        with eko.EKO.read(path) as e:
            assert sorted(e.evolgrid) == sorted(serial)
            for ep in e.evolgrid:
                assert np.array_equal(e[ep].operator, serial[ep].operator), ep
                assert np.array_equal(e[ep].error, serial[ep].error), ep
    # the same path again: eko refuses to overwrite; that job's error, not an exception here
    again = ekoc.solve_many([jobs[0]], client=client)
    assert not again[0].ok and again[0].path is None
    with pytest.raises(type(again[0].error)):
        again[0].value()


def test_bad_jobs_reported_others_succeed(client):
    good = cards.card("lo_ffns")
    qed = cards.card("lo_ffns")
    qed[0]["order"] = [1, 1]  # QED with truncated: not implemented (eko has none): NotImplementedError
    qed[1]["configs"]["evolution_method"] = "truncated"
    bad_nf = cards.card("lo_ffns")
    bad_nf[1]["mugrid"] = [[100.0, 9]]  # refused by the C library: an ekoc.EkocError subclass
    jobs = [good, qed, (1, 2, 3, 4), bad_nf, good]
    results = ekoc.solve_many(jobs, client=client)
    assert [r.ok for r in results] == [True, False, False, False, True]
    assert isinstance(results[1].error, NotImplementedError) and "evolution_method" in str(results[1].error)
    assert "QED" in results[1].traceback
    assert isinstance(results[2].error, TypeError) and "jobs[2]" in str(results[2].error)
    assert isinstance(results[3].error, (ekoc.EkocError, ValueError)), repr(results[3].error)
    ref = ekoc.solve(*good)
    for r in (results[0], results[4]):
        for ep, arrays in r.operators.items():
            assert np.array_equal(arrays.operator, ref[ep].operator)


def test_overhead_per_job(client):
    """Many tiny jobs (LO, nx 15, one target): the time per job beyond the
    computation itself, with the cluster already up."""
    th, op = cards.card("lo_ffns")
    n = 16
    ekoc.solve_many([(th, op)] * 2, client=client)  # workers warm (library loaded)
    t0 = time.perf_counter()
    serial = [ekoc.solve(th, op) for _ in range(n)]
    serial_s = (time.perf_counter() - t0) / n
    t0 = time.perf_counter()
    results = ekoc.solve_many([(th, op)] * n, client=client)
    wall = time.perf_counter() - t0
    assert all(r.ok for r in results)
    compute = sum(r.seconds for r in results) / n
    per_job = wall * 2 / n - compute  # 2 workers in parallel
    print(f"\nsolve_many overhead: {n} jobs of {serial_s * 1e3:.1f} ms (serial) in {wall:.3f} s on 2 workers: "
          f"{per_job * 1e3:.1f} ms per job beyond the job's own {compute * 1e3:.1f} ms")
    assert len(serial) == n


def test_local_cluster_started_and_closed():
    """client=None: solve_many starts its own LocalCluster and closes it."""
    t0 = time.perf_counter()
    results = ekoc.solve_many([cards.card("lo_ffns")] * 2, n_workers=2)
    wall = time.perf_counter() - t0
    assert all(r.ok for r in results), [r.traceback for r in results]
    print(f"\nsolve_many with its own 2-worker LocalCluster: {wall:.2f} s for 2 tiny jobs (start-up included)")


def test_workers_load_the_callers_library(tmp_path):
    """A worker without EKOC_LIB of its own loads the library file the
    caller's task names (here a copy, to tell it from the checkout's)."""
    from ekoc import _dask

    lib = tmp_path / "libekoc.so"
    shutil.copy(ekoc.library_path(), lib)
    th, op = cards.card("lo_ffns")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0",
                                  env={"EKOC_LIB": ""}) as cluster, distributed.Client(cluster) as c:
        raw = c.submit(_dask._run_job, 0, th, op, None, "adaptive", {}, str(lib), pure=False).result()
        assert raw.get("error") is None, raw.get("traceback")
        loaded = c.run(lambda: str(__import__("ekoc").library_path()))
    assert list(loaded.values()) == [str(lib)]


def test_empty_and_malformed_only():
    assert ekoc.solve_many([]) == []
    (only,) = ekoc.solve_many([("theory",)])
    assert isinstance(only.error, TypeError)


def test_retry_after_the_file_is_published_succeeds(tmp_path):
    """A worker lost after its job published the EKO file, before the result
    left it (issue 33 item 2): Dask runs the job again, and the retry finds
    the job's own file (its token inside) and succeeds; it used to end with
    OutputExistsError on a complete file. Another job given that path is
    still refused, and the file is left as it is."""
    eko = pytest.importorskip("eko", reason="eko is not installed: EKO files need it")
    from ekoc import _dask

    th, op = cards.card("lo_ffns")
    path, died = tmp_path / "x.tar", tmp_path / "died-once"
    key = f"ekoc-job-0-{uuid.uuid4().hex}"

    def publish_then_die_once(*args):
        out = _dask._run_job(*args)
        if not os.path.exists(died):
            open(died, "w").close()
            os._exit(1)  # the worker dies after the file is published, before reporting
        return out

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as c:
        raw = c.submit(publish_then_die_once, 0, th, op, str(path), "auto", {}, None, key, key=key,
                       pure=False).result(timeout=180)
        assert died.exists()  # the first run did die
        res = _dask._result(raw)
        assert res.ok, res.traceback
        assert res.path == path and res.failures == ekoc.solve(th, op).failures
        before = path.stat()
        (again,) = ekoc.solve_many([(th, op, path)], client=c)
    assert isinstance(again.error, FileExistsError) and str(path) in str(again.error), repr(again.error)
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns, after.st_size) == (before.st_ino, before.st_mtime_ns, before.st_size)
    serial = ekoc.solve(th, op)
    with eko.EKO.read(path) as e:
        for ep in e.evolgrid:
            assert np.array_equal(e[ep].operator, serial[ep].operator), ep


def test_own_cluster_workers_clean_up_on_sigterm():
    """The workers of the LocalCluster solve_many starts are ekoc's: SIGTERM
    there stops the EKO writes, which remove their files, before the worker
    ends (ekoc._sigterm, exercised in test_eko_file_races.py); restarted
    workers get the handler too (a worker plugin)."""
    import signal

    from ekoc import _dask

    client, cluster = _dask._local_client(1, 1, {})
    try:
        def handler_name():
            return getattr(signal.getsignal(signal.SIGTERM), "__qualname__", "")

        assert list(client.run(handler_name).values()) == ["install_worker_handler.<locals>.handler"]
    finally:
        client.close()
        cluster.close()
