"""Writing a Solution as an EKO file (eko's tar format) with eko's own classes.

The file is first written next to its target, under a hidden temporary
name, and published when complete (ekoc._publish.publish: an exclusive
rename, never replacing a file that appeared at the target meanwhile:
OutputExistsError names it and leaves it as it is), so a failed write
(a full disk, ``ulimit -f``, an interrupt) leaves nothing at the target.
eko builds the file in a staging folder (``ekoc-staging-<host>-<pid>-*``,
in tempfile's directory), removed before the file is published and on
every failure; Ctrl-C and SIGTERM included (ekoc._sigterm). What a
killed writer leaves (kill -9) is removed by the next write on the host
(ekoc._publish.remove_stale).

solve_to_eko writes the same file without holding the operators: each
target is written as the C library composes it (ekoc_compute_stream).
Every file ekoc writes holds ``ekoc-metadata.json``, ekoc's own metadata
next to eko's: {"physics": "eko" or "exact"}, the physics the operators
were computed with (ekoc.solve's `physics`; eko's own files have no such
member: read it with ekoc.eko_file_metadata), and {"n3lo_ad_set": "2512"} when
the operators were computed with the 2512 aN3LO set (ekoc's theory-card key
n3lo_ad_set, which eko's TheoryCard does not have: the card written carries
use_fhmruvv = True in its place). Given a job token
(solve_many gives each job one), the file also holds ``ekoc-job.json``,
{"token", "failures", "backend", "physics"}: a retry of the same job that
finds its own finished file returns its summary instead of failing with
OutputExistsError; a file without that token is never taken.

The cards written are the solved ones (Solution.theory_card /
operator_card) unless others are given; given cards must ask for the same
operators as the solved ones (ekoc._cards.same_computation), else
EkocFieldError names the first field that differs, before anything is
written.
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import tarfile
import tempfile
import time
from collections.abc import Mapping

from . import _cards, _publish, _sigterm
from ._errors import EkocFieldError, EkocFieldTypeError, render
from ._n3lo_set import n3lo_set

#: the member of a job's EKO file that names the job (see the module docstring)
JOB_MEMBER = "ekoc-job.json"
#: ekoc's own metadata in every EKO file it writes (see the module docstring)
METADATA_MEMBER = "ekoc-metadata.json"


def cards_for_file(solution, theory_card=None, operator_card=None):
    """(theory, operator) to write: eko card objects passed through, dicts
    as plain copies; checked against the solution's own cards."""
    setup = solution.setup
    if theory_card is None and operator_card is None:
        return setup.theory_card, setup.operator_card
    th = setup.theory_card if theory_card is None else theory_card
    op = setup.operator_card if operator_card is None else operator_card
    other = _cards.translate(th, op)
    diff = _cards.same_computation(setup, other)
    if diff is not None:
        field, given, solved = diff
        raise EkocFieldError(field, given, f"differs from the card the solution was computed with ({render(solved)}): "
                             "the EKO file would describe other operators than it holds; pass the solved cards, "
                             "or none (the solved ones are written)")
    # eko card objects are written as given; dicts as read (a grid shorthand expanded)
    return (other.theory_card if isinstance(th, Mapping) else th,
            other.operator_card if isinstance(op, Mapping) else op)


def _eko_cards(theory, operator):
    import eko

    out = []
    if isinstance(theory, Mapping) and "n3lo_ad_set" in theory:  # ekoc's key (_n3lo_set.py): not eko's
        index = n3lo_set(theory)
        theory = {k: v for k, v in theory.items() if k != "n3lo_ad_set"}
        theory["use_fhmruvv"] = index != 0
    for card, cls, name in ((theory, eko.TheoryCard, "theory_card"), (operator, eko.OperatorCard, "operator_card")):
        if isinstance(card, cls):
            out.append(card)
            continue
        try:
            out.append(cls.from_dict(card))
        except Exception as exc:  # noqa: BLE001 - eko's reader on the card: any failure is the card's
            raise EkocFieldError(name, card, f"eko.{cls.__name__}.from_dict refused it ({type(exc).__name__}: "
                                 f"{exc})") from exc
    return out


def _exists_error(path: pathlib.Path, when: str):
    from eko.io import exceptions

    return exceptions.OutputExistsError(errno.EEXIST, f"{str(path)!r} {when}; it is left as it is and nothing was "
                                        "written (an EKO file is never replaced: remove it or choose another path)",
                                        str(path))


