"""The Python package's hand copy of the headers (the cffi cdef in
ekoc/_lib.py) against the headers themselves (issue 11):

- every struct of the cdef has the header's fields, in order, with the same
  types, and every field the same offset and size in cffi as in the C
  compiler (a small generated C program prints them);
- every function of the cdef has the header's prototype (return and
  parameter types; names ignored), is declared in include/ and exported by
  the library;
- the package calls no library function its cdef does not declare.

Headers and cdef are read with scripts/public_api.py (the C preprocessor,
then pycparser). Without a C compiler or pycparser the tests skip, saying so.
"""

import pathlib
import re
import subprocess
import sys

import pytest

from ekoc import _lib

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts"))
import public_api  # noqa: E402


def _or_skip(fn, *args):
    try:
        return fn(*args)
    except public_api.Unavailable as exc:
        pytest.skip(f"cannot read the headers: {exc}")


@pytest.fixture(scope="module")
def header():
    return _or_skip(public_api.header_api)


@pytest.fixture(scope="module")
def cdef():
    return _or_skip(lambda: public_api.Api(public_api.parse(_lib.CDEF)))


@pytest.fixture(scope="module")
def c_layout(cdef, tmp_path_factory):
    """{struct: (sizeof, alignof, {field: (offsetof, sizeof)})} as the C compiler lays them out."""
    cc = _or_skip(public_api.compiler)
    lines = []
    for struct, fields in cdef.structs.items():
        t = f"struct {struct}"
        lines.append(f'  printf("%s - %zu %zu\\n", "{struct}", sizeof({t}), _Alignof({t}));')
        for field, _ in fields:
            lines.append(f'  printf("%s %s %zu %zu\\n", "{struct}", "{field}", offsetof({t}, {field}), '
                         f'sizeof((({t} *)0)->{field}));')
    tmp = tmp_path_factory.mktemp("layout")
    src = tmp / "layout.c"
    src.write_text("#include <stddef.h>\n#include <stdio.h>\n#include \"ekoc.h\"\n#include \"ekore.h\"\n"
                   "int main(void) {\n" + "\n".join(lines) + "\n  return 0;\n}\n")
    exe = tmp / "layout"
    build = subprocess.run(cc.split() + ["-std=c11", "-I", str(REPO / "include"), str(src), "-o", str(exe)],
                           capture_output=True, text=True)
    assert build.returncode == 0, f"{cc} could not compile the layout probe:\n{build.stderr}"
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    layout = {}
    for line in out.splitlines():
        struct, field, a, b = line.split()
        if field == "-":
            layout[struct] = (int(a), int(b), {})
        else:
            layout[struct][2][field] = (int(a), int(b))
    return layout


def test_cdef_declares_the_public_structs(cdef):
    # the structs Python fills or reads; a new public struct it needs goes in the cdef
    assert {"ekoc_complex", "ekoc_nspace_config", "ekoc_kernel_args", "ekoc_theory",
            "ekoc_request"} <= set(cdef.structs)


def test_struct_fields_match_the_header(cdef, header):
    for struct, fields in cdef.structs.items():
        assert struct in header.structs, f"struct {struct} of the cdef is not in include/"
        assert fields == header.structs[struct], (
            f"struct {struct}: cdef fields {fields}\n  differ from include/'s {header.structs[struct]}")


def test_struct_layout_matches_the_compiler(cdef, c_layout):
    ffi = _lib.ffi
    for struct, fields in cdef.structs.items():
        size, align, offsets = c_layout[struct]
        t = f"struct {struct}"
        assert (ffi.sizeof(t), ffi.alignof(t)) == (size, align), f"sizeof/alignof {t}"
        cffi_fields = dict(ffi.typeof(t).fields)
        assert list(cffi_fields) == [f for f, _ in fields]
        for field, (offset, fsize) in offsets.items():
            got = (ffi.offsetof(t, field), ffi.sizeof(cffi_fields[field].type))
            assert got == (offset, fsize), f"{struct}.{field}: cffi (offset, size) {got}, C {(offset, fsize)}"


def test_function_prototypes_match_the_header(cdef, header):
    assert cdef.functions, "no function parsed from the cdef"
    for name, proto in cdef.functions.items():
        assert name in header.functions, f"{name} is in the cdef but no header in include/ declares it"
        assert proto == header.functions[name], f"{name}: cdef {proto!r}, include/ {header.functions[name]!r}"


def test_cdef_functions_are_exported():
    lib = _lib.load()
    cdef_api = _or_skip(lambda: public_api.Api(public_api.parse(_lib.CDEF)))
    missing = []
    for name in cdef_api.functions:
        try:
            getattr(lib, name)
        except AttributeError:
            missing.append(name)
    assert not missing, f"{_lib.library_path()} does not export {missing}"


def test_package_calls_only_cdef_functions(cdef):
    used = set()
    for path in (REPO / "ffi" / "ekoc").glob("*.py"):
        used |= set(re.findall(r"\blib\.((?:ekoc|ekore)_\w+)", path.read_text()))
    assert used, "no library call found in ffi/ekoc"
    assert used <= set(cdef.functions), f"called but not in the cdef: {sorted(used - set(cdef.functions))}"


def test_theory_init_with_the_python_layout():
    """ekoc_theory_init / ekoc_request_init accept the cdef's sizeof (what
    ekoc/_solve.py passes) and write struct_size = that size."""
    lib, ffi = _lib.load(), _lib.ffi
    for name, init in (("ekoc_theory", lib.ekoc_theory_init), ("ekoc_request", lib.ekoc_request_init)):
        obj = ffi.new(f"{name} *")
        assert init(obj, ffi.sizeof(name)) == 0, ffi.string(lib.ekoc_last_error())
        assert obj.struct_size == ffi.sizeof(name)
