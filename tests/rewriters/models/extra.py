"""More user-style models: nested loops, reversed ranges, while loops with branches inside,
elif chains of returns, dynamic batch branches, helpers calling helpers."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=1, max=64)
BATCH = torch.export.Dim("batch", min=1, max=32)


class Classify(nn.Module):
    """elif chain where every branch returns."""

    def forward(self, x):
        m = x.mean()
        if m > 1:
            return x * 3
        elif m < -1:
            return x.abs()
        else:
            return x - m


class BackwardRNN(nn.Module):
    """range(T - 1, -1, -1) with .size(1), and a submodule call in the body."""

    def __init__(self):
        super().__init__()
        self.cell = nn.Linear(7, 5)

    def forward(self, x):
        h = torch.zeros(x.size(0), 5)
        for t in range(x.size(1) - 1, -1, -1):
            h = torch.tanh(self.cell(torch.cat([x[:, t], h], dim=-1)))
        return h


class DampedWhile(nn.Module):
    """while on a tensor with a tensor `if` inside the body and a Python float carried."""

    def forward(self, x):
        t = 0.0
        while x.norm() > 0.5 and t < 5.0:
            if x.sum() > 0:
                x = x * 0.5
            else:
                x = x * 0.8
            t += 1.0
        return x, t


def normalise(x):
    if x.std() > 1e-6:
        return (x - x.mean()) / x.std()
    return x - x.mean()


def preprocess(x, clip=3.0):
    x = normalise(x)
    return x.clamp(-clip, clip) if x.abs().max() > clip else x


class Pipeline(nn.Module):
    """Helper calling a helper, keyword default, ternary in a return."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 2)

    def forward(self, x):
        return self.fc(preprocess(x, clip=2.0))


class BatchAware(nn.Module):
    """Branch on a dynamic batch size."""

    def forward(self, x):
        if x.shape[0] > 1:
            x = x - x.mean(dim=0, keepdim=True)
        return x * 2


class Outer(nn.Module):
    """Nested range loops: the outer over a dynamic dim (with an append), the inner over a static one."""

    def forward(self, x):
        total = torch.zeros(())
        rows = []
        for i in range(x.shape[0]):
            acc = torch.zeros(())
            for j in range(x.shape[1]):
                acc = acc + x[i, j] * (j + 1)
            rows.append(acc)
            total = total + acc
        return torch.stack(rows), total


class Truthy(nn.Module):
    """Integer-tensor truthiness and .item() equality."""

    def forward(self, x, k):
        if (x > 0).sum():
            x = x + 1
        if k.item() == 0:
            x = x * 10
        return x


class Decay(nn.Module):
    """A list that starts with one element, loop index in arithmetic, stack default dim."""

    def forward(self, x):
        states = [x[:, 0]]
        h = x[:, 0]
        steps = x.shape[1]
        for t in range(steps):
            h = h * 0.9 + x[:, t] * (t / 10.0)
            states.append(h)
        return torch.stack(states).transpose(0, 1)


class MedianGate(nn.Module):
    """`x.median()` (no ONNX translation in torch.onnx: deploy's own, the lower middle value) in a
    test and in the values."""

    def forward(self, rr):
        bad = (rr - rr.median()).abs() > 0.3
        rr = torch.where(bad, rr.median(), rr)
        if rr.median() > 0.8:
            return rr * 2.0
        return rr


CASES = [
    Case(
        "median_in_a_test_and_a_value",
        seeded(MedianGate),
        (torch.tensor([0.7, 0.75, 1.6, 0.72, 0.74, 0.71]),),
        [(torch.tensor([0.9, 0.95, 0.91, 2.5, 0.92]),), (torch.rand(9) + 0.2,)],
        ({0: torch.export.Dim("beats", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "elif_return_chain",
        seeded(Classify),
        (torch.randn(3, 3),),
        [(torch.full((3, 3), 2.0),), (torch.full((3, 3), -2.0),), (torch.randn(3, 3) * 0.1,)],
        constructs=("if->cond",),
    ),
    Case(
        "reverse_range_size",
        seeded(BackwardRNN),
        (torch.randn(2, 4, 2),),
        [(torch.randn(2, 1, 2),), (torch.randn(2, 9, 2),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "while_with_if_inside",
        seeded(DampedWhile),
        (torch.randn(4),),
        [(torch.full((4,), 3.0),), (torch.full((4,), -3.0),), (torch.full((4,), 0.1),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "helpers_calling_helpers",
        seeded(Pipeline),
        (torch.randn(2, 6),),
        [(torch.randn(2, 6) * 10,), (torch.ones(2, 6),), (torch.tensor([[0.0] * 5 + [100.0]] * 2),)],
        constructs=("if->cond",),
    ),
    Case(
        "dynamic_batch_branch",
        seeded(BatchAware),
        (torch.randn(4, 3),),
        [(torch.randn(1, 3),), (torch.randn(7, 3),)],
        ({0: BATCH},),
        constructs=("if->cond",),
    ),
    Case(
        "nested_dynamic_loops",
        seeded(Outer),
        (torch.randn(3, 4),),
        [(torch.randn(1, 4),), (torch.randn(5, 4),)],
        ({0: BATCH},),
        constructs=("for->scan",),
    ),
    Case(
        "truthiness_and_item_eq",
        seeded(Truthy),
        (torch.randn(3), torch.tensor(1)),
        [(torch.full((3,), -1.0), torch.tensor(0)), (torch.full((3,), 1.0), torch.tensor(2))],
        constructs=("if->cond",),
    ),
    Case(
        "range_start_append_prefix",
        seeded(Decay),
        (torch.randn(2, 5),),
        [(torch.randn(2, 1),), (torch.randn(2, 12),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
]
