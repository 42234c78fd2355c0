"""How a failure of torch inside a converted construct is told to the user: the cause in one line,
the user's names for deploy's generated variables, and the deploy error raised further in."""

from __future__ import annotations

from deploy.errors import NotDeployableError
from deploy.rewriters import sites


def _explain(exc: BaseException) -> str:
    for line in str(exc).splitlines():
        line = line.strip()
        if line.startswith("Explanation:"):
            return line[len("Explanation:") :].strip()
    text = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if not text:
        return type(exc).__name__
    first = text[0]
    if first.endswith(":") and len(text) > 1:  # "... same metadata but found:" then what differs
        first = f"{first} {text[1]}"
    return first[:300]


_KNOWN_CAUSES = (
    ("same pytree structure", "the branches give values of different structure (a tuple on one path?)"),
    ("expected both a and b to be FakeTensor", "a value is a tensor on one path and not on the other"),
    ("Constants returned from branches must be ints", "a value is a tensor on one path and not on the other"),
    ("same dtype", "the branches give tensors of different dtypes"),
)


def _friendly(exc: BaseException) -> str:
    text = str(exc)
    for needle, meaning in _KNOWN_CAUSES:
        if needle in text:
            return meaning
    return _explain(exc).rstrip(".")


def _user_name(name: str) -> str:
    if name.startswith("_deploy_return_"):
        return "the returned value"
    return "" if name.startswith("_deploy_") else name


def _nested_deploy_error(exc: BaseException) -> NotDeployableError | None:
    while exc is not None:
        if isinstance(exc, NotDeployableError):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def marked_site_error(exc: BaseException) -> NotDeployableError | None:
    """The error a converted construct raised inside a body dynamo traced (sites.Site.error): the
    one to show once no fallback worked."""
    while exc is not None:
        marked = sites.marked_error(str(exc))
        if marked is not None:
            return marked
        exc = exc.__cause__ or exc.__context__
    return None
