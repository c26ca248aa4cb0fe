"""eko's values for the side-by-side tests: computed by eko now, or read from
data/eko_values_<store>.npz, files written once by gen_eko_values.py.

eko compiles its numba code on first use: on a cold cache (a fresh machine, a
new clone with NUMBA_CACHE_DIR empty) the unpolarised OMEs alone take 12
minutes on 2 cores and one eko.solve 7 (perf/STATS.md, issue 33). So the tests
ask a Store for eko's values, and EKOC_TEST_EKO says where they come from:

    stored  (default, `make test`)   from the file; eko need not be installed
    live    (`make test-eko`)        eko computes each value now; it must equal the
                                     stored one (a stale file fails) and the tests
                                     marked eko_live (eko itself runs) run too
    record  (gen_eko_values.py)      eko computes each value; the files are rewritten
                                     when the whole run passed

A value is found by its key: the eko function's dotted name and its arguments
(``store.module("ekore....").gamma_ns(order, mode, n, nf, var)``), or a tuple
the test builds for a composite computation (``store.value(key, compute)``).
A key missing from the file fails the test, naming gen_eko_values.py. An
exception eko raised is stored by its type name and raised again: builtin
types as themselves, others as StoredEkoError.

conftest.py marks every test of a module that holds a Store eko_values, which
is what `make test-eko` selects besides eko_live.
"""

import builtins
import importlib
import json
import os
import pathlib

import numpy as np
import pytest

DATA = pathlib.Path(__file__).resolve().parent / "data"
EKO_VERSION = "0.15.7"
MODES = ("stored", "live", "record")
MODE = os.environ.get("EKOC_TEST_EKO") or "stored"
if MODE not in MODES:
    raise ValueError(f"EKOC_TEST_EKO={MODE!r}: the environment variable EKOC_TEST_EKO must be one of {MODES}")
#: live value against stored one: |live - stored| <= rtol * max|stored| (numba's bits may
#: differ by a few ulps on another CPU; the tests' own tolerances are 1e-12 and wider)
DEFAULT_RTOL = 1e-13

#: every Store made in this process (conftest.py writes them at the end of a record run)
STORES = []


class StoredEkoError(Exception):
    """An exception eko raised when the value was recorded, of a type that is not builtin."""


def _canonical(x):
    """The argument as plain Python values, so that its repr is a stable key
    (floats and complex numbers repr exactly)."""
    if isinstance(x, np.ndarray):
        return ("ndarray", x.shape, tuple(_canonical(v) for v in x.reshape(-1).tolist()))
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, (tuple, list)):
        return tuple(_canonical(v) for v in x)
    if isinstance(x, dict):
        return tuple((k, _canonical(v)) for k, v in sorted(x.items()))
    if x is None or isinstance(x, (bool, int, float, complex, str)):
        return x
    raise TypeError(f"eko_values: cannot make a key of {type(x).__name__} {x!r}")


def _key(key):
    return repr(_canonical(key))


def _encode(value, pools):
    """A JSON node for value; its numbers go into pools (one flat array per dtype)."""
    if isinstance(value, str):
        return {"str": value}
    if isinstance(value, (tuple, list)):
        return {"seq": [_encode(v, pools) for v in value], "tuple": isinstance(value, tuple)}
    if isinstance(value, dict):
        return {"dict": {str(k): _encode(v, pools) for k, v in value.items()}}
    arr = np.asarray(value)
    if arr.dtype == object or arr.dtype.kind not in "biufc":
        raise TypeError(f"eko_values: cannot store {type(value).__name__}")
    pool = pools.setdefault(arr.dtype.str, [])
    offset = sum(a.size for a in pool)
    pool.append(arr.reshape(-1))
    return {"dtype": arr.dtype.str, "offset": offset, "shape": list(arr.shape),
            "scalar": not isinstance(value, np.ndarray)}


def _decode(node, pools):
    if "str" in node:
        return node["str"]
    if "seq" in node:
        items = [_decode(v, pools) for v in node["seq"]]
        return tuple(items) if node["tuple"] else items
    if "dict" in node:
        return {k: _decode(v, pools) for k, v in node["dict"].items()}
    size = int(np.prod(node["shape"], dtype=np.int64))
    # a copy: a test changing what it was given must not change the stored value
    arr = pools[node["dtype"]][node["offset"]:node["offset"] + size].reshape(node["shape"]).copy()
    return arr[()] if node["scalar"] else arr


def _differences(live, stored, rtol, where="value"):
    """What differs between eko's value now and the stored one (empty: none)."""
    if isinstance(stored, str) or isinstance(live, str):
        return [] if live == stored else [f"{where}: {live!r} now, {stored!r} stored"]
    if isinstance(stored, dict):
        if not isinstance(live, dict) or set(live) != set(stored):
            return [f"{where}: fields {sorted(live) if isinstance(live, dict) else type(live)} now, "
                    f"{sorted(stored)} stored"]
        return [d for k in stored for d in _differences(live[k], stored[k], rtol, f"{where}[{k!r}]")]
    if isinstance(stored, (tuple, list)):
        if not isinstance(live, (tuple, list)) or len(live) != len(stored):
            return [f"{where}: a {type(live).__name__} now, {len(stored)} items stored"]
        return [d for k, (a, b) in enumerate(zip(live, stored)) for d in _differences(a, b, rtol, f"{where}[{k}]")]
    a, b = np.asarray(live), np.asarray(stored)
    if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
        return [f"{where}: {a.dtype}{a.shape} now, {b.dtype}{b.shape} stored"]
    if a.dtype.kind not in "fc":
        return [] if np.array_equal(a, b) else [f"{where}: {a} now, {b} stored"]
    scale = float(np.nanmax(np.abs(b))) if b.size and not np.all(np.isnan(b)) else 0.0
    off = ~((np.abs(a - b) <= rtol * scale) | (np.isnan(a) & np.isnan(b)))
    if not off.any():
        return []
    return [f"{where}: {np.count_nonzero(off)} of {a.size} entries beyond {rtol:g} x max|stored| ({scale:.3g}), "
            f"first now {a[off][:2]}, stored {b[off][:2]}"]


