"""eko's tar file written straight from memory, one target at a time.

eko's own writer (eko.io.struct) saves every operator into a temporary
folder (an npz built in memory, copied, lz4-compressed, written), and on
close copies the whole folder into the tar: on NNPDF's fit grid (196 x, 57
targets, 6.9 GB of float64 before compression) that is half a minute of
copies and page faults. This writer produces the same archive with fewer
copies:

- eko's Builder still writes everything but the operators (metadata, the
  two cards, the recipes, the empty inventories) into its temporary folder,
  so those files are eko's own;
- each operator goes directly into the tar as the two members eko's
  inventory would have written (``operators/<stem>.yaml``, the header, and
  ``operators/<stem>.npz.lz4``, or ``.npy.lz4`` without errors: an lz4 frame
  of numpy's npz/npy bytes, the names from eko's own ``header_name`` /
  ``operator_name``), the npz streamed through the lz4 compressor without
  an uncompressed copy, its ZIP structure written here (_write_npz: the
  CRC-32 taken slice by slice with the compression, zlib-ng's where
  installed, 6x zlib's; zipfile only for arrays beyond 4 GiB);
- the flavour-basis arrays are filled into buffers reused for every
  target (TargetOperator.flavor_into), not allocated afresh;
- a writer thread compresses and writes one target while the caller (the C
  library, streaming) computes the next: lz4 and zlib's CRC release the
  GIL, so on 2 cores the write hides behind the computation. Two buffer
  pairs bound the memory: put_target waits while both are being written.

eko.EKO.read extracts the archive and finds the same tree as with eko's
writer (ffi/tests/test_eko_file.py compares them). The archive is built
under a hidden name next to its target and published when complete
(ekoc._publish: never over a file that appeared at the target meanwhile,
FileExistsError); eko's files are staged in a folder named by host and pid,
removed before publishing. On any failure nothing is left, neither the
partial file nor the staging folder.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import pathlib
import shutil
import queue
import struct
import tarfile
import threading
import time
import zipfile
import zlib

import numpy as np

from . import _publish


class _Lz4Sink(io.RawIOBase):
    """A write-only, unseekable stream whose bytes go through one lz4 frame
    compressor (lz4.frame's, what eko's reader decompresses); the compressed
    frame is collected in `chunks`."""

    def __init__(self):
        import lz4.frame

        super().__init__()
        self._compressor = lz4.frame.LZ4FrameCompressor(compression_level=LZ4_LEVEL, block_linked=False)
        self.chunks = [self._compressor.begin()]
        self._written = 0

    def writable(self):
        return True

    def write(self, data):
        view = memoryview(data)
        self.chunks.append(self._compressor.compress(view))
        self._written += view.nbytes
        return view.nbytes

    def tell(self):  # zipfile asks where it is; a stream without seek is written with data descriptors
        return self._written

    def frame(self) -> bytes:
        """The complete lz4 frame (call once, after the last write)."""
        self.chunks.append(self._compressor.flush())
        return b"".join(self.chunks)


# lz4's fast mode at acceleration 16: on NNPDF's fit grid a target's two
# arrays compress in 0.03 s instead of 0.05 s at the default level, to 24%
# and 13% of their size instead of 20% and 13%. The frame's 64 KiB blocks are
# independent (block_linked=False): 18 % less time on pineko's grid, 2 %
# more bytes.
LZ4_LEVEL = -16
# slices of an array fed to zip's CRC and then lz4 while still in cache
SLICE_BYTES = 1 << 20
# a member's bytes go into the tar in pieces of this size (tarfile's default, 16 KiB, takes ~90 per operator)
COPY_BYTES = 1 << 22


def _write_npy(stream, array: np.ndarray) -> None:
    """numpy's .npy bytes of a C-contiguous array (the header np.save
    writes, then the data) written in slices from the array's own memory."""
    np.lib.format.write_array_header_1_0(stream, np.lib.format.header_data_from_array_1_0(array))
    data = memoryview(array).cast("B")
    for start in range(0, data.nbytes, SLICE_BYTES):
        stream.write(data[start:start + SLICE_BYTES])


def _crc32_function():
    """zlib-ng's CRC-32 where installed (PyPI zlib-ng: ~6x zlib's on an EKO's
    arrays, the same values), else zlib's."""
    try:
        from zlib_ng import zlib_ng

        return zlib_ng.crc32
    except ImportError:
        return zlib.crc32


crc32 = _crc32_function()
# a ZIP entry's fixed DOS time and date (1980-01-01 00:00): the same bytes for the same arrays
_DOS_TIME, _DOS_DATE = 0, (1 << 5) | 1
# "version made by": Unix (3), ZIP 2.0, so that the external attributes read as a file mode (0644)
_MADE_BY_UNIX = (3 << 8) | 20
# sizes from here on need ZIP64 records: such archives are left to zipfile
_ZIP32_LIMIT = 0xFFFFFFFF - (1 << 20)


