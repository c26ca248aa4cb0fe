"""What polarized and time-like evolution cost on one real card (issue 14):
NNPDF theory 40000000 as pineko turns it into eko runcards (NNLO, truncated,
pineko's 50-point x grid), 20 log-spaced targets Q^2 = 4 .. 1e4 GeV^2, the
batch backend; the unpolarized card against the same card with
`configs.polarized` and with `configs.time_like` (matching order 1 there:
eko's time-like OMEs are O(a_s)), nothing else changed.

Paired as perf/n3lo_cost.py: the two of each comparison alternate `--pairs`
times in one process after a warm-up of each; printed are the medians of wall
and process CPU time and of the per-pair ratios.

    EKOC_LIB=$PWD/build/libekoc.so python3 perf/axis_cost.py [--pairs 9] [--threads 2]

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
from n3lo_cost import cards, paired, summary  # noqa: E402  (the same card, alternation, timing and table)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=9, help="timed pairs per comparison (default 9)")
    ap.add_argument("--threads", type=int, default=2, help="ekoc threads (default 2)")
    args = ap.parse_args(argv)
    missing = nnpdf_cards.missing_dependencies()
    if missing:
        print("skipped: needs " + ", ".join(missing))
        return 0
    import warnings

    warnings.simplefilter("ignore")  # the time-like NNLO matching warning
    theory, _, operator = cards()
    for axis in ("polarized", "time_like"):
        other_theory = copy.deepcopy(theory)
        other = copy.deepcopy(operator)
        other["configs"][axis] = True
        if axis == "time_like":
            other_theory["matching_order"] = [1, 0]
        r = paired(theory, other_theory, operator, args.pairs, args.threads, second_operator=other)
        print(f"{axis}: {args.pairs} pairs, {args.threads} threads, failures (unpolarized, {axis}): "
              f"{sorted(r['failures'])}")
        names = ("unpolarized", axis.replace("_", "-"), f"{axis}/unpolarized")
        print(summary("wall", *r["wall"], names=names))
        print(summary("cpu ", *r["cpu"], names=names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
