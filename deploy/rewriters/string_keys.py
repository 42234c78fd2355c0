"""String states while exporting (passes/string_states.py, passes/string_returns.py): a variable that
holds string literals is an int code inside converted code, and the literal outside it.

``string_key`` gives the literal of a code: the string itself for a Python int (every eager run),
a StringKey for a code the model computes while exporting; ``string_code`` goes back (a helper's
``return mode`` or the caller's ``mode = next_mode(mode, t)``, whose literal tuples may differ).
A StringKey compares with literals as a test of its code, and keys a container (a module's
``nn.ModuleDict``, a module-level dict of numbers) among the entries of the literals it may hold.
"""

from __future__ import annotations

import functools

import torch

from deploy.errors import NotDeployableError
from deploy.rewriters.casts import tensor
from deploy.rewriters.values import is_symbolic


class StringKey:
    """The key a string state holds where its code is a value the model computes."""

    def __init__(self, code, literals: tuple[str, ...]):
        self.code, self.literals = code, literals

    def __eq__(self, other: object):  # a test of the code; a literal it cannot hold is never equal
        if isinstance(other, str):
            return self.code == self.literals.index(other) if other in self.literals else False
        return NotImplemented

    def __ne__(self, other: object):
        if isinstance(other, str):
            return self.code != self.literals.index(other) if other in self.literals else True
        return NotImplemented

    __hash__ = None


def string_key(code: object, literals: tuple[str, ...]) -> object:
    """The literal whose code ``code`` is (a string no code stands for passes through as it is)."""
    if isinstance(code, str):
        return code
    if is_symbolic(code) or isinstance(code, torch.Tensor):
        return StringKey(code, literals)
    return literals[code]


def string_code(value: object, literals: tuple[str, ...]) -> object:
    """The code of ``value`` among ``literals``: a literal's position; a StringKey's code, mapped
    from its own literals. A string that is not among them stays a string."""
    if isinstance(value, str):
        return literals.index(value) if value in literals else value
    if not isinstance(value, StringKey):
        return value
    if value.literals == literals:
        return value.code
    missing = [text for text in value.literals if text not in literals]
    if missing:
        raise NotDeployableError(f"the string state may hold {missing[0]!r}, which this code does not know")
    table = tensor([literals.index(text) for text in value.literals])
    code = torch.as_tensor(value.code).reshape(1).to(torch.int64)
    return table.index_select(0, code).squeeze(0)


def keyed_entries(container: object, key: StringKey) -> list:
    """The entries of ``container`` at the literals ``key`` may hold, in code order (a literal the
    container lacks takes the first entry it has: an eager run with that key would fail anyway)."""
    present = [text for text in key.literals if text in container]
    if not present:
        raise NotDeployableError(f"none of {list(key.literals)} is a key of this container")
    return [container[text] if text in container else container[present[0]] for text in key.literals]


def string_returns(fn, literals: tuple[str, ...]):
    """``fn`` (its returns made codes) giving back the literal of its code: string_key of the result."""

    @functools.wraps(fn)
    def literal_of_code(*args, **kwargs):
        return string_key(fn(*args, **kwargs), literals)

    return literal_of_code