def _resolve(dotted):
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


class _Module:
    """Stands for an eko module: its functions give the store's values."""

    def __init__(self, store, dotted):
        self._store, self._dotted = store, dotted

    def __getattr__(self, name):
        if name.startswith("_"):  # not eko's functions (pytest and inspect probe dunders)
            raise AttributeError(name)
        qualname = f"{self._dotted}.{name}"

        def call(*args, rtol=DEFAULT_RTOL):
            return self._store.value((qualname, *args), lambda: _resolve(qualname)(*args), rtol=rtol)

        call.__name__ = name
        return call


class Store:
    """eko's values for one test module, in data/eko_values_<name>.npz."""

    def __init__(self, name):
        self.name = name
        self.path = DATA / f"eko_values_{name}.npz"
        self._stored = None
        self._recorded = {}
        STORES.append(self)

    def module(self, dotted):
        """A stand-in for eko's module `dotted`: store.module("ekore.x").f(*args)
        is f(*args) of eko's ekore.x, live or stored."""
        return _Module(self, dotted)

    def value(self, key, compute, rtol=DEFAULT_RTOL):
        """eko's value under `key`: compute() (live, record) or the stored one."""
        k = _key(key)
        if MODE == "stored":
            return self._replay(self._entry(k))
        try:
            live, raised = compute(), None
        except Exception as exc:  # noqa: BLE001 (eko's refusals are values too)
            live, raised = None, exc
        if MODE == "record":
            self._recorded[k] = (live, raised)
        else:
            self._check_live(k, live, raised, rtol)
        if raised is not None:
            raise raised
        return live

    # ---- the file -----------------------------------------------------------------
    def _load(self):
        if self._stored is None:
            if not self.path.exists():
                pytest.fail(f"{self.path} missing: run python ffi/tests/gen_eko_values.py (eko {EKO_VERSION})")
            with np.load(self.path) as f:
                meta = json.loads(str(f["meta"]))
                pools = {dtype: f[f"pool{k}"] for k, dtype in enumerate(meta["pools"])}
            if meta["eko_version"] != EKO_VERSION:
                pytest.fail(f"{self.path} was written with eko {meta['eko_version']}, the tests compare with "
                            f"eko {EKO_VERSION}: run python ffi/tests/gen_eko_values.py")
            self._stored = (meta["entries"], pools)
        return self._stored

    def _entry(self, k):
        entries, pools = self._load()
        if k not in entries:
            pytest.fail(f"{self.path} has no eko value for {k[:300]}: the test asks for a value that was not "
                        "recorded; run python ffi/tests/gen_eko_values.py")
        return entries[k], pools

    @staticmethod
    def _replay(entry):
        node, pools = entry
        if "raises" in node:
            kind = getattr(builtins, node["raises"], None)
            if not (isinstance(kind, type) and issubclass(kind, Exception)):
                kind = StoredEkoError
            raise kind(f"eko raised {node['raises']}: {node['message']} (stored)")
        return _decode(node, pools)

    def _check_live(self, k, live, raised, rtol):
        node, pools = self._entry(k)
        if raised is not None or "raises" in node:
            now = type(raised).__name__ if raised is not None else "a value"
            if node.get("raises") != (type(raised).__name__ if raised is not None else None):
                pytest.fail(f"{self.path}, {k[:200]}: eko gives {now} now, stored {node.get('raises', 'a value')}")
            return
        diff = _differences(live, _decode(node, pools), rtol)
        if diff:
            pytest.fail(f"{self.path}, {k[:200]}: eko's value now is not the stored one "
                        f"(regenerate with gen_eko_values.py if eko changed): " + "; ".join(diff[:5]))

    def save(self):
        """Writes what this record run computed (the file holds exactly those values)."""
        import eko

        pools, entries = {}, {}
        for k, (live, raised) in sorted(self._recorded.items()):
            if raised is not None:
                entries[k] = {"raises": type(raised).__name__, "message": str(raised)[:500]}
            else:
                entries[k] = _encode(live, pools)
        meta = {"eko_version": eko.__version__, "generator": "python ffi/tests/gen_eko_values.py",
                "pools": list(pools), "entries": entries}
        arrays = {f"pool{k}": np.concatenate(pool) for k, pool in enumerate(pools.values())}
        np.savez_compressed(self.path, meta=json.dumps(meta), **arrays)
        return len(entries), self.path.stat().st_size


def eko_file_contents(path):
    """What the side-by-side tests compare of an EKO file, as storable values:
    the cards (JSON), x grid, targets (mu^2, nf) in order, number of
    recipes, operators and errors per target."""
    import eko

    with eko.EKO.read(path) as e:
        targets = sorted(e.evolgrid)
        return {
            "theory": json.dumps(e.theory_card.raw),
            "operator": json.dumps(e.operator_card.raw),
            "xgrid": np.array(e.xgrid.raw, dtype=float),
            "targets": np.array(targets, dtype=float).reshape(-1, 2),
            "recipes": len(list(e.recipes)),
            "operators": np.array([e[ep].operator for ep in targets]),
            "errors": np.array([e[ep].error for ep in targets]),
        }
