#!/usr/bin/env python3
"""The public C API as the headers in include/ declare it, read by the C
preprocessor and pycparser (a dependency of cffi), and checks built on it.

    python3 scripts/public_api.py functions            # declared function names
    python3 scripts/public_api.py map > src/ekoc.map   # the linker version script
    python3 scripts/public_api.py check-exports build/libekoc.so

`check-exports` (run by `make test-exports`, part of `make test`) fails when
libekoc.so exports a symbol no header declares (an internal function leaking
out) or a declared function is not exported, and when src/ekoc.map is not
what `map` prints. It skips, saying why, when nm, a C compiler or pycparser
is missing. ffi/tests/test_abi_mirror.py uses the same parser to compare the
Python package's cffi declarations with the headers.

The headers are preprocessed against tiny stand-ins for <stddef.h>,
<stdint.h> and <stdbool.h> (FAKE_STD below) so that pycparser never sees a
system header's compiler extensions; typedef names such as size_t and
int32_t are compared by name, which is what a prototype says.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
INCLUDE = ROOT / "include"
MAP_FILE = ROOT / "src" / "ekoc.map"

# the standard typedefs the public headers use, as names only (sizes are the
# C compiler's business: ffi/tests/test_abi_mirror.py asks it for offsets)
STD_TYPEDEFS = """\
typedef unsigned long size_t;
typedef long ptrdiff_t;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
"""
# every stand-in carries all the typedefs, behind one guard
FAKE_STD = {name: "#ifndef PUBLIC_API_STD\n#define PUBLIC_API_STD\n" + STD_TYPEDEFS
            + "#define NULL ((void *)0)\n#define bool _Bool\n#define true 1\n#define false 0\n#endif\n"
            for name in ("stddef.h", "stdint.h", "stdbool.h")}


class Unavailable(RuntimeError):
    """A tool the check needs (C compiler, nm, pycparser) is missing."""


def compiler() -> str:
    """The C compiler: $CC, else cc, else gcc; Unavailable when none is found."""
    for cand in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cand and shutil.which(cand.split()[0]):
            return cand
    raise Unavailable("no C compiler (set CC)")


def public_headers() -> list[pathlib.Path]:
    """Every header of include/ (ekoc.h, ekore.h, ekoc/*.h)."""
    return sorted(INCLUDE.glob("*.h")) + sorted(INCLUDE.glob("ekoc/*.h"))


def preprocessed(headers: list[pathlib.Path] | None = None) -> str:
    """The headers (default: all public ones) as one preprocessed C text."""
    headers = public_headers() if headers is None else headers
    cc = compiler()
    with tempfile.TemporaryDirectory() as tmp:
        fake = pathlib.Path(tmp) / "std"
        fake.mkdir()
        for name, text in FAKE_STD.items():
            (fake / name).write_text(text)
        unit = pathlib.Path(tmp) / "public.c"
        unit.write_text("".join(f'#include "{h}"\n' for h in headers))
        run = subprocess.run(cc.split() + ["-E", "-P", "-nostdinc", "-I", str(fake), "-I", str(INCLUDE), str(unit)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"{cc} -E on the public headers failed:\n{run.stderr}")
        return run.stdout


def parse(text: str):
    """pycparser's AST of a C text without preprocessor lines (comments are
    dropped; the std typedefs are prepended when missing), e.g. a cffi cdef."""
    try:
        from pycparser import c_parser
    except ImportError as exc:
        raise Unavailable("pycparser is not installed (pip install cffi brings it)") from exc
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    if "typedef int int32_t;" not in text:
        text = STD_TYPEDEFS + text
    return c_parser.CParser().parse(text, filename="<public api>")


class Api:
    """Functions and structs of a parsed C text, each type as a canonical
    string: parameter names dropped, `T` for a `typedef struct T T`
    written `struct T`, array parameters as pointers, top-level qualifiers
    of a parameter dropped (they are not part of a function's type)."""

    def __init__(self, ast):
        from pycparser import c_ast

        self._ast = c_ast
        self.struct_typedefs = {}
        for node in ast.ext:
            if isinstance(node, c_ast.Typedef) and isinstance(node.type, c_ast.TypeDecl) \
                    and isinstance(node.type.type, c_ast.Struct):
                self.struct_typedefs[node.name] = node.type.type.name
        self.functions = {}
        self.structs = {}
        for node in ast.ext:
            decl_type = getattr(node, "type", None)
            if isinstance(node, c_ast.Decl) and isinstance(decl_type, c_ast.FuncDecl):
                self.functions[node.name] = self.type_str(decl_type)
            for struct in self._structs_in(decl_type):
                if struct.decls is not None:
                    self.structs[struct.name] = [(f.name, self.type_str(f.type)) for f in struct.decls]

    def _structs_in(self, node):
        c_ast = self._ast
        while isinstance(node, (c_ast.TypeDecl, c_ast.PtrDecl, c_ast.ArrayDecl)):
            node = node.type
        return [node] if isinstance(node, c_ast.Struct) else []

    def type_str(self, node, parameter: bool = False) -> str:
        c_ast = self._ast
        if isinstance(node, c_ast.TypeDecl):
            inner = node.type
            if isinstance(inner, c_ast.IdentifierType):
                base = " ".join(inner.names)
                if base in self.struct_typedefs:
                    base = "struct " + self.struct_typedefs[base]
            elif isinstance(inner, c_ast.Struct):
                base = "struct " + inner.name
            elif isinstance(inner, c_ast.Enum):
                base = "enum " + (inner.name or "")
            else:
                raise TypeError(f"unexpected type node {type(inner).__name__}")
            quals = [] if parameter else sorted(node.quals)
            return " ".join(quals + [base])
        if isinstance(node, c_ast.PtrDecl):
            quals = [] if parameter else sorted(node.quals)
            return " ".join([self.type_str(node.type) + " *"] + quals)
        if isinstance(node, c_ast.ArrayDecl):
            if parameter:
                return self.type_str(node.type) + " *"
            dim = node.dim.value if isinstance(node.dim, c_ast.Constant) else ""
            return f"{self.type_str(node.type)} [{dim}]"
        if isinstance(node, c_ast.FuncDecl):
            params = []
            for p in (node.args.params if node.args else []):
                if isinstance(p, c_ast.EllipsisParam):
                    params.append("...")
                    continue
                params.append(self.type_str(p.type, parameter=True))
            if params == ["void"]:
                params = []
            return f"{self.type_str(node.type)} ({', '.join(params)})"
        raise TypeError(f"unexpected type node {type(node).__name__}")


def header_api() -> Api:
    """The API of the public headers."""
    return Api(parse(preprocessed()))


def version_script(names) -> str:
    """src/ekoc.map: exactly the declared functions are global."""
    body = "".join(f"    {n};\n" for n in sorted(names))
    return ("/* Symbols exported by libekoc.so: exactly the functions declared in include/\n"
            " * (ekoc.h, ekoc/*.h, ekore.h). Generated: python3 scripts/public_api.py map > src/ekoc.map;\n"
            " * `make test-exports` checks it. Everything else stays local to the library. */\n"
            "{\n  global:\n" + body + "  local:\n    *;\n};\n")


