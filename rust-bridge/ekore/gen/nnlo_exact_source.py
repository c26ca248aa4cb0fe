"""Read the N-space three-loop anomalous dimensions from the FORM files that
accompany the arXiv submissions of

  [MVV-NS] S. Moch, J. Vermaseren, A. Vogt, Nucl. Phys. B688 (2004) 101,
           hep-ph/0403192, eqs. (3.4)-(3.9): file "hepres.h"
           (MD5 503139c7f0891dce5a13cf8dd84602c3);
  [MVV-S]  A. Vogt, S. Moch, J. Vermaseren, Nucl. Phys. B691 (2004) 129,
           hep-ph/0404111, eqs. (3.5)-(3.13): file "hepres2.h"
           (MD5 b53c223914821b5d371adf6d0f8e757f).

(Both files are also kept, under the names "hepres(arxiv).h" and
"hepres2(arxiv).h", in the public repository svenolafmoch/Conformal-EIC,
directory NNLO_Splitting_Functions_in_pertubative_QCD.)

The files write each anomalous dimension as

  L name = + theta(-3+N)*<colour> * ( sum of terms ) + ... + delta(-2+N)*<colour> * ( number ) ... ;

with terms  c * den(k+N)^p * ... * S(R(m1,..,mk), j+N) * z_i ..., where
den(x) = 1/x, S(R(...), M) a harmonic sum at M = N + j, z_i = zeta_i.
The theta(-3+N) part holds for N >= 3 (and, as the tests check, for N = 2 and
N = 1 too); the delta(-2+N) parts are the values at N = 2 written out, which
the tests use as the papers' own second moments.

`read(path)` returns {name: {"theta": Poly, "delta": Poly}}, where a Poly maps
a monomial (sorted tuple of atoms) to an exact Fraction; the atoms are
  ("S", (m1,...,mk), j)  harmonic sum at N + j,
  ("den", j)             1/(N + j),
  ("z", i)               zeta_i,
  ("c", name)            colour factor / n_f: "ca", "cf", "nf", "dabc2n".
Only the Mellin-N part of each file (before the first x-space "L P..." block)
is read.
"""

import re
from fractions import Fraction


class Poly:
    """Polynomial in atoms with Fraction coefficients (sum of monomials)."""

    __slots__ = ("t",)

    def __init__(self, t=None):
        self.t = t or {}

    @staticmethod
    def const(c):
        return Poly({(): Fraction(c)}) if c != 0 else Poly()

    @staticmethod
    def atom(a):
        return Poly({(a,): Fraction(1)})

    def _coerce(self, o):
        return o if isinstance(o, Poly) else Poly.const(o)

    def __add__(self, o):
        o = self._coerce(o)
        t = dict(self.t)
        for k, v in o.t.items():
            nv = t.get(k, 0) + v
            if nv == 0:
                t.pop(k, None)
            else:
                t[k] = nv
        return Poly(t)

    __radd__ = __add__

    def __neg__(self):
        return Poly({k: -v for k, v in self.t.items()})

    def __pos__(self):
        return self

    def __sub__(self, o):
        return self + (-self._coerce(o))

    def __rsub__(self, o):
        return self._coerce(o) - self

    def __mul__(self, o):
        o = self._coerce(o)
        t = {}
        for k1, v1 in self.t.items():
            for k2, v2 in o.t.items():
                k = tuple(sorted(k1 + k2, key=repr))
                nv = t.get(k, 0) + v1 * v2
                if nv == 0:
                    t.pop(k, None)
                else:
                    t[k] = nv
        return Poly(t)

    __rmul__ = __mul__

    def __truediv__(self, o):
        if isinstance(o, Poly):
            assert list(o.t.keys()) == [()], "division by a non-constant"
            o = o.t[()]
        return Poly({k: v / Fraction(o) for k, v in self.t.items()})

    def __pow__(self, e):
        assert isinstance(e, int) and e >= 1
        r = self
        for _ in range(e - 1):
            r = r * self
        return r


def _shift(arg):
    """'1 + N', ' - 1 + N', 'N' -> integer shift; '1' etc. not allowed."""
    a = arg.replace(" ", "")
    m = re.fullmatch(r"([+-]?\d+)?\+?N", a)
    if not m:
        raise ValueError(f"argument {arg!r} is not N + integer")
    return int(m.group(1) or 0)


def _translate(expr):
    """FORM text -> a Python expression over Poly atoms."""
    e = expr.replace("\n", " ")
    calls = []

    def keep(text):
        calls.append(text)
        return f" @{len(calls) - 1}@ "

    e = e.replace("[dabc^2/n]", keep("_c('dabc2n')"))

    def s_rep(m):
        idx = tuple(int(x) for x in m.group(1).split(","))
        return keep(f"_S({idx!r},{_shift(m.group(2))})")

    e = re.sub(r"S\(R\(([-0-9, ]+)\),([^)]*)\)", s_rep, e)
    e = re.sub(r"den\(([^)]*)\)", lambda m: keep(f"_den({_shift(m.group(1))})"), e)
    for kind in ("theta", "delta"):
        e = re.sub(kind + r"\(([^)]*)\)", lambda m, k=kind: keep(f"_{k}({_shift(m.group(1)) if 'N' in m.group(1) else 0})"), e)
    e = re.sub(r"\bz([2-5])\b", lambda m: keep(f"_z({m.group(1)})"), e)
    e = re.sub(r"\b(ca|cf|nf)\b", lambda m: keep(f"_c('{m.group(1)}')"), e)
    e = re.sub(r"\^(\d+)", r"**\1", e)
    # integer literals -> Fraction, except exponents
    e = re.sub(r"(?<![*@\d])(\d+)", r"_F(\1)", e)
    e = re.sub(r"@(\d+)@", lambda m: calls[int(m.group(1))], e)
    return e


def _int(p):
    """The integer value of a constant Poly (theta/delta offsets)."""
    if isinstance(p, int):
        return p
    assert set(p.t.keys()) <= {()}, p.t
    v = p.t.get((), Fraction(0))
    assert v.denominator == 1
    return int(v)


def _env():
    return {
        "_F": lambda n: Poly.const(n),
        "_S": lambda idx, j: Poly.atom(("S", idx, j)),
        "_den": lambda j: Poly.atom(("den", j)),
        "_z": lambda i: Poly.atom(("z", i)),
        "_c": lambda name: Poly.atom(("c", name)),
        "_theta": lambda off: Poly.atom(("mark", "theta", off)),
        "_delta": lambda off: Poly.atom(("mark", "delta", off)),
    }


def read(path):
    """{name: {"theta": Poly, "delta": Poly}} of the Mellin-N blocks of one file."""
    text = open(path).read()
    # drop comment lines
    lines = [ln for ln in text.splitlines() if not ln.startswith("*")]
    text = "\n".join(lines)
    out = {}
    for m in re.finditer(r"^L\s+(\w+)\s*=(.*?);", text, re.S | re.M):
        name, body = m.group(1), m.group(2)
        if name.startswith("P"):
            break  # x-space results follow
        poly = eval(_translate(body), {"__builtins__": {}}, _env())
        parts = {"theta": Poly(), "delta": Poly()}
        for mono, c in poly.t.items():
            marks = [a for a in mono if a[0] == "mark"]
            assert len(marks) == 1, (name, mono)
            kind, off = marks[0][1], marks[0][2]
            assert (kind, off) in (("theta", -3), ("delta", -2)), (name, kind, off)
            rest = tuple(a for a in mono if a[0] != "mark")
            parts[kind] = parts[kind] + Poly({rest: c})
        out[name] = parts
    return out
