"""`pip install ./ffi` works (issue 6): the package installs from this
checkout into a scratch directory, bundles the library that `make` built, and
the installed copy (not the checkout) loads it and evaluates gamma_ns^(0)(N=2)
= 32/9 (docs/physics.md §10)."""

import os
import pathlib
import subprocess
import sys

import pytest

FFI = pathlib.Path(__file__).resolve().parents[1]


def test_pip_install_into_scratch_dir(tmp_path):
    lib = os.environ.get("EKOC_LIB") or str(FFI.parent / "build" / "libekoc.so")
    if not pathlib.Path(lib).is_file():
        pytest.skip(f"no built library at {lib}: run make first")
    target = tmp_path / "site"
    env = dict(os.environ)
    env["EKOC_LIB"] = lib  # the build step bundles this file
    env.pop("EKOC_BUNDLE_LIB", None)
    run = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps",
         "--target", str(target), str(FFI)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    code = (
        "import ekoc, pathlib, numpy as np\n"
        "p = pathlib.Path(ekoc.__file__).resolve()\n"
        f"assert pathlib.Path({str(target)!r}).resolve() in p.parents, p\n"
        "g = ekoc.gamma_ns(1, 10101, np.array([2.0 + 0j]), 4)\n"
        "assert abs(complex(np.asarray(g).ravel()[0]) - 32 / 9) < 1e-13, g\n"
        "print(ekoc.library_path())\n"
    )
    env.pop("EKOC_LIB")  # the installed package must find its bundled copy
    env["PYTHONPATH"] = str(target)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert str(target.resolve()) in str(pathlib.Path(out.stdout.strip()).resolve())
