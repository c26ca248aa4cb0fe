"""Writes data/eko_values_<store>.npz, eko's values for the side-by-side tests
that read them (eko_values.py), by running those tests with eko computing
every value (EKOC_TEST_EKO=record); a file is written only when its whole run
passed, and then holds exactly the values the tests asked for.

    python ffi/tests/gen_eko_values.py [test_module.py ...]

Without arguments every module holding an eko_values.Store is run (pytest -m
eko_values); with arguments only those (whole modules: a file keeps only
what its run recorded). Needs eko 0.15.7 (the version is stored in each file
and checked on reading), pineko 0.6.0 for test_pineko.py, and the library
($EKOC_LIB or build/libekoc.so). On a cold numba cache eko's compilation takes
about 15 minutes on 2 cores; with the cache warm, about a minute.

The operators of test_solve_vs_eko.py have their own generator,
gen_eko_reference.py.
"""

import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main(argv):
    targets = [str(HERE / name) for name in argv] or [str(HERE), "-m", "eko_values"]
    env = dict(os.environ, EKOC_TEST_EKO="record")
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *targets]
    print("gen_eko_values:", " ".join(cmd), flush=True)
    return subprocess.run(cmd, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