def _write_npz(stream, members) -> None:
    """numpy's npz (a stored ZIP archive of .npy members, as np.savez writes
    and np.load reads) of `members` [(name, C-contiguous array)], written to
    `stream` in one pass: each member's local header, then its bytes in slices
    (their CRC-32 taken as they go), then a data descriptor with the CRC and
    the size; last the central directory. No ZIP64 records (callers check
    _ZIP32_LIMIT)."""
    central, offset = [], 0
    for name, array in members:
        raw = name.encode("ascii")
        head = io.BytesIO()
        np.lib.format.write_array_header_1_0(head, np.lib.format.header_data_from_array_1_0(array))
        header = head.getvalue()
        local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0x08, 0, _DOS_TIME, _DOS_DATE, 0, 0, 0, len(raw), 0)
        stream.write(local + raw)
        stream.write(header)
        crc, size = crc32(header), len(header)
        data = memoryview(array).cast("B")
        for start in range(0, data.nbytes, SLICE_BYTES):
            piece = data[start:start + SLICE_BYTES]
            crc = crc32(piece, crc)
            stream.write(piece)
        size += data.nbytes
        stream.write(struct.pack("<IIII", 0x08074B50, crc, size, size))
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, _MADE_BY_UNIX, 20, 0x08, 0, _DOS_TIME, _DOS_DATE,
                                   crc, size, size, len(raw), 0, 0, 0, 0, 0o644 << 16, offset) + raw)
        offset += len(local) + len(raw) + size + 16
    directory = b"".join(central)
    stream.write(directory)
    stream.write(struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(central), len(central), len(directory), offset, 0))


def operator_bytes(value: np.ndarray, error: np.ndarray | None) -> bytes:
    """The content of eko's operator file: an lz4 frame of numpy's npz with
    members ``operator`` and ``error`` (np.load reads it as np.savez's), or
    of the npy of `value` alone when `error` is None."""
    value = np.ascontiguousarray(value, dtype=np.float64)
    sink = _Lz4Sink()
    if error is None:
        _write_npy(sink, value)
        return sink.frame()
    error = np.ascontiguousarray(error, dtype=np.float64)
    if value.nbytes + error.nbytes < _ZIP32_LIMIT:
        _write_npz(sink, (("operator.npy", value), ("error.npy", error)))
        return sink.frame()
    with zipfile.ZipFile(sink, mode="w", compression=zipfile.ZIP_STORED, allowZip64=True) as archive:
        for name, array in (("operator", value), ("error", error)):
            with archive.open(name + ".npy", mode="w", force_zip64=True) as member:
                _write_npy(member, array)
    return sink.frame()


def _recipes(theory, operator) -> list:
    """The recipes eko.runner.recipes.create lists for the cards, by the
    function create() calls (eko 0.15.7's ``_create``), from the card objects
    in hand: create() reads both cards back from the YAML files the Builder
    has just written, three YAML parses, ~40 ms of a ~250 ms theory of
    NNPDF's database on pineko's grid (measured while CI ran alongside).
    test_ekotar compares the archive with eko's own writer's."""
    from eko.runner import commons, recipes

    return recipes._create(operator.evolgrid, commons.atlas(theory, operator))


