"""The adb transport protocol, device side: message framing and flow-controlled streams.

Follows AOSP's system/core/adb/protocol.txt: a 24-byte little-endian header (command, arg0,
arg1, data length, data checksum, magic = command ^ 0xffffffff) then the payload. Each WRTE
must be answered by OKAY before the sender writes again on that stream.
"""

from __future__ import annotations

import socket
import struct
import threading


def _cmd(name: bytes) -> int:
    return struct.unpack("<I", name)[0]


A_CNXN, A_AUTH, A_OPEN = _cmd(b"CNXN"), _cmd(b"AUTH"), _cmd(b"OPEN")
A_OKAY, A_CLSE, A_WRTE = _cmd(b"OKAY"), _cmd(b"CLSE"), _cmd(b"WRTE")
A_VERSION = 0x01000001  # skips checksums, 1 MiB payloads
MAX_PAYLOAD = 1024 * 1024
AUTH_TOKEN, AUTH_SIGNATURE, AUTH_RSAPUBLICKEY = 1, 2, 3
HEADER = struct.Struct("<6I")


class ConnectionClosed(Exception):
    pass


def pack(command: int, arg0: int, arg1: int, data: bytes = b"") -> bytes:
    checksum = sum(data) & 0xFFFFFFFF
    return HEADER.pack(command, arg0, arg1, len(data), checksum, command ^ 0xFFFFFFFF) + data


def recv_exact(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(left)
        if not chunk:
            raise ConnectionClosed
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def read_message(sock: socket.socket) -> tuple[int, int, int, bytes]:
    command, arg0, arg1, length, _checksum, magic = HEADER.unpack(recv_exact(sock, HEADER.size))
    if magic != command ^ 0xFFFFFFFF:
        raise ConnectionClosed(f"bad magic for command {command:#x}")
    return command, arg0, arg1, recv_exact(sock, length) if length else b""


class Stream:
    """One open service: bytes in (WRTE from the host), bytes out (our WRTE, one at a time until OKAY)."""

    def __init__(self, transport, local_id: int, remote_id: int):
        self.transport = transport
        self.local_id = local_id
        self.remote_id = remote_id
        self._buffer = bytearray()
        self._cond = threading.Condition()
        self._closed = False
        self._acked = threading.Event()
        self._acked.set()
        self._write_lock = threading.Lock()  # one message at a time, never interleaved
        self.closed_event = threading.Event()

    # host -> device
    def feed(self, data: bytes) -> None:
        with self._cond:
            self._buffer.extend(data)
            self._cond.notify_all()

    def on_ack(self) -> None:
        self._acked.set()

    def on_close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._acked.set()
        self.closed_event.set()

    @property
    def closed(self) -> bool:
        return self._closed

    def read_exact(self, size: int) -> bytes:
        with self._cond:
            while len(self._buffer) < size:
                if self._closed:
                    raise ConnectionClosed
                self._cond.wait()
            data = bytes(self._buffer[:size])
            del self._buffer[:size]
            return data

    def read_some(self) -> bytes:
        with self._cond:
            while not self._buffer:
                if self._closed:
                    raise ConnectionClosed
                self._cond.wait()
            data = bytes(self._buffer)
            self._buffer.clear()
            return data

    # device -> host
    def write(self, data: bytes) -> None:
        step = self.transport.max_payload
        with self._write_lock:
            for start in range(0, len(data), step):
                self._acked.wait()
                if self._closed:
                    raise ConnectionClosed
                self._acked.clear()
                self.transport.send(A_WRTE, self.local_id, self.remote_id, data[start : start + step])

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.closed_event.set()
            self.transport.send(A_CLSE, self.local_id, self.remote_id)
            self.transport.forget(self.local_id)
