#!/usr/bin/env bash
# Installs and uninstalls ekoc; called by `make install`, `make install-python`,
# `make uninstall` and `make uninstall-python` (see README.md "Installing").
#
#   scripts/install.sh install | install-python | uninstall | uninstall-python
#
# Settings come from the environment (the Makefile passes them):
#   PREFIX      installation prefix, absolute (make's default /usr/local)
#   LIBDIR      where the libraries and pkgconfig/ go (default $PREFIX/lib)
#   INCLUDEDIR  where ekoc.h, ekore.h and ekoc/ go (default $PREFIX/include)
#   DESTDIR     staging root for packagers: files land in $DESTDIR$PREFIX/...,
#               while the paths written into ekoc.pc are the final ones
#   BUILD       the build folder holding libekoc.so and libekoc.a (build)
#   EKOC_VERSION, EKOC_SONAME   from include/ekoc.h (computed by the Makefile)
#   PYTHON, PIP_FLAGS           for install-python: the interpreter whose
#               environment receives the package, extra `pip install` flags
#
# What `install` puts in place is listed in
# $PREFIX/share/ekoc/install_manifest.txt, one "kind path" line each (kind:
# file, link, or dir for a folder that install created), paths without
# DESTDIR. `uninstall` removes exactly those files and links, then those
# folders when they are empty, and nothing else. A second `install` first
# removes the files of the first (a version change leaves no stale library)
# and keeps the folders the first one created on its list.
# `install-python` records the interpreter and the package's location in
# $PREFIX/share/ekoc/python_install.txt; `uninstall` runs `pip uninstall ekoc`
# with that interpreter when the package is still the one installed there.
# shellcheck disable=SC2015,SC2016  # `[ a ] && [ b ] || die` on purpose; '${prefix}' is pkg-config's, not ours
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ACTION=${1:-}
PREFIX=${PREFIX:-/usr/local}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
DESTDIR=${DESTDIR:-}
BUILD=${BUILD:-build}
PYTHON=${PYTHON:-python3}
PIP_FLAGS=${PIP_FLAGS:-}

die() { echo "install.sh: $*" >&2; exit 1; }

for name in PREFIX LIBDIR INCLUDEDIR; do
  value=${!name}
  [ "${value#/}" != "$value" ] || die "$name must be an absolute path (got '$value')"
  # one spelling per folder, so the manifest and ekoc.pc name paths one way
  value=$(printf '%s' "$value" | sed -e 's#//*#/#g' -e 's#\(.\)/$#\1#')
  printf -v "$name" '%s' "$value"
done
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac

SHARE_DIR="$PREFIX/share/ekoc"
MANIFEST="$SHARE_DIR/install_manifest.txt"
PY_MANIFEST="$SHARE_DIR/python_install.txt"

# ---- the manifest --------------------------------------------------------------
# Entries recorded so far by this run; written to the manifest as they happen,
# so that an install that stops half-way can still be uninstalled.
record() { printf '%s %s\n' "$1" "$2" >> "$DESTDIR$MANIFEST"; }

# Folders this run creates, outermost first (recorded once the manifest exists).
declare -a created_dirs=()
make_dir() {
  local dir=$1 missing=() d=$1
  while [ "$d" != / ] && [ ! -d "$DESTDIR$d" ]; do
    missing=("$d" "${missing[@]}")
    d=$(dirname "$d")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  mkdir -p "$DESTDIR$dir"
  for d in "${missing[@]}"; do
    if [ -e "$DESTDIR$MANIFEST" ]; then record dir "$d"; else created_dirs+=("$d"); fi
  done
}

install_file() {  # mode source destination
  install -m "$1" "$2" "$DESTDIR$3"
  record file "$3"
}

install_link() {  # target destination (a relative link, as ldconfig makes them)
  ln -sfn "$1" "$DESTDIR$2"
  record link "$2"
}

# Removes the files and links of a manifest; prints its dir entries (to keep).
remove_listed_files() {
  local kind path
  while read -r kind path; do
    case "$kind" in
      file|link) if [ -f "$DESTDIR$path" ] || [ -L "$DESTDIR$path" ]; then rm -f "$DESTDIR$path"; fi ;;
      dir) printf '%s\n' "$path" ;;
      ''|\#*) ;;
      *) echo "install.sh: $1: unknown entry '$kind $path' left alone" >&2 ;;
    esac
  done < "$1"
}

