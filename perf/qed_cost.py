"""What QED costs on one real card (issue 13): NNPDF theory 40000100
(NNPDF4.0 QED: NNLO x O(a_em^2), alpha_em running, iterate-exact with 60
iterations) as pineko turns it into eko runcards (perf/nnpdf_cards.py,
pineko's 50-point x grid), 20 log-spaced targets Q^2 = 4 .. 1e4 GeV^2, the
batch backend; once as the card says and once with order [2, 0] (the same
card without QED), nothing else changed.

Paired as perf/n3lo_cost.py: the two alternate `--pairs` times in one
process after a warm-up of each; printed are the medians of wall and process
CPU time and of the per-pair ratios QED / QCD.

    EKOC_LIB=$PWD/build/libekoc.so python3 perf/qed_cost.py [--pairs 9] [--threads 2] [--theory 40000100]

Needs nnpdf-data, pineko and eko (skips with a message when one is absent).
"""

from __future__ import annotations

import argparse
import copy
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "ffi"))

import nnpdf_cards  # noqa: E402  (perf/)
from n3lo_cost import paired, summary  # noqa: E402  (the same alternation, timing and table)


def cards(theory_id: int) -> tuple[dict, dict, dict]:
    """(the card's theory dict with QED, its QCD-only twin, operator dict)."""
    from ekoc._cards import theory_dict

    theory = nnpdf_cards.nnpdf_theory(theory_id)
    grid = nnpdf_cards.pineko_xgrid()
    targets = nnpdf_cards.log_targets(4.0, 1e4, 20)
    theory_card, operator_card = nnpdf_cards.eko_cards(theory, nnpdf_cards.operator_dict(theory, grid, targets))
    qed = theory_dict(theory_card)
    qcd = copy.deepcopy(qed)
    qcd["order"] = [qed["order"][0], 0]
    return qed, qcd, operator_card.raw


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=9, help="timed QCD/QED pairs (default 9)")
    ap.add_argument("--threads", type=int, default=2, help="ekoc threads (default 2)")
    ap.add_argument("--theory", type=int, default=40000100, help="NNPDF theory id with QED (default 40000100)")
    ap.add_argument("--profile", action="store_true", help="print the stage tables of one solve of each instead")
    args = ap.parse_args(argv)
    missing = nnpdf_cards.missing_dependencies()
    if missing:
        print("skipped: needs " + ", ".join(missing))
        return 0
    qed, qcd, operator = cards(args.theory)
    print(f"theory {args.theory}: order {qed['order']}, em_running {qed['couplings']['em_running']}, "
          f"{operator['configs']['evolution_method']} x {operator['configs']['ev_op_iterations']} iterations, "
          f"nx {len(operator['xgrid'])}, {len(operator['mugrid'])} targets")
    if args.profile:
        import ekoc

        for name, theory in (("QCD only", qcd), ("with QED", qed)):
            _, table = ekoc.profile(theory, operator, backend="batch", n_threads=args.threads)
            print(name)
            print(table)
        return 0
    r = paired(qcd, qed, operator, args.pairs, args.threads)
    print(f"{args.pairs} pairs, {args.threads} threads, failures (QCD, QED): {sorted(r['failures'])}")
    names = ("QCD only", "with QED", "QED/QCD")
    print(summary("wall", *r["wall"], names=names))
    print(summary("cpu ", *r["cpu"], names=names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
