"""``_deploy_rt.call``: the converted-call operator (AutoGraph's call-tree idea). Every call to a
bare name or a ``self.`` attribute in converted code goes through here; user functions and
methods run converted, everything else (torch, builtins, modules) runs as is. Submodules'
``forward``s are converted up front by rewrite_module, so a module call needs nothing here.
"""

from __future__ import annotations

import types

import torch

from deploy.rewriters.convert import convert_function, is_user_function


def call(fn, *args, **kwargs):
    """Call ``fn``, converted first when it is user code."""
    if isinstance(fn, torch.nn.Module):
        return fn(*args, **kwargs)
    if isinstance(fn, types.MethodType) and is_user_function(fn.__func__):
        return convert_function(fn.__func__)(fn.__self__, *args, **kwargs)
    if is_user_function(fn):
        return convert_function(fn)(*args, **kwargs)
    return fn(*args, **kwargs)
