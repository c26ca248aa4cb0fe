#!/usr/bin/env python3
"""Generates tests/basis_reference.h: high-precision basis transforms for
tests/test_interp_reference.c (docs/physics.md §4.3).

For grids down to x = 1e-9 (lambert 60/200/500, a linear-spaced, a mixed
log+linear and a coarse one), both kinds of basis (polynomials in ln x and in
x), degrees 1..8, three inversion points per basis (on a grid node, between
two nodes, and the last node below 1 or the first one) and two Talbot points
per inversion point (offsets 0 and 1, one of them near the path's end at
t = 0.95, where Re N is most negative), the script evaluates

    P_j(N; logx) = x_k^{-N} Mellin[p_j](N) = sum_areas int (x/x_k)^N p_j(x) dx/x

with mpmath at 80 significant digits, directly from the closed forms that
eko writes (monomials, no cancellation-avoiding tricks: the working precision
absorbs the cancellation), with eko's skip rule and eko's drop rule (an area
with x_a <= x_k integrates from x = 0: its lower-bound term is left out) for
both kinds (docs/physics.md §4.3: eko keeps the lower bounds of a linear
basis, whose inversion then fails near the diagonal):

  log:    int_{l_a}^{l_{a+1}} e^{N (l - logx)} t^r dl,  t = l - l_{a+1},
          from the primitive e^{N t} sum_m (-1)^m r!/(r-m)! t^{r-m}/N^{m+1};
  linear: sum_i c_i (x_{a+1}^{N+i} - x_a^{N+i})/(N+i) x_k^{-N} with the exact
          ln x_q of the double x_q in x_q^N (the monomials in x cancel by
          many orders: mixing in the rounded ln would move the result by
          1e-12).

The grid values, the inversion points and N are written as exact doubles
(hexadecimal literals); the node logarithms are Python's math.log, which is
the C library's log. Per case the header keeps max_j |P_j| (the scale of the
test) and up to 8 basis functions: the largest, those next to the inversion
point and a random few, and the largest term that enters any P_j: one
basis function's share of one area (term_scale). Runs in a few minutes:
    python3 tests/gen_basis_reference.py > tests/basis_reference.h
"""
import math
import random
import sys

import mpmath as mp

DPS = 80
ATOL = 10 * 2.220446049250313e-16
DEGREES = range(1, 9)
MAX_J = 8


def lambert(n, xmin):
    """eko's lambertgrid(n, xmin): y = 5(1-x) - ln x, n values of y spaced
    linearly from y(xmin) to 0, x = W0(5 e^{5-y})/5 (rounded from mpmath)."""
    y0 = 5.0 * (1.0 - xmin) - math.log(xmin)
    step = (0.0 - y0) / (n - 1)
    xs = []
    for i in range(n):
        y = 0.0 if i == n - 1 else i * step + y0
        xs.append(float(mp.lambertw(5 * mp.exp(5 - mp.mpf(y))).real / 5))
    xs[-1] = 1.0
    return xs


def linspace(a, b, n):
    return [a + (b - a) * i / (n - 1) for i in range(n - 1)] + [b]


def grids():
    mixed = [float(mp.mpf(10) ** (-9 + 8 * mp.mpf(i) / 130)) for i in range(130)] + linspace(0.1, 1.0, 66)
    return [
        ("lambert60", lambert(60, 1e-9)),
        ("lambert200", lambert(200, 1e-9)),
        ("lambert500", lambert(500, 1e-9)),
        ("linear50", linspace(1e-3, 1.0, 50)),
        ("mixed196", mixed),
        ("coarse10", [1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]),
    ]


def block_kmin(i, n, d):
    p = d // 2 - (1 if d % 2 == 0 else 0)
    kmin = max(0, i - p)
    if kmin + d >= n:
        kmin = n - 1 - d
    return kmin


def poly_coefs(nodes, j, shift):
    """Monomial coefficients (in u - shift) of the Lagrange polynomial of node
    j through `nodes` (a dict index -> mp value)."""
    c = [mp.mpf(1)]
    den = mp.mpf(1)
    uj = nodes[j] - shift
    for k, uk in nodes.items():
        if k == j:
            continue
        uk = uk - shift
        den *= uj - uk
        c = [mp.mpf(0)] + c  # times u
        for m in range(len(c) - 1):
            c[m] -= uk * c[m + 1]
    return [ci / den for ci in c]


def skip(logx, lmax):
    return logx >= lmax or abs(logx - lmax) < ATOL


def talbot(t, logx, o):
    r = 0.4 * 16.0 / (0.1 - logx)
    th = math.pi * (2.0 * t - 1.0)
    tc = th / math.tan(th) if abs(th) > 1e-300 else 1.0
    return complex(o + r * tc, r * th)