# ---- pkg-config file -------------------------------------------------------------
# A path under the prefix is written relative to ${prefix}, as pkg-config
# files usually are; any other path literally.
under_prefix() { case "$1" in "$PREFIX"/*) printf '${prefix}/%s' "${1#"$PREFIX"/}" ;; *) printf '%s' "$1" ;; esac; }

# a path as the replacement text of sed's s|...|...|
sed_escape() { printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'; }

write_pc() {
  local requires libs
  # GSL through its own pkg-config file when it has one (Debian's libgsl-dev
  # does); otherwise its libraries by name
  if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists gsl; then
    requires="gsl"; libs="-lm -lpthread -ldl -fopenmp"
  else
    requires=""; libs="-lgsl -lgslcblas -lm -lpthread -ldl -fopenmp"
  fi
  sed -e "s|@prefix@|$(sed_escape "$PREFIX")|" -e "s|@libdir@|$(sed_escape "$(under_prefix "$LIBDIR")")|" \
      -e "s|@includedir@|$(sed_escape "$(under_prefix "$INCLUDEDIR")")|" -e "s|@version@|$EKOC_VERSION|" \
      -e "s|@requires_private@|$requires|" -e "s|@libs_private@|$libs|" "$ROOT/scripts/ekoc.pc.in" > "$1"
}

# ---- install -----------------------------------------------------------------------
do_install() {
  : "${EKOC_VERSION:?set by the Makefile from include/ekoc.h}" "${EKOC_SONAME:?set by the Makefile}"
  local so="$BUILD/libekoc.so" archive="$BUILD/libekoc.a" soname
  [ -f "$so" ] && [ -f "$archive" ] || die "$so or $archive missing: run 'make lib' first"
  if command -v readelf >/dev/null 2>&1; then
    soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
    [ "$soname" = "$EKOC_SONAME" ] || die "$so has soname '$soname', not $EKOC_SONAME: rebuild with 'make lib'"
  fi

  local kept_dirs=()
  if [ -f "$DESTDIR$MANIFEST" ]; then
    echo "install.sh: replacing the install listed in $DESTDIR$MANIFEST"
    mapfile -t kept_dirs < <(remove_listed_files "$DESTDIR$MANIFEST")
    rm -f "$DESTDIR$MANIFEST"
  fi

  make_dir "$SHARE_DIR"
  { echo "# ekoc $EKOC_VERSION: what 'make install' put here (paths without DESTDIR); 'make uninstall' reads it"
    for d in ${kept_dirs[@]+"${kept_dirs[@]}"} ${created_dirs[@]+"${created_dirs[@]}"}; do echo "dir $d"; done
  } > "$DESTDIR$MANIFEST"

  make_dir "$INCLUDEDIR/ekoc"
  install_file 644 "$ROOT/include/ekoc.h" "$INCLUDEDIR/ekoc.h"
  install_file 644 "$ROOT/include/ekore.h" "$INCLUDEDIR/ekore.h"
  local header
  for header in "$ROOT"/include/ekoc/*.h; do
    install_file 644 "$header" "$INCLUDEDIR/ekoc/$(basename "$header")"
  done

  # libekoc.so.M.m.p (the file), libekoc.so.M (its soname, what programs
  # load), libekoc.so (what -lekoc finds at link time)
  make_dir "$LIBDIR/pkgconfig"
  install_file 755 "$so" "$LIBDIR/libekoc.so.$EKOC_VERSION"
  install_link "libekoc.so.$EKOC_VERSION" "$LIBDIR/$EKOC_SONAME"
  install_link "$EKOC_SONAME" "$LIBDIR/libekoc.so"
  install_file 644 "$archive" "$LIBDIR/libekoc.a"
  # the gpu backend loads libekoc_cuda.so from the folder of libekoc.so
  if [ -f "$BUILD/libekoc_cuda.so" ]; then install_file 755 "$BUILD/libekoc_cuda.so" "$LIBDIR/libekoc_cuda.so"; fi

  write_pc "$DESTDIR$LIBDIR/pkgconfig/ekoc.pc"
  chmod 644 "$DESTDIR$LIBDIR/pkgconfig/ekoc.pc"
  record file "$LIBDIR/pkgconfig/ekoc.pc"

  echo "install.sh: ekoc $EKOC_VERSION installed in ${DESTDIR:+$DESTDIR}$PREFIX ($(grep -c -E '^(file|link) ' "$DESTDIR$MANIFEST") files)"
  if [ -z "$DESTDIR" ]; then
    echo "install.sh: build with: PKG_CONFIG_PATH=$LIBDIR/pkgconfig pkg-config --cflags --libs ekoc"
    echo "install.sh: at run time the loader must find $LIBDIR/$EKOC_SONAME: run ldconfig (as root) when"
    echo "            $LIBDIR is in /etc/ld.so.conf, or link with -Wl,-rpath,$LIBDIR, or set LD_LIBRARY_PATH"
  fi
}

# ---- Python package ------------------------------------------------------------------
do_install_python() {
  [ -z "$DESTDIR" ] || die "install-python installs into a live Python environment and does not stage into DESTDIR; packagers build the wheel with 'pip wheel ./ffi'"
  : "${EKOC_VERSION:?set by the Makefile from include/ekoc.h}"
  local lib="$LIBDIR/libekoc.so.$EKOC_VERSION" exe location
  [ -f "$MANIFEST" ] && [ -f "$lib" ] || die "no installed library at $lib: run 'make install PREFIX=$PREFIX' first"
  exe=$("$PYTHON" -c 'import sys; print(sys.executable)') || die "cannot run PYTHON=$PYTHON"
  echo "install.sh: pip install ./ffi into $exe's environment, bundling $lib"
  # ffi/setup.py copies the file named by EKOC_LIB into the package (ekoc/lib/libekoc.so)
  # shellcheck disable=SC2086  # PIP_FLAGS is a list of flags
  (cd "$ROOT" && EKOC_LIB="$lib" EKOC_BUNDLE_LIB=1 "$exe" -m pip install $PIP_FLAGS ./ffi)
  location=$("$exe" -m pip show ekoc 2>/dev/null | sed -n 's/^Location: //p')
  [ -n "$location" ] || die "pip installed ekoc where $exe does not see it (PIP_FLAGS=$PIP_FLAGS): not recorded"
  cmp -s "$lib" "$location/ekoc/lib/libekoc.so" || die "$location/ekoc/lib/libekoc.so is not a copy of $lib"
  printf 'python %s\nlocation %s\n' "$exe" "$location" > "$PY_MANIFEST"
  echo "install.sh: Python package ekoc in $location (library: its copy of $lib)"
}

do_uninstall_python() {  # argument quiet: say nothing when no package is recorded
  if [ ! -f "$DESTDIR$PY_MANIFEST" ]; then
    [ "${1:-}" = quiet ] || echo "install.sh: no Python package recorded in $DESTDIR$PY_MANIFEST"
    return 0
  fi
  local exe location now
  exe=$(sed -n 's/^python //p' "$DESTDIR$PY_MANIFEST")
  location=$(sed -n 's/^location //p' "$DESTDIR$PY_MANIFEST")
  if [ ! -x "$exe" ]; then
    echo "install.sh: the Python that received ekoc ($exe) is gone; nothing to uninstall there" >&2
  else
    now=$("$exe" -m pip show ekoc 2>/dev/null | sed -n 's/^Location: //p' || true)
    if [ "$now" = "$location" ]; then
      "$exe" -m pip uninstall -y -q ekoc
      echo "install.sh: Python package ekoc removed from $location"
    elif [ -n "$now" ]; then
      echo "install.sh: ekoc in $exe's environment is now at $now, not at $location (installed since): left alone" >&2
    else
      echo "install.sh: ekoc is no longer installed in $exe's environment" >&2
    fi
  fi
  rm -f "$DESTDIR$PY_MANIFEST"
}

# ---- uninstall -------------------------------------------------------------------------
do_uninstall() {
  [ -f "$DESTDIR$MANIFEST" ] || die "no manifest at $DESTDIR$MANIFEST: nothing installed there by 'make install' (same PREFIX and DESTDIR?)"
  do_uninstall_python quiet
  local n dirs d
  n=$(grep -c -E '^(file|link) ' "$DESTDIR$MANIFEST" || true)
  mapfile -t dirs < <(remove_listed_files "$DESTDIR$MANIFEST")
  rm -f "$DESTDIR$MANIFEST"
  # the folders install created, innermost first, when nothing else lives there
  while IFS= read -r d; do
    [ -n "$d" ] || continue
    if [ -d "$DESTDIR$d" ] && ! rmdir "$DESTDIR$d" 2>/dev/null; then
      echo "install.sh: kept $DESTDIR$d (holds files ekoc did not install)"
    fi
  done < <(printf '%s\n' ${dirs[@]+"${dirs[@]}"} | awk '{ print length($0) "\t" $0 }' | sort -rn | cut -f2-)
  echo "install.sh: ekoc removed from ${DESTDIR:+$DESTDIR}$PREFIX ($n files)"
}

case "$ACTION" in
  install) do_install ;;
  install-python) do_install_python ;;
  uninstall) do_uninstall ;;
  uninstall-python) do_uninstall_python ;;
  *) die "usage: scripts/install.sh install|install-python|uninstall|uninstall-python" ;;
esac
