"""Results a function returns as None on some paths (``if not below.any(): return None``).

The pass that folds early returns names such a result ``_deploy_return_opt_*``. Merged by a cond,
the None path's value is zeros shaped like the other path's (branch_placeholders), so the caller's
``if t is None`` would see a tensor on every path. Each branch therefore also gives, per such
slot, a 0-d bool saying whether it set a value; after the cond the flag rides on the merged
tensor (``_deploy_present``), where ``present`` reads it when the caller assigns the result
(passes/optionals.py). Dynamo, tracing a graph op's body, follows the attribute too.
"""

from __future__ import annotations

import torch

from deploy.rewriters.values import Undefined, as_tensor_value

OPTIONAL_RESULT = "_deploy_return_opt"


def flagged(then_fn, else_fn, names: tuple[str, ...]):
    """(then_fn, else_fn, names, attach): the branches with one presence flag per optional result
    appended to their outputs, and ``attach``, which moves the flags onto the merged values."""
    slots = [i for i, n in enumerate(names) if n.startswith(OPTIONAL_RESULT)]
    if not slots:
        return then_fn, else_fn, names, lambda result: result

    def with_flags(fn):
        def run(*args):
            out = tuple(fn(*args))
            return out + tuple(_presence(out[i]) for i in slots)

        return run

    def attach(result):
        if result is None:
            return None
        values = list(result[: len(names)])
        for i, flag in zip(slots, result[len(names) :]):
            values[i] = _with_flag(values[i], flag)
        return tuple(values)

    flag_names = tuple(f"_deploy_present_{i}" for i in slots)
    return with_flags(then_fn), with_flags(else_fn), names + flag_names, attach


def _with_flag(value: object, flag: torch.Tensor) -> object:
    """``value`` with ``flag`` on it: on a tensor, or on each tensor of a tuple or list (`return
    angles[idx], scan[idx, 0]` on the paths that do not return None)."""
    if isinstance(value, (tuple, list)):
        return type(value)(_with_flag(v, flag) for v in value)
    if isinstance(flag, torch.Tensor) and isinstance(
        value, (bool, int, float, torch.SymBool, torch.SymInt, torch.SymFloat)
    ):
        # a number cannot carry the flag (`return 2` / `return None`): it rides as a 0-d tensor
        value = as_tensor_value(value)
    if isinstance(value, torch.Tensor):
        if torch.compiler.is_dynamo_compiling():  # dynamo sets attributes on new tensors only
            value = value.clone()
        value._deploy_present = flag
    return value


def _flag_of(value: object) -> object:
    """The presence flag a value carries (on a tensor, or on the first tensor of a tuple or list)."""
    if isinstance(value, (tuple, list)):
        return next((f for f in map(_flag_of, value) if f is not None), None)
    return getattr(value, "_deploy_present", None) if isinstance(value, torch.Tensor) else None


def _presence(value: object) -> torch.Tensor:
    if value is None or isinstance(value, Undefined):
        return torch.zeros((), dtype=torch.bool)
    if isinstance(value, tuple) and any(v is None for v in value):  # `return None, 0`
        return torch.zeros((), dtype=torch.bool)
    flag = _flag_of(value)
    return flag if flag is not None else torch.ones((), dtype=torch.bool)


def present(value: object) -> object:
    """Whether ``value`` is not None: False for None, the flag of a result some paths left None,
    True for anything else."""
    if value is None or isinstance(value, Undefined):
        return False
    flag = _flag_of(value)
    return True if flag is None else flag


def with_presence(value: object, flag: object) -> object:
    """An optional passed to a helper that tests its parameter with ``is None`` (passes/optionals.py):
    None or the value where ``flag`` is a Python bool; where it is a tensor, the value (a
    placeholder on the paths that left it None) carrying the flag, which the helper's ``present``
    reads."""
    if not isinstance(flag, torch.Tensor):
        return value if flag else None
    return _with_flag(value, flag)
