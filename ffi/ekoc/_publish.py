"""Putting a finished file at its path without ever replacing another one,
and removing what writers that died (kill -9, a lost node) left behind.

publish(partial, path) gives the complete file `partial` the name `path`
only if nothing is there: renameat2(RENAME_NOREPLACE) where the kernel and
the file system have it, else a hard link (link() fails on an existing
name) and the unlink of `partial`, else (a file system without hard
links) a copy into a file created with O_EXCL. Each step is refused by the
kernel when `path` exists, so a file another process put there while ekoc
was computing is never touched: FileExistsError names the path. os.replace,
which this replaces, overwrote such a file without a word.

The partial files are written through WriteBehind: on the disk as they are
written (fdatasync every WRITE_BEHIND_BYTES, then dropped from the page
cache), all of it before publish() gives the file its name.

Temporary names carry the host and the process id of their writer:

- ``ekoc-staging-<host>-<pid>-<random>``: eko's working folder, in
  tempfile's directory ($TMPDIR);
- ``.<name>.ekoc-<host>-<pid>-<random>.tar``: the tar being written, next
  to its target.

A writer removes them itself on every exit it sees (an exception, Ctrl-C,
SIGTERM: ekoc._sigterm). What kill -9 leaves, remove_stale finds: it
removes only names of this pattern, of this host, owned by this user,
whose process no longer exists (a live process, or one this user cannot
signal, keeps its files). Every EKO write runs it first on both folders.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import pathlib
import re
import secrets
import shutil
import socket
import stat
import tempfile

#: renameat2's flag (linux/fs.h) and the "current directory" file descriptor
_RENAME_NOREPLACE = 1
_AT_FDCWD = -100
#: errors saying "this call or flag is not available here", not "it failed":
#: the next, still exclusive, way is tried
_NOT_HERE = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EPERM, errno.EXDEV, errno.EMLINK}
STAGING_PREFIX = "ekoc-staging-"


def _host() -> str:
    """This host's name as it may appear in a file name."""
    return re.sub(r"[^A-Za-z0-9._]", "_", socket.gethostname()) or "localhost"


