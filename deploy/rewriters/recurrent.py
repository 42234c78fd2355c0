"""``nn.GRU`` / ``nn.LSTM`` / ``nn.RNN`` over a dynamic sequence length, as a scan over time.

torch.export keeps these modules as one ``aten.gru``/``aten.lstm`` op, whose decomposition (which
torch.onnx runs) unrolls the time steps for the example's length: the sequence dim gets specialised.
In the rewritten copy of the model each such module is wrapped by ``ScanRecurrent``, which runs the
same cells (``torch.gru_cell`` / ``lstm_cell`` / ``rnn_*_cell`` with the module's own parameters)
in a ``scan`` over time, layer by layer and direction by direction, so the length stays symbolic.
Modules this does not cover (``proj_size``, packed sequences) keep their own forward.
"""

from __future__ import annotations

import torch
from torch import nn
from torch._higher_order_ops.scan import scan
from torch._higher_order_ops.while_loop import while_loop
from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols

_CELLS = {"GRU": torch.gru_cell, "RNN_TANH": torch.rnn_tanh_cell, "RNN_RELU": torch.rnn_relu_cell}


def wrap_recurrent(module: nn.Module) -> None:
    """Replace (in place, in this module tree) every GRU/LSTM/RNN child the scan form covers."""
    for name, child in list(module.named_children()):
        if _covered(child):
            setattr(module, name, ScanRecurrent(child))
        else:
            wrap_recurrent(child)


def _covered(module: nn.Module) -> bool:
    if type(module) not in (nn.GRU, nn.LSTM, nn.RNN):
        return False
    return not getattr(module, "proj_size", 0)


class ScanRecurrent(nn.Module):
    """The wrapped module's computation as scans over time (see module docstring)."""

    def __init__(self, rnn: nn.Module):
        super().__init__()
        self.rnn = rnn

    def forward(self, input, hx=None):
        rnn = self.rnn
        if not isinstance(input, torch.Tensor) or not torch.compiler.is_compiling():
            return rnn(input, hx)  # eagerly, and for packed sequences: the module itself
        lstm = rnn.mode == "LSTM"
        batched = input.dim() == 3
        x = input if batched else input.unsqueeze(1 if rnn.batch_first else 1)
        x = x.transpose(0, 1) if rnn.batch_first and batched else x  # (T, N, I)
        directions = 2 if rnn.bidirectional else 1
        states = rnn.num_layers * directions
        h0, c0 = self._initial(hx, lstm, batched, states, x)
        finals_h, finals_c = [], []
        for layer in range(rnn.num_layers):
            outputs = []
            for direction in range(directions):
                k = layer * directions + direction
                out, h, c = self._run(x, h0[k], c0[k] if lstm else None, layer, direction)
                outputs.append(out)
                finals_h.append(h)
                finals_c.append(c)
            x = torch.cat(outputs, dim=-1) if directions == 2 else outputs[0]
        out = x.transpose(0, 1) if rnn.batch_first and batched else x
        h_n = torch.stack(finals_h, 0)
        if not batched:
            out, h_n = out.squeeze(1), h_n.squeeze(1)
        if lstm:
            c_n = torch.stack(finals_c, 0)
            return out, (h_n, c_n if batched else c_n.squeeze(1))
        return out, h_n

    def _initial(self, hx, lstm: bool, batched: bool, states: int, x: torch.Tensor):
        hidden = self.rnn.hidden_size
        if hx is None:
            zeros = x.new_zeros(states, x.shape[1], hidden)
            return zeros, (zeros.clone() if lstm else None)
        h0, c0 = hx if lstm else (hx, None)
        if not batched:
            h0 = h0.unsqueeze(1)
            c0 = c0.unsqueeze(1) if c0 is not None else None
        return h0, c0

    def _run(self, x, h, c, layer: int, direction: int):
        rnn = self.rnn
        suffix = f"_l{layer}" + ("_reverse" if direction else "")
        w_ih, w_hh = getattr(rnn, "weight_ih" + suffix), getattr(rnn, "weight_hh" + suffix)
        b_ih = getattr(rnn, "bias_ih" + suffix) if rnn.bias else None
        b_hh = getattr(rnn, "bias_hh" + suffix) if rnn.bias else None
        xs = x.flip(0) if direction else x
        if rnn.mode == "LSTM":

            def step(carry, x_t):
                h_t, c_t = torch.lstm_cell(x_t, (carry[0], carry[1]), w_ih, w_hh, b_ih, b_hh)
                return [h_t, c_t.clone()], h_t.clone()

            (h, c), out = _over_time(step, [h.clone(), c.clone()], xs)
        else:
            cell = _CELLS[rnn.mode]

            def step(carry, x_t):
                h_t = cell(x_t, carry, w_ih, w_hh, b_ih, b_hh)
                return h_t, h_t.clone()

            h, out = _over_time(step, h.clone(), xs)
        return (out.flip(0) if direction else out), h, c


def _over_time(step, carry, xs: torch.Tensor):
    """``scan(step, carry, xs)``; over a length a converted size branch chose (unbacked:
    ``if t > 60: x = avg_pool(x)``), whose scan torch cannot trace ("Eq(u1, 0)"), a while_loop
    writing each step's output into a buffer of that length."""
    length = xs.shape[0]
    if not free_unbacked_symbols(length):
        # A view (the batch_first transpose) makes scan's tracer guard on its `_base`, which the
        # guard code later finds missing (AttributeError): the steps are scanned over a copy.
        return scan(step, carry, xs.clone() if xs._base is not None else xs)
    torch._check(length > 0)  # the module refuses an empty sequence
    listed = isinstance(carry, list)  # LSTM: [h, c]; the others: h
    flat = list(carry) if listed else [carry]
    buffer = flat[0].new_zeros((length, *flat[0].shape))  # each step's output is its new h

    def body(i, out, *state):
        new_state, y = step(list(state) if listed else state[0], xs.index_select(0, i.reshape(1))[0])
        new_flat = list(new_state) if listed else [new_state]
        return (i + 1, out.index_copy(0, i.reshape(1), y.unsqueeze(0)), *[v.clone() for v in new_flat])

    start = torch.zeros((), dtype=torch.int64)
    stop = torch.ones((), dtype=torch.int64) * length  # a tensor: while_loop takes no unbacked int
    _, out, *final = while_loop(lambda i, *_: i < stop, body, (start, buffer, *flat))
    return (final if listed else final[0]), out
