"""Early exits from ModuleList loops, `while True` with a tensor break, tensor branches inside
dynamic loops, tuple state, Python counters that become tensors inside a loop."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=1, max=64)


class WhileTrue(nn.Module):
    def forward(self, x):
        n = 0
        while True:
            x = x * 1.5
            n += 1
            if x.abs().sum() > 50:
                break
        return x, n


class Alternating(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            if i % 2 == 0 and x.mean() > 0:
                x = layer(x)
            else:
                x = torch.relu(layer(x))
        return x


class EarlyExitNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
            if x.abs().mean() < 0.3:
                return x
        return x * 10


class LoopIfDifferent(nn.Module):
    def forward(self, x):
        h = torch.zeros(x.shape[0])
        for t in range(x.shape[1]):
            v = x[:, t]
            if v.mean() > 0:
                h = h + v
            else:
                h = h * 0.5
        return h


class TupleState(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.LSTMCell(3, 5)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 5)
        c = torch.zeros(x.shape[0], 5)
        outs = []
        for t in range(x.shape[1]):
            h, c = self.cell(x[:, t], (h, c))
            outs.append(h)
        return torch.stack(outs, 1)


class CountPositive(nn.Module):
    def forward(self, x):
        count = 0
        for t in range(x.shape[0]):
            if x[t] > 0:
                count += 1
        return torch.tensor(count)


class NoSignFallback(nn.Module):
    """A counter of the steps a loop used, then a branch that writes one position of a fresh
    tensor (`no_sign[0, 3] = 10.0`): a functional index_put inside the cond."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 6)
        self.head = nn.Linear(6, 4)

    def forward(self, x):
        h = torch.zeros(1, 6)
        used = 0
        for t in range(1, x.shape[0]):
            if (x[t] - x[t - 1]).abs().mean() < 0.5:
                continue
            h = self.cell(x[t : t + 1], h)
            used += 1
        if used == 0:
            no_sign = torch.full((1, 4), -10.0)
            no_sign[0, 3] = 10.0
            return no_sign
        return self.head(h)


class LowReadingEarlyReturn(nn.Module):
    """An early return on a reading; the rest pads a short history (a size branch), which torch
    cannot trace inside a cond branch: computed at the top level instead."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        if x[-1] < 0.0:
            return torch.zeros(()), torch.full((), 1, dtype=torch.long)
        slope = x[-1] - x[0]
        if x.shape[0] < 8:
            x = torch.cat([x[:1].expand(8 - x.shape[0]), x])
        dose = self.fc(x[-8:])[0] + slope
        return dose, torch.zeros((), dtype=torch.long)


class StatusByPath(nn.Module):
    """An early return whose status is a float zero, while the other path returns an int64 status
    a nested `if` picked: one graph output, of the promoted dtype, holds both."""

    def forward(self, x):
        total = x.sum()
        if total >= 0:
            return x * 0.5, torch.zeros(())
        if total < -10.0:
            status = 2
        else:
            status = 1
        return x * 2.0, torch.tensor(status)


class SettleThenStop(nn.Module):
    """A Python-range loop appending every iteration, and once more before a tensor `break` (the
    first iteration may break: the rest must not run, nor their rows count)."""

    def forward(self, x, t):
        r = torch.full((), 100.0)
        track = []
        for _ in range(6):
            lift = torch.cos(x - t[0]) * t[1]
            track.append(torch.stack([r, lift.mean()]))
            if lift.max() - lift.min() < 0.5:
                r = r * 0.8
                track.append(torch.stack([r, lift.mean()]))
                break
            t = t * torch.tensor([0.5, 1.0])
        return torch.stack(track)


def signature(rates):
    """A label by rules, or None when no rule holds."""
    if rates[-1] > 2 * rates[0] + 0.05:
        return 2
    if rates[0] > 2 * rates[-1] + 0.05:
        return 1
    return None


class LabelOrNetwork(nn.Module):
    """A helper's int label or None (`if label is None:` trusts the network)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        logits = self.fc(x.mean(0))
        label = signature(x.mean(1))
        if label is None:
            return torch.softmax(logits, -1)
        return 0.8 * torch.nn.functional.one_hot(torch.tensor(label), 3).float() + 0.2 * torch.softmax(
            logits, -1
        )


class FirstFiringScale(nn.Module):
    """Tries time scales (a Python list) until one fires on a tensor test; the scale that fired and
    where (``int(torch.nonzero(hits)[0])``, a one-element row) are read after the loop, and a scale
    too long for the input is skipped by a size test."""

    def __init__(self):
        super().__init__()
        self.scales = [1, 2, 4, 8, 16]

    def forward(self, x):
        for ts in self.scales:
            if ts > x.shape[0] // 4:
                continue
            hits = (x[ts:] - x[:-ts]) > 1.0
            if hits.any():
                start = int(torch.nonzero(hits)[0])
                break
        else:
            return torch.tensor(0), torch.tensor(-1)
        return torch.tensor(ts), torch.tensor(start)


