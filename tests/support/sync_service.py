"""The device side of adb's ``sync:`` service (file transfer), over one Stream.

Requests are an id, a little-endian length and that many bytes (a path). Answers follow
AOSP's file_sync_protocol.h: STAT (v1), STA2/LST2 (stat_v2), DENT/DNT2 listings ended by
DONE, SEND (path,mode then DATA chunks then DONE+mtime, answered OKAY or FAIL), RECV (DATA
chunks then DONE, or FAIL).
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

from tests.support.adb_protocol import ConnectionClosed, Stream
from tests.support.device_sandbox import DeviceSandbox

SYNC_DATA_MAX = 64 * 1024
_STAT_V2 = struct.Struct("<IQQIIIIQqqq")  # error dev ino mode nlink uid gid size atime mtime ctime


def _stat_v2(path: Path, follow: bool) -> bytes:
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError as exc:
        return _STAT_V2.pack(exc.errno or 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    return _STAT_V2.pack(
        0, st.st_dev, st.st_ino, st.st_mode, st.st_nlink, st.st_uid, st.st_gid,
        st.st_size, int(st.st_atime), int(st.st_mtime), int(st.st_ctime),
    )  # fmt: skip


def _stat_v1(path: Path) -> bytes:
    try:
        st = os.lstat(path)
    except OSError:
        return struct.pack("<III", 0, 0, 0)
    return struct.pack("<III", st.st_mode, st.st_size & 0xFFFFFFFF, int(st.st_mtime))


def _list(stream: Stream, folder: Path, v2: bool) -> None:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in [".", "..", *names]:
        encoded = name.encode()
        if v2:
            body = _stat_v2(folder / name, follow=False)
            stream.write(b"DNT2" + body + struct.pack("<I", len(encoded)) + encoded)
        else:
            stream.write(b"DENT" + _stat_v1(folder / name) + struct.pack("<I", len(encoded)) + encoded)
    stream.write(b"DONE" + bytes(_STAT_V2.size + 4 if v2 else 16))


def _fail(stream: Stream, message: str) -> None:
    encoded = message.encode()
    stream.write(b"FAIL" + struct.pack("<I", len(encoded)) + encoded)


def _receive_file(stream: Stream, spec: str, sandbox: DeviceSandbox) -> None:
    remote, _, mode_text = spec.rpartition(",")
    target = sandbox.to_host(remote or spec)
    mode = int(mode_text) if mode_text.isdigit() else 0o644
    error = None
    handle = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle = open(target, "wb")
    except OSError as exc:
        error = f"couldn't create file: {exc.strerror}"
    while True:
        kind, length = struct.unpack("<4sI", stream.read_exact(8))
        if kind == b"DATA":
            data = stream.read_exact(length)
            if handle:
                handle.write(data)
        elif kind == b"DONE":  # length is the mtime here
            break
        else:
            error = f"unexpected {kind!r} in SEND"
            break
    if handle:
        handle.close()
        os.chmod(target, mode & 0o7777)
        os.utime(target, (length, length))
    if error:
        _fail(stream, error)
    else:
        stream.write(b"OKAY" + bytes(4))


def _send_file(stream: Stream, path: Path) -> None:
    try:
        handle = open(path, "rb")
    except OSError as exc:
        _fail(stream, f"remote object does not exist: {exc.strerror}")
        return
    with handle:
        for chunk in iter(lambda: handle.read(SYNC_DATA_MAX), b""):
            stream.write(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
    stream.write(b"DONE" + bytes(4))


def serve_sync(stream: Stream, sandbox: DeviceSandbox) -> None:
    while True:
        try:
            kind, length = struct.unpack("<4sI", stream.read_exact(8))
        except ConnectionClosed:
            return
        if kind == b"QUIT":
            return
        argument = stream.read_exact(length).decode(errors="surrogateescape")
        if kind == b"STAT":
            stream.write(b"STAT" + _stat_v1(sandbox.to_host(argument)))
        elif kind in (b"STA2", b"LST2"):
            stream.write(kind + _stat_v2(sandbox.to_host(argument), follow=kind == b"STA2"))
        elif kind in (b"LIST", b"LIS2"):
            _list(stream, sandbox.to_host(argument), v2=kind == b"LIS2")
        elif kind == b"SEND":
            _receive_file(stream, argument, sandbox)
        elif kind == b"RECV":
            _send_file(stream, sandbox.to_host(argument))
        else:
            _fail(stream, f"unknown sync request {kind!r}")
            return
