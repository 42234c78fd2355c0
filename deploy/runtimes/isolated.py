"""A runtime session in a child process, so that a runtime that crashes cannot take deploy with it.

A graph computes the path an `if` did not take beside the one it took (a select), on values that
path never sees eagerly: rows of a length another path gives, positions past the end. onnxruntime
refuses such a node with an error; ai-edge-litert's kernels may read or write out of bounds and
abort the whole process ("malloc(): unaligned tcache chunk detected"), leaving no report. The
verifier runs TFLite artifacts through ``IsolatedSession``: each ``run`` is sent to a worker process
that loads the artifact with the usual runtime; when the worker dies, that input is a failed parity
case naming the signal, and the next input starts a new worker.

The worker is ``python -c "from deploy.runtimes.isolated import serve; serve()"``: it imports only
the runtime (no torch), so starting one takes a fraction of a second. Requests and replies are
pickles on its stdin and on a copy of its stdout; its own stdout goes to stderr, where the runtime's
log lines belong.
"""

from __future__ import annotations

import builtins
import os
import pickle
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from deploy.errors import DeployError, InputError

_SERVE = "from deploy.runtimes.isolated import serve; serve()"


class RuntimeCrashed(RuntimeError):
    """The runtime's process died while running an input."""


class IsolatedSession:
    def __init__(self, path: Path, loader: str = "deploy.runtimes"):
        self.path, self._loader = Path(path), loader
        self._worker: subprocess.Popen | None = None
        self.runtime = self._request(("describe",))

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return self._request(("run", [np.asarray(a) for a in inputs]))

    def close(self) -> None:
        if self._worker is not None:
            self._worker.stdin.close()
            self._worker.wait()
            self._worker = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the pipes may be gone already
            pass

    def _request(self, message: tuple):
        worker = self._started()
        try:
            pickle.dump(message, worker.stdin)
            worker.stdin.flush()
            status, value = pickle.load(worker.stdout)
        except (EOFError, BrokenPipeError, pickle.UnpicklingError):
            code = worker.wait()
            self._worker = None
            why = f"signal {-code}" if code < 0 else f"exit code {code}"
            raise RuntimeCrashed(f"the runtime's process died running this input ({why})") from None
        if status == "refused":  # the runtime's own error for this artifact (it cannot load it)
            raise InputError(value, file=str(self.path))
        if status == "error":
            kind, text = value
            known = getattr(builtins, kind, None)  # the runtime's ValueError stays a ValueError
            if isinstance(known, type) and issubclass(known, Exception):
                raise known(text)
            raise RuntimeError(f"{kind}: {text}")
        return value

    def _started(self) -> subprocess.Popen:
        if self._worker is None:
            root = str(Path(__file__).resolve().parents[2])
            env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
            self._worker = subprocess.Popen(
                [sys.executable, "-c", _SERVE, str(self.path), self._loader],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                env=env,
            )
        return self._worker


def serve() -> None:
    """The worker: load the artifact named on the command line, answer requests until stdin closes."""
    import importlib

    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything the runtime prints goes to stderr, not into the replies
    requests = sys.stdin.buffer
    path, loader = sys.argv[1], sys.argv[2]
    try:
        session = importlib.import_module(loader).load(path)
    except DeployError as exc:  # the parent raises it again at its first request
        session, failure = None, ("refused", exc.message)
    except Exception as exc:
        session, failure = None, ("error", (type(exc).__name__, str(exc)))
    while True:
        try:
            message = pickle.load(requests)
        except EOFError:
            return
        if session is None:
            reply = failure
        elif message[0] == "describe":
            reply = ("ok", session.runtime)
        else:
            try:
                reply = ("ok", [np.asarray(a) for a in session.run(message[1])])
            except Exception as exc:  # the runtime refused this input: the parent raises it
                reply = ("error", (type(exc).__name__, str(exc)))
        pickle.dump(reply, replies)
        replies.flush()