def _ramp(n, at, step):
    x = torch.zeros(n)
    x[at:] = torch.arange(n - at, dtype=torch.float32) * step
    return (x,)


CASES = [
    Case(
        "index_store_in_a_branch_after_a_counting_loop",
        seeded(NoSignFallback),
        (torch.randn(7, 4),),
        [(torch.zeros(5, 4),), (torch.randn(20, 4) * 3,)],
        ({0: torch.export.Dim("frames", min=2, max=64)},),
        constructs=("if->cond", "for->while_loop"),
    ),
    Case(
        "while_true_break",
        seeded(WhileTrue),
        (torch.ones(3),),
        [(torch.full((3,), 10.0),), (torch.full((3,), 0.1),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "modulelist_index_and_tensor",
        seeded(Alternating),
        (torch.randn(2, 4),),
        [(torch.full((2, 4), 2.0),), (torch.full((2, 4), -2.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "early_exit_in_modulelist_loop",
        seeded(EarlyExitNet),
        (torch.randn(2, 4),),
        [(torch.zeros(2, 4),), (torch.full((2, 4), 5.0),)],
        constructs=("if->cond",),
    ),
    Case(
        "tensor_if_in_dynamic_loop",
        seeded(LoopIfDifferent),
        (torch.randn(2, 5),),
        [(torch.randn(2, 9),), (torch.randn(2, 1),), (torch.full((2, 3), -1.0),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "lstm_cell_tuple_state",
        seeded(TupleState),
        (torch.randn(2, 5, 3),),
        [(torch.randn(2, 9, 3),), (torch.randn(2, 1, 3),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
    Case(
        "python_counter_in_dynamic_loop",
        seeded(CountPositive),
        (torch.randn(6),),
        [(torch.randn(9),), (torch.randn(1),), (torch.ones(4),)],
        ({0: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "early_return_then_size_branches",
        seeded(LowReadingEarlyReturn),
        (torch.rand(20) + 0.1,),
        [(torch.rand(2) + 0.1,), (-torch.rand(5),), (torch.rand(6) + 0.1,), (torch.rand(30) + 0.1,)],
        ({0: torch.export.Dim("hist", min=2, max=64)},),
        constructs=("if->where",),
    ),
    Case(
        "an_early_return_with_a_float_status_and_an_int_status_after",
        seeded(StatusByPath),
        (torch.rand(5),),
        [(-torch.rand(4),), (-torch.rand(6) - 3.0,), (torch.rand(3) * 0.5,)],
        ({0: torch.export.Dim("n", min=2, max=32)},),
        constructs=("if->cond",),
    ),
    Case(
        "append_then_break_in_the_first_iteration",
        seeded(SettleThenStop),
        (torch.linspace(0, 0.3, 8), torch.tensor([0.0, 1.0])),
        [  # settled at once (first iteration breaks); settles after moving; never settles
            (torch.linspace(0, 0.3, 5), torch.tensor([0.0, -1.0])),
            (torch.linspace(0, 2.0, 6), torch.tensor([2.0, 1.0])),
            (torch.linspace(0, 3.0, 6), torch.tensor([2.0, 1.0])),
        ],
        ({0: torch.export.Dim("k", min=4, max=32)}, None),
    ),
    Case(
        "helper_returns_an_int_or_none",
        seeded(LabelOrNetwork),
        (torch.tensor([[0.0] * 4, [0.1] * 4, [1.0] * 4]),),
        [  # label 2 (last row high), label 1 (first row high), None (flat), None (zeros)
            (torch.tensor([[0.0] * 4, [0.1] * 4, [1.0] * 4]),),
            (torch.tensor([[1.0] * 4, [0.5] * 4, [0.0] * 4, [0.1] * 4]),),
            (torch.full((5, 4), 0.3),),
            (torch.zeros(2, 4),),
        ],
        ({0: torch.export.Dim("rows", min=2, max=16)},),
    ),
    Case(
        "a_python_loop_target_read_after_a_tensor_break",
        seeded(FirstFiringScale),
        _ramp(40, 30, 0.3),  # fires at scale 4
        [
            _ramp(40, 30, 5.0),  # fires at scale 1
            _ramp(20, 10, 0.1),  # never fires: the loop's else
            _ramp(64, 20, 0.07),  # fires at a long scale
        ],
        ({0: torch.export.Dim("n", min=18, max=64)},),
    ),
]