def _checked_target(path) -> pathlib.Path:
    """`path` as a Path after eko's own checks on an output (as eko.solve
    makes them): a .tar that does not exist yet, in an existing folder."""
    from eko.io import exceptions

    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    path = pathlib.Path(path)
    if path.suffix != ".tar":
        raise exceptions.OutputNotTar(path)
    if os.path.lexists(path):
        raise _exists_error(path, "exists already")
    if not path.parent.is_dir():
        raise FileNotFoundError(f"to_eko: the folder {str(path.parent)!r} of {str(path)!r} does not exist")
    return path


def _member_json(path, name: str):
    """The JSON member `name` of the tar at `path`, or None (no file, not a
    tar, no such member, not JSON)."""
    try:
        with tarfile.open(path, "r:") as tar:
            member = tar.getmember(f"./{name}")
            return json.loads(tar.extractfile(member).read().decode("utf-8"))
    except (OSError, KeyError, ValueError, tarfile.TarError, AttributeError):
        return None


def job_record(path, token: str) -> dict | None:
    """The ekoc-job.json of the EKO file at `path` when it names `token`
    (the file is that job's finished output), else None (no file, another
    job's or nobody's file, not a tar)."""
    record = _member_json(path, JOB_MEMBER)
    return record if isinstance(record, dict) and record.get("token") == token else None


def eko_file_metadata(path) -> dict | None:
    """ekoc's own metadata of the EKO file at `path` ({"physics": "eko" or
    "exact"}), or None for a file ekoc did not write (eko's own) or that
    cannot be read as an EKO tar."""
    record = _member_json(path, METADATA_MEMBER)
    return record if isinstance(record, dict) else None


def _write_atomic(tc, oc, path: pathlib.Path, fill, metadata: dict, job: dict | None = None) -> dict | None:
    """The EKO file at `path` (checked by _checked_target): eko's metadata,
    the cards tc / oc (eko objects) and the recipes eko would list, written
    by eko into a staging folder named by host and pid (ekoc._publish),
    then fill(writer), which hands each target to the writer
    (ekoc._ekotar.EkoTarWriter: put(ep, value, error) or put_target(target))
    and each goes into the archive at once, no copy kept, then `metadata`
    (as fill leaves it) as ekoc's ekoc-metadata.json. Built under a hidden
    name next to `path` and published when complete, never over a file that
    appeared at `path` meanwhile (OutputExistsError); the staging folder is
    removed before. Nothing is left behind on any failure (fill's, Ctrl-C
    and SIGTERM included). `job`: the record written as
    ekoc-job.json (its "token" and what fill adds to it); a file at `path`
    holding the same token counts as this write's (returns its record, as
    for a retried job whose first run published); else returns None."""
    from ._ekotar import EkoTarWriter

    with _sigterm.write_unit():
        _publish.remove_stale(tempfile.gettempdir(), path.parent)  # what killed writers left
        try:
            members = [(METADATA_MEMBER, metadata), (JOB_MEMBER, job)]
            with EkoTarWriter(tc, oc, path, extra_members=members) as writer:
                fill(writer)
        except FileExistsError:  # the publish: a file appeared at `path`
            mine = job_record(path, job["token"]) if job is not None else None
            if mine is None:
                raise _exists_error(path, "appeared while the EKO was computed") from None
            return mine
        return None


def write_eko(solution, theory_card, operator_card, path) -> None:
    """Writes `solution` as an EKO file at `path` (a new .tar): metadata, the
    two cards, the recipes eko would list, and one operator (value, error)
    per distinct target. eko's internal per-part cache (parts/) is not
    written: ekoc composes in memory. theory_card / operator_card: None for
    the solved cards, or cards asking for the same operators."""
    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    tc, oc = _eko_cards(*cards_for_file(solution, theory_card, operator_card))
    path = _checked_target(path)

    def fill(writer):
        for ep in dict.fromkeys(oc.evolgrid):  # a repeated target is written once
            writer.put_target(solution[ep])

    _write_atomic(tc, oc, path, fill, {"physics": solution.physics, **_set_metadata(solution.setup)})


