"""``_deploy_rt.call``: the converted-call operator (AutoGraph's call-tree idea). Every call to a
bare name or a ``self.`` attribute in converted code goes through here; user functions and
methods run converted, everything else (torch, builtins, modules) runs as is. Submodules'
``forward``s are converted up front by rewrite_module, so a module call needs nothing here.

Inside a graph op's body torch traces this code with dynamo, which cannot follow the file-system
checks of ``is_user_function`` or compile new code; there only functions converted earlier (the
converter converts the callees it can resolve ahead of time) run converted.
"""

from __future__ import annotations

import types

import torch

from deploy.rewriters.convert import cached_conversion, convert_function, is_user_function


def call(fn, *args, **kwargs):
    """Call ``fn``, converted first when it is user code."""
    if isinstance(fn, torch.nn.Module):
        return fn(*args, **kwargs)
    bound = isinstance(fn, types.MethodType)
    target = fn.__func__ if bound else fn
    converted = cached_conversion(target)
    if converted is None:
        if torch.compiler.is_dynamo_compiling() or not is_user_function(target):
            return fn(*args, **kwargs)
        converted = convert_function(target)
    return converted(fn.__self__, *args, **kwargs) if bound else converted(*args, **kwargs)


def call_method(owner, name: str, *args, **kwargs):
    """``owner.name(...)`` where ``owner`` is an attribute of ``self`` (``self.draft.encode(x)``):
    a submodule's method runs converted; a tensor's or any other object's runs as is (inside a
    graph op's body dynamo traces this, and cannot look into a tensor method's attributes)."""
    method = getattr(owner, name)
    if isinstance(owner, torch.nn.Module):
        return call(method, *args, **kwargs)
    return method(*args, **kwargs)
