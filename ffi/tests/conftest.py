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
