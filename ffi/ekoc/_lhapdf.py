"""ekoc.write_lhapdf: PDFs evolved with ekoc's operators written as an
LHAPDF6 set (info file and member grids, format in ekoc._lhafmt), without
eko or LHAPDF.

Targets come from the library one at a time (ekoc.evolve_pdfs); each
target's x f(x) of every replica is kept (in memory up to a budget, else in
a scratch file in the set's temporary folder), and the mean over replicas
in memory. Once all targets are done, the member files are written one by
one, one subgrid per nf (targets sorted by nf then Q; subgrids share the
matching scale between them, as LHAPDF expects). Memory holds the replicas
at mu_0, one target's results, one member's grid and at most the budget,
whatever the number of replicas.

The set is built in a hidden folder next to its destination and renamed
into place when complete: a failure (bad input found late, a full disk, an
interrupt) leaves nothing at the destination and no temporary folder.
"""

from __future__ import annotations

import math
import os
import pathlib
import re
import secrets
import shutil
import time
from collections.abc import Mapping

import numpy as np

from . import _cards, _lhafmt
from ._blas import single_threaded_blas
from ._errors import EkocFieldError, EkocFieldTypeError
from ._evolve import FLAVOR_PIDS, ReplicaEvolver, operator_card_for, pdf_array

#: methods whose coupling eko solves exactly (the others: expanded)
_EXACT_COUPLING_METHODS = {"iterate-exact", "perturbative-exact", "decompose-exact", "ordered-exact"}


