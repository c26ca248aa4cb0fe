"""Writes an n3fit-style fit folder to test fit evolution with (issue 35):

    python3 perf/fit_folder.py OUT/FITNAME [--replicas 100] [--theory 40000000] [--seed 1]

OUT/FITNAME/filter.yml names the theory; OUT/FITNAME/nnfit/replica_N/FITNAME.exportgrid
(N = 1..replicas) hold x f(x) at the theory's Q0 on n3fit's x grid, in n3fit's
exportgrid layout (ekoc.write_exportgrid), as `n3fit` writes them at the end of
a fit, so `evolven3fit evolve OUT/FITNAME -l eko.tar` and ekoc's own route
(perf/fit_evolve.py) can evolve them.

The PDFs are the Les Houches toy PDFs (perf/lha_toy.py; hep-ph/0204316),
taken as they are at Q0, each replica perturbed smoothly: every flavour's
x f(x) times (1 + 0.1 (a (1 - x) + b x)) with a, b standard normal, drawn per
replica and flavour; with an intrinsic-charm theory (IC = 1) a small charm,
x c = x cbar = 0.02 |g| x^0.5 (1 - x)^6 with g standard normal.

n3fit's x grid and the theory's Q0 and IC come from the installed nnpdf
(n3fit.io.writer.XGRID) and nnpdf-data (the theory card); without nnpdf,
--xgrid fit196 takes ekoc's 196-point stand-in (perf/nnpdf_cards.fit_xgrid:
log-spaced from 1e-9, linear above 0.1), and --q0 / --ic give the theory's
values. The folder is written under a temporary name and renamed when complete.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import secrets
import shutil
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import ekoc  # noqa: E402
from lha_toy import toy_xf  # noqa: E402


def n3fit_xgrid() -> np.ndarray | None:
    """n3fit's own x grid, from the installed nnpdf (None without it)."""
    try:
        from n3fit.io.writer import XGRID
    except ImportError:
        return None
    return np.asarray(XGRID, dtype=float)


def theory_q0_ic(theory_id: int) -> tuple[float, bool] | None:
    """(Q0 in GeV, intrinsic charm) of an NNPDF theory from nnpdf-data (None without it)."""
    try:
        import nnpdf_data
        from nnpdf_data.theorydbutils import fetch_theory
    except ImportError:
        return None
    card = fetch_theory(pathlib.Path(nnpdf_data.__file__).parent / "theory_cards", theory_id)
    return float(card["Q0"]), bool(card.get("IC", 0))


def replica_xf(xgrid: np.ndarray, rng: np.random.Generator, charm: bool) -> np.ndarray:
    """(14, nx) x f(x) in ekoc.PIDS order: the toy PDFs, perturbed."""
    toy = toy_xf(xgrid)
    out = np.zeros((14, len(xgrid)))
    for k, pid in enumerate(ekoc.PIDS):
        if pid in toy:
            a, b = rng.standard_normal(2)
            out[k] = toy[pid] * (1.0 + 0.1 * (a * (1.0 - xgrid) + b * xgrid))
    if charm:
        xc = 0.02 * abs(rng.standard_normal()) * xgrid**0.5 * (1.0 - xgrid) ** 6
        out[ekoc.PIDS.index(4)] = out[ekoc.PIDS.index(-4)] = xc
    return out


def write_fit(folder: pathlib.Path, theory_id: int, replicas: int, seed: int, xgrid: np.ndarray, q0: float,
              charm: bool) -> None:
    if folder.exists():
        raise SystemExit(f"fit_folder: {folder} exists; choose a new folder")
    if not folder.parent.is_dir():
        raise SystemExit(f"fit_folder: the parent folder {folder.parent} does not exist")
    partial = folder.parent / f".{folder.name}.{os.getpid()}-{secrets.token_hex(4)}"
    partial.mkdir()
    try:
        (partial / "filter.yml").write_text(
            "# an n3fit-style test fit of the LHA toy PDFs, written by ekoc's perf/fit_folder.py\n"
            f"theory:\n  theoryid: {theory_id}\n", encoding="utf-8")
        rng = np.random.default_rng(seed)
        for r in range(1, replicas + 1):
            replica_dir = partial / "nnfit" / f"replica_{r}"
            replica_dir.mkdir(parents=True)
            ekoc.write_exportgrid(replica_dir / f"{folder.name}.exportgrid", replica=r, q20=q0 * q0, xgrid=xgrid,
                                  xf=replica_xf(xgrid, rng, charm))
        os.rename(partial, folder)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=pathlib.Path, help="the fit folder to create (its name is the fit's)")
    parser.add_argument("--replicas", type=int, default=100)
    parser.add_argument("--theory", type=int, default=40000000, help="NNPDF theory id written to filter.yml")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--xgrid", choices=["n3fit", "fit196"], default="n3fit",
                        help="n3fit's grid (needs nnpdf) or ekoc's 196-point stand-in")
    parser.add_argument("--q0", type=float, help="Q0 in GeV (default: the theory card's, from nnpdf-data)")
    parser.add_argument("--ic", type=int, choices=[0, 1], help="intrinsic charm (default: the theory card's)")
    args = parser.parse_args(argv)
    if args.replicas < 1:
        parser.error("--replicas must be at least 1")
    if args.xgrid == "n3fit":
        xgrid = n3fit_xgrid()
        if xgrid is None:
            parser.error("n3fit's x grid needs nnpdf installed (pip install 'nnpdf[nolha]'); or pass --xgrid fit196")
    else:
        from nnpdf_cards import fit_xgrid

        xgrid = np.array(fit_xgrid())
    card = theory_q0_ic(args.theory) if args.q0 is None or args.ic is None else None
    if card is None and (args.q0 is None or args.ic is None):
        parser.error("the theory's Q0 and IC need nnpdf-data installed; or pass --q0 and --ic")
    q0 = args.q0 if args.q0 is not None else card[0]
    charm = bool(args.ic) if args.ic is not None else card[1]
    write_fit(args.folder, args.theory, args.replicas, args.seed, xgrid, q0, charm)
    print(f"fit_folder: {args.folder} with {args.replicas} replicas, theory {args.theory}, Q0 = {q0} GeV, "
          f"{len(xgrid)} x from {xgrid[0]:g}, intrinsic charm {'yes' if charm else 'no'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