class EkoTarWriter:
    """Writes an EKO archive at `path` (checked by the caller: a new .tar in
    an existing folder) from eko card objects `theory` and `operator`.

        with EkoTarWriter(theory, operator, path) as writer:
            writer.put_target(target)            # a TargetOperator, or
            writer.put(ep, value, error)         # arrays (14, nx, 14, nx)

    The file appears at `path` when the block ends without an exception;
    otherwise nothing is left (the partial archive and eko's folder are
    removed and the exception goes on). A failure of the writer thread (a
    full disk) is raised by the next put / put_target or at the end."""

    BUFFER_PAIRS = 2

    def __init__(self, theory, operator, path: pathlib.Path, extra_members=()):
        self.theory, self.operator, self.path = theory, operator, pathlib.Path(path)
        self.partial = _publish.partial_name(self.path)  # host and pid in the name: _publish.remove_stale
        # [(name, dict or None)]: JSON members written at the end, as the dicts are then (ekoc._ekofile's
        # metadata and job record; None: no member)
        self.extra_members = list(extra_members)
        self._builder = self._tar = self._out = self._thread = self._staging = None
        self._free = queue.Queue()  # buffer pairs not being written
        self._todo = queue.Queue()  # (header, value, error, pair or None); None ends the thread
        self._failure: BaseException | None = None
        self._cancelled = False  # the caller failed: what is still queued is not written
        self._nx = None
        self._written = set()

    def __enter__(self):
        from eko.io.access import AccessConfigs
        from eko.io.struct import Builder

        try:
            # eko.EKO.create's Builder, in a staging folder named by host and pid (_publish.make_staging)
            self._staging = _publish.make_staging()
            self._builder = Builder(path=self._staging, access=AccessConfigs(self.partial, readonly=False, open=True))
            eko_file = self._builder.load_cards(self.theory, self.operator).build()
            eko_file.load_recipes(_recipes(self.theory, self.operator))  # written by eko into its folder
            self._folder = pathlib.Path(eko_file.metadata.path)
            self._operators_dir = pathlib.Path(eko_file.operators.path).relative_to(self._folder)
            self._out = _publish.WriteBehind(self.partial)  # on the disk as it is written
            self._tar = tarfile.open(fileobj=self._out, mode="w", copybufsize=COPY_BYTES)
            self._thread = threading.Thread(target=self._write_loop, name="ekoc-eko-writer", daemon=True)
            self._thread.start()
        except BaseException:
            self._cleanup()
            raise
        return self

    # ---- the writer thread ------------------------------------------------------------

    def _member(self, name: str, data: bytes) -> None:
        info = tarfile.TarInfo(f"./{self._operators_dir.as_posix()}/{name}")
        info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
        info.uid, info.gid = os.getuid(), os.getgid()
        self._tar.addfile(info, io.BytesIO(data))

    def _write_one(self, header, value, error) -> None:
        import yaml
        from eko.io.inventory import header_name, operator_name

        self._member(header_name(header), yaml.dump(dataclasses.asdict(header)).encode("utf-8"))
        self._member(operator_name(header, err=error is not None), operator_bytes(value, error))

    def _write_loop(self) -> None:
        while True:
            item = self._todo.get()
            if item is None:
                self._todo.task_done()
                return
            header, value, error, pair = item
            try:
                if self._failure is None and not self._cancelled:  # else only hand the buffers back
                    self._write_one(header, value, error)
            except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
                self._failure = exc
            finally:
                if pair is not None:
                    self._free.put(pair)
                self._todo.task_done()

    def _raise_failure(self) -> None:
        if self._failure is not None:
            raise self._failure

    def _stop_thread(self) -> None:
        if self._thread is not None:
            self._todo.put(None)
            self._thread.join()
            self._thread = None

    # ---- the caller's side ------------------------------------------------------------

    def _header(self, ep):
        from eko.io.items import Target

        header = Target.from_ep(ep)
        if header in self._written:
            raise ValueError(f"EkoTarWriter: target {ep} was already written")
        self._written.add(header)
        return header

    def put(self, ep, value: np.ndarray, error: np.ndarray | None) -> None:
        """Writes the operator (and error) of target ep = (mu^2, nf) before
        returning (the arrays stay the caller's); a target already written
        is refused (eko would overwrite it)."""
        self._raise_failure()
        self._todo.put((self._header(ep), value, error, None))
        self._todo.join()  # everything queued so far is written
        self._raise_failure()

    def put_target(self, target) -> None:
        """Writes a TargetOperator's values and errors, expanded to eko's
        flavour basis in a reused buffer pair; returns once the write is
        queued (the target's arrays are copied out by then)."""
        self._raise_failure()
        nx = len(target.xgrid)
        if self._nx is None:
            self._nx = nx
            for _ in range(self.BUFFER_PAIRS):
                self._free.put((np.empty((14, nx, 14, nx)), np.empty((14, nx, 14, nx))))
        elif nx != self._nx:
            raise ValueError(f"EkoTarWriter.put_target: target {target.ep} has {nx} x points, the file {self._nx}")
        header = self._header(target.ep)
        pair = self._free.get()
        target.flavor_into(*pair)
        self._todo.put((header, pair[0], pair[1], pair))

    def __exit__(self, exc_type, exc, tb):
        self._cancelled = exc_type is not None
        try:
            self._stop_thread()
            if exc_type is None:
                self._raise_failure()
                for name, record in self.extra_members:
                    if record is not None:
                        (self._folder / name).write_text(json.dumps(record), encoding="utf-8")
                self._tar.add(self._folder, arcname=".")  # eko's own files: metadata, cards, recipes, folders
                self._tar.close()
                self._tar = None
                self._out.close()  # the rest on the disk before the file has its name
                self._out = None
                shutil.rmtree(self._staging, ignore_errors=True)  # before publishing: nothing left over
                _publish.publish(self.partial, self.path)  # FileExistsError: a file appeared at path
        finally:
            self._cleanup()
        return False

    def _cleanup(self) -> None:
        self._stop_thread()
        if self._tar is not None:
            try:
                self._tar.close()
            except OSError:
                pass
            self._tar = None
        if self._out is not None:
            self._out.abandon()
            self._out = None
        if self._staging is not None:
            shutil.rmtree(self._staging, ignore_errors=True)  # the staging folder (eko leaves it on a failure)
        try:
            self.partial.unlink()
        except OSError:  # renamed into place, or never made
            pass
