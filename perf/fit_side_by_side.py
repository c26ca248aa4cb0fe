"""NNPDF's fit evolution, route by route on the same fit (issue 35 item 4):

    python3 perf/fit_side_by_side.py WORKDIR [--theory 40000000] [--replicas 10]
        [--hoppet-dy 0.025,0.05] [--ref-dy 0.0125] [--ref-replicas 2] [--ref-levels 2]

writes an n3fit-style fit of the perturbed LHA toy PDFs (perf/fit_folder.py,
seed 1) into WORKDIR/THEORY/ and evolves it by every route, each in a child
process whose wall time, CPU time (user + sys) and peak RSS are measured
(os.wait4):

  eko       `python -m ekoc.accel evolven3fit produce_eko THEORY eko.tar` (the
            EKO, by ekoc), then `evolven3fit evolve FIT -l eko.tar` (eko's
            apply, NNPDF's LHAPDF writer), NNPDF's tools unmodified;
  ekoc      perf/fit_evolve.py FIT SET --threads 1 (EKO, evolution and LHAPDF
            set in one streamed pass);
  hoppet    HOPPET's Python module driven by this script (`hoppet` child mode)
            as NNPDF's evolven3fit_with_hoppet does it (which nnpdf 4.1.5 ships
            as n3fit/scripts/evolven3fit_with_hoppet.py but cannot run: the
            module evolven3fit.hoppet_evolve it imports is not in the wheel):
            input x f(x) at Q0 = eko's degree-4 log-x Lagrange interpolation of
            the exportgrid (eko.interpolation.InterpolatorDispatcher, as eko's
            own operator assumes), StartExtended(ymax = ln(1/x_min), dy, Q_min,
            Q_max, dlnlnQ = dy/4, order -6), exact NNLO splitting and threshold
            functions, pole-mass VFN at the card's masses, Evolve from the
            card's alpha_s(Q_ref), read at every scale of the EKO's grid and
            every x of the fit (Q nudged by one ulp to the subgrid's side at a
            threshold) and written as an LHAPDF set; one run per dy given.

(`python3 perf/fit_side_by_side.py roundtrip FIT [--dy 0.05]` evolves replica
1 with HOPPET from Q0 down to the lowest scale and back up, and prints how
far from the input it comes back: HOPPET's downward charm matching against
its upward one.)

Every route's LHAPDF grids are then read back (ekoc.read_lhapdf /
read_member) and compared at grid nodes only (x of the fit grid in
[1e-5, 0.7], scales of the EKO's grid: no LHAPDF interpolation anywhere) with

  R  the converged reference of the theory as its card says (TRN: truncated
     solution, expanded backward matching; EXA: iterate-exact, exact
     inversion): ekoc's N-space engine on the fit grid refined --ref-levels
     times (a geometric midpoint between neighbours per level, so the fit's
     nodes are nodes of it), fed the *analytic* replicas (the toy PDFs with the
     replica's perturbation, regenerated from the seed, at every fine node).
     Its own convergence is shown by level L-1 against L;
  H  HOPPET at --ref-dy (exact solution of the same equations with HOPPET's
     exact NNLO kernels), on the first --ref-replicas replicas, fed both the
     analytic replicas and the same interpolated exportgrid as the routes.

Statistics per route, region (below the charm threshold: nf = 3 scales;
above: the others) and combination (g, u, d, s, c, ubar, Sigma = all quarks
and antiquarks, V = quarks minus antiquarks): the worst and the median of
|route - ref| / |ref| over entries with |ref| above 1e-3 of that
combination's largest |x f| at that Q and replica. Output: a Markdown table on
stdout and WORKDIR/THEORY/results.json. Needs nnpdf (evolven3fit, nnpdf_data)
and hoppet (pip install hoppet==2.3.0); exits 0 with a message without them.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pathlib
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "ffi"))
os.environ.setdefault("EKOC_LIB", str(REPO / "build" / "libekoc.so"))

import ekoc  # noqa: E402

HOPPET_PIDS = (-6, -5, -4, -3, -2, -1, 21, 1, 2, 3, 4, 5, 6)
COMBOS = ("g", "u", "d", "s", "c", "ubar", "Sigma", "V")
X_RANGE = (1e-5, 0.7)
Q_WANTED = (1.0, 1.25, 2.1, 10.0, 100.0)  # the EKO grid's scale nearest each (not a threshold, not Q0)
CHILD_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
             "GFORTRAN_UNBUFFERED_PRECONNECTED": "y"}


def need(module: str, hint: str):
    try:
        return __import__(module)
    except ImportError:
        print(f"fit_side_by_side: skipped, {module} is not installed ({hint})")
        sys.exit(0)


# ---------------------------------------------------------------- cards, replicas

def cards(theory_id: int, xgrid):
    """(NNPDF theory dict, eko theory card, eko operator card) as evolven3fit builds them."""
    from evolven3fit import eko_utils
    from nnpdf_data import THEORY_CARDS_PATH
    from nnpdf_data.theorydbutils import fetch_theory

    nnpdf = fetch_theory(THEORY_CARDS_PATH, theory_id)
    theory, operator = eko_utils.construct_eko_cards(nnpdf, list(map(float, xgrid)),
                                                     {"configs": {"n_integration_cores": 1}}, {}, False)
    return nnpdf, theory, operator


def compare_points(mugrid, q0: float, thresholds):
    """[(Q, nf)] of the EKO grid nearest each of Q_WANTED, thresholds and Q0 excluded."""
    inner = [(q, nf) for q, nf in mugrid
             if not any(math.isclose(q, t, rel_tol=1e-9) for t in thresholds) and not math.isclose(q, q0)]
    chosen = []
    for want in Q_WANTED:
        best = min(inner, key=lambda p: abs(math.log(p[0] / want)))
        if best not in chosen:
            chosen.append(best)
    return chosen


class AnalyticReplicas:
    """The fit's replicas as functions: perf/fit_folder.py's replica_xf with the
    random generator's state saved before each replica, so replica r can be
    evaluated at any x exactly as the fit folder drew it."""

    def __init__(self, n: int, seed: int, charm: bool):
        from fit_folder import replica_xf

        self.replica_xf, self.charm, self.states = replica_xf, charm, []
        rng = np.random.default_rng(seed)
        probe = np.array([0.5])
        for _ in range(n):
            self.states.append(rng.bit_generator.state)
            replica_xf(probe, rng, charm)  # advances the generator as the folder's writer did

    def xf(self, r: int, x) -> np.ndarray:
        """(14, len(x)) x f in ekoc.PIDS order."""
        rng = np.random.default_rng()
        rng.bit_generator.state = self.states[r]
        return self.replica_xf(np.atleast_1d(np.asarray(x, dtype=float)), rng, self.charm)


def refined(xgrid: np.ndarray, levels: int) -> np.ndarray:
    for _ in range(levels):
        mid = np.sqrt(xgrid[:-1] * xgrid[1:])
        both = np.empty(2 * len(xgrid) - 1)
        both[0::2], both[1::2] = xgrid, mid
        xgrid = both
    return xgrid


# ---------------------------------------------------------------- child: HOPPET

def hoppet_child(args) -> int:
    hoppet = need("hoppet", "pip install hoppet==2.3.0")
    from eko.interpolation import InterpolatorDispatcher

    fit = ekoc.read_fit(args.fit)
    xgrid = np.asarray(fit["xgrid"])
    nnpdf, theory, operator = cards(fit["theory_id"], xgrid)
    q0, mugrid = math.sqrt(fit["q20"]), [(float(q), int(nf)) for q, nf in operator.mugrid]
    cols = [ekoc.PIDS.index(p) for p in HOPPET_PIDS]
    n_rep = len(fit["replicas"]) if args.replicas is None else min(args.replicas, len(fit["replicas"]))
    thresholds = [nnpdf["mc"] * nnpdf["kcThr"], nnpdf["mb"] * nnpdf["kbThr"], nnpdf["mt"] * nnpdf["ktThr"]]
    points = mugrid if args.out else compare_points(mugrid, q0, thresholds)
    qs = [q for q, _ in mugrid]

    weights = {}  # x -> the interpolation weights on the fit grid (the same for every replica)
    dispatcher = InterpolatorDispatcher(xgrid, 4, mode_N=False)

    def interpolated(xf):
        def callback(x, _q):
            x = float(x)
            if x <= xgrid[0]:
                return list(xf[cols, 0])
            if x >= xgrid[-1]:
                return list(xf[cols, -1])
            w = weights.get(x)
            if w is None:
                w = weights[x] = dispatcher.get_interpolation([x])[0]
            return list(xf[cols] @ w)
        return callback

    analytic = AnalyticReplicas(n_rep, args.seed, bool(nnpdf["IC"])) if args.analytic else None

    def exact(r):
        return lambda x, _q: list(analytic.xf(r, x)[cols, 0])

    t0 = time.process_time()
    hoppet.SetExactDGLAP(True, True)
    hoppet.StartExtended(-math.log(xgrid[0]), args.dy, min(qs[0], q0), max(qs[-1], q0), args.dy / 4.0, 3, -6,
                         hoppet.factscheme_MSbar)
    if nnpdf["FNS"].startswith("FFNS") or nnpdf["HQ"] != "POLE" or nnpdf["PTO"] != 2 or nnpdf["QED"]:
        raise SystemExit("fit_side_by_side: this driver does pole-mass VFNS NNLO QCD only")
    hoppet.SetPoleMassVFN(*thresholds)
    t_start = time.process_time() - t0
    inputs = {"interp": [interpolated(fit["pdfs"][r] * xgrid) for r in range(n_rep)]}
    if analytic is not None:
        inputs["analytic"] = [exact(r) for r in range(n_rep)]
    found = {name: np.empty((n_rep, len(points), 14, len(xgrid))) for name in inputs}
    t_evolve = 0.0
    for name, functions in inputs.items():
        for r, function in enumerate(functions):
            t1 = time.process_time()
            hoppet.Evolve(nnpdf["alphas"], nnpdf["Qref"], 3, nnpdf["XIR"], function, q0)
            t_evolve += time.process_time() - t1
            for k, (q, nf) in enumerate(points):
                same = [p_nf for p_q, p_nf in mugrid if math.isclose(p_q, q, rel_tol=1e-12)]
                q_eval = q if len(same) < 2 else math.nextafter(q, 0.0 if nf == min(same) else math.inf)
                for j, x in enumerate(xgrid):
                    values = hoppet.Eval(float(x), q_eval)
                    found[name][r, k, 0] = 0.0
                    found[name][r, k, 1:, j] = values
    alphas = [hoppet.AlphaS(q) for q in qs]
    hoppet.DeleteAll()
    print(f"hoppet: dy {args.dy}, {n_rep} replicas, inputs {list(inputs)}: StartExtended {t_start:.2f} s CPU, "
          f"Evolve {t_evolve:.2f} s CPU", flush=True)
    if args.out:
        write_set(args.out, found["interp"], xgrid, mugrid, alphas, nnpdf)
    else:
        np.savez(args.npz, points=np.array(points), **found)
    return 0


def write_set(path: pathlib.Path, xf: np.ndarray, xgrid, mugrid, alphas, nnpdf) -> None:
    """An LHAPDF6 set of (R, targets, 14, nx) x f: member 0 the mean, then the replicas."""
    from ekoc import _lhafmt

    path.mkdir(parents=True)
    qs = [q for q, _ in mugrid]
    info = {"SetDesc": "perf/fit_side_by_side.py: HOPPET's evolution of an n3fit fit", "Format": "lhagrid1",
            "DataVersion": 1, "OrderQCD": int(nnpdf["PTO"]), "NumMembers": xf.shape[0] + 1,
            "ErrorType": "replicas", "Flavors": list(ekoc.PIDS), "XMin": float(xgrid[0]),
            "XMax": float(xgrid[-1]), "QMin": float(qs[0]), "QMax": float(qs[-1]),
            "MZ": 91.1876, "MCharm": nnpdf["mc"], "MBottom": nnpdf["mb"], "MTop": nnpdf["mt"],
            "AlphaS_Qs": qs, "AlphaS_Vals": alphas}
    (path / f"{path.name}.info").write_text(_lhafmt.info_text(info), encoding="utf-8")
    blocks = {}
    for k, (_, nf) in enumerate(mugrid):
        blocks.setdefault(nf, []).append(k)
    pid_line = " ".join(map(str, ekoc.PIDS)).encode()
    for member in range(xf.shape[0] + 1):
        grid = xf.mean(axis=0) if member == 0 else xf[member - 1]
        header = "PdfType: central\n" if member == 0 else f"PdfType: replica\nFromMCReplica: {member}\n"
        parts = [header.encode() + b"Format: lhagrid1\n---\n"]
        for nf in sorted(blocks):
            ks = blocks[nf]
            block = grid[ks]  # (nq, 14, nx)
            parts += [_lhafmt.knots(xgrid).encode(), b"\n", _lhafmt.knots([qs[k] for k in ks]).encode(), b"\n",
                      pid_line, b"\n", _lhafmt.format_rows(block.transpose(2, 0, 1).reshape(-1, 14)), b"---\n"]
        (path / f"{path.name}_{member:04d}.dat").write_bytes(b"".join(parts))


def roundtrip_child(args) -> int:
    """HOPPET down from Q0 to the EKO grid's lowest scale and back up, replica 1
    (analytic): how far HOPPET's downward charm matching is from the inverse of
    its upward one. Prints the round trip's deviation at Q0 per flavour."""
    hoppet = need("hoppet", "pip install hoppet==2.3.0")
    from scipy.interpolate import CubicSpline

    fit = ekoc.read_fit(args.fit)
    xgrid = np.asarray(fit["xgrid"])
    nnpdf, _, operator = cards(fit["theory_id"], xgrid)
    q0, q_low = math.sqrt(fit["q20"]), min(float(q) for q, _ in operator.mugrid)
    cols = [ekoc.PIDS.index(p) for p in HOPPET_PIDS]
    analytic = AnalyticReplicas(1, args.seed, bool(nnpdf["IC"]))
    hoppet.SetExactDGLAP(True, True)
    hoppet.StartExtended(-math.log(xgrid[0]), args.dy, 0.9 * q_low, 10.0, args.dy / 4.0, 3, -6,
                         hoppet.factscheme_MSbar)
    hoppet.SetPoleMassVFN(nnpdf["mc"] * nnpdf["kcThr"], nnpdf["mb"] * nnpdf["kbThr"], nnpdf["mt"] * nnpdf["ktThr"])
    hoppet.Evolve(nnpdf["alphas"], nnpdf["Qref"], 3, nnpdf["XIR"], lambda x, _q: list(analytic.xf(0, x)[cols, 0]), q0)
    ys = np.linspace(0.0, -math.log(xgrid[0]), 8001)
    low = CubicSpline(ys, np.array([hoppet.Eval(float(math.exp(-y)), q_low) for y in ys]), axis=0)
    hoppet.Evolve(nnpdf["alphas"], nnpdf["Qref"], 3, nnpdf["XIR"], lambda x, _q: list(low(-math.log(x))), q_low)
    xs = np.array([1e-5, 1e-4, 1e-3, 1e-2, 0.1, 0.3])
    back = np.array([hoppet.Eval(float(x), q0) for x in xs])
    hoppet.DeleteAll()
    start = analytic.xf(0, xs)[cols].T
    print(f"roundtrip: HOPPET dy {args.dy}, Q0 = {q0} -> Q = {q_low} -> Q0, replica 1; (back - input) / max|input| "
          f"at x = {xs.tolist()}:")
    for name, pid in (("g", 21), ("u", 2), ("ubar", -2), ("s", 3), ("c", 4)):
        k = HOPPET_PIDS.index(pid)
        print(f"  {name:5s}", " ".join(f"{v:+.1e}" for v in (back[:, k] - start[:, k]) / abs(start[:, k]).max()))
    return 0


