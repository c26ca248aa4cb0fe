"""Loading the library and reading the environment (issue 15, finding 5).

EKOC_LIB naming another shared library (libm, libgsl) is an ImportError
naming the path and the first missing symbol, not an AttributeError in the
middle of a call; the accelerator then falls back to eko and says why in
its log line, so an unmodified script still runs. Every environment
variable the package reads is validated with its name and allowed values."""

import os
import pathlib
import subprocess
import sys

import pytest

import ekoc
from ekoc import _env, _lib

FFI = pathlib.Path(__file__).resolve().parents[1]


def _env_with(**changes):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _foreign_library() -> str:
    """A real shared library that is not libekoc: libm (or libgsl) as this process mapped it."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if ".so" in line and line.split()[-1].startswith("/")}
    for stem in ("libm.so", "libgsl.so", "libgcc_s.so"):
        for p in sorted(paths):
            if pathlib.Path(p).name.startswith(stem) and pathlib.Path(p).is_file():
                return p
    pytest.skip("no libm / libgsl mapped in this process")


def _run(code, **env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env_with(**env),
                          timeout=120)


def test_another_shared_library_is_an_import_error_naming_path_and_symbol():
    foreign = _foreign_library()
    code = ("import ekoc\n"
            "try:\n"
            "    ekoc.solve({}, {})\n"
            "except ImportError as exc:\n"
            "    print('ImportError', exc)\n")
    res = _run(code, EKOC_LIB=foreign)
    assert res.returncode == 0, res.stderr
    out = res.stdout.strip()
    assert out.startswith("ImportError") and f"EKOC_LIB={foreign}" in out, out
    assert "does not export the symbol ekoc_" in out, out
    # not a shared library at all, and a missing file: ImportError too
    res = _run("import ekoc\ntry:\n    ekoc.library_path()\nexcept ImportError as exc:\n    print('ImportError', exc)",
               EKOC_LIB=str(FFI / "README.md"))
    assert res.stdout.startswith("ImportError") and "README.md" in res.stdout, res.stdout + res.stderr


def test_every_declared_function_is_checked_on_load():
    lib = _lib.load()
    assert _lib._missing_symbols(lib) == []
    import re

    declared = set(re.findall(r"\b((?:ekoc|ekore)_\w+)\s*\(", _lib.CDEF))
    assert declared == set(dir(lib)), declared ^ set(dir(lib))


SCRIPT = '''
# an unmodified eko user script (LO, 6 points)
import pathlib, sys
import numpy as np
import eko
from ekobox.cards import example

th = example.raw_theory()
op = example.raw_operator()
th["order"] = [1, 0]
th["matching_order"] = [0, 0]
op["init"] = [1.65, 4]
op["mugrid"] = [[10.0, 5]]
op["xgrid"] = np.geomspace(1e-3, 1.0, 6).tolist()
op["configs"]["interpolation_polynomial_degree"] = 2
eko.solve(eko.TheoryCard.from_dict(th), eko.OperatorCard.from_dict(op), pathlib.Path(sys.argv[1]))
with eko.EKO.read(sys.argv[1]) as e:
    print("targets", sorted(e.evolgrid))
'''


@pytest.mark.eko_live  # eko computes the EKO (minutes of numba compilation on a cold cache)
def test_accelerator_falls_back_to_eko_when_the_library_does_not_load(tmp_path):
    pytest.importorskip("eko")
    foreign = _foreign_library()
    script = tmp_path / "user_script.py"
    script.write_text(SCRIPT)
    res = subprocess.run([sys.executable, "-m", "ekoc.accel", str(script), str(tmp_path / "out.tar")],
                         capture_output=True, text=True, env=_env_with(EKOC_LIB=foreign), timeout=600)
    assert res.returncode == 0, res.stderr
    assert "targets [(100.0, 5)]" in res.stdout, res.stdout
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("ekoc.accel:")]
    assert len(lines) == 1, res.stderr
    assert "eko computes this EKO: libekoc could not be loaded" in lines[0] and foreign in lines[0], lines[0]
    assert "does not export the symbol" in lines[0], lines[0]


@pytest.mark.parametrize("name,value", [("EKOC_ACCEL_BACKEND", "batc"), ("EKOC_ACCEL_BACKEND", "Batch"),
                                        ("EKOC_ACCEL", "yes"), ("EKOC_ACCEL", "false"),
                                        ("EKOC_ACCEL_PHYSICS", "Exact"), ("EKOC_ACCEL_PHYSICS", "hoppet")])
def test_accelerator_environment_typos_name_the_variable(name, value, tmp_path, monkeypatch):
    script = tmp_path / "s.py"
    script.write_text("print('ran')\n")
    res = subprocess.run([sys.executable, "-m", "ekoc.accel", str(script)], capture_output=True, text=True,
                         env=_env_with(**{name: value}), timeout=120)
    assert res.returncode == 2 and "ran" not in res.stdout, res.stdout + res.stderr
    assert res.stderr.startswith(f"ekoc.accel: {name}={value!r}:"), res.stderr
    allowed = _env.CHOICES[name][0]
    assert all(repr(a) in res.stderr for a in allowed) and "Traceback" not in res.stderr, res.stderr
    # in process: the same check, as a ValueError naming the variable
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=name) as info:
        _env.choice(name)
    assert isinstance(info.value, ekoc.EkocFieldError) and info.value.field == name


def test_accelerator_hook_checks_the_environment_at_each_call(tmp_path, monkeypatch):
    pytest.importorskip("eko")
    from ekoc import _accel

    import cards

    patched = _accel._make_solve(lambda t, o, p: pytest.fail("eko must not run on a typo"))
    monkeypatch.setenv("EKOC_ACCEL_BACKEND", "gpuu")
    with pytest.raises(ValueError, match="EKOC_ACCEL_BACKEND='gpuu'"):
        patched(*cards.card("lo_ffns"), tmp_path / "x.tar")
    monkeypatch.setenv("EKOC_ACCEL_BACKEND", "")  # empty: the default
    assert _env.choice("EKOC_ACCEL_BACKEND") == "auto"


def test_every_environment_variable_read_is_documented_and_checked():
    """grep os.environ in the package: each variable is in _env's list (or is EKOC_LIB, a path)."""
    import re

    read = set()
    for path in (FFI / "ekoc").glob("*.py"):
        read |= set(re.findall(r"os\.environ(?:\.get)?[\[(]\s*['\"](\w+)['\"]", path.read_text()))
    assert read <= set(_env.CHOICES) | {"EKOC_LIB"}, read
    for name in set(_env.CHOICES) | {"EKOC_LIB"}:
        assert name in (_env.__doc__ or ""), name


def test_installer_and_tests_check_their_variables(tmp_path):
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", str(FFI / "tests" / "cards.py")],
                         capture_output=True, text=True, env=_env_with(EKOC_TEST_INSTALLED="yes"), timeout=120,
                         cwd=tmp_path)
    assert res.returncode != 0 and "EKOC_TEST_INSTALLED='yes'" in res.stdout + res.stderr
    # where the side-by-side tests take eko's values from (eko_values.py): stored, live or record
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", str(FFI / "tests" / "cards.py")],
                         capture_output=True, text=True, env=_env_with(EKOC_TEST_EKO="Live"), timeout=120,
                         cwd=tmp_path)
    assert res.returncode != 0 and "EKOC_TEST_EKO='Live'" in res.stdout + res.stderr, res.stdout + res.stderr
    assert "'stored', 'live', 'record'" in res.stdout + res.stderr
    setup_text = (FFI / "setup.py").read_text()
    assert "EKOC_BUNDLE_LIB={bundle!r}" in setup_text
