"""pytest setup for ffi/tests: the ekoc package is imported from this
checkout (ffi/) unless an installed one is asked for with EKOC_TEST_INSTALLED=1,
and the library comes from EKOC_LIB (set by `make test`) or build/libekoc.so."""

import os
import pathlib
import sys

FFI = pathlib.Path(__file__).resolve().parents[1]
HERE = pathlib.Path(__file__).resolve().parent
_installed = os.environ.get("EKOC_TEST_INSTALLED") or "0"
if _installed not in ("0", "1"):
    raise ValueError(f"EKOC_TEST_INSTALLED={_installed!r}: the environment variable EKOC_TEST_INSTALLED must be "
                     "'0' (test the checkout's ffi/ekoc, the default) or '1' (test the installed package)")
if _installed == "0":
    sys.path.insert(0, str(FFI))
sys.path.insert(0, str(HERE))

import pytest  # noqa: E402

import eko_values  # noqa: E402

LIVE_ONLY = "eko itself runs here (minutes of numba compilation on a cold cache): `make test-eko` runs it"


def pytest_configure(config):
    config.addinivalue_line("markers", "eko_values: compares with eko's values, stored (make test) or computed "
                            "now (make test-eko, EKOC_TEST_EKO=live); eko_values.py")
    config.addinivalue_line("markers", f"eko_live: {LIVE_ONLY}; skipped unless EKOC_TEST_EKO=live or record")
    if eko_values.MODE != "stored":
        try:
            import eko
        except ImportError as exc:
            raise pytest.UsageError(f"EKOC_TEST_EKO={eko_values.MODE} needs eko {eko_values.EKO_VERSION}: {exc}")
        if eko.__version__ != eko_values.EKO_VERSION:
            raise pytest.UsageError(f"EKOC_TEST_EKO={eko_values.MODE}: eko {eko.__version__} is installed, the "
                                    f"stored values and the tests are eko {eko_values.EKO_VERSION}'s")


def pytest_collection_modifyitems(config, items):
    """Tests of a module holding an eko_values.Store are eko_values; eko_live
    tests skip unless eko runs (EKOC_TEST_EKO=live or record)."""
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and any(isinstance(v, eko_values.Store) for v in vars(module).values()):
            item.add_marker(pytest.mark.eko_values)
        if eko_values.MODE == "stored" and item.get_closest_marker("eko_live"):
            item.add_marker(pytest.mark.skip(reason=LIVE_ONLY))


def pytest_sessionfinish(session, exitstatus):
    """A record run (gen_eko_values.py) writes its stores when every test passed."""
    if eko_values.MODE != "record":
        return
    recorded = [s for s in eko_values.STORES if s._recorded]
    if exitstatus != 0:
        print(f"\neko_values: the run failed (exit {exitstatus}); no file written", file=sys.stderr)
        return
    for store in recorded:
        count, size = store.save()
        print(f"\neko_values: {store.path.name}: {count} values, {size / 1024:.0f} KiB", file=sys.stderr)
