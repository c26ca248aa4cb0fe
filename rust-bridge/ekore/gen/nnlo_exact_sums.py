"""Asymptotic expansions of nested harmonic sums, for their analytic
continuation to complex N (docs/physics.md, "Exact NNLO").

A harmonic sum S_{a1,...,ak}(N) (a negative index = alternating) obeys
  S_{a,w}(N) = S_{a,w}(N-1) + sign(a)^N / N^|a| * S_w(N),
so from its values at one large argument N0 the sums at N0-1, N0-2, ... follow
by subtraction.  At large N every such sum has the form
  S(N) = A(N) + (-1)^N B(N),   A, B ~ sum_{m>=0, l>=0} c_{m,l} N^-m ln^l N,
and the analytic continuation from even (odd) N replaces (-1)^N by eta = +1
(-1), as for the alternating single sums of `harmonics.rs` [Bl00, GRV90].

Given S_w = A + (-1)^N B, the summand of S_{a,w} splits into a smooth part f
and an alternating part (-1)^k g:
  a > 0:  f = k^-a A,    g = k^-a B;      a < 0:  f = k^-|a| B,  g = k^-|a| A;
and (Euler-Maclaurin, Euler-Boole; D = d/dN, as formal series in D)
  sum_{k<=N} f(k)         = C_f + [1/(1-e^-D)] f (N) = C_f + int f + f/2 + sum_j B_2j/(2j)! f^(2j-1),
  sum_{k<=N} (-1)^k g(k)  = C_g + (-1)^N [1/(1+e^-D)] g (N),
with 1/(1+e^-t) = 1/2 + t/4 - t^3/48 + ... .  The constant C = C_f + C_g of
each sum is fixed numerically: the exact sum at an integer N0 (60, in
`mpmath` at 50 digits) minus the expansion without constant; N0 = 61 must
give the same constant (checked).

`expansions(words)` returns, for each word, {eps: {(m, l): mpf}} with eps = 0
for A and 1 for B, truncated at m <= M.
"""

from fractions import Fraction

import mpmath as mp

mp.mp.dps = 50

M_INT = 44  # orders kept while building (each nesting level may lose one)


