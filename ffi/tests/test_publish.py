"""Publishing a finished file without replacing another, and removing what
killed writers left (issue 33 items 1-2; ekoc._publish). No eko needed.

publish() is exclusive on each of its three ways (renameat2 with
RENAME_NOREPLACE, link + unlink, an O_EXCL copy): a file at the target is
left as it is and FileExistsError names it. remove_stale() removes only
ekoc's staging names of this host whose process is gone."""

import errno
import os
import subprocess
import sys

import pytest

from ekoc import _publish

WAYS = ["renameat2", "link", "copy"]


@pytest.fixture(params=WAYS)
def way(request, monkeypatch):
    """publish() restricted to one of its ways (the others 'not available here')."""
    if request.param != "renameat2":
        monkeypatch.setattr(_publish, "_renameat2_noreplace", lambda src, dst: False)
    if request.param == "copy":
        def no_links(src, dst, **kwargs):
            raise OSError(errno.EPERM, "hard links not supported (simulated)")

        monkeypatch.setattr(os, "link", no_links)
    return request.param


def test_publish_to_a_free_name(tmp_path, way):
    partial, path = tmp_path / ".x.partial", tmp_path / "x.tar"
    partial.write_bytes(b"complete")
    _publish.publish(partial, path)
    assert path.read_bytes() == b"complete" and not partial.exists()


def test_publish_never_replaces(tmp_path, way):
    partial, path = tmp_path / ".x.partial", tmp_path / "x.tar"
    partial.write_bytes(b"mine")
    path.write_bytes(b"someone else's")
    with pytest.raises(FileExistsError) as info:
        _publish.publish(partial, path)
    assert info.value.errno == errno.EEXIST and info.value.filename == str(path)
    assert path.read_bytes() == b"someone else's" and partial.read_bytes() == b"mine"


def test_publish_never_replaces_a_dangling_link(tmp_path, way):
    partial, path = tmp_path / ".x.partial", tmp_path / "x.tar"
    partial.write_bytes(b"mine")
    path.symlink_to(tmp_path / "nowhere")
    with pytest.raises(FileExistsError):
        _publish.publish(partial, path)
    assert path.is_symlink() and os.readlink(path) == str(tmp_path / "nowhere")


def test_renameat2_is_used_where_available(tmp_path):
    partial, path = tmp_path / ".x.partial", tmp_path / "x.tar"
    partial.write_bytes(b"complete")
    if not _publish._renameat2_noreplace(str(partial), str(path)):
        pytest.skip("renameat2(RENAME_NOREPLACE) is not available here (the link fallback is tested instead)")
    assert path.read_bytes() == b"complete"


def _dead_pid() -> int:
    """The pid of a process that has exited and been reaped."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_remove_stale_takes_only_dead_processes_of_this_host(tmp_path):
    host, dead, alive = _publish._host(), _dead_pid(), os.getppid()
    names = {
        f"ekoc-staging-{host}-{dead}-abc123": True,  # a killed writer's staging folder
        f".out.ekoc-{host}-{dead}-0123456789ab.tar": True,  # its partial tar
        f"ekoc-staging-{host}-{alive}-abc123": False,  # a live process's
        f"ekoc-staging-{host}-{os.getpid()}-abc123": False,  # this process's own
        f".out.ekoc-{host}-{alive}-0123456789ab.tar": False,
        f"ekoc-staging-otherhost{host}-{dead}-abc123": False,  # another host's (a shared folder)
        f"eko-{dead}": False,  # not ekoc's name
        f"ekoc-staging-{host}-{dead}": False,  # not the full pattern
        f"out.ekoc-{host}-{dead}-0123456789ab.tar": False,  # not hidden: not a partial ekoc writes
    }
    for name in names:
        if name.endswith(".tar"):
            (tmp_path / name).write_bytes(b"x")
        else:
            (tmp_path / name).mkdir()
            (tmp_path / name / "inside").write_bytes(b"x")
    removed = _publish.remove_stale(tmp_path, tmp_path / "no such folder")
    assert sorted(p.name for p in removed) == sorted(n for n, gone in names.items() if gone)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(n for n, gone in names.items() if not gone)


def test_remove_stale_leaves_a_symlink_named_like_staging(tmp_path):
    host, dead = _publish._host(), _dead_pid()
    target = tmp_path / "precious"
    target.mkdir()
    (target / "data").write_bytes(b"x")
    (tmp_path / f"ekoc-staging-{host}-{dead}-abc123").symlink_to(target)
    assert _publish.remove_stale(tmp_path) == []
    assert (target / "data").read_bytes() == b"x"


def test_write_behind_sends_each_stretch_to_the_disk(tmp_path, monkeypatch):
    """WriteBehind: every WRITE_BEHIND_BYTES written are synced and dropped
    from the page cache, the rest at close(); the bytes are the file's."""
    synced, dropped = [], []
    monkeypatch.setattr(_publish, "WRITE_BEHIND_BYTES", 1000)
    real_sync = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (synced.append(os.fstat(fd).st_size), real_sync(fd)))
    monkeypatch.setattr(os, "posix_fadvise", lambda fd, off, n, advice: dropped.append((off, n, advice)))
    path = tmp_path / ".x.partial"
    out = _publish.WriteBehind(path)
    data = bytes(range(256)) * 10  # 2560 bytes in pieces of 640
    for i in range(4):
        assert out.write(data[640 * i:640 * (i + 1)]) == 640
        assert out.tell() == 640 * (i + 1)
    drop = os.POSIX_FADV_DONTNEED
    assert synced == [1280, 2560] and dropped == [(0, 1280, drop), (1280, 1280, drop)]
    out.write(b"end")
    out.close()
    assert synced[-1] == 2563 and dropped[-1] == (2560, 3, drop)
    out.abandon()  # after close(): nothing
    assert path.read_bytes() == data + b"end"


