"""ekoc's own fit evolution of an n3fit fit folder into an LHAPDF6 set (issue 35):

    python3 perf/fit_evolve.py FIT OUT/SETNAME [--threads N] [--check]

reads FIT's replicas (ekoc.read_fit: nnfit/replica_N/FIT.exportgrid), computes
the fit-evolution EKO's targets on the fit's x grid with ekoc, applies them to
all replicas target by target and writes the set (ekoc.write_lhapdf: member 0
the mean, members 1..R the replicas, one subgrid per nf): EKO, evolution and
LHAPDF files in one streamed pass, no EKO file. Prints the stages' wall times
and the peak RSS.

The eko cards are the ones NNPDF's `evolven3fit produce_eko THEORYID` builds
(evolven3fit.eko_utils.construct_eko_cards, from the installed nnpdf), so the
set has the same scales and grid as `evolven3fit evolve FIT -l eko.tar`'s;
n_integration_cores is --threads (default 0: every core). --check reads the
set back (ekoc.read_lhapdf) and says so.
"""

from __future__ import annotations

import argparse
import pathlib
import resource
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "ffi"))

import ekoc  # noqa: E402


def fit_cards(theory_id: int, xgrid, threads: int):
    """(theory card, operator card) as evolven3fit produce_eko makes them."""
    try:
        from evolven3fit import eko_utils
        from nnpdf_data import THEORY_CARDS_PATH
        from nnpdf_data.theorydbutils import fetch_theory
    except ImportError as exc:
        raise SystemExit(f"fit_evolve: the fit's eko cards come from NNPDF's evolven3fit ({exc}); "
                         "pip install 'nnpdf[nolha]'") from exc
    theory = fetch_theory(THEORY_CARDS_PATH, theory_id)
    return eko_utils.construct_eko_cards(theory, list(xgrid), {"configs": {"n_integration_cores": threads}}, {},
                                         False)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit", type=pathlib.Path)
    parser.add_argument("out", type=pathlib.Path, help="the LHAPDF set folder to create (its name is the set's)")
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="read the set back with ekoc.read_lhapdf")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    fit = ekoc.read_fit(args.fit)
    t_read = time.perf_counter()
    theory, operator = fit_cards(fit["theory_id"], fit["xgrid"], args.threads)
    if abs(operator.init[0] ** 2 - fit["q20"]) > 1e-12 * fit["q20"]:
        raise SystemExit(f"fit_evolve: the fit's Q0^2 = {fit['q20']!r} is not the theory's {operator.init[0] ** 2!r}")
    t_cards = time.perf_counter()
    summary = ekoc.write_lhapdf(args.out, theory, operator, fit["pdfs"])
    t_end = time.perf_counter()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    timing = summary["timing"]
    print(f"fit_evolve: {len(fit['replicas'])} replicas, {summary['targets']} targets, {len(fit['xgrid'])} x -> "
          f"{args.out} ({summary['members']} members); read {t_read - t0:.2f} s, cards {t_cards - t_read:.2f} s, "
          f"EKO + evolution {timing['evolve_s']:.2f} s (library {timing['compute_s']:.2f} s), LHAPDF files "
          f"{timing['write_s']:.2f} s, total {t_end - t0:.2f} s; {summary['failures']} flagged integrals; "
          f"peak RSS {rss:.0f} MB")
    if args.check:
        t = time.perf_counter()
        lha = ekoc.read_lhapdf(args.out)
        print(f"fit_evolve: read back {len(lha['members'])} members in {time.perf_counter() - t:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