def solve_to_eko(theory_card, operator_card, path, backend: str = "auto", *, job_token: str | None = None,
                 **solve_kwargs) -> dict:
    """Computes eko's operators with libekoc and writes them as an EKO file
    at `path` (a new .tar, readable by eko.EKO.read, the same file as
    ``ekoc.solve(...).to_eko(path)``), streaming: each target's operator and
    error are written as soon as the C library has composed it
    (ekoc.solve_stream), so memory holds the parts of the path and a few
    targets, not all of them (300 targets on a 50-point grid at NNLO: see
    perf/STATS.md). The cards written are the ones given (eko objects as
    they are, dicts as ekoc.solve reads them). Arguments and errors as
    ekoc.solve's, plus eko's own for `path` (not a .tar, already there or
    appeared during the computation: OutputExistsError, that file left as it
    is); nothing is left at `path` when the computation or the write fails.
    Returns solve_stream's summary {"failures", "timing", "profile",
    "backend", "physics"}; the file's ekoc-metadata.json records the
    physics (ekoc.eko_file_metadata).

    job_token: a string naming this job (a scheduler's task id) written into
    the file; when `path` already holds a file with the same token (a retry
    of a job whose first run published before it was lost), nothing is
    computed and the summary is that run's, with "reused": True."""
    from ._stream import solve_stream

    if not isinstance(path, (str, os.PathLike)):
        raise EkocFieldTypeError("path", path, "must be a str or a path")
    if job_token is not None and (not isinstance(job_token, str) or not job_token):
        raise EkocFieldTypeError("job_token", job_token, "must be a non-empty str or None")
    setup = _cards.translate(theory_card, operator_card)
    th = setup.theory_card if isinstance(theory_card, Mapping) else theory_card
    op = setup.operator_card if isinstance(operator_card, Mapping) else operator_card
    tc, oc = _eko_cards(th, op)
    if job_token is not None:
        done = job_record(path, job_token)
        if done is not None:
            return _reused(done)
    path = _checked_target(path)
    result = {}
    metadata = _set_metadata(setup)
    job = None if job_token is None else {"token": job_token}

    def fill(writer):
        result.update(solve_stream(theory_card, operator_card, writer.put_target, backend, **solve_kwargs))
        metadata.update(physics=result["physics"])
        if job is not None:
            job.update(failures=result["failures"], backend=result["backend"], physics=result["physics"])

    done = _write_atomic(tc, oc, path, fill, metadata, job)
    return result if done is None else _reused(done)


def copy_eko(source, path, job_token: str | None = None) -> dict:
    """A copy of the EKO file `source` (one ekoc wrote) at `path`: the same
    members byte for byte (cards, recipes, operators, ekoc-metadata.json),
    except ekoc-job.json, which names `job_token` (none without one), with
    the source's failures, backend and physics. Written and published as
    solve_to_eko's files are (a hidden name next to `path`, never over a file
    that is there or appears meanwhile: OutputExistsError; nothing left on
    failure). A file at `path` that holds `job_token` already is taken as it
    is (a retried job). Returns the summary solve_to_eko gave for the source
    ("copied": True), or the reused file's ("reused": True). solve_many
    writes the files of jobs with the same cards so: one computation, one
    copy per other job."""
    import io

    from ._ekotar import COPY_BYTES

    source = pathlib.Path(source)
    if job_token is not None:
        done = job_record(path, job_token)
        if done is not None:
            return _reused(done)
    path = _checked_target(path)
    record = _member_json(source, JOB_MEMBER) or {}
    job = {k: v for k, v in record.items() if k != "token"}
    with _sigterm.write_unit():
        _publish.remove_stale(path.parent)
        partial = _publish.partial_name(path)
        try:
            # the partial on the disk as it is written (closed last: after the tar's end blocks)
            with _publish.WriteBehind(partial) as out, tarfile.open(source, "r:") as src, \
                    tarfile.open(fileobj=out, mode="w:", copybufsize=COPY_BYTES) as dst:
                for member in src:
                    if member.name == f"./{JOB_MEMBER}":
                        continue
                    dst.addfile(member, src.extractfile(member) if member.isfile() else None)
                if job_token is not None:
                    data = json.dumps({"token": job_token, **job}).encode("utf-8")
                    info = tarfile.TarInfo(f"./{JOB_MEMBER}")
                    info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
                    dst.addfile(info, io.BytesIO(data))
            _publish.publish(partial, path)
        except FileExistsError:
            mine = job_record(path, job_token) if job_token is not None else None
            if mine is None:
                raise _exists_error(path, "appeared while the EKO was copied") from None
            return _reused(mine)
        finally:
            if partial.exists():
                partial.unlink()
    return {"failures": int(job.get("failures", 0)), "timing": {}, "profile": None, "backend": job.get("backend"),
            "physics": job.get("physics"), "copied": True}


def _set_metadata(setup) -> dict:
    """{"n3lo_ad_set": "2512"} for operators of the 2512 aN3LO set, else {}."""
    return {"n3lo_ad_set": "2512"} if setup.order == 4 and setup.use_fhmruvv == 2 else {}


def _reused(record: dict) -> dict:
    """solve_to_eko's summary for a file a previous run of the job wrote."""
    return {"failures": int(record.get("failures", 0)), "timing": {}, "profile": None,
            "backend": record.get("backend"), "physics": record.get("physics"), "reused": True}