def _renameat2_noreplace(src: str, dst: str) -> bool:
    """renameat2(src, dst, RENAME_NOREPLACE): True when renamed, False when
    it is not available here; FileExistsError when dst exists."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):  # not Linux, or a C library before glibc 2.28
        return False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    if fn(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), _RENAME_NOREPLACE) == 0:
        return True
    err = ctypes.get_errno()
    if err == errno.EEXIST:
        raise FileExistsError(err, os.strerror(err), dst)
    if err in _NOT_HERE:
        return False
    raise OSError(err, os.strerror(err), src, None, dst)


def _link(src: str, dst: str) -> bool:
    """link(src, dst) then unlink(src): True when done, False without hard
    links here; FileExistsError when dst exists."""
    try:
        os.link(src, dst, follow_symlinks=False)
    except FileExistsError as exc:  # named by the target (link's own names the source first)
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), dst) from exc
    except OSError as exc:
        if exc.errno in _NOT_HERE:
            return False
        raise
    os.unlink(src)
    return True


def _copy_exclusive(src: str, dst: str) -> None:
    """A copy of src into dst created with O_EXCL (FileExistsError when it
    exists), then src removed. A failed copy removes dst only while dst is
    still the file this call created."""
    fd = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with open(src, "rb") as source, os.fdopen(os.dup(fd), "wb") as target:
            shutil.copyfileobj(source, target, 1 << 20)
            target.flush()
            os.fsync(target.fileno())
    except BaseException:
        mine = os.fstat(fd)
        with contextlib.suppress(OSError):
            now = os.lstat(dst)
            if (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
                os.unlink(dst)
        raise
    finally:
        os.close(fd)
    os.unlink(src)


#: how much a WriteBehind file writes between two trips to the disk
WRITE_BEHIND_BYTES = 16 << 20


class WriteBehind:
    """A partial file (binary, created or truncated) whose bytes go to the
    disk as they are written: every WRITE_BEHIND_BYTES, fdatasync and then
    posix_fadvise(DONTNEED) on what is on the disk, and the same for the rest
    at close(). A published file is then on the disk before it has its name
    (a crash never leaves a short file under the name), and what an EKO
    writer streams out does not pile up in the page cache: a theory database
    writes 12 GB that nobody reads back soon, and the pages it leaves free
    are the next file's. On a VM whose host takes freed guest memory back
    (free page reporting), fresh page-cache pages cost ~2.7 s per GB of
    host faults (perf/STATS.md); reused ones ~0.2 s. Where the file system
    refuses fdatasync or fadvise (EINVAL, ENOTSUP...), the file is written as
    a plain one. For tarfile: write, tell, flush; closed only by close()
    (tarfile leaves a file object it was given open). As a context manager:
    close() when the block ends normally, abandon() after an exception."""

    def __init__(self, path: os.PathLike):
        self._file = open(path, "wb")  # noqa: SIM115 - closed by close()
        self._pending = 0  # bytes written since the last trip to the disk
        self._on_disk = 0  # bytes already on the disk and dropped from the page cache
        self._trips = True  # False where the file system has no fdatasync / fadvise: plain writes

    def write(self, data) -> int:
        n = self._file.write(data)
        self._pending += n
        if self._pending >= WRITE_BEHIND_BYTES:
            self._to_disk()
        return n

    def tell(self) -> int:
        return self._file.tell()

    def flush(self) -> None:
        self._file.flush()

    def _to_disk(self) -> None:
        self._file.flush()
        self._pending = 0
        if not self._trips:
            return
        fd, end = self._file.fileno(), self._file.tell()
        try:
            (os.fdatasync if hasattr(os, "fdatasync") else os.fsync)(fd)
            if hasattr(os, "posix_fadvise"):
                os.posix_fadvise(fd, self._on_disk, end - self._on_disk, os.POSIX_FADV_DONTNEED)
        except OSError as exc:  # a file system without them (some FUSE ones): the file is written as usual
            if exc.errno not in _NOT_HERE | {errno.ESPIPE}:
                raise
            self._trips = False
        self._on_disk = end

    def close(self) -> None:
        """The rest to the disk, then the file closed (also after an error)."""
        try:
            if not self._file.closed:
                self._to_disk()
        finally:
            self._file.close()

    def abandon(self) -> None:
        """Closed without the trip to the disk (a write that failed: the partial goes)."""
        with contextlib.suppress(OSError):
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None:
            self.close()
        else:
            self.abandon()
        return False


def publish(partial: os.PathLike, path: os.PathLike) -> None:
    """Names the complete file `partial` `path` if, and only if, nothing is
    at `path` (see the module's docstring); FileExistsError (errno EEXIST,
    filename `path`) leaves both files as they are."""
    src, dst = os.fspath(partial), os.fspath(path)
    if _renameat2_noreplace(src, dst) or _link(src, dst):
        return
    _copy_exclusive(src, dst)


def partial_name(path: pathlib.Path) -> pathlib.Path:
    """The hidden name a tar for `path` is written under (next to it)."""
    return path.parent / f".{path.stem}.ekoc-{_host()}-{os.getpid()}-{secrets.token_hex(6)}.tar"


def make_staging() -> pathlib.Path:
    """A new folder for eko's files (tempfile's directory), named by host and pid."""
    return pathlib.Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{_host()}-{os.getpid()}-"))


def _alive(pid: int) -> bool:
    """False only when no process `pid` exists (signal 0 says so)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: another user's process; anything else: unsure
        return True
    return True


def remove_stale(*folders: os.PathLike) -> list[pathlib.Path]:
    """Removes from `folders` the staging folders and partial tars of this
    host's ekoc processes that no longer exist (module docstring); returns
    what it removed. Never raises: a folder it cannot list is skipped."""
    host = re.escape(_host())
    staging = re.compile(rf"{re.escape(STAGING_PREFIX)}{host}-(\d+)-[A-Za-z0-9_]+")
    partial = re.compile(rf"\..*\.ekoc-{host}-(\d+)-[0-9a-f]{{12}}\.tar")
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    removed = []
    for folder in dict.fromkeys(os.fspath(f) for f in folders):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            m_dir, m_tar = staging.fullmatch(entry.name), partial.fullmatch(entry.name)
            m = m_dir or m_tar
            if m is None or _alive(int(m.group(1))):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
                if uid is not None and st.st_uid != uid:
                    continue
                if m_dir and stat.S_ISDIR(st.st_mode):
                    shutil.rmtree(entry.path)
                elif m_tar and stat.S_ISREG(st.st_mode):
                    os.unlink(entry.path)
                else:
                    continue
                removed.append(pathlib.Path(entry.path))
            except OSError:  # another cleaner got there first, or it cannot be removed: leave it
                continue
    return removed
