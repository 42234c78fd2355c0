"""An emulated adb device: a small adbd over TCP on 127.0.0.1 that the real ``adb`` client connects to.

Services: ``shell,v2:`` (stdout/stderr/exit packets), ``shell:`` (v1, raw), ``sync:`` (STAT, STA2,
LST2, LIST, LIS2, SEND/DATA/DONE, RECV, QUIT). No AUTH unless ``unauthorized=True``, in which
case it answers every CNXN and signature with a new token, as a phone whose user never accepts.
Commands run on the host inside a DeviceSandbox. ``kill()`` drops every connection and process
at once (a device unplugged mid-run); ``freeze()`` keeps the sockets open but answers nothing.

Run standalone: ``python -m tests.support.fake_adbd --root DIR [--kind board] [--port N]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from tests.support.adb_protocol import (
    A_AUTH,
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_VERSION,
    A_WRTE,
    AUTH_SIGNATURE,
    AUTH_TOKEN,
    MAX_PAYLOAD,
    ConnectionClosed,
    Stream,
    pack,
    read_message,
)
from tests.support.device_sandbox import DeviceSandbox
from tests.support.sync_service import serve_sync

FEATURES = "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir"
SHELL_STDIN, SHELL_STDOUT, SHELL_STDERR, SHELL_EXIT, SHELL_CLOSE_STDIN = 0, 1, 2, 3, 4


class Transport:
    """One TCP connection from the adb server: handshake, then a stream per OPEN."""

    def __init__(self, device: FakeAdbd, sock: socket.socket):
        self.device = device
        self.sock = sock
        self.max_payload = 4096
        self.streams: dict[int, Stream] = {}
        self._send_lock = threading.Lock()
        self._next_id = 1

    def send(self, command: int, arg0: int, arg1: int, data: bytes = b"") -> None:
        if self.device.frozen:
            return
        with self._send_lock:
            try:
                self.sock.sendall(pack(command, arg0, arg1, data))
            except OSError as exc:
                raise ConnectionClosed from exc

    def forget(self, local_id: int) -> None:
        self.streams.pop(local_id, None)

    def serve(self) -> None:
        try:
            while True:
                command, arg0, arg1, data = read_message(self.sock)
                if not self.device.frozen:
                    self._dispatch(command, arg0, arg1, data)
        except (ConnectionClosed, OSError):
            pass
        finally:
            for stream in list(self.streams.values()):
                stream.on_close()
            self.sock.close()

    def _dispatch(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if command == A_CNXN:
            self.max_payload = min(arg1 or 4096, MAX_PAYLOAD)
            if self.device.unauthorized:
                self.send(A_AUTH, AUTH_TOKEN, 0, os.urandom(20))
            else:
                self.send(A_CNXN, A_VERSION, MAX_PAYLOAD, self.device.banner().encode())
        elif command == A_AUTH:
            if arg0 == AUTH_SIGNATURE:  # every signature is wrong: the user never accepted this host
                self.send(A_AUTH, AUTH_TOKEN, 0, os.urandom(20))
        elif command == A_OPEN and not self.device.unauthorized:
            self._open(arg0, data.rstrip(b"\0").decode(errors="replace"))
        elif command in (A_OKAY, A_WRTE, A_CLSE):
            stream = self.streams.get(arg1)
            if stream is None:
                return
            if command == A_OKAY:
                stream.remote_id = arg0
                stream.on_ack()
            elif command == A_WRTE:
                stream.feed(data)
                self.send(A_OKAY, stream.local_id, stream.remote_id)
            else:
                stream.on_close()
                self.forget(stream.local_id)

    def _open(self, remote_id: int, name: str) -> None:
        service, _, argument = name.partition(":")
        options = service.split(",")
        if options[0] not in ("shell", "sync", "exec"):
            self.send(A_CLSE, 0, remote_id)
            return
        local_id, self._next_id = self._next_id, self._next_id + 1
        stream = Stream(self, local_id, remote_id)
        self.streams[local_id] = stream
        self.send(A_OKAY, local_id, remote_id)
        if options[0] == "sync":
            target, args = serve_sync, (stream, self.device.sandbox)
        else:
            target, args = self.device.run_shell, (stream, argument, "v2" in options[1:])
        threading.Thread(target=_guarded, args=(target, stream, *args), daemon=True).start()


def _guarded(target, stream: Stream, *args) -> None:
    try:
        target(*args)
    except ConnectionClosed:
        pass
    finally:
        try:
            stream.close()
        except ConnectionClosed:
            pass


def _shell_packet(kind: int, data: bytes) -> bytes:
    return bytes([kind]) + len(data).to_bytes(4, "little") + data


class FakeAdbd:
    """The emulated device. ``start()`` returns the port; its serial is ``127.0.0.1:PORT``."""

    def __init__(self, sandbox: DeviceSandbox, *, unauthorized: bool = False, port: int = 0):
        self.sandbox = sandbox
        self.unauthorized = unauthorized
        self.frozen = False
        self._listener = socket.create_server(("127.0.0.1", port))
        self.port = self._listener.getsockname()[1]
        self._transports: list[Transport] = []
        self._processes: list[subprocess.Popen] = []
        self._lock = threading.Lock()
        self.commands: list[str] = []  # every shell command received, for tests to inspect

    @property
    def serial(self) -> str:
        return f"127.0.0.1:{self.port}"

    def banner(self) -> str:
        props = self.sandbox.props if self.sandbox.kind == "phone" else {}
        name = props.get("ro.product.name", "board")
        model = props.get("ro.product.model", "linux_board").replace(" ", "_")
        device = props.get("ro.product.device", "board")
        return f"device::ro.product.name={name};ro.product.model={model};ro.product.device={device};features={FEATURES}"

    def start(self) -> int:
        threading.Thread(target=self._accept, daemon=True).start()
        return self.port

    def _accept(self) -> None:
        while True:
            try:
                sock, _ = self._listener.accept()
            except OSError:
                return
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            transport = Transport(self, sock)
            with self._lock:
                self._transports.append(transport)
            threading.Thread(target=transport.serve, daemon=True).start()

    def run_shell(self, stream: Stream, command: str, v2: bool) -> None:
        self.commands.append(command)
        argv, env, cwd = self.sandbox.shell_argv(command)
        proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=cwd, start_new_session=True,
        )  # fmt: skip
        with self._lock:
            self._processes.append(proc)
        pumps = [
            threading.Thread(target=self._pump, args=(stream, proc.stdout, SHELL_STDOUT, v2), daemon=True),
            threading.Thread(target=self._pump, args=(stream, proc.stderr, SHELL_STDERR, v2), daemon=True),
        ]
        for pump in pumps:
            pump.start()
        threading.Thread(target=self._stdin, args=(stream, proc, v2), daemon=True).start()
        threading.Thread(target=self._hang_up, args=(stream, proc), daemon=True).start()
        code = proc.wait()
        for pump in pumps:
            pump.join()
        if v2 and not stream.closed:
            stream.write(_shell_packet(SHELL_EXIT, bytes([code & 0xFF])))

    def _pump(self, stream: Stream, pipe, kind: int, v2: bool) -> None:
        try:
            for chunk in iter(lambda: pipe.read1(65536), b""):
                stream.write(_shell_packet(kind, chunk) if v2 else chunk)
        except (ConnectionClosed, ValueError, OSError):
            pass

    def _stdin(self, stream: Stream, proc: subprocess.Popen, v2: bool) -> None:
        try:
            while v2:
                kind = stream.read_exact(1)[0]
                data = stream.read_exact(int.from_bytes(stream.read_exact(4), "little"))
                if kind == SHELL_STDIN:
                    proc.stdin.write(data)
                    proc.stdin.flush()
                elif kind == SHELL_CLOSE_STDIN:
                    break
        except (ConnectionClosed, OSError):
            pass
        finally:
            try:
                proc.stdin.close()
            except OSError:
                pass

    @staticmethod
    def _hang_up(stream: Stream, proc: subprocess.Popen) -> None:
        """The host closed the stream (its client was killed): end the command, as adbd does."""
        stream.closed_event.wait()
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def freeze(self) -> None:
        """Stop answering anything, keeping every socket open (a hung device)."""
        self.frozen = True

    def kill(self) -> None:
        """Drop every connection and process at once (a device unplugged or crashed mid-run)."""
        self._listener.close()
        with self._lock:
            for transport in self._transports:
                try:
                    transport.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                transport.sock.close()
            for proc in self._processes:
                if proc.poll() is None:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass

    stop = kill


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root", type=Path, required=True, help="host directory standing in for the device root"
    )
    parser.add_argument("--kind", choices=("phone", "board"), default="phone")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--unauthorized", action="store_true")
    parser.add_argument("--python", action="store_true", help="give a phone python3 (a board always has it)")
    parser.add_argument("--benchmark-model", action="store_true", help="install the emulated benchmark_model")
    args = parser.parse_args()
    sandbox = DeviceSandbox(args.root, kind=args.kind)
    if args.python:
        sandbox.add_tool("python3", f'#!/bin/sh\nexec {sys.executable} "$@"\n')
    if args.benchmark_model:
        script = Path(__file__).with_name("fake_benchmark_model.py").read_text()
        sandbox.add_tool("benchmark_model", f"#!{sys.executable}\n{script}")
    device = FakeAdbd(sandbox, unauthorized=args.unauthorized, port=args.port)
    device.start()
    print(device.serial, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        device.kill()


if __name__ == "__main__":
    main()
