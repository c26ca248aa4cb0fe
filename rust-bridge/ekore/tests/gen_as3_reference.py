#!/usr/bin/env python3
"""Print the reference table of the NNLO anomalous dimensions used by the tests of
`src/as3/tests.rs` (`EKO_REFERENCE`), by evaluating the installed eko (0.15.7),
module `ekore.anomalous_dimensions.unpolarized.space_like.as3`.

Run once and paste the output into `src/as3/tests.rs`:

    python3 rust-bridge/ekore/tests/gen_as3_reference.py

Each row is (Re N, Im N, nf, [ns+, ns-, nsV, ps, qg, gq, gg] as (re, im)).
Floats are printed with repr(), i.e. shortest round-trip form.
"""

import numpy as np

from ekore.anomalous_dimensions.unpolarized.space_like import as3
from ekore.harmonics import cache as hcache

# Mellin moments: the region the Talbot contour of eko visits (Re N from about -8
# to 40, |Im N| up to 40), small |N| near the singlet poles at N=0,1, and the real axis.
POINTS = [
    (0.5, 0.5),
    (0.8, 2.0),
    (1.2, 0.1),
    (1.5, 0.0),
    (2.5, 1.5),
    (3.3, -0.7),
    (1.0, 3.0),
    (4.0, 6.0),
    (6.0, 0.5),
    (0.3, 8.0),
    (-0.5, 5.0),
    (-1.5, 10.0),
    (-4.0, 12.5),
    (-8.0, 20.0),
    (5.5, 18.0),
    (15.0, -3.0),
    (10.0, 25.0),
    (25.0, 40.0),
    (40.0, 1.0),
    (7.25, 0.0),
]

FUNCS = [
    as3.gamma_nsp,
    as3.gamma_nsm,
    as3.gamma_nsv,
    as3.gamma_ps,
    as3.gamma_qg,
    as3.gamma_gq,
    as3.gamma_gg,
]


def lit(x):
    """A Rust f64 literal for x."""
    s = repr(float(x))
    return s if ("." in s or "e" in s or "inf" in s or "nan" in s) else s + ".0"


def main():
    for re, im in POINTS:
        n = complex(re, im)
        for nf in (3, 4, 5, 6):
            vals = []
            for f in FUNCS:
                v = complex(f(n, nf, hcache.reset()))
                vals.append(f"({lit(v.real)}, {lit(v.imag)})")
            print(f"    ({lit(re)}, {lit(im)}, {nf}, [{', '.join(vals)}]),")


if __name__ == "__main__":
    np.seterr(all="raise")
    main()
