#!/usr/bin/env python3
"""Checks the shape of the tree that docs/architecture.md promises.

  python3 scripts/check_structure.py        (run by `make test`)

1. Layers point one way: each folder of src/ includes only the layers below it
   (status.h <- ad <- quad <- evol; gpu over quad and ad; nothing includes gpu
   headers),
   and perf/ programs include only the public headers of include/ (plus the
   one white-box header src/ekoc_whitebox.h and perf's own headers).
2. No file in src/ or in the ekore crate is over 600 lines.
3. Every document a comment cites exists in the repository, and every
   `docs/physics.md §x.y` (or another docs page's §) names a heading there.

Prints one line per problem and exits 1 if there is any; stdlib only.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_LINES = 600

# folder of src/ -> the folders of src/ it may include from (include/ is always allowed)
LAYERS = {
    "ad": {"ad"},
    "quad": {"quad", "ad"},
    "evol": {"evol", "quad", "ad"},
    "gpu": {"gpu", "quad", "ad"},
    "": {"", "ad", "quad", "evol"},  # src/*.c|h: status, the white-box header
}
PUBLIC = {"ekoc.h", "ekore.h"}
BASE = {"status.h"}  # src/status.h: the error carrier, the ground floor every layer stands on
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
SOURCE_EXT = {".c", ".h", ".cu", ".rs", ".py"}
SCAN = ["src", "include", "rust-bridge/ekore/src", "rust-bridge/ekore/tests", "perf", "tests", "ffi", "scripts"]
SKIP_PARTS = {"corpus", "target", "__pycache__", "data"}


def is_public(inc: str) -> bool:
    return inc in PUBLIC or inc.startswith("ekoc/")


def check_layers(problems):
    for path in sorted((ROOT / "src").rglob("*")):
        if path.suffix not in {".c", ".h", ".cu"}:
            continue
        rel = path.relative_to(ROOT / "src")
        layer = rel.parts[0] if len(rel.parts) > 1 else ""
        allowed = LAYERS.get(layer)
        if allowed is None:
            problems.append(f"src/{rel}: folder src/{layer} is not a known layer (scripts/check_structure.py LAYERS)")
            continue
        for inc in INCLUDE_RE.findall(path.read_text(errors="replace")):
            if is_public(inc) or inc in BASE:
                continue
            target = inc.split("/")[0] if "/" in inc else ""
            if target not in allowed:
                problems.append(f"src/{rel}: includes \"{inc}\": layer src/{layer or '.'} may not reach src/{target or '.'}")
    for path in sorted((ROOT / "perf").glob("*.[ch]")):
        for inc in INCLUDE_RE.findall(path.read_text(errors="replace")):
            if is_public(inc) or inc == "ekoc_whitebox.h" or (ROOT / "perf" / inc).exists():
                continue
            problems.append(f"perf/{path.name}: includes private header \"{inc}\" (public API or src/ekoc_whitebox.h only)")


def check_sizes(problems):
    files = [p for p in (ROOT / "src").rglob("*") if p.suffix in {".c", ".h", ".cu"}]
    files += list((ROOT / "rust-bridge" / "ekore" / "src").rglob("*.rs"))
    for path in sorted(files):
        n = len(path.read_text(errors="replace").splitlines())
        if n > MAX_LINES:
            problems.append(f"{path.relative_to(ROOT)}: {n} lines (at most {MAX_LINES})")


def headings(doc: pathlib.Path) -> set:
    out = set()
    for line in doc.read_text().splitlines():
        m = re.match(r"#{1,4}\s+(\d+(?:\.\d+)*)\.?\s", line)
        if m:
            out.add(m.group(1))
    return out


DOC_RE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md)\b(?:\s*§\s*(\d+(?:\.\d+)*))?")


def check_citations(problems):
    cache = {}
    for top in SCAN:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in SOURCE_EXT or SKIP_PARTS & set(path.parts):
                continue
            if path == pathlib.Path(__file__).resolve():
                continue
            text = path.read_text(errors="replace")
            for lineno, line in enumerate(text.splitlines(), 1):
                for m in DOC_RE.finditer(line):
                    name, section = m.group(1), m.group(2)
                    doc = ROOT / name
                    if not doc.exists():
                        # a bare name relative to the citing file's folder (e.g. README.md in ffi/)
                        doc = path.parent / name
                    where = f"{path.relative_to(ROOT)}:{lineno}"
                    if not doc.exists():
                        problems.append(f"{where}: cites {name}, which the repository does not have")
                        continue
                    if section:
                        section = section.rstrip(".")
                        if doc not in cache:
                            cache[doc] = headings(doc)
                        if section not in cache[doc]:
                            problems.append(f"{where}: cites {name} §{section}, which has no such section")


def main() -> int:
    problems = []
    check_layers(problems)
    check_sizes(problems)
    check_citations(problems)
    for p in problems:
        print(f"check-structure: {p}")
    if problems:
        print(f"check-structure: {len(problems)} problem(s)")
        return 1
    print("check-structure: layers one way, files <= 600 lines, every cited document and section exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
