"""`while` on tensor conditions and `for ... in range(n)` over dynamic sizes and tensor values,
with appends, preallocated buffers, break and continue."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

SEQ = torch.export.Dim("seq", min=1, max=64)


class NewtonSqrt(nn.Module):
    """while with a tensor condition and a Python counter."""

    def forward(self, a):
        x = a.clone()
        steps = 0
        while (x * x - a).abs().max() > 1e-4 and steps < 30:
            x = 0.5 * (x + a / x)
            steps += 1
        return x, steps


class Doubling(nn.Module):
    def forward(self, x):
        count = torch.zeros((), dtype=torch.int64)
        while x.sum() < 100:
            x = x * 2
            count = count + 1
        return x, count


class GRULike(nn.Module):
    """for over range(x.shape[1]) (dynamic) with list.append + torch.cat."""

    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(6, 12)
        self.rec = nn.Linear(4, 12)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 4)
        outs = []
        for t in range(x.shape[1]):
            z, r, n = (self.inp(x[:, t]) + self.rec(h)).chunk(3, dim=-1)
            h = torch.sigmoid(z) * h + (1 - torch.sigmoid(z)) * torch.tanh(n * torch.sigmoid(r))
            outs.append(h.unsqueeze(1))
        return torch.cat(outs, dim=1), h


class RepeatN(nn.Module):
    """for over range(int(t.item())) — the trip count is a tensor value."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x, steps):
        n = int(steps.item())
        for _ in range(n):
            x = torch.tanh(self.fc(x))
        return x


class StopEarly(nn.Module):
    """break on a tensor condition inside a dynamic-length loop."""

    def forward(self, x):
        total = torch.zeros(x.shape[0])
        for t in range(x.shape[1]):
            total = total + x[:, t]
            if total.sum() > 3:
                break
        return total


class SkipNegative(nn.Module):
    """continue on a tensor condition."""

    def forward(self, x):
        acc = torch.zeros(x.shape[0])
        for t in range(x.shape[1]):
            step = x[:, t]
            if step.sum() < 0:
                continue
            acc = acc + step
        return acc


class BufferedScan(nn.Module):
    """A preallocated output written at out[:, t] inside a dynamic loop (cumulative max)."""

    def forward(self, x):
        out = torch.zeros_like(x)
        running = x[:, 0]
        for t in range(x.shape[1]):
            running = torch.maximum(running, x[:, t])
            out[:, t] = running
        return out


class Reverse(nn.Module):
    """Reads the sequence back to front: x[:, T - 1 - t]."""

    def forward(self, x):
        steps = x.shape[1]
        h = torch.zeros(x.shape[0], x.shape[2])
        for t in range(steps):
            h = 0.5 * h + x[:, steps - 1 - t]
        return h


class ItemStack(nn.Module):
    """for over range(int(k.item())) appending each state, then torch.stack along dim 1."""

    def __init__(self):
        super().__init__()
        self.step = nn.Linear(4, 4)

    def forward(self, h, k):
        trace = []
        for i in range(int(k.item())):
            h = torch.relu(self.step(h)) - 0.05 * i
            trace.append(h)
        return torch.stack(trace, dim=1)


class ItemCatFromOne(nn.Module):
    """range(1, n) with n from a float .item(), two lists, torch.cat along a later dim."""

    def forward(self, x):
        n = int(x.abs().sum().item()) + 2
        halves, doubles = [], []
        for i in range(1, n):
            x = x * 0.5 + i
            halves.append(x)
            doubles.append(x * 2)
        return torch.cat(halves, dim=-1), torch.cat(doubles, dim=0)


class ItemBoundBreak(nn.Module):
    """range(int(n.item())) appending each value and breaking on a tensor test (greedy decoding)."""

    def forward(self, x, n):
        outs = []
        for _ in range(int(n.item())):
            x = x * 0.5
            outs.append(x)
            if x.abs().max() < 0.1:
                break
        return torch.stack(outs)


