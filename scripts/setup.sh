#!/usr/bin/env bash
# Installs what a fresh machine lacks to build, test and benchmark ekoc:
# Debian packages (GSL, CMocka, cbindgen, GNU time, clang's sanitizer/fuzzer
# runtime, valgrind, pkg-config) through apt-get and Python packages (numpy, scipy, cffi,
# pytest, eko for side-by-side checks; optionally pineko and dask for the
# client tests) through pip. Only missing pieces are
# installed, so a second run is quick. Called by `make` through a stamp file.
set -euo pipefail

need_apt=()
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for pkg in libgsl-dev libcmocka-dev cbindgen time valgrind clang libclang-rt-14-dev pkg-config; do
  have_pkg "$pkg" || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1 && [ -x "$HOME/.cargo/bin/cargo" ]; then
  export PATH="$HOME/.cargo/bin:$PATH"
fi
command -v cargo >/dev/null 2>&1 || { echo "setup: cargo (Rust) is required but not found" >&2; exit 1; }

PY=${PYTHON:-python3}
need_pip=()
for mod in numpy scipy cffi pytest hypothesis; do
  "$PY" -c "import $mod" 2>/dev/null || need_pip+=("$mod")
done
# eko is used only for side-by-side comparisons; its absence makes those tests skip.
if [ "${EKOC_SKIP_EKO:-0}" != "1" ]; then
  "$PY" -c "import eko" 2>/dev/null || need_pip+=("eko==0.15.7")
fi
if [ ${#need_pip[@]} -gt 0 ]; then
  echo "setup: installing Python packages: ${need_pip[*]}"
  "$PY" -m pip install -q "${need_pip[@]}"
fi
# Optional clients, used only by ffi/tests/test_pineko.py (pineko, which
# brings pineappl; it needs eko), ffi/tests/test_dask.py (dask.distributed)
# and ffi/tests/test_nnpdf_fit.py (NNPDF's evolven3fit: nnpdf[nolha], which
# brings tensorflow, ~1.5 min on a fresh machine; EKOC_INSTALL_NNPDF=0 skips
# it alone). Those tests skip, naming the package, when it is missing, so a
# failed install only warns. EKOC_INSTALL_CLIENTS=0 skips these installs.
if [ "${EKOC_INSTALL_CLIENTS:-1}" = "1" ]; then
  optional=()
  if [ "${EKOC_SKIP_EKO:-0}" != "1" ]; then
    "$PY" -c "import pineko, pineappl" 2>/dev/null || optional+=("pineko==0.6.0")
    if [ "${EKOC_INSTALL_NNPDF:-1}" = "1" ]; then
      "$PY" -c "import evolven3fit, n3fit" 2>/dev/null || optional+=("nnpdf[nolha]==4.1.5")
    fi
  fi
  "$PY" -c "import distributed" 2>/dev/null || optional+=("dask[distributed]")
  # zlib-ng's CRC-32 for the npz inside EKO files (ffi/ekoc/_ekotar.py; zlib's without it)
  "$PY" -c "import zlib_ng" 2>/dev/null || optional+=("zlib-ng")
  for pkg in ${optional[@]+"${optional[@]}"}; do
    echo "setup: installing optional Python package: $pkg"
    "$PY" -m pip install -q "$pkg" ||
      echo "setup: could not install $pkg; the tests that need it will skip" >&2
  done
fi
echo "setup: all dependencies present"