def exported_symbols(library: pathlib.Path) -> set[str]:
    """Defined dynamic symbols of a shared library (nm -D --defined-only)."""
    if not shutil.which("nm"):
        raise Unavailable("nm (binutils) is not installed")
    run = subprocess.run(["nm", "-D", "--defined-only", str(library)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"nm -D {library} failed:\n{run.stderr}")
    names = set()
    for line in run.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-2] not in ("A",):  # A: version-node names, not symbols
            names.add(parts[-1].split("@")[0])
    return names


def check_exports(library: pathlib.Path) -> list[str]:
    """Problems with what `library` exports (empty list: none)."""
    declared = set(header_api().functions)
    problems = []
    if MAP_FILE.read_text() != version_script(declared):
        problems.append(f"{MAP_FILE.relative_to(ROOT)} is not the list of declared functions: "
                        "run `python3 scripts/public_api.py map > src/ekoc.map`")
    exported = exported_symbols(library)
    for name in sorted(exported - declared):
        problems.append(f"{library.name} exports {name}, which no header in include/ declares")
    for name in sorted(declared - exported):
        problems.append(f"{name} is declared in include/ but {library.name} does not export it")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) < 1 or argv[0] not in ("functions", "map", "check-exports"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        if argv[0] == "functions":
            print("\n".join(sorted(header_api().functions)))
            return 0
        if argv[0] == "map":
            sys.stdout.write(version_script(header_api().functions))
            return 0
    except (Unavailable, RuntimeError) as exc:
        print(f"{argv[0]}: cannot read the headers: {exc}", file=sys.stderr)
        return 1
    library = pathlib.Path(argv[1] if len(argv) > 1 else ROOT / "build" / "libekoc.so")
    try:
        problems = check_exports(library)
    except Unavailable as exc:
        print(f"check-exports: SKIPPED ({exc})")
        return 0
    except RuntimeError as exc:  # the compiler or nm ran and failed
        print(f"check-exports: {exc}", file=sys.stderr)
        return 1
    for p in problems:
        print(f"check-exports: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"check-exports: {library} exports exactly the {len(header_api().functions)} functions of include/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