class Autocorrelation(nn.Module):
    """Autocorrelation at lags 1 .. n // 2 - 1 (`x[lag:] * x[:-lag]`, empty at lag 0), none for a
    silent signal (an early return around the loop)."""

    def forward(self, x):
        hi = x.shape[0] // 2
        if x.abs().amax() < 1e-3:
            return torch.zeros(hi - 1)
        acs = []
        for lag in range(1, hi):
            acs.append((x[lag:] * x[:-lag]).mean())
        return torch.stack(acs)


CASES = [
    Case(
        "while_tensor_and_counter",
        seeded(NewtonSqrt),
        (torch.rand(3) * 5 + 0.5,),
        [(torch.rand(3) * 50 + 1,), (torch.ones(3),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "while_carried_count",
        seeded(Doubling),
        (torch.rand(4) + 0.5,),
        [(torch.full((4,), 30.0),), (torch.full((4,), 0.01),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "for_dynamic_append_cat",
        seeded(GRULike),
        (torch.randn(2, 5, 6),),
        [(torch.randn(2, 1, 6),), (torch.randn(2, 17, 6),)],
        ({1: SEQ},),
        constructs=("for->scan",),
    ),
    Case(
        "for_item_trip_count",
        seeded(RepeatN),
        (torch.randn(2, 4), torch.tensor(3)),
        [
            (torch.randn(2, 4), torch.tensor(0)),
            (torch.randn(2, 4), torch.tensor(1)),
            (torch.randn(2, 4), torch.tensor(7)),
        ],
        constructs=("for->while_loop",),
    ),
    Case(
        "for_break_tensor",
        seeded(StopEarly),
        (torch.rand(2, 6),),
        [(torch.full((2, 6), 1.0),), (torch.full((2, 9), 0.01),), (torch.full((2, 1), 0.1),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "for_continue_tensor",
        seeded(SkipNegative),
        (torch.randn(3, 5),),
        [(torch.randn(3, 8),), (torch.full((3, 2), -1.0),), (torch.full((3, 3), 1.0),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "for_buffer_setitem",
        seeded(BufferedScan),
        (torch.randn(2, 6),),
        [(torch.randn(2, 1),), (torch.randn(2, 20),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "for_reverse_index",
        seeded(Reverse),
        (torch.randn(2, 4, 3),),
        [(torch.randn(2, 1, 3),), (torch.randn(2, 11, 3),)],
        ({1: SEQ},),
        constructs=("for->while_loop",),
    ),
    Case(
        "for_item_append_stack",
        seeded(ItemStack),
        (torch.randn(2, 4), torch.tensor(5)),
        [(torch.randn(2, 4), torch.tensor(1)), (torch.randn(2, 4), torch.tensor(9))],
        constructs=("for->while_loop",),
    ),
    Case(
        "for_item_range_from_one_cat",
        seeded(ItemCatFromOne),
        (torch.full((3,), 1.0),),
        [(torch.zeros(3),), (torch.full((3,), 0.1),), (torch.full((3,), 2.5),)],
        constructs=("for->while_loop",),
    ),
    Case(
        "for_item_append_break",
        seeded(ItemBoundBreak),
        (torch.ones(3), torch.tensor(2)),
        [(torch.ones(3), torch.tensor(10)), (torch.full((3,), 0.15), torch.tensor(4))],
        constructs=("for->while_loop",),
    ),
    Case(
        "lags_from_one_skip_a_start_where_the_body_is_invalid",
        seeded(Autocorrelation),
        (torch.linspace(-1.0, 1.0, 40).sin(),),
        [(torch.zeros(30),), (torch.linspace(0.0, 3.0, 8),), (torch.linspace(-2.0, 5.0, 100).cos(),)],
        ({0: torch.export.Dim("samples", min=6, max=200)},),
        constructs=("if->cond", "for->scan"),
    ),
]
