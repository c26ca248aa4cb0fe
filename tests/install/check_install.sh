#!/usr/bin/env bash
# `make test-install`: installs ekoc into scratch prefixes and checks what a C
# user (and a Python user) gets, then that `make uninstall` takes it all back.
#
#  1. `make install PREFIX=$tmp/prefix` (a prefix that already holds two
#     foreign files): the headers, libekoc.so.M.m.p with its soname and
#     libekoc.so links, libekoc.a, lib/pkgconfig/ekoc.pc; readelf -d shows
#     SONAME libekoc.so.M; `pkg-config --modversion ekoc` is the header's version;
#  2. tests/install/hello_ekoc.c, copied out of the tree, built with nothing but
#     `pkg-config --cflags --libs ekoc` plus -Wl,-rpath,<pkg-config's libdir>
#     (the run has LD_LIBRARY_PATH unset: the rpath finds the library), and
#     with `pkg-config --static --libs ekoc`, -lekoc read as -l:libekoc.a (so
#     the archive, not the .so, is linked); both run and assert their results;
#  3. a second install over the first lists the same files;
#  4. DESTDIR staging with a LIBDIR override: files land under $DESTDIR only,
#     ekoc.pc names the final paths; uninstall empties the staging tree;
#  5. when Python's venv module, pip, numpy and cffi are there: `make
#     install-python` into a scratch venv (pip builds ./ffi in an isolated
#     environment, from PyPI or pip's cache); the package loads its bundled
#     copy of the installed library with EKOC_LIB unset, and `make uninstall`
#     removes it again;
#  6. `make uninstall` leaves exactly the foreign files in the prefix.
# Skips (exit 0, saying why) when pkg-config is missing.
# shellcheck disable=SC2015,SC2016  # `[ a ] && [ b ] || fail` on purpose; '${prefix}' is pkg-config's, not ours
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MAKE=${MAKE:-make}
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
BUILD=${BUILD:-build}
: "${EKOC_VERSION:?run through make test-install}" "${EKOC_SONAME:?run through make test-install}"

if ! command -v pkg-config >/dev/null 2>&1; then
  echo "test-install: SKIPPED: pkg-config not found (scripts/setup.sh installs the Debian package pkg-config)"
  exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ekoc-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }
step() { echo "test-install: $*"; }
# make with only the settings given here (none inherited from a `make VAR=...` above)
run_make() { env -u MAKEFLAGS -u MFLAGS "$MAKE" --no-print-directory -C "$ROOT" BUILD="$BUILD" DESTDIR= PYTHON_INSTALL=0 "$@"; }
listing() { (cd "$1" && find . -mindepth 1 | LC_ALL=C sort); }

prefix="$tmp/prefix"
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
echo "/* not ekoc's */" > "$prefix/include/other.h"
echo "Name: other" > "$prefix/lib/pkgconfig/other.pc"
before=$(listing "$prefix")

# ---- 1. install ----------------------------------------------------------------
step "make install PREFIX=$prefix"
run_make install PREFIX="$prefix" > "$tmp/install.log" || { cat "$tmp/install.log"; fail "make install"; }
lib="$prefix/lib"
for f in include/ekoc.h include/ekore.h lib/libekoc.a lib/pkgconfig/ekoc.pc "lib/libekoc.so.$EKOC_VERSION" \
         share/ekoc/install_manifest.txt; do
  [ -f "$prefix/$f" ] && [ ! -L "$prefix/$f" ] || fail "$prefix/$f is not an installed file"
