"""Exact algebra for the O(a_s^3) OME generator (gen_ome_as3.py).

An expression is a finite sum  sum_m  R_m(N) * m,  where m is a monomial in
"atoms" (L, nf and the harmonic sums S1, Sm2, S21, ...) and R_m a rational
function of N with rational coefficients.  Every float literal of the source is
read as the exact rational it denotes, so the result is an exact rearrangement
of the source formula; rounding happens once, when a coefficient is printed.

Representation
  polynomial in N : tuple of Fractions, constant term first, no trailing zeros
  denominator     : tuple of (factor, exponent) with factor a monic irreducible
                    polynomial (tuple as above), sorted
  rational func.  : (numerator polynomial, denominator)
  expression      : dict monomial -> rational function, with a monomial a
                    sorted tuple of (atom name, exponent)

The source is Python (eko's formulas): `Evaluator` walks a function's AST
(assignments, `if eta == 1` branches, return) and builds the expression.
"""

import ast
from fractions import Fraction

import sympy

ONE = (Fraction(1),)
ZERO_POLY = ()


# ----------------------------------------------------------------- polynomials
def p_trim(p):
    p = list(p)
    while p and p[-1] == 0:
        p.pop()
    return tuple(p)


def p_add(a, b):
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    for i, c in enumerate(b):
        out[i] += c
    return p_trim(out)


def p_scale(a, c):
    return p_trim(x * c for x in a) if c != 0 else ZERO_POLY


def p_mul(a, b):
    if not a or not b:
        return ZERO_POLY
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x == 0:
            continue
        for j, y in enumerate(b):
            out[i + j] += x * y
    return p_trim(out)


def p_pow(a, k):
    out = ONE
    for _ in range(k):
        out = p_mul(out, a)
    return out


def p_divmod(a, b):
    """Quotient and remainder of a / b (b monic or not)."""
    a = list(a)
    q = [Fraction(0)] * max(len(a) - len(b) + 1, 0)
    lead = b[-1]
    for i in range(len(a) - len(b), -1, -1):
        c = a[i + len(b) - 1] / lead
        q[i] = c
        if c:
            for j, y in enumerate(b):
                a[i + j] -= c * y
    return p_trim(q), p_trim(a[: len(b) - 1])


N_SYMBOL = sympy.Symbol("N")
_factor_cache = {}


def p_factor(p):
    """p = c * prod f^e with monic irreducible f: returns (c, ((f, e), ...))."""
    if p in _factor_cache:
        return _factor_cache[p]
    poly = sympy.Poly([sympy.Rational(x.numerator, x.denominator) for x in reversed(p)], N_SYMBOL, domain="QQ")
    const, factors = poly.factor_list()
    out = []
    c = Fraction(int(sympy.numer(const)), int(sympy.denom(const)))
    for f, e in factors:
        coeffs = [Fraction(int(sympy.numer(x)), int(sympy.denom(x))) for x in reversed(f.all_coeffs())]
        lead = coeffs[-1]
        c *= lead**e
        out.append((tuple(x / lead for x in coeffs), e))
    res = (c, tuple(sorted(out)))
    _factor_cache[p] = res
    return res


# ------------------------------------------------------------ rational functions
def den_mul(a, b):
    d = dict(a)
    for f, e in b:
        d[f] = d.get(f, 0) + e
    return tuple(sorted(d.items()))


def den_poly(den):
    out = ONE
    for f, e in den:
        out = p_mul(out, p_pow(f, e))
    return out


def r_add(a, b):
    (na, da), (nb, db) = a, b
    if da == db:
        return (p_add(na, nb), da)
    ea, eb = dict(da), dict(db)
    lcm = {f: max(ea.get(f, 0), eb.get(f, 0)) for f in set(ea) | set(eb)}
    fa = tuple(sorted((f, e - ea.get(f, 0)) for f, e in lcm.items() if e > ea.get(f, 0)))
    fb = tuple(sorted((f, e - eb.get(f, 0)) for f, e in lcm.items() if e > eb.get(f, 0)))
    num = p_add(p_mul(na, den_poly(fa)), p_mul(nb, den_poly(fb)))
    return (num, tuple(sorted(lcm.items())))


def r_mul(a, b):
    return (p_mul(a[0], b[0]), den_mul(a[1], b[1]))


def r_cancel(r):
    """Divide out every denominator factor that divides the numerator."""
    num, den = r
    if not num:
        return (ZERO_POLY, ())
    out = []
    for f, e in den:
        while e > 0:
            q, rem = p_divmod(num, f)
            if rem:
                break
            num, e = q, e - 1
        if e:
            out.append((f, e))
    return (num, tuple(out))


# ------------------------------------------------------------------ expressions
def mono_mul(a, b):
    d = dict(a)
    for k, e in b:
        d[k] = d.get(k, 0) + e
    return tuple(sorted(d.items()))


def e_const(c):
    c = Fraction(c)
    return {(): ((c,), ())} if c else {}


