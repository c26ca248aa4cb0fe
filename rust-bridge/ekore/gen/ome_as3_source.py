"""Read eko 0.15.7's O(a_s^3) OME formulas into exact expressions.

The formulas are eko's Python modules ekore/operator_matrix_elements/
unpolarized/space_like/as3/*.py (Mathematica exports) and the Mellin
transforms of ln^k(1-x), (1-x)^j ln^k(1-x) in ekore/harmonics/log_functions.py,
which are expanded into harmonic sums so that every entry is a sum of
(rational function of N) * (monomial in L, nf and harmonic sums).
Only the installed package's source text is read (its AST); nothing of it is
executed.
"""

import ast
import os

import ome_as3_algebra as alg


def ekore_root():
    import importlib.util

    spec = importlib.util.find_spec("ekore")
    if spec is None:
        raise SystemExit("eko (the ekore package) is not installed: nothing to generate from")
    return os.path.dirname(spec.origin)


AS3_DIR = "operator_matrix_elements/unpolarized/space_like/as3"
AS3_FILES = ("agg", "agq", "aHg", "aHg_param", "aHq", "aqg", "aqqNS", "aqqPS")

# entry name -> (eko function, extra arguments after (n, cache, nf, L))
ENTRIES = {
    "a_gg": ("A_gg", ()),
    "a_gq": ("A_gq", ()),
    "a_hg": ("A_Hg", ()),
    "a_hq": ("A_Hq", ()),
    "a_qg": ("A_qg", ()),
    "a_qq_ps": ("A_qqPS", ()),
    # eta = +1 in the singlet matrix, -1 in the non-singlet one (eko's as3.A_singlet / A_ns)
    "a_qq_ns_singlet": ("A_qqNS", (1,)),
    "a_qq_ns_nonsinglet": ("A_qqNS", (-1,)),
}


def _function_defs(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    return {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}


def eko_version():
    try:
        from importlib.metadata import version

        return version("eko")
    except Exception:  # pragma: no cover - metadata missing
        return "unknown"


def build_entries():
    """entry name -> cancelled expression; plus the list of source files read."""
    root = ekore_root()
    paths = [os.path.join(root, "harmonics", "log_functions.py")]
    paths += [os.path.join(root, AS3_DIR, f + ".py") for f in AS3_FILES]
    funcs = {}
    for p in paths:
        funcs.update(_function_defs(p))
    base = {"n": alg.e_n(), "nf": alg.e_atom("nf"), "L": alg.e_atom("L")}
    calls = {}

    def callable_of(fd):
        params = [a.arg for a in fd.args.args]
        return lambda *args: alg.Evaluator(base, calls).run(fd, dict(zip(params, args)))

    for name, fd in funcs.items():
        calls[name] = callable_of(fd)
    out = {}
    for entry, (fname, extra) in ENTRIES.items():
        fd = funcs[fname]
        params = [a.arg for a in fd.args.args]
        values = [base["n"], "cache", base["nf"], base["L"]] + [alg.e_const(x) for x in extra]
        out[entry] = alg.e_cancel(alg.Evaluator(base, calls).run(fd, dict(zip(params, values))))
    rel = [os.path.relpath(p, os.path.dirname(root)) for p in paths]
    return out, rel