def _checked_destination(path) -> pathlib.Path:
    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path (the set's folder, named as the set)")
    path = pathlib.Path(path)
    if not re.fullmatch(r"[A-Za-z0-9_.+\-]+", path.name) or path.name in (".", ".."):
        raise EkocFieldError("path", str(path), "the set's name (the folder's name) may hold letters, digits and "
                             "_ . + - only")
    if path.exists() or path.is_symlink():
        raise EkocFieldError("path", str(path), "exists already: an LHAPDF set is written only into a new folder "
                             "(remove it or choose another name)")
    if not path.parent.is_dir():
        raise EkocFieldError("path", str(path), f"its parent folder {str(path.parent)!r} does not exist")
    return path


def _with_thresholds(theory_card, q2grid) -> list[float]:
    """The Q^2 grid plus the matching scales strictly inside it, so every
    subgrid ends where the next starts."""
    from ._evolve import _matching_scales

    q2 = sorted({float(v) for v in q2grid})
    inside = [t for t in _matching_scales(theory_card) if q2 and q2[0] < t < q2[-1]]
    return sorted(set(q2) | set(inside))


def _subgrids(setup) -> list[tuple[int, list[int]]]:
    """[(nf, [distinct target indices sorted by Q^2])] in increasing nf,
    checked: at least 2 scales each, each subgrid starting where the
    previous ends."""
    from ._solve import _distinct_targets

    distinct, _ = _distinct_targets(setup)
    by_nf = {}
    for index, (mu2, nf) in enumerate(distinct):
        by_nf.setdefault(nf, []).append(index)
    grids = [(nf, sorted(by_nf[nf], key=lambda i: distinct[i][0])) for nf in sorted(by_nf)]
    for k, (nf, indices) in enumerate(grids):
        if len(indices) < 2:
            raise EkocFieldError("operator_or_q2grid", [distinct[i] for i in indices],
                                 f"nf={nf} has one scale: an LHAPDF subgrid needs at least 2 Q knots")
        if k > 0:
            below, first = distinct[grids[k - 1][1][-1]][0], distinct[indices[0]][0]
            if not math.isclose(below, first, rel_tol=1e-12):
                raise EkocFieldError("operator_or_q2grid", [(below, grids[k - 1][0]), (first, nf)],
                                     f"the nf={grids[k - 1][0]} scales end at Q^2={below!r} but the nf={nf} ones "
                                     f"start at {first!r}: LHAPDF subgrids must share their edge (ask for the "
                                     "matching scale with both nf)")
    return grids


class _EvolvedStore:
    """x f of every replica at every target: held in memory up to
    `max_bytes` (a VM's disk writes ~6 s a GB), beyond that in a scratch
    file in the set's temporary folder (read back with pread, not mapped,
    so it does not count as the process's memory)."""

    def __init__(self, folder: pathlib.Path, n_targets: int, n_rep: int, nx: int, max_bytes: int):
        self.shape, self.row = (n_targets, n_rep, 14, nx), 14 * nx * 8
        self.path = folder / "evolved.scratch"
        in_memory = n_targets * n_rep * self.row <= max_bytes
        self.memory = np.empty(self.shape) if in_memory else None
        self.file = None if in_memory else open(self.path, "w+b")

    def put(self, k: int, xf: np.ndarray) -> None:
        if self.memory is not None:
            self.memory[k] = xf
        else:
            os.pwrite(self.file.fileno(), np.ascontiguousarray(xf).tobytes(), k * self.shape[1] * self.row)

    def replica(self, r: int, out: np.ndarray) -> None:
        if self.memory is not None:
            out[:] = self.memory[:, r]
            return
        for k in range(self.shape[0]):
            out[k] = np.frombuffer(os.pread(self.file.fileno(), self.row, (k * self.shape[1] + r) * self.row),
                                   dtype=float).reshape(self.shape[2:])

    def close(self) -> None:
        self.memory = None
        if self.file is not None:
            self.file.close()
            self.file = None
            self.path.unlink()


def _alphas(setup, points) -> list[float]:
    """alpha_s at each (mu2, nf) with ekoc's couplings (QCD running as the
    evolution's, eko's rules: exact for the *-exact methods, expanded else)."""
    from ._core import check
    from ._lib import ffi, load

    lib = load()
    cfg = ffi.new("ekoc_couplings_config *")
    lib.ekoc_couplings_config_default(cfg)
    cfg.order = setup.order
    cfg.mode = 0 if setup.method_name in _EXACT_COUPLING_METHODS else 1
    cfg.alphas_ref, cfg.mu2_ref, cfg.nf_ref = setup.alphas, setup.mu2_ref, setup.nf_ref
    from ._solve import threshold_masses

    masses = threshold_masses(setup) if setup.masses_scheme else setup.masses
    cfg.masses_scheme = setup.masses_scheme
    for h in range(3):
        cfg.masses2[h] = masses[h] ** 2
        cfg.thresholds_ratio2[h] = setup.matching_ratios[h] ** 2
    cfg.max_nf = 6
    handle = ffi.new("ekoc_couplings **")
    check(lib.ekoc_couplings_new(cfg, handle), "ekoc_couplings_new")
    couplings = ffi.gc(handle[0], lib.ekoc_couplings_free)
    out, a_s = [], ffi.new("double *")
    for mu2, nf in points:
        check(lib.ekoc_couplings_a_s(couplings, mu2, nf, a_s), "ekoc_couplings_a_s")
        out.append(4.0 * math.pi * a_s[0])
    return out


def _info(setup, name, grids, distinct, members, pids, extra) -> dict:
    from ._solve import threshold_masses

    qs = [(math.sqrt(distinct[i][0]), distinct[i][0], nf) for nf, indices in grids for i in indices]
    # the masses the flavour thresholds sit at: the MSbar m(m), not the card's m(mu_ref)
    masses = threshold_masses(setup) if setup.masses_scheme else setup.masses
    info = {
        "SetDesc": f"{name}: PDFs evolved by ekoc", "Authors": "", "Reference": "", "Format": "lhagrid1",
        "DataVersion": 1, "NumMembers": members, "Particle": 2212, "Flavors": list(pids),
        "OrderQCD": setup.order - 1, "FlavorScheme": "variable", "NumFlavors": max(nf for nf, _ in grids),
    }
    if members > 1:
        info["ErrorType"] = "replicas"
    info.update({"XMin": float(setup.xgrid[0]), "XMax": float(setup.xgrid[-1]), "QMin": qs[0][0],
                 "QMax": qs[-1][0], "MZ": math.sqrt(setup.mu2_ref), "MUp": 0.0, "MDown": 0.0, "MStrange": 0.0,
                 "MCharm": masses[0], "MBottom": masses[1], "MTop": masses[2],
                 "AlphaS_MZ": setup.alphas, "AlphaS_OrderQCD": setup.order - 1, "AlphaS_Type": "ipol",
                 "AlphaS_Qs": [q for q, _, _ in qs], "AlphaS_Vals": _alphas(setup, [(mu2, nf) for _, mu2, nf in qs])})
    info.update(extra or {})
    return info


def _member_text(header: str, grid: np.ndarray, setup, grids, distinct, pid_index) -> bytes:
    """One member file: header, then per subgrid the x, Q and pid lines and
    the x f values (x outer, Q inner). grid: (targets, 14, nx) x f."""
    parts = [header.encode() + b"Format: lhagrid1\n---\n"]
    xline = _lhafmt.knots(setup.xgrid).encode()
    pid_line = " ".join(str(FLAVOR_PIDS[k]) for k in pid_index).encode()
    for _, indices in grids:
        q = [math.sqrt(distinct[i][0]) for i in indices]
        block = grid[indices][:, pid_index, :]  # (nq, npid, nx)
        parts += [xline, b"\n", _lhafmt.knots(q).encode(), b"\n", pid_line, b"\n",
                  _lhafmt.format_rows(block.transpose(2, 0, 1).reshape(-1, len(pid_index))), b"---\n"]
    return b"".join(parts)


def write_lhapdf(path, theory_card, operator_or_q2grid, pdfs, *, xgrid=None, mu0=None, nf0=None, configs=None,
                 pids=FLAVOR_PIDS, central: str = "mean", info: Mapping | None = None, backend: str = "auto",
                 max_memory_bytes: int = 3 << 29, **solve_kwargs) -> dict:
    """Evolves `pdfs` (see ekoc.evolve_pdfs: replicas as f(x) arrays on the
    x grid, or functions x f(pid, x)) with ekoc and writes the LHAPDF6 set
    folder `path` (new; its name is the set's name): NAME.info and
    NAME_0000.dat .. one per member, one subgrid per nf.

    Members: with several replicas, member 0 is their mean (NNPDF's
    convention, central="mean") and members 1..R the replicas (ErrorType
    replicas); central="none" writes the replicas as members 0..R-1; a
    single PDF is member 0. The evolved values wait for the member files
    in memory up to max_memory_bytes (1.5 GiB: 1000 replicas on NNPDF's fit
    grid, 1.25 GB), beyond that in a scratch file. pids: the flavours written (eko's 14 by
    default, as evolven3fit writes them). info: entries added to (or
    replacing) the info file's. A Q^2 grid (with xgrid=, mu0=) gets the
    matching scales inside it added, on both sides.

    Returns {"members", "targets", "failures", "timing"}. Bad input raises
    EkocFieldError naming it (an existing folder, a non-finite replica, a
    grid of the wrong shape, ...) and nothing is written."""
    t_start = time.perf_counter()
    path = _checked_destination(path)
    if central not in ("mean", "none"):
        raise EkocFieldError("central", central, "must be 'mean' (member 0 = mean of the replicas) or 'none'")
    if isinstance(operator_or_q2grid, Mapping) or hasattr(operator_or_q2grid, "mugrid"):
        operator_card = operator_or_q2grid
    else:
        if xgrid is None or mu0 is None:
            raise EkocFieldError("operator_or_q2grid", operator_or_q2grid,
                                 "is a Q^2 grid: pass xgrid= and mu0= as well (or an operator card)")
        operator_card = operator_card_for(theory_card, _with_thresholds(theory_card, operator_or_q2grid),
                                          xgrid=xgrid, mu0=mu0, nf0=nf0, configs=configs)
    setup = _cards.translate(theory_card, operator_card)
    pid_index = []
    for pid in pids:
        if pid not in FLAVOR_PIDS or FLAVOR_PIDS.index(pid) in pid_index:
            raise EkocFieldError("pids", list(pids), f"pid {pid!r} is not one of eko's {FLAVOR_PIDS} or repeats")
        pid_index.append(FLAVOR_PIDS.index(pid))
    if 21 not in pids:
        raise EkocFieldError("pids", list(pids), "must include the gluon (21): LHAPDF requires it")
    from ._solve import _distinct_targets

    distinct, _ = _distinct_targets(setup)
    grids = _subgrids(setup)
    replicas = pdf_array(pdfs, setup.xgrid, setup.mu2_0)
    n_rep, nx, n_t = replicas.shape[0], len(setup.xgrid), len(distinct)
    with_mean = central == "mean" and n_rep > 1
    slot = {target: k for k, target in enumerate(distinct)}

    partial = path.parent / f".{path.name}.ekoc-{os.getpid()}-{secrets.token_hex(6)}"
    partial.mkdir()
    store = None
    try:
        store = _EvolvedStore(partial, n_t, n_rep, nx, max_memory_bytes)
        mean = np.zeros((n_t, 14, nx))
        evolver = ReplicaEvolver(replicas)
        from ._stream import solve_stream

        def each(target):
            k = slot[(target.mu2, target.nf)]
            xf = evolver.evolve(target)
            xf *= setup.xgrid  # (R, 14, nx), x f
            if not np.isfinite(xf).all():
                r = int(np.nonzero(~np.isfinite(xf))[0][0])
                raise EkocFieldError(f"pdfs[{r}]", "non-finite after evolution",
                                     f"replica {r} evolved to Q^2={target.mu2!r} is not finite")
            mean[k] = xf.mean(axis=0)
            store.put(k, xf)

        with single_threaded_blas():
            summary = solve_stream(theory_card, operator_card, each, backend, **solve_kwargs)
        t_evolved = time.perf_counter()
        members = n_rep + (1 if with_mean else 0)
        (partial / f"{path.name}.info").write_text(
            _lhafmt.info_text(_info(setup, path.name, grids, distinct, members, pids, info)), encoding="utf-8")
        grid = np.empty((n_t, 14, nx))
        for member in range(members):
            r = member - 1 if with_mean else member
            if r < 0:
                grid[:] = mean
                header = "PdfType: central\n"
            else:
                store.replica(r, grid)
                header = "PdfType: replica\n" if members > 1 else "PdfType: central\n"
                if members > 1:
                    header += f"FromMCReplica: {r + 1}\n"
            text = _member_text(header, grid, setup, grids, distinct, pid_index)
            (partial / f"{path.name}_{member:04d}.dat").write_bytes(text)
        store.close()
        os.rename(partial, path)  # fails (nothing replaced) if something appeared at path meanwhile
    except BaseException:
        if store is not None:
            store.close()
        shutil.rmtree(partial, ignore_errors=True)
        raise
    t_end = time.perf_counter()
    return {"members": members, "targets": n_t, "failures": summary["failures"],
            "timing": {"evolve_s": t_evolved - t_start, "write_s": t_end - t_evolved, "total_s": t_end - t_start,
                       "compute_s": summary["timing"]["compute_s"]}}


def read_lhapdf(path) -> dict:
    """An LHAPDF6 set folder read back and checked (ekoc._lhafmt.read_lhapdf)."""
    return _lhafmt.read_lhapdf(path)