# ---------------------------------------------------------------- child: ekoc reference

def reference_child(args) -> int:
    fit = ekoc.read_fit(args.fit)
    xgrid = np.asarray(fit["xgrid"])
    nnpdf, _, operator = cards(fit["theory_id"], xgrid)
    q0 = math.sqrt(fit["q20"])
    thresholds = [nnpdf["mc"] * nnpdf["kcThr"], nnpdf["mb"] * nnpdf["kbThr"], nnpdf["mt"] * nnpdf["ktThr"]]
    points = compare_points([(float(q), int(nf)) for q, nf in operator.mugrid], q0, thresholds)
    analytic = AnalyticReplicas(len(fit["replicas"]), args.seed, bool(nnpdf["IC"]))
    check = np.stack([analytic.xf(r, xgrid) for r in range(len(fit["replicas"]))])
    if not np.allclose(check, fit["pdfs"] * xgrid, rtol=1e-7, atol=1e-14):
        raise SystemExit("fit_side_by_side: the regenerated replicas differ from the fit's exportgrids "
                         "(another seed or generator?)")
    out = {"points": np.array(points)}
    for level in range(1, args.levels + 1):
        fine = refined(xgrid, level)
        _, theory, op = cards(fit["theory_id"], fine)
        op.mugrid = [tuple(p) for p in points]
        pdfs = np.stack([analytic.xf(r, fine) / fine for r in range(len(fit["replicas"]))])
        t = time.perf_counter()
        held = ekoc.evolve_pdfs(theory, op, pdfs, backend=args.backend, n_threads=1)
        step = 2 ** level
        out[f"level{level}"] = np.stack([held[(q * q, nf)][:, :, ::step] * xgrid for q, nf in points], axis=1)
        print(f"reference: level {level}, {len(fine)} x, {len(points)} targets, {args.backend}: "
              f"{time.perf_counter() - t:.1f} s", flush=True)
    np.savez(args.npz, **out)
    return 0