class Basis:
    def __init__(self, x, d, is_log):
        self.x, self.d, self.is_log, self.n = x, d, is_log, len(x)
        self.l = [math.log(v) for v in x]
        u = [mp.mpf(v) for v in (self.l if is_log else x)]
        self.coef = {}  # (j, a) -> coefficients
        for a in range(self.n - 1):
            kmin = block_kmin(a, self.n, d)
            nodes = {k: u[k] for k in range(kmin, kmin + d + 1)}
            shift = u[a + 1] if is_log else mp.mpf(0)
            for j in nodes:
                self.coef[(j, a)] = poly_coefs(nodes, j, shift)

    def transforms(self, big_n, logx):
        """All P_j (mp complex) and the largest |area term| sum_r c_r mom_r of
        any basis function on any area."""
        n, d = self.n, self.d
        big_n = mp.mpc(big_n.real, big_n.imag)
        lx = mp.mpf(logx)
        out = [mp.mpc(0)] * n
        big = 0.0
        for a in range(n - 1):
            if skip(logx, self.l[a + 1]):
                continue
            kmin = block_kmin(a, n, d)
            l_lo, l_hi = mp.mpf(self.l[a]), mp.mpf(self.l[a + 1])
            drop = logx >= self.l[a] or abs(logx - self.l[a]) < ATOL
            if self.is_log:
                h = l_hi - l_lo
                e_hi = mp.exp(big_n * (l_hi - lx))
                e_lo = mp.exp(big_n * (l_lo - lx))
                mom = []
                for r in range(d + 1):
                    f0 = (-1) ** r * mp.factorial(r) / big_n ** (r + 1)
                    val = e_hi * f0
                    if not drop:
                        t = -h
                        fl = sum((-1) ** m * mp.factorial(r) / mp.factorial(r - m) * t ** (r - m) / big_n ** (m + 1)
                                 for m in range(r + 1))
                        val -= e_lo * fl
                    mom.append(val)
            else:
                x_lo, x_hi = mp.mpf(self.x[a]), mp.mpf(self.x[a + 1])
                mom = []
                for i in range(d + 1):
                    up = mp.exp(big_n * (mp.log(x_hi) - lx)) * x_hi ** i
                    lo = 0 if drop else mp.exp(big_n * (mp.log(x_lo) - lx)) * x_lo ** i
                    mom.append((up - lo) / (big_n + i))
            for j in range(kmin, kmin + d + 1):
                c = self.coef[(j, a)]
                term = mp.fsum(c[r] * mom[r] for r in range(d + 1))
                out[j] += term
                big = max(big, abs(complex(term)))
        return out, big


def hexd(v):
    return float(v).hex()


def main():
    mp.mp.dps = DPS
    rng = random.Random(20240917)
    cases = []
    grid_list = grids()
    for gi, (name, x) in enumerate(grid_list):
        n = len(x)
        for is_log in (1, 0):
            for d in DEGREES:
                if d >= n:
                    continue
                sys.stderr.write(f"{name} log={is_log} degree {d}\n")
                b = Basis(x, d, is_log)
                kr = rng.randrange(0, n - 2)
                ko = rng.randrange(0, n - 2)
                kend = n - 2 if d % 2 else 0
                points = [b.l[kr], 0.5 * (b.l[ko] + b.l[ko + 1]), b.l[kend]]
                for ip, logx in enumerate(points):
                    far = rng.randrange(2)
                    for o in (0, 1):
                        t = rng.uniform(0.9, 0.95) if o == far else rng.uniform(0.5, 0.95)
                        if ip == 2 and o == far:
                            t = 0.95
                        big_n = talbot(t, logx, o)
                        p, big = b.transforms(big_n, logx)
                        mags = [abs(complex(v)) for v in p]
                        scale = max(mags)
                        nz = [j for j in range(n) if mags[j] > 0]
                        if not nz:
                            continue
                        pick = {max(nz, key=lambda j: mags[j])}
                        near = sorted(nz, key=lambda j: abs(b.l[j] - logx))[:3]
                        pick.update(near)
                        rest = [j for j in nz if j not in pick]
                        rng.shuffle(rest)
                        pick.update(rest[: max(0, MAX_J - len(pick))])
                        vals = [(j, complex(p[j])) for j in sorted(pick)]
                        cases.append((gi, is_log, d, logx, big_n, scale, big, vals))
    out = sys.stdout
    out.write("/* basis_reference.h: generated by tests/gen_basis_reference.py (mpmath, %d digits);\n" % DPS)
    out.write(" * do not edit. High-precision P_j(N; logx) for tests/test_interp_reference.c. */\n")
    out.write("#ifndef EKOC_TESTS_BASIS_REFERENCE_H\n#define EKOC_TESTS_BASIS_REFERENCE_H\n\n#include <stddef.h>\n\n")
    for gi, (name, x) in enumerate(grid_list):
        out.write("static const double REF_GRID_%d[%d] = {\n" % (gi, len(x)))
        for i in range(0, len(x), 4):
            out.write("  " + ", ".join(hexd(v) for v in x[i:i + 4]) + ",\n")
        out.write("};\n")
    out.write("\nstatic const struct {\n  const char *name;\n  const double *x;\n  size_t n;\n} REF_GRIDS[%d] = {\n"
              % len(grid_list))
    for gi, (name, x) in enumerate(grid_list):
        out.write('  {"%s", REF_GRID_%d, %d},\n' % (name, gi, len(x)))
    out.write("};\n\n")
    out.write("#define REF_MAX_J %d\n" % MAX_J)
    out.write("typedef struct ref_case {\n  int grid, is_log, degree, n_j;\n  double logx, n_re, n_im, scale, term_scale;\n"
              "  int j[REF_MAX_J];\n  double p[REF_MAX_J][2];\n} ref_case;\n\n")
    out.write("static const ref_case REF_CASES[%d] = {\n" % len(cases))
    for gi, is_log, d, logx, big_n, scale, big, vals in cases:
        js = ", ".join(str(j) for j, _ in vals)
        ps = ", ".join("{%.17g, %.17g}" % (v.real, v.imag) for _, v in vals)
        out.write("  {%d, %d, %d, %d, %s, %s, %s, %.17g, %.17g, {%s}, {%s}},\n"
                  % (gi, is_log, d, len(vals), hexd(logx), hexd(big_n.real), hexd(big_n.imag), scale, big, js, ps))
    out.write("};\n\n#endif /* EKOC_TESTS_BASIS_REFERENCE_H */\n")


if __name__ == "__main__":
    main()
