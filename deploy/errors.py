"""The errors deploy raises on purpose, each carrying its CLI exit code.

2 = bad usage or bad input, 1 = the model is not deployable as asked. The CLI prints
``str(error)`` as one line; ``where`` (file:line) is prefixed when known.
"""

from __future__ import annotations


class DeployError(Exception):
    """Base class: a message for the user, an exit code, and optionally where it came from."""

    exit_code = 2

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None, detail: str = ""):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.detail = detail  # extra lines (a source window, a table) shown under the message

    @property
    def where(self) -> str | None:
        if self.file is None:
            return None
        return f"{self.file}:{self.line}" if self.line else self.file

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class InputError(DeployError):
    """Bad usage or bad input (missing file, syntax error, wrong inputs): exit 2."""

    exit_code = 2


class NotDeployableError(DeployError):
    """The model cannot be deployed as asked (unsupported op, parity failure): exit 1."""

    exit_code = 1


class ParityError(NotDeployableError):
    """An artifact computes something else than eager PyTorch."""


class UnsupportedOpError(NotDeployableError):
    """A backend has no translation for an op."""


class DeviceError(DeployError):
    """A device is missing, unreachable, or died during a run: exit 2, never a partial result."""

    exit_code = 2
