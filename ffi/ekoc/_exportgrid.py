"""n3fit's fit folders: the exportgrid files of the replicas, read and written.

Facts from NNPDF's sources (n3fit.io.writer.storefit, evolven3fit.evolve),
not their code: a fit folder FIT holds filter.yml (its ``theory:`` section
names ``theoryid``) and nnfit/replica_N/FIT.exportgrid per replica, a YAML
mapping (keys sorted, leaf lists in flow style) of

- ``replica``: N; ``q20``: Q0^2 of the fit's theory (GeV^2);
- ``xgrid``: n3fit's x grid (196 points from 1e-9 to 1);
- ``labels``: TBAR BBAR CBAR SBAR UBAR DBAR GLUON D U S C B T PHT;
- ``pdfgrid``: one list per x of x f(x) at Q0 for each label.

The reader is a small parser of that layout (flow or block lists), not a
YAML library, so that reading a thousand replicas takes seconds.
"""

from __future__ import annotations

import math
import os
import pathlib
import re

import numpy as np

from ._errors import EkocFieldError
from ._evolve import FLAVOR_PIDS

#: n3fit's labels, in the order it writes them, and their PDG ids
LABELS = ("TBAR", "BBAR", "CBAR", "SBAR", "UBAR", "DBAR", "GLUON", "D", "U", "S", "C", "B", "T", "PHT")
LABEL_PIDS = {"TBAR": -6, "BBAR": -5, "CBAR": -4, "SBAR": -3, "UBAR": -2, "DBAR": -1, "GLUON": 21, "D": 1, "U": 2,
              "S": 3, "C": 4, "B": 5, "T": 6, "PHT": 22}


def _flow(values) -> str:
    return "[" + ", ".join(repr(float(v)) for v in values) + "]"


def write_exportgrid(path, *, replica: int, q20: float, xgrid, xf) -> None:
    """Writes an exportgrid as n3fit does: `xf` is (14, nx) x f(x) at Q0 in
    eko's flavour basis (ekoc.PIDS order), written per x in n3fit's label
    order. The file is written under a temporary name and renamed."""
    xgrid = np.asarray(xgrid, dtype=float)
    xf = np.asarray(xf, dtype=float)
    if xf.shape != (14, len(xgrid)):
        raise EkocFieldError("xf", f"array of shape {xf.shape}", f"must be (14, {len(xgrid)})")
    order = [FLAVOR_PIDS.index(LABEL_PIDS[label]) for label in LABELS]
    rows = xf[order].T
    lines = [f"labels: [{', '.join(LABELS)}]", "pdfgrid:"]
    lines += [f"- {_flow(row)}" for row in rows]
    lines += [f"q20: {float(q20)!r}", f"replica: {int(replica)}", f"xgrid: {_flow(xgrid)}"]
    path = pathlib.Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _sections(text: str, where: str) -> dict:
    sections, current = {}, None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line[0] not in " -":
            key, sep, rest = line.partition(":")
            if not sep:
                raise EkocFieldError(where, line, "is not an exportgrid: a top-level line without 'key:'")
            current = key.strip()
            sections[current] = [rest]
        elif current is None:
            raise EkocFieldError(where, line, "is not an exportgrid: a list item before any key")
        else:
            sections[current].append(line)
    return {key: "\n".join(lines) for key, lines in sections.items()}


#: YAML's spellings of the non-finite floats
_SPECIAL = {".nan": "nan", ".NaN": "nan", ".NAN": "nan", ".inf": "inf", ".Inf": "inf", ".INF": "inf",
            "-.inf": "-inf", "-.Inf": "-inf", "-.INF": "-inf", "+.inf": "inf"}


def _tokens(text: str) -> list[str]:
    tokens = text.replace("[", " ").replace("]", " ").replace(",", " ").split()
    return [_SPECIAL.get(t, t) for t in tokens if t != "-"]  # '-' alone marks a block-style list item