def e_atom(name):
    return {((name, 1),): (ONE, ())}


def e_n():
    return {(): ((Fraction(0), Fraction(1)), ())}


def e_add(a, b):
    out = dict(a)
    for m, r in b.items():
        out[m] = r_add(out[m], r) if m in out else r
        if not out[m][0]:
            del out[m]
    return out


def e_scale(a, c):
    return {m: (p_scale(r[0], c), r[1]) for m, r in a.items()} if c else {}


def e_mul(a, b):
    out = {}
    for ma, ra in a.items():
        for mb, rb in b.items():
            m = mono_mul(ma, mb)
            r = r_mul(ra, rb)
            out[m] = r_add(out[m], r) if m in out else r
    return {m: r for m, r in out.items() if r[0]}


def e_pow(a, k):
    out = e_const(1)
    for _ in range(k):
        out = e_mul(out, a)
    return out


def e_inverse(b):
    """1/b for b free of atoms."""
    if list(b) != [()]:
        raise ValueError("division by an expression with atoms: %r" % sorted(b)[:3])
    num, den = b[()]
    c, factors = p_factor(num)
    return {(): (p_scale(den_poly(den), 1 / c), factors)}


def e_value(a):
    """The number a constant expression stands for."""
    if not a:
        return 0
    ((m, (num, den)),) = a.items()
    if m or den or len(num) != 1:
        raise ValueError("not a constant")
    return num[0]


def e_cancel(a):
    return {m: r_cancel(r) for m, r in a.items()}


# -------------------------------------------------------------------- evaluator
class Evaluator:
    """Builds expressions from the AST of Python functions of n and sums.

    `names` maps variable names to expressions; `calls` maps a called
    function's name to a Python callable taking the evaluated arguments
    (`cache` and `is_singlet` are passed through as names); eko's sum lookup
    `c.get(c.X, cache, n, ...)` becomes the atom X; `np.power` and `**` take
    non-negative integer exponents only."""

    def __init__(self, names, calls):
        self.names = dict(names)
        self.calls = calls

    def run(self, func_def, params):
        """Evaluate a FunctionDef body with `params` (name -> value) bound;
        returns the expression of its return statement."""
        self.names.update(params)
        return self._block(func_def.body)

    def _block(self, body):
        for stmt in body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # docstring
            if isinstance(stmt, ast.Assign):
                (target,) = stmt.targets
                value = stmt.value
                is_test = isinstance(value, ast.Compare)
                self.names[target.id] = self._test(value) if is_test else self.expr(value)
            elif isinstance(stmt, ast.If):
                out = self._block(stmt.body if self._test(stmt.test) else stmt.orelse)
                if out is not None:
                    return out
            elif isinstance(stmt, ast.Return):
                return self.expr(stmt.value)
            else:
                raise ValueError("unsupported statement: %s" % ast.dump(stmt)[:200])
        return None

    def _test(self, t):
        if isinstance(t, ast.Compare) and len(t.ops) == 1 and isinstance(t.ops[0], ast.Eq):
            return e_value(self.names[t.left.id]) == t.comparators[0].value
        raise ValueError("unsupported test: %s" % ast.dump(t))

    def expr(self, e):
        if isinstance(e, ast.Constant):
            return e_const(Fraction(e.value))
        if isinstance(e, ast.Name):
            return self.names[e.id]
        if isinstance(e, ast.UnaryOp):
            v = self.expr(e.operand)
            if isinstance(e.op, ast.USub):
                return e_scale(v, -1)
            if isinstance(e.op, ast.UAdd):
                return v
        if isinstance(e, ast.BinOp):
            if isinstance(e.op, ast.Pow):
                return e_pow(self.expr(e.left), self._int(e.right))
            a, b = self.expr(e.left), self.expr(e.right)
            if isinstance(e.op, ast.Add):
                return e_add(a, b)
            if isinstance(e.op, ast.Sub):
                return e_add(a, e_scale(b, -1))
            if isinstance(e.op, ast.Mult):
                return e_mul(a, b)
            if isinstance(e.op, ast.Div):
                return e_mul(a, e_inverse(b))
        if isinstance(e, ast.Call):
            name = e.func.attr if isinstance(e.func, ast.Attribute) else e.func.id
            if name == "power":
                return e_pow(self.expr(e.args[0]), self._int(e.args[1]))
            if name == "get":
                return e_atom(e.args[0].attr)
            return self.calls[name](*[self.expr(a) if not self._is_plain(a) else a.id for a in e.args])
        raise ValueError("unsupported expression: %s" % ast.dump(e)[:200])

    @staticmethod
    def _is_plain(a):
        return isinstance(a, ast.Name) and a.id in ("cache", "is_singlet")

    @staticmethod
    def _int(e):
        v = e.value if isinstance(e, ast.Constant) else None
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            v = -e.operand.value
        if v is None or v != int(v) or v < 0:
            raise ValueError("unsupported exponent: %s" % ast.dump(e))
        return int(v)
