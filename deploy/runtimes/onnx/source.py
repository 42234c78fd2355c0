"""Where an ONNX node came from in the user's code, from torch.onnx's node metadata.

torch.onnx.export(dynamo=True) stores the FX stack trace of each node under the
metadata key ``pkg.torch.onnx.stack_trace`` as lines like
``File "/path/model.py", line 17, in forward``. The user's line is the innermost frame
that is not inside torch itself or an installed package.
"""

from __future__ import annotations

import os
import re

import onnx

STACK_TRACE_KEY = "pkg.torch.onnx.stack_trace"
_FRAME = re.compile(r'File "([^"]+)", line (\d+)')
_LIBRARY_PARTS = ("site-packages", "dist-packages", "/torch/", "\\torch\\", "<frozen", "<string>")


def is_user_file(path: str) -> bool:
    """A real file of the user's: not torch, not an installed package, not generated code
    (``<eval_with_key>.N``) and not a path relative to a library root."""
    if path.startswith("<") or any(part in path for part in _LIBRARY_PARTS):
        return False
    return os.path.isfile(path) and not path.startswith(("torch/", "torch\\"))


def parse_stack_trace(trace: str) -> tuple[str, int] | None:
    """The innermost user frame (file, line) in a Python stack trace text, or None."""
    frames = [(m.group(1), int(m.group(2))) for m in _FRAME.finditer(trace)]
    for path, line in reversed(frames):
        if is_user_file(path):
            return path, line
    return None


def node_source(node: onnx.NodeProto) -> tuple[str, int] | None:
    """The user's (file, line) that produced ``node``, or None when the metadata has none."""
    for prop in node.metadata_props:
        if prop.key == STACK_TRACE_KEY and prop.value:
            return parse_stack_trace(prop.value)
    return None


def copy_node_sources(original: onnx.ModelProto, simplified: onnx.ModelProto) -> int:
    """Copy the stack-trace metadata onto ``simplified``'s nodes by node name; returns how many.

    onnxsim drops node metadata_props; node names survive, so the source lines can be
    put back after simplification.
    """
    traces = {}
    for node in original.graph.node:
        for prop in node.metadata_props:
            if prop.key == STACK_TRACE_KEY:
                traces[node.name] = prop.value
    copied = 0
    for node in simplified.graph.node:
        if node.name in traces and not any(p.key == STACK_TRACE_KEY for p in node.metadata_props):
            entry = node.metadata_props.add()
            entry.key, entry.value = STACK_TRACE_KEY, traces[node.name]
            copied += 1
    return copied