# ---------------------------------------------------------------- parent: run the routes, compare

def run_child(name: str, cmd, log: pathlib.Path, cwd=None) -> dict:
    env = dict(os.environ, **CHILD_ENV)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "ffi"), env.get("PYTHONPATH")]))
    t = time.perf_counter()
    with open(log, "w") as out:
        proc = subprocess.Popen([str(c) for c in cmd], stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    rc = os.waitstatus_to_exitcode(status)
    row = {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024, "rc": rc}
    print(f"  {name}: rc {rc}, wall {wall:.1f} s, CPU {row['cpu_s']:.1f} s, peak RSS {row['rss_mb']:.0f} MB "
          f"({log})", flush=True)
    if rc != 0:
        print(log.read_text()[-3000:])
        raise SystemExit(f"fit_side_by_side: {name} failed (rc {rc}); see {log}")
    return row


def combine(xf: np.ndarray) -> np.ndarray:
    """(..., 14, nx) x f in ekoc.PIDS order -> (..., len(COMBOS), nx)."""
    at = {p: xf[..., k, :] for k, p in enumerate(ekoc.PIDS)}
    quarks = sum(at[p] for p in (1, 2, 3, 4, 5, 6))
    anti = sum(at[-p] for p in (1, 2, 3, 4, 5, 6))
    return np.stack([at[21], at[2], at[1], at[3], at[4], at[-2], quarks + anti, quarks - anti], axis=-2)


def from_members(members, points, nf_min: int) -> np.ndarray:
    """(R, len(points), 14, nx) from member dicts (read_member's; one block per
    nf from nf_min up), read at grid nodes only."""
    out = []
    for member in members:
        per_q = []
        for q, nf in points:
            block = member["blocks"][nf - nf_min]
            k = int(np.argmin(abs(block["q"] - q)))
            if not math.isclose(block["q"][k], q, rel_tol=1e-6):  # NNPDF prints 7 digits
                raise SystemExit(f"fit_side_by_side: Q = {q} is not a knot of the nf = {nf} subgrid")
            order = [block["pids"].index(p) if p in block["pids"] else None for p in ekoc.PIDS]
            vals = block["xf"][:, k, :]  # (nx, npid)
            per_q.append(np.stack([vals[:, i] if i is not None else np.zeros(len(vals)) for i in order]))
        out.append(per_q)
    return np.array(out)


def stats(values, ref, xgrid, points, nf_below=3) -> dict:
    """{region: {combo: (worst, median, scaled)}}: worst and median of |values - ref| / |ref| over the
    entries above 1e-3 of the largest |ref| (per replica, Q and combination, x in X_RANGE), and the
    worst |values - ref| / that largest |ref| (no cut: what a zero crossing does not inflate)."""
    mask_x = (xgrid >= X_RANGE[0] * (1 - 1e-9)) & (xgrid <= X_RANGE[1] * (1 + 1e-9))
    v, r = combine(values)[..., mask_x], combine(ref)[..., mask_x]
    result = {}
    for region, select in (("below", [k for k, (_, nf) in enumerate(points) if nf == nf_below]),
                           ("above", [k for k, (_, nf) in enumerate(points) if nf != nf_below])):
        if not select:
            continue
        result[region] = {}
        for c, name in enumerate(COMBOS + ("all",)):
            cs = list(range(len(COMBOS))) if name == "all" else [c]
            rr, vv = r[:, select][:, :, cs], v[:, select][:, :, cs]
            scale = np.abs(rr).max(axis=-1, keepdims=True)
            big = np.abs(rr) > 1e-3 * scale
            rel = np.abs(vv - rr)[big] / np.abs(rr)[big]
            scaled = float((np.abs(vv - rr) / np.where(scale > 0, scale, 1.0)).max())
            result[region][name] = (float(rel.max()), float(np.median(rel)), scaled) if rel.size else (0.0, 0.0, 0.0)
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] in ("hoppet", "reference", "roundtrip"):
        child = argparse.ArgumentParser(prog=f"fit_side_by_side.py {argv[0]}")
        child.add_argument("fit", type=pathlib.Path)
        child.add_argument("--seed", type=int, default=1)
        child.add_argument("--npz", type=pathlib.Path)
        if argv[0] == "roundtrip":
            child.add_argument("--dy", type=float, default=0.05)
            return roundtrip_child(child.parse_args(argv[1:]))
        if argv[0] == "hoppet":
            child.add_argument("--out", type=pathlib.Path, help="write an LHAPDF set (the route)")
            child.add_argument("--dy", type=float, default=0.025)
            child.add_argument("--replicas", type=int)
            child.add_argument("--analytic", action="store_true", help="also evolve the analytic replicas")
            return hoppet_child(child.parse_args(argv[1:]))
        child.add_argument("--levels", type=int, default=2)
        child.add_argument("--backend", default="nspace")
        return reference_child(child.parse_args(argv[1:]))

    parser.add_argument("workdir", type=pathlib.Path)
    parser.add_argument("--theory", type=int, default=40000000)
    parser.add_argument("--replicas", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hoppet-dy", default="0.025,0.05")
    parser.add_argument("--ref-dy", type=float, default=0.0125)
    parser.add_argument("--ref-replicas", type=int, default=2)
    parser.add_argument("--ref-levels", type=int, default=2)
    parser.add_argument("--skip", default="", help="comma-separated routes whose outputs are already there")
    args = parser.parse_args(argv)
    need("evolven3fit", "pip install 'nnpdf[nolha]'")
    need("hoppet", "pip install hoppet==2.3.0")
    evolven3fit = shutil.which("evolven3fit")
    try:  # under pyenv the PATH entry is a shell shim; the accelerator needs the real script
        evolven3fit = subprocess.run(["pyenv", "which", "evolven3fit"], capture_output=True, text=True,
                                     check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    skip = set(filter(None, args.skip.split(",")))
    me, py = pathlib.Path(__file__).resolve(), sys.executable
    work = (args.workdir / str(args.theory)).resolve()
    work.mkdir(parents=True, exist_ok=True)
    name = f"FIT{args.theory}"
    fit = work / name
    if not fit.exists():
        subprocess.run([py, HERE / "fit_folder.py", fit, "--replicas", str(args.replicas), "--theory",
                        str(args.theory), "--seed", str(args.seed)], check=True)
    fitdata = ekoc.read_fit(fit)
    xgrid, n_rep = np.asarray(fitdata["xgrid"]), len(fitdata["replicas"])
    nnpdf, _, operator = cards(args.theory, xgrid)
    mugrid = [(float(q), int(nf)) for q, nf in operator.mugrid]
    nf_min = min(nf for _, nf in mugrid)
    thresholds = [nnpdf["mc"] * nnpdf["kcThr"], nnpdf["mb"] * nnpdf["kbThr"], nnpdf["mt"] * nnpdf["ktThr"]]
    points = compare_points(mugrid, math.sqrt(fitdata["q20"]), thresholds)
    print(f"fit_side_by_side: theory {args.theory}, {n_rep} replicas, {len(xgrid)} x, {len(mugrid)} scales; "
          f"compared at Q = {[(round(q, 4), nf) for q, nf in points]}", flush=True)
    timing = json.loads((work / "timing.json").read_text()) if (work / "timing.json").exists() else {}

    def route(key, cmd, cwd=None):
        if key not in skip:
            timing[key] = run_child(key, cmd, work / f"{key}.log", cwd)
            (work / "timing.json").write_text(json.dumps(timing, indent=1))

    route_eko = work / "eko" / name
    if "eko" not in skip:
        shutil.rmtree(work / "eko", ignore_errors=True)
        shutil.copytree(fit, route_eko)
        (work / "eko.tar").unlink(missing_ok=True)
    route("eko_produce", [py, "-m", "ekoc.accel", evolven3fit, "--no-net", "produce_eko", args.theory,
                          work / "eko.tar"])
    route("eko_evolve", [evolven3fit, "evolve", name, "-l", work / "eko.tar"], cwd=work / "eko")
    if "ekoc" not in skip:
        shutil.rmtree(work / "ekoc", ignore_errors=True)
        (work / "ekoc").mkdir()
    route("ekoc", [py, HERE / "fit_evolve.py", fit, work / "ekoc" / name, "--threads", "1"])
    dys = [float(d) for d in args.hoppet_dy.split(",") if d]
    for dy in dys:
        out = work / f"hoppet_{dy}" / name
        if f"hoppet_{dy}" not in skip:
            shutil.rmtree(out.parent, ignore_errors=True)
            out.parent.mkdir()
        route(f"hoppet_{dy}", [py, me, "hoppet", fit, "--dy", dy, "--out", out, "--seed", args.seed])
    route("ref_ekoc", [py, me, "reference", fit, "--levels", args.ref_levels, "--npz", work / "ref_ekoc.npz",
                       "--seed", args.seed])
    route("ref_hoppet", [py, me, "hoppet", fit, "--dy", args.ref_dy, "--replicas", args.ref_replicas, "--analytic",
                         "--npz", work / "ref_hoppet.npz", "--seed", args.seed])

    from ekoc._lhafmt import read_member

    values = {"eko": from_members([read_member(route_eko / "nnfit" / f"replica_{r}" / f"{name}.dat")
                                   for r in fitdata["replicas"]], points, nf_min),
              "ekoc": from_members(ekoc.read_lhapdf(work / "ekoc" / name)["members"][1:], points, nf_min)}
    for dy in dys:
        values[f"hoppet dy {dy}"] = from_members(ekoc.read_lhapdf(work / f"hoppet_{dy}" / name)["members"][1:],
                                                 points, nf_min)
    ref = np.load(work / "ref_ekoc.npz")
    hop = np.load(work / "ref_hoppet.npz")
    top = f"level{args.ref_levels}"
    R, K = ref[top], args.ref_replicas
    rows = [(f"{key} vs R", stats(v, R, xgrid, points)) for key, v in values.items()]
    if args.ref_levels > 1:
        rows.append((f"R level {args.ref_levels - 1} vs R (the reference's convergence)",
                     stats(ref[f"level{args.ref_levels - 1}"], R, xgrid, points)))
    rows.append((f"H dy {args.ref_dy} analytic vs R [{K} rep.]", stats(hop["analytic"], R[:K], xgrid, points)))
    rows.append((f"H dy {args.ref_dy} interp. vs H analytic [{K} rep.] (the fit grid's input interpolation)",
                 stats(hop["interp"], hop["analytic"], xgrid, points)))
    for key, v in values.items():
        rows.append((f"{key} vs H dy {args.ref_dy} interp. [{K} rep.]", stats(v[:K], hop["interp"], xgrid, points)))
    labels = {"eko_produce": "eko route: produce_eko", "eko_evolve": "eko route: evolve"}
    print(f"\n### theory {args.theory}, {n_rep} replicas: worst / median relative deviation / worst scaled "
          "by the largest |x f|\n")
    print("| comparison | region | " + " | ".join(COMBOS + ("all",)) + " |")
    print("|---|---|" + "---|" * (len(COMBOS) + 1))
    for label, st in rows:
        for region, by in st.items():
            cells = " | ".join(f"{w:.1e} / {m:.0e} / {sc:.0e}" for w, m, sc in by.values())
            print(f"| {label} | {region} | {cells} |")
    print("\n| route | wall s | CPU s | peak RSS MB |\n|---|---:|---:|---:|")
    for key, t in timing.items():
        print(f"| {labels.get(key, key)} | {t['wall_s']:.1f} | {t['cpu_s']:.1f} | {t['rss_mb']:.0f} |")
    (work / "results.json").write_text(json.dumps({"points": points, "timing": timing,
                                                   "rows": [[label, st] for label, st in rows]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