def _bernoulli_coeffs(n):
    """c_j of 1/(1-e^-t) - 1/t = sum_j c_j t^j, j = 0..n."""
    # 1/(1-e^-t) = 1/t + 1/2 + sum_{j>=1} B_2j t^(2j-1)/(2j)!
    c = [mp.mpf(0)] * (n + 1)
    c[0] = mp.mpf(1) / 2
    for j in range(1, n // 2 + 2):
        if 2 * j - 1 <= n:
            c[2 * j - 1] = mp.bernoulli(2 * j) / mp.factorial(2 * j)
    return c


def _boole_coeffs(n):
    """e_j of 1/(1+e^-t) = sum_j e_j t^j, j = 0..n (Taylor coefficients)."""
    return [c for c in mp.taylor(lambda t: 1 / (1 + mp.exp(-t)), 0, n)]


_BC = None
_EC = None


def _init():
    global _BC, _EC
    if _BC is None:
        _BC = _bernoulli_coeffs(M_INT + 2)
        _EC = _boole_coeffs(M_INT + 2)


def _add(a, b, s=1):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + s * v
    return {k: v for k, v in out.items() if v != 0}


def _scale(a, s):
    return {k: v * s for k, v in a.items()}


def _mul_pow(a, p):
    """times N^-p, truncated."""
    return {(m + p, l): v for (m, l), v in a.items() if m + p <= M_INT}


def _deriv(a):
    out = {}
    for (m, l), v in a.items():
        if m + 1 > M_INT:
            continue
        if m:
            out[(m + 1, l)] = out.get((m + 1, l), 0) - m * v
        if l:
            out[(m + 1, l - 1)] = out.get((m + 1, l - 1), 0) + l * v
    return {k: v for k, v in out.items() if v != 0}


def _antideriv(a):
    """Constant-free antiderivative (every m >= 1)."""
    out = {}
    for (m, l), v in a.items():
        assert m >= 1, "antiderivative of a non-decaying term"
        if m == 1:
            key = (0, l + 1)
            out[key] = out.get(key, 0) + v / (l + 1)
        else:
            p = mp.mpf(1 - m)  # int N^(p-1) ln^l N = N^p sum_i (-1)^i l!/(l-i)! ln^(l-i) / p^(i+1)
            for i in range(l + 1):
                coef = (-1) ** i * mp.factorial(l) / mp.factorial(l - i) / p ** (i + 1)
                key = (m - 1, l - i)
                out[key] = out.get(key, 0) + v * coef
    return {k: v for k, v in out.items() if v != 0}


def _euler_maclaurin(f):
    _init()
    out = _antideriv(f)
    d = f
    for j, c in enumerate(_BC):
        if j > 0:
            d = _deriv(d)
        if not d:
            break
        if c != 0:
            out = _add(out, _scale(d, c))
    return out


def _euler_boole(g):
    _init()
    out = {}
    d = g
    for j, c in enumerate(_EC):
        if j > 0:
            d = _deriv(d)
        if not d:
            break
        if c != 0:
            out = _add(out, _scale(d, c))
    return out


def eval_exp(e, n, eps_sign):
    """Value of an expansion {eps: {(m,l): c}} at N = n with (-1)^N = eps_sign."""
    x = 1 / mp.mpf(n) if not isinstance(n, mp.mpc) else 1 / n
    ln = mp.log(n)
    tot = 0
    for eps, terms in e.items():
        s = 0
        for (m, l), v in terms.items():
            s += v * x**m * ln**l
        tot += s * (eps_sign if eps else 1)
    return tot


def exact_values(words, nmax):
    """{word: [S_word(n) for n = 0..nmax]} in mpf."""
    out = {(): [mp.mpf(1)] * (nmax + 1)}
    for w in sorted(words, key=len):
        rest = out[w[1:]]
        a = w[0]
        vals = [mp.mpf(0)]
        for k in range(1, nmax + 1):
            t = rest[k] / mp.mpf(k) ** abs(a)
            if a < 0 and k % 2:
                t = -t
            vals.append(vals[-1] + t)
        out[w] = vals
    return out


def expansions(words, n0=60):
    """{word: {0: {(m,l): c}, 1: {...}}} for all words (closed under suffixes)."""
    words = set(words)
    for w in list(words):
        for i in range(1, len(w)):
            words.add(w[i:])
    ex = exact_values(words, n0 + 1)
    out = {(): {0: {(0, 0): mp.mpf(1)}, 1: {}}}
    consts = {}
    for w in sorted(words, key=lambda w: (len(w), w)):
        a, rest = w[0], out[w[1:]]
        A, B = rest[0], rest[1]
        if a > 0:
            f, g = _mul_pow(A, a), _mul_pow(B, a)
        else:
            f, g = _mul_pow(B, -a), _mul_pow(A, -a)
        e = {0: _euler_maclaurin(f) if f else {}, 1: _euler_boole(g) if g else {}}
        # constant from N0 (even) and check at N0 + 1 (odd)
        c0 = ex[w][n0] - eval_exp(e, n0, 1)
        c1 = ex[w][n0 + 1] - eval_exp(e, n0 + 1, -1)
        assert abs(c0 - c1) < mp.mpf(10) ** -30, (w, c0, c1)
        e[0] = _add(e[0], {(0, 0): c0})
        out[w] = e
        consts[w] = c0
    del out[()]
    return out, consts


def truncate(e, m_out):
    return {eps: {k: v for k, v in t.items() if k[0] <= m_out} for eps, t in e.items()}


def check(exps, words, m_out, n_test=(16, 17, 20, 21), tol=1e-24):
    """Largest relative deviation of the truncated expansions from the exact sums."""
    ex = exact_values(set(exps), max(n_test))
    worst = mp.mpf(0)
    for w in words:
        e = truncate(exps[w], m_out)
        for n in n_test:
            v = eval_exp(e, n, 1 if n % 2 == 0 else -1)
            d = abs(v - ex[w][n]) / max(abs(ex[w][n]), mp.mpf(1e-30))
            worst = max(worst, d)
    return worst


if __name__ == "__main__":
    ws = [(1,), (-2,), (1, -2), (-2, 1), (1, 1, -2), (1, -2, 1, 1), (2, 1, -2)]
    exps, consts = expansions(ws)
    for w in sorted(consts, key=len):
        print(w, mp.nstr(consts[w], 20))
    for m in (16, 20, 24, 28):
        print(m, mp.nstr(check(exps, list(exps), m), 5))
    _ = Fraction