done
for h in "$ROOT"/include/ekoc/*.h; do
  cmp -s "$h" "$prefix/include/ekoc/$(basename "$h")" || fail "include/ekoc/$(basename "$h") not installed"
done
[ "$(readlink "$lib/$EKOC_SONAME")" = "libekoc.so.$EKOC_VERSION" ] || fail "$lib/$EKOC_SONAME is not a link to libekoc.so.$EKOC_VERSION"
[ "$(readlink "$lib/libekoc.so")" = "$EKOC_SONAME" ] || fail "$lib/libekoc.so is not a link to $EKOC_SONAME"
soname=$(readelf -d "$lib/libekoc.so.$EKOC_VERSION" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[ "$soname" = "$EKOC_SONAME" ] || fail "SONAME is '$soname', expected $EKOC_SONAME"
step "SONAME $soname; links $EKOC_SONAME -> libekoc.so.$EKOC_VERSION, libekoc.so -> $EKOC_SONAME"

export PKG_CONFIG_PATH="$lib/pkgconfig"
modversion=$(pkg-config --modversion ekoc)
[ "$modversion" = "$EKOC_VERSION" ] || fail "pkg-config --modversion ekoc is $modversion, include/ekoc.h says $EKOC_VERSION"
pc_libdir=$(pkg-config --variable=libdir ekoc)
[ "$pc_libdir" = "$lib" ] || fail "ekoc.pc libdir is $pc_libdir, expected $lib"

# ---- 2. a C program built with pkg-config only ------------------------------------------
cp "$ROOT/tests/install/hello_ekoc.c" "$tmp/hello_ekoc.c"
expect_output() {  # binary: runs it without LD_LIBRARY_PATH, checks the version line
  local out
  out=$(cd "$tmp" && env -u LD_LIBRARY_PATH -u EKOC_LIB "$1") || fail "$1 failed: $out"
  [ "$(head -1 <<< "$out")" = "ekoc $EKOC_VERSION" ] || fail "$1 printed '$(head -1 <<< "$out")'"
  sed 's/^/    /' <<< "$out"
}
cflags=$(pkg-config --cflags ekoc)
libs=$(pkg-config --libs ekoc)
step "shared: $CC hello_ekoc.c $cflags $libs -Wl,-rpath,$pc_libdir"
# shellcheck disable=SC2086  # pkg-config's output is a list of flags
"$CC" -std=c11 "$tmp/hello_ekoc.c" -o "$tmp/hello_shared" $cflags $libs -Wl,-rpath,"$pc_libdir"
readelf -d "$tmp/hello_shared" | grep -q "(NEEDED).*\[$EKOC_SONAME\]" || fail "hello_shared does not need $EKOC_SONAME"
resolved=$(env -u LD_LIBRARY_PATH ldd "$tmp/hello_shared" | awk -v so="$EKOC_SONAME" '$1 == so { print $3 }')
[ "$resolved" = "$lib/$EKOC_SONAME" ] || fail "hello_shared loads $EKOC_SONAME from '$resolved', not from $lib"
expect_output "$tmp/hello_shared"

static_libs=$(pkg-config --static --libs ekoc)
static_libs=$(sed -e 's/\(^\|[[:space:]]\)-lekoc\([[:space:]]\|$\)/\1-l:libekoc.a\2/' <<< "$static_libs")
step "static: $CC hello_ekoc.c $cflags $static_libs"
# shellcheck disable=SC2086
"$CC" -std=c11 "$tmp/hello_ekoc.c" -o "$tmp/hello_static" $cflags $static_libs
if readelf -d "$tmp/hello_static" | grep -q "(NEEDED).*libekoc"; then fail "hello_static still needs libekoc.so"; fi
expect_output "$tmp/hello_static"

# ---- 3. reinstall ----------------------------------------------------------------------------
manifest="$prefix/share/ekoc/install_manifest.txt"
first=$(grep -v '^#' "$manifest" | LC_ALL=C sort)
run_make install PREFIX="$prefix" > "$tmp/install2.log" || { cat "$tmp/install2.log"; fail "second make install"; }
[ "$(grep -v '^#' "$manifest" | LC_ALL=C sort)" = "$first" ] || fail "a second install lists other files than the first"
step "reinstall: same $(grep -c -E '^(file|link) ' "$manifest") files"

# ---- 4. DESTDIR staging with LIBDIR ----------------------------------------------------------------
stage="$tmp/stage"
final="/opt/ekoc-stage-test-$$"
run_make install DESTDIR="$stage" PREFIX="$final" LIBDIR="$final/lib64" > "$tmp/stage.log" \
  || { cat "$tmp/stage.log"; fail "make install DESTDIR"; }
[ ! -e "$final" ] || fail "a DESTDIR install wrote to $final"
[ -f "$stage$final/lib64/libekoc.so.$EKOC_VERSION" ] && [ -f "$stage$final/lib64/pkgconfig/ekoc.pc" ] \
  || fail "DESTDIR install: no library or ekoc.pc under $stage$final/lib64"
grep -qx "prefix=$final" "$stage$final/lib64/pkgconfig/ekoc.pc" && grep -qx 'libdir=${prefix}/lib64' "$stage$final/lib64/pkgconfig/ekoc.pc" \
  || fail "DESTDIR install: ekoc.pc does not name the final paths: $(cat "$stage$final/lib64/pkgconfig/ekoc.pc")"
run_make uninstall DESTDIR="$stage" PREFIX="$final" > "$tmp/unstage.log" || { cat "$tmp/unstage.log"; fail "make uninstall DESTDIR"; }
[ -z "$(listing "$stage")" ] || fail "DESTDIR uninstall left: $(listing "$stage" | tr '\n' ' ')"
step "DESTDIR=$stage PREFIX=$final LIBDIR=$final/lib64: staged, ekoc.pc with final paths, uninstalled to empty"

# ---- 5. the Python package ----------------------------------------------------------------------
venv="$tmp/venv"
# a bare venv that sees the base interpreter's packages: numpy and cffi (hence
# --no-deps) and pip itself, which installs into the venv (sys.prefix)
if "$PYTHON" -m venv --without-pip --system-site-packages "$venv" > "$tmp/venv.log" 2>&1 \
   && "$venv/bin/python" -c 'import pip, numpy, cffi' >> "$tmp/venv.log" 2>&1; then
  run_make install-python PREFIX="$prefix" PYTHON="$venv/bin/python" PIP_FLAGS="-q --no-deps" > "$tmp/py.log" 2>&1 \
    || { cat "$tmp/py.log"; fail "make install-python (pip builds ./ffi in an isolated environment: it needs PyPI or pip's cache)"; }
  py_check='
import pathlib, sys, numpy as np, ekoc
venv = pathlib.Path(sys.argv[1]).resolve()
lib = pathlib.Path(ekoc.library_path()).resolve()
assert venv in lib.parents, f"loaded {lib}, not the copy in {venv}"
assert lib.read_bytes() == pathlib.Path(sys.argv[2]).read_bytes(), f"{lib} differs from the installed library"
g = complex(np.asarray(ekoc.gamma_ns(1, 10101, np.array([2.0 + 0j]), 4)).ravel()[0])
assert abs(g - 32 / 9) < 1e-13, g
print(f"    python: {lib} (a copy of {sys.argv[2]}), gamma_ns0(2) = {g.real:.15f}")
'
  (cd "$tmp" && env -u EKOC_LIB -u PYTHONPATH "$venv/bin/python" -c "$py_check" "$venv" "$lib/libekoc.so.$EKOC_VERSION") \
    || fail "the installed Python package does not load the installed library"
  step "install-python: ekoc in $venv with its copy of the installed library"
else
  step "python part SKIPPED: no venv with pip, numpy and cffi from $PYTHON ($(tail -1 "$tmp/venv.log"))"
  venv=""
fi

# ---- 6. uninstall -------------------------------------------------------------------------------
step "make uninstall PREFIX=$prefix"
run_make uninstall PREFIX="$prefix" > "$tmp/uninstall.log" || { cat "$tmp/uninstall.log"; fail "make uninstall"; }
after=$(listing "$prefix")
[ "$after" = "$before" ] || fail "after uninstall the prefix holds: $(tr '\n' ' ' <<< "$after") (expected: $(tr '\n' ' ' <<< "$before"))"
if [ -n "$venv" ]; then
  if "$venv/bin/python" -m pip show ekoc > /dev/null 2>&1; then fail "ekoc is still installed in $venv"; fi
  step "uninstall removed the Python package from $venv"
fi
step "passed: the prefix holds only its two foreign files again"