def test_write_behind_abandon_closes_without_syncing(tmp_path, monkeypatch):
    synced = []
    monkeypatch.setattr(os, "fdatasync", lambda fd: synced.append(fd))
    out = _publish.WriteBehind(tmp_path / ".x.partial")
    out.write(b"partial")
    out.abandon()
    assert synced == [] and (tmp_path / ".x.partial").read_bytes() == b"partial"


def test_write_behind_on_a_file_system_without_fdatasync(tmp_path, monkeypatch):
    """A file system that refuses fdatasync (ENOTSUP, some FUSE ones): the
    file is written in full without the trips to the disk; a real failure
    (EIO) is raised."""
    calls = []

    def refuse(fd):
        calls.append(fd)
        raise OSError(errno.ENOTSUP, "not supported (simulated)")

    monkeypatch.setattr(_publish, "WRITE_BEHIND_BYTES", 4)
    monkeypatch.setattr(os, "fdatasync", refuse)
    out = _publish.WriteBehind(tmp_path / ".x.partial")
    for _ in range(3):
        out.write(b"12345")
    out.close()
    assert len(calls) == 1 and (tmp_path / ".x.partial").read_bytes() == b"12345" * 3

    def broken(fd):
        raise OSError(errno.EIO, "I/O error (simulated)")

    monkeypatch.setattr(os, "fdatasync", broken)
    out = _publish.WriteBehind(tmp_path / ".y.partial")
    with pytest.raises(OSError) as info:
        out.write(b"12345")
    assert info.value.errno == errno.EIO
    out.abandon()


@pytest.mark.skipif(not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK), reason="no writable /dev/shm")
def test_write_behind_keeps_a_tmpfs_file(monkeypatch):
    """On tmpfs the page cache is the file: fadvise(DONTNEED) must not drop it
    (the kernel ignores it there); every byte read back."""
    monkeypatch.setattr(_publish, "WRITE_BEHIND_BYTES", 1 << 16)
    data = os.urandom(1 << 20)
    path = f"/dev/shm/.ekoc-test-write-behind-{os.getpid()}"
    try:
        out = _publish.WriteBehind(path)
        for i in range(0, len(data), 1 << 14):
            out.write(data[i:i + (1 << 14)])
        out.close()
        with open(path, "rb") as f:
            assert f.read() == data
    finally:
        if os.path.exists(path):
            os.unlink(path)


def test_write_behind_as_a_context_manager(tmp_path, monkeypatch):
    """The block ending normally: close() (the rest synced); an exception:
    abandon() (closed, nothing synced) and the exception goes on."""
    synced = []
    real_sync = os.fdatasync
    monkeypatch.setattr(os, "fdatasync", lambda fd: (synced.append(fd), real_sync(fd)))
    with _publish.WriteBehind(tmp_path / ".a.partial") as out:
        out.write(b"complete")
    assert len(synced) == 1 and (tmp_path / ".a.partial").read_bytes() == b"complete"
    with pytest.raises(RuntimeError):
        with _publish.WriteBehind(tmp_path / ".b.partial") as out:
            out.write(b"half")
            raise RuntimeError("writer failed")
    assert len(synced) == 1 and (tmp_path / ".b.partial").read_bytes() == b"half"
