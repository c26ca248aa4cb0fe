"""LHAPDF6 text: numbers formatted many at a time, the info file written and
read, and a reader of whole sets (ekoc.read_lhapdf) following LHAPDF6's
format (lhagrid1), written from its documentation, not from LHAPDF's code:

- a set is a folder NAME holding NAME.info and one NAME_nnnn.dat per member;
- the info file is YAML: ``Key: value`` lines, lists in flow style;
- a member file starts with header lines (PdfType, Format: lhagrid1, ...)
  ended by ``---``; then one block per subgrid, each ended by ``---``: a
  line of x knots, a line of Q knots (GeV, not Q^2), a line of PDG ids, and
  nx * nq lines (x the outer loop, Q the inner) of x f(x, Q) per id.
"""

from __future__ import annotations

import math
import pathlib
import re

import numpy as np

#: characters of one formatted value: the sign (space or '-'), d.dddddddd,
#: 'e', the exponent's sign and two digits (as "%.8e"), then a space (a
#: newline after a line's last value)
FIELD = 16
#: |values| below this are written as 0 (their exponent would need three digits)
TINY = 1e-99


def _word(text: str) -> int:
    """The bytes of `text` (at most 8) as a little-endian uint64."""
    return int.from_bytes(text.encode("ascii").ljust(8, b"\0"), "little")


# A field is two little-endian 8-byte words assembled from lookup tables:
# sign d0 '.' d1 d2 d3 d4 d5 | d6 d7 d8 'e' sign e1 e2 separator
def _digit_words(count: int, layout: str) -> np.ndarray:
    """uint64 words of the numbers 0..count-1: `layout` has one 'd' per
    digit (most significant first) and literal characters elsewhere."""
    numbers = np.arange(count, dtype=np.uint64)
    words = np.zeros(count, dtype=np.uint64)
    digits = layout.count("d")
    for position, char in enumerate(layout):
        if char == "d":
            digits -= 1
            byte = numbers // np.uint64(10**digits) % np.uint64(10) + np.uint64(ord("0"))
        else:
            byte = np.uint64(ord(char))
        words += byte << np.uint64(8 * position)
    return words


_HEAD = _digit_words(1_000_000, " d.ddddd")
_TAIL = _digit_words(1_000, "ddd")
_EXPONENT = np.array([_word(f"000e{'-' if e < 0 else '+'}{abs(e):02d}") - _word("000") for e in range(-99, 100)],
                     dtype=np.uint64)
_MINUS = np.uint64(_word("-") - _word(" "))
_SPACE, _NEWLINE = np.uint64(ord(" ") << 56), np.uint64(ord("\n") << 56)
_POWERS = np.array([float(f"1e{k}") for k in range(-107, 108)])  # 10^k correctly rounded, k = -107..107


def format_rows(values: np.ndarray) -> bytes:
    """A 2-d array as text, one line per row, each value as printf's "%.8e"
    (9 significant digits; the last within one unit of printf's, from the
    binary scaling) with a sign column (a space for positive values),
    separated by one space. Values of magnitude below TINY are written as
    0; non-finite values and magnitudes of 1e100 or more raise ValueError
    (the caller has checked its input). Vectorised over 8-byte words from
    lookup tables instead of one Python format per value (~10x faster)."""
    a = np.asarray(values, dtype=float)
    rows, cols = a.shape
    flat = a.ravel()
    if not np.isfinite(flat).all():
        raise ValueError("format_rows: non-finite value")
    mag = np.abs(flat)
    if mag.size and mag.max() >= 1e100:
        raise ValueError(f"format_rows: |value| >= 1e100 ({mag.max()!r})")
    zero = mag < TINY
    mag[zero] = 1.0
    exp = np.floor(np.log10(mag)).astype(np.int64)
    mant = np.rint(mag * _POWERS[107 + 8 - exp]).astype(np.int64)  # 9 digits once fixed below
    low = mant < 100_000_000  # log10 rounded up across a power of ten
    if low.any():
        exp[low] -= 1
        mant[low] = np.rint(mag[low] * _POWERS[107 + 8 - exp[low]]).astype(np.int64)
    high = mant >= 1_000_000_000  # rounded up to the next power of ten
    exp[high] += 1
    mant[high] = 100_000_000
    mant[zero], exp[zero] = 0, 0
    words = np.empty((rows, cols, 2), dtype=np.uint64)
    head, tail = np.divmod(mant, 1000)
    words[:, :, 0] = (np.take(_HEAD, head, mode="clip") + (flat < -TINY) * _MINUS).reshape(rows, cols)
    words[:, :, 1] = (np.take(_TAIL, tail, mode="clip") + np.take(_EXPONENT, exp + 99, mode="clip")).reshape(rows,
                                                                                                           cols)
    words[:, :-1, 1] += _SPACE
    words[:, -1, 1] += _NEWLINE
    return words.tobytes()