def read_exportgrid(path) -> dict:
    """One exportgrid: {"replica", "q20", "xgrid": (nx,), "labels": [...],
    "xf": (14, nx) x f(x) at Q0 in eko's flavour basis (labels absent from
    the file are 0)}. Raises FileNotFoundError, or EkocFieldError naming
    the file for a malformed one or a non-finite value."""
    path = pathlib.Path(path)
    where = str(path)
    if not path.is_file():
        raise FileNotFoundError(f"read_exportgrid: {where!r} does not exist")
    sections = _sections(path.read_text(encoding="utf-8"), where)
    for key in ("q20", "xgrid", "labels", "pdfgrid"):
        if key not in sections:
            raise EkocFieldError(where, f"keys {sorted(sections)}", f"has no '{key}': not an n3fit exportgrid")
    try:
        q20 = float(sections["q20"])
        xgrid = np.array(_tokens(sections["xgrid"]), dtype=float)
        values = np.array(_tokens(sections["pdfgrid"]), dtype=float)
        replica = int(sections["replica"]) if "replica" in sections else None
    except ValueError as exc:
        raise EkocFieldError(where, str(exc), "holds a value that is not a number") from exc
    labels = [t.strip("'\"") for t in _tokens(sections["labels"])]
    unknown = [label for label in labels if label not in LABEL_PIDS]
    if unknown:
        raise EkocFieldError(where, unknown, f"unknown label(s); n3fit's are {list(LABELS)}")
    if values.size != len(xgrid) * len(labels):
        raise EkocFieldError(where, f"{values.size} values", f"pdfgrid must hold {len(xgrid)} x * {len(labels)} "
                             "labels")
    grid = values.reshape(len(xgrid), len(labels))
    bad = ~np.isfinite(grid)
    if bad.any() or not math.isfinite(q20):
        j, k = (int(i[0]) for i in np.nonzero(bad)) if bad.any() else (0, 0)
        raise EkocFieldError(where, float(grid[j, k]) if bad.any() else q20,
                             f"is not finite (label {labels[k]}, x={xgrid[j]!r})" if bad.any() else "q20 is not finite")
    xf = np.zeros((14, len(xgrid)))
    for k, label in enumerate(labels):
        xf[FLAVOR_PIDS.index(LABEL_PIDS[label])] = grid[:, k]
    return {"replica": replica, "q20": q20, "xgrid": xgrid, "labels": labels, "xf": xf}


def theory_id(fit_folder) -> int:
    """The theory id of a fit: ``theoryid`` in filter.yml's ``theory:`` section."""
    path = pathlib.Path(fit_folder) / "filter.yml"
    if not path.is_file():
        raise FileNotFoundError(f"read_fit: {str(path)!r} does not exist (a fit folder holds filter.yml)")
    match = re.search(r"^theory:\s*\n((?:[ \t]+.*\n?|\s*\n)*)", path.read_text(encoding="utf-8"), re.MULTILINE)
    found = re.search(r"^\s+theoryid:\s*(\d+)\s*$", match.group(1), re.MULTILINE) if match else None
    if not found:
        raise EkocFieldError(str(path), "no theory.theoryid", "names no theory (theory: theoryid: N)")
    return int(found.group(1))


def read_fit(fit_folder) -> dict:
    """Every replica of an n3fit fit folder: {"theory_id", "q20", "xgrid",
    "replicas": [N...], "pdfs": (R, 14, nx) f(x) at Q0 (not x f) in eko's
    flavour basis, "files": [...]}. A replica folder without its exportgrid,
    a non-finite value, or replicas on different x grids or Q0 raise an
    error naming the file."""
    folder = pathlib.Path(fit_folder)
    tid = theory_id(folder)
    nnfit = folder / "nnfit"
    dirs = [p for p in nnfit.glob("replica_*") if p.is_dir() and re.fullmatch(r"replica_\d+", p.name)]
    if not dirs:
        raise FileNotFoundError(f"read_fit: no replica folder in {str(nnfit)!r} (nnfit/replica_N)")
    dirs.sort(key=lambda p: int(p.name.split("_")[1]))
    files, grids, first = [], [], None
    for d in dirs:
        path = d / f"{folder.resolve().name}.exportgrid"
        if not path.is_file():
            raise FileNotFoundError(f"read_fit: replica folder {str(d)!r} has no exportgrid {path.name!r}")
        grid = read_exportgrid(path)
        if first is None:
            first = grid
        elif not np.array_equal(grid["xgrid"], first["xgrid"]):
            raise EkocFieldError(str(path), "xgrid", f"differs from the x grid of {files[0]}")
        elif grid["q20"] != first["q20"]:
            raise EkocFieldError(str(path), grid["q20"], f"q20 differs from {files[0]}'s {first['q20']!r}")
        files.append(str(path))
        grids.append(grid["xf"] / grid["xgrid"])
    return {"theory_id": tid, "q20": first["q20"], "xgrid": first["xgrid"],
            "replicas": [int(d.name.split("_")[1]) for d in dirs], "pdfs": np.stack(grids), "files": files}