def knots(values) -> str:
    """A line of knots (x or Q) with every digit (repr), so the grid read back is the grid written."""
    return " ".join(repr(float(v)) for v in values)


# ---- the info file ----------------------------------------------------------------------

def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return repr(float(value))
    text = str(value)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", text) and text.lower() not in ("true", "false", "null"):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def info_text(info: dict) -> str:
    """LHAPDF's info file: one ``Key: value`` line per entry, lists in flow style."""
    lines = []
    for key, value in info.items():
        if isinstance(value, (list, tuple, np.ndarray)):
            lines.append(f"{key}: [{', '.join(_scalar(v) for v in value)}]")
        else:
            lines.append(f"{key}: {_scalar(value)}")
    return "\n".join(lines) + "\n"


def _parse_scalar(text: str):
    text = text.strip()
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if text.startswith("'") and text.endswith("'") and len(text) >= 2:
        return text[1:-1].replace("''", "'")
    if text in ("true", "True"):
        return True
    if text in ("false", "False"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def parse_info(text: str, where: str = "info") -> dict:
    """The info file's entries: ``Key: value`` lines with scalar values or
    flow lists (what LHAPDF sets use); comment lines (#) and blank lines skipped."""
    out = {}
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.rstrip()
        if not stripped.strip() or stripped.lstrip().startswith("#"):
            continue
        key, sep, value = stripped.partition(":")
        if not sep or not key.strip() or key != key.lstrip():
            raise ValueError(f"{where}: line {number} is not 'Key: value': {line!r}")
        value = value.strip()
        if value.startswith("["):
            if not value.endswith("]"):
                raise ValueError(f"{where}: line {number}: a list must close on its line: {line!r}")
            inner = value[1:-1].strip()
            out[key.strip()] = [_parse_scalar(v) for v in inner.split(",")] if inner else []
        else:
            out[key.strip()] = _parse_scalar(value)
    return out


# ---- a reader of sets -------------------------------------------------------------------

def read_member(path, where: str | None = None) -> dict:
    """One member file: {"header": {key: value}, "blocks": [{"x": (nx,),
    "q": (nq,), "pids": [...], "xf": (nx, nq, npid)}]}. Raises ValueError
    naming the file and block for anything off the format."""
    path = pathlib.Path(path)
    where = where or str(path)
    parts = path.read_text(encoding="utf-8").split("\n---")
    header = parse_info(parts[0], f"{where} (header)")
    if header.get("Format") != "lhagrid1":
        raise ValueError(f"{where}: Format is {header.get('Format')!r}, not lhagrid1")
    blocks = []
    for index, part in enumerate(parts[1:]):
        lines = part.strip("\n").split("\n") if part.strip() else []
        if not lines:
            continue  # the end of the file after the last '---'
        if len(lines) < 3:
            raise ValueError(f"{where}: block {index} has {len(lines)} line(s); x, Q and pid lines come first")
        try:
            x = np.array(lines[0].split(), dtype=float)
            q = np.array(lines[1].split(), dtype=float)
            pids = [int(p) for p in lines[2].split()]
            body = "\n".join(lines[3:])
            data = np.fromstring(body, dtype=float, sep=" ") if body.strip() else np.empty(0)  # C parsing
        except ValueError as exc:
            raise ValueError(f"{where}: block {index}: {exc} (x, Q and pid lines, then values)") from exc
        want = len(x) * len(q) * len(pids)
        if data.size != want:
            raise ValueError(f"{where}: block {index} has {data.size} values; {len(x)} x * {len(q)} Q * "
                             f"{len(pids)} pids = {want} expected")
        if len(lines) - 3 != len(x) * len(q):
            raise ValueError(f"{where}: block {index} has {len(lines) - 3} value lines, {len(x) * len(q)} expected")
        for name, grid in (("x", x), ("Q", q)):
            if len(grid) < 2 or np.any(np.diff(grid) <= 0):
                raise ValueError(f"{where}: block {index}: the {name} knots must be at least 2, strictly increasing")
        blocks.append({"x": x, "q": q, "pids": pids, "xf": data.reshape(len(x), len(q), len(pids))})
    if not blocks:
        raise ValueError(f"{where}: no grid block")
    for index in range(1, len(blocks)):
        if not math.isclose(blocks[index]["q"][0], blocks[index - 1]["q"][-1], rel_tol=1e-12):
            raise ValueError(f"{where}: block {index} starts at Q={blocks[index]['q'][0]!r}, not where block "
                             f"{index - 1} ends (Q={blocks[index - 1]['q'][-1]!r}): subgrids must share their edge")
    return {"header": header, "blocks": blocks}


def read_lhapdf(path) -> dict:
    """An LHAPDF6 set folder read back: {"info": {...}, "members": [member
    dicts as read_member's]}, checked against the info file (NumMembers,
    Flavors, XMin/XMax, QMin/QMax). Raises FileNotFoundError / ValueError
    naming the file."""
    folder = pathlib.Path(path)
    name = folder.name
    info_path = folder / f"{name}.info"
    if not info_path.is_file():
        raise FileNotFoundError(f"read_lhapdf: {str(info_path)!r} does not exist (an LHAPDF set folder NAME "
                                "holds NAME.info)")
    info = parse_info(info_path.read_text(encoding="utf-8"), str(info_path))
    count = info.get("NumMembers")
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"{info_path}: NumMembers={count!r} must be a positive integer")
    members = []
    for m in range(count):
        member_path = folder / f"{name}_{m:04d}.dat"
        if not member_path.is_file():
            raise FileNotFoundError(f"read_lhapdf: member {m} of {count} (NumMembers) is missing: "
                                    f"{str(member_path)!r}")
        member = read_member(member_path)
        for index, block in enumerate(member["blocks"]):
            if block["pids"] != list(info.get("Flavors", block["pids"])):
                raise ValueError(f"{member_path}: block {index} pids {block['pids']} differ from the info's "
                                 f"Flavors {info.get('Flavors')}")
        first, last = member["blocks"][0], member["blocks"][-1]
        for key, value in (("XMin", first["x"][0]), ("XMax", first["x"][-1]), ("QMin", first["q"][0]),
                           ("QMax", last["q"][-1])):
            if key in info and not math.isclose(float(info[key]), float(value), rel_tol=1e-9):
                raise ValueError(f"{member_path}: {key} of the grid is {value!r}, the info file says {info[key]!r}")
        members.append(member)
    extra = sorted(p.name for p in folder.glob(f"{name}_*.dat"))[count:]
    if extra:
        raise ValueError(f"read_lhapdf: {folder} holds more members than NumMembers={count}: {extra[:3]}")
    return {"info": info, "members": members}
