"""Loops bounded by Python step counters and loops written backwards or over windows: `while` with
appends, `reversed(range(n))`, a tensor test that reads x[:, i], `x[:, t : t + 1]`, and a value
first assigned after a `continue`; a Python counter a tensor test resets (`streak = 0`) or advances."""

import math

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

STEPS = torch.export.Dim("steps", min=2, max=32)


class WhileGreedy(nn.Module):
    """`while step < max_len and not done.all()` appending each step's logits (greedy decoding)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(4, 4)
        self.max_len = 6

    def forward(self, h):
        outs = []
        done = torch.zeros(h.shape[0], dtype=torch.bool)
        step = 0
        while step < self.max_len and not done.all():
            h = self.cell(torch.tanh(h), h)
            outs.append(h)
            done = done | (h.sum(-1) > 1.0)
            step += 1
        return torch.stack(outs + [h], 1)


class WhileCounterBreak(nn.Module):
    """`while step <= n` (Python bound) with a tensor `break` after the append."""

    def forward(self, x):
        outs = []
        step = 1
        while step <= 5:
            x = x * 1.5
            outs.append(x)
            step += 1
            if x.abs().max() > 4:
                break
        return torch.cat(outs)


class BackwardScan(nn.Module):
    """`for t in reversed(range(x.shape[1]))` with appends, over a dynamic length."""

    def forward(self, x):
        h = torch.zeros(x.shape[0])
        outs = []
        for t in reversed(range(x.shape[1])):
            h = torch.tanh(x[:, t] + h)
            outs.append(h)
        return torch.stack(outs, 1)


class ConsumePrefix(nn.Module):
    """`while i < n and x[:, i].sum() != 0` with a Python counter as index."""

    def forward(self, x):
        h = torch.zeros(x.shape[0])
        i = 0
        while i < x.shape[1] and x[:, i].sum() != 0:
            h = h + x[:, i]
            i += 1
        return h


class MaskedSteps(nn.Module):
    """`continue` on a tensor, a value first assigned after it, and a `t : t + 1` window."""

    def forward(self, x, mask):
        acc = torch.zeros(x.shape[0], 3)
        for t in range(x.shape[1]):
            if mask[:, t].sum() == 0:
                continue
            w = torch.sigmoid(x[:, t])
            acc = acc + w * mask[:, t : t + 1]
        return acc


class BreakFirst(nn.Module):
    """`if done: break` at the top of the body, appends after it (the iteration that breaks
    appends nothing), and the list extended after the loop."""

    def forward(self, x):
        outs = []
        for _ in range(6):
            if x.sum() > 10:
                break
            x = x + 1
            outs.append(x * 2)
        return torch.stack(outs + [x], 0)


class BackwardInsert(nn.Module):
    """A backward RNN pass collecting with `outs.insert(0, h)` (outputs in time order)."""

    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(3, 4)

    def forward(self, x):
        h = torch.zeros(x.shape[0], 4)
        outs = []
        for t in reversed(range(x.shape[1])):
            h = self.cell(x[:, t], h)
            outs.insert(0, h)
        return torch.stack(outs, 1)


class SkipKeepsLast(nn.Module):
    """A tensor `continue` whose path appends the previous state; every path appends once."""

    def forward(self, x):
        h = torch.zeros(x.shape[0])
        outs = []
        for t in range(x.shape[1]):
            if (x[:, t] < 0).all():
                outs.append(h)
                continue
            h = h + x[:, t]
            outs.append(h * 2)
        return torch.stack(outs, 1)


def _mask(length: int, zero_at: int) -> torch.Tensor:
    mask = torch.ones(2, length)
    mask[:, zero_at] = 0.0
    return mask


class ColdStreak(nn.Module):
    """Hours in a row below a threshold: the first hours run as Python, where a top-level cond's
    branches give `streak` as two different Python ints (0 and 1), then the loop hands over to a
    while_loop on the tensor `break`."""

    def forward(self, temps):
        streak = 0
        alarm = torch.tensor(-1)
        hour = 0
        while hour < 6:
            t = temps[hour]
            hour += 1
            if t > 0.5:
                streak = 0
                continue
            streak += 1
            if streak >= 2:
                alarm = torch.tensor(hour - 2)
                break
        return alarm, temps.sum() * 0 + streak


class LastSeen(nn.Module):
    """A small cache of ids: a hit stamps the matching slots with the step's counter through
    ``torch.full_like`` (a tensor fill value in the graph loop), a miss replaces the oldest slot."""

    def forward(self, requests):
        cache = torch.full((3,), -1, dtype=torch.int64)
        last_used = torch.full((3,), -1, dtype=torch.int64)
        hits = []
        for t in range(requests.shape[0]):
            here = cache == requests[t]
            if here.any():
                last_used = torch.where(here, torch.full_like(last_used, t), last_used)
                hits.append(torch.ones((), dtype=torch.int64))
                continue
            hits.append(torch.zeros((), dtype=torch.int64))
            slot = int(last_used.argmin())
            cache[slot] = requests[t]
            last_used[slot] = t
        return torch.stack(hits), cache


class CounterAfterBreak(nn.Module):
    """The loop counter read after a tensor `break`: the index where a running sum first passes a
    level, over a Python-bounded prefix and over the whole (dynamic) length."""

    def forward(self, x):
        acc = torch.zeros(())
        for i in range(4):
            acc = acc + x[i]
            if acc > 1.0:
                break
        total = torch.zeros(())
        for j in range(x.shape[0]):
            total = total + x[j]
            if total > 2.0:
                break
        return acc * i, total * j


class FlightUntilGround(nn.Module):
    """A projectile stepped `while pos[1] >= 0` with `if steps >= limit: return pos, apex, -1` on a
    Python counter: the returned vector's slot is shaped from the counter's cond, not its Python 0."""

    def forward(self, launch):
        pos, vel = torch.zeros(2), launch
        apex = pos[1]
        steps = 0
        while pos[1] >= 0.0:
            if steps >= 12:
                return pos, apex, torch.tensor(-1.0)
            vel = vel + torch.tensor([0.0, -9.8]) * 0.1
            pos = pos + vel * 0.1
            apex = torch.maximum(apex, pos[1])
            steps += 1
        return pos, apex, torch.tensor(steps * 0.1)


def _spiral_point(k, pitch):
    theta = math.sqrt(4.0 * math.pi * k / pitch)
    r = pitch * theta / (2.0 * math.pi)
    return torch.tensor([r * math.cos(theta), r * math.sin(theta)])


class SpiralSearch(nn.Module):
    """Steps along a spiral until the point is near the target: the step counter of a `while` on a
    tensor test goes through ``math.sqrt`` / ``math.cos`` / ``math.sin`` (tensors while exporting,
    where Python's math would read the counter as a float)."""

    def forward(self, target):
        pos, k = torch.zeros(2), 0
        while torch.linalg.vector_norm(pos - target) > 0.3 and k < 200:
            k += 1
            pos = _spiral_point(k, 0.5)
        return pos, torch.tensor(k)


CASES = [
    Case(
        "vector_returned_in_a_while_on_a_python_counter",
        seeded(FlightUntilGround),
        (torch.tensor([10.0, 3.0]),),
        [(torch.tensor([2.0, 0.5]),), (torch.tensor([4.0, 30.0]),)],  # lands; still flying at 12 steps
        constructs=("while->while_loop", "if->cond"),
    ),
    Case(
        "counter_read_after_a_tensor_break",
        seeded(CounterAfterBreak),
        (torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5]),),
        [
            (torch.tensor([0.5, 0.7, 0.9, 0.1, 0.1]),),  # both break early (i = 1, j = 2)
            (torch.tensor([2.5, 0.7, 0.1, 0.1]),),  # both break on the first step
            (torch.full((9,), 0.1),),  # neither breaks: the last counters (3 and 8)
        ],
        ({0: torch.export.Dim("n", min=4, max=32)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "while_counter_bound_appends",
        seeded(WhileGreedy),
        (torch.randn(2, 4) * 0.1,),
        [(torch.full((2, 4), 2.0),), (torch.full((2, 4), -3.0),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "while_counter_bound_break_after_append",
        seeded(WhileCounterBreak),
        (torch.full((3,), 0.5),),
        [(torch.full((3,), 3.0),), (torch.full((3,), 0.01),)],
        constructs=("while->while_loop",),
    ),
    Case(
        "reversed_range_dynamic",
        seeded(BackwardScan),
        (torch.randn(2, 5),),
        [(torch.randn(2, 2),), (torch.randn(2, 17),)],
        ({1: STEPS},),
        constructs=("for->scan",),
    ),
    Case(
        "while_test_reads_counter_index",
        seeded(ConsumePrefix),
        (torch.tensor([[1.0, 2.0, 0.0, 4.0], [1.0, 1.0, 0.0, 1.0]]),),
        [(torch.ones(2, 7),), (torch.zeros(2, 3),)],
        ({1: STEPS},),
        constructs=("while->while_loop",),
    ),
    Case(
        "continue_then_local_and_window",
        seeded(MaskedSteps),
        (torch.randn(2, 6, 3), _mask(6, 2)),
        [(torch.randn(2, 9, 3), _mask(9, 0)), (torch.randn(2, 3, 3), torch.ones(2, 3))],
        ({1: STEPS}, {1: STEPS}),
        constructs=("for->while_loop",),
    ),
    Case(
        "break_before_append",
        seeded(BreakFirst),
        (torch.zeros(3),),
        [(torch.full((3,), 4.0),), (torch.full((3,), -9.0),), (torch.full((3,), 2.5),)],
        constructs=("for->while_loop",),
    ),
    Case(
        "backward_loop_inserts_at_front",
        seeded(BackwardInsert),
        (torch.randn(2, 5, 3),),
        [(torch.randn(2, 2, 3),), (torch.randn(2, 11, 3),)],
        ({1: STEPS},),
        constructs=("for->scan",),
    ),
    Case(
        "continue_with_append_on_every_path",
        seeded(SkipKeepsLast),
        (torch.rand(2, 5),),
        [(-torch.rand(2, 3),), (torch.tensor([[1.0, -1.0, 2.0, -3.0], [1.0, -2.0, 1.0, -1.0]]),)],
        ({1: STEPS},),
        constructs=("for->scan",),
    ),
    Case(
        "python_counter_reset_or_advanced_by_a_tensor_test",
        seeded(ColdStreak),
        (torch.tensor([0.9, 0.2, 0.8, 0.1, 0.9, 0.9]),),
        [
            (torch.tensor([0.1, 0.2, 0.8, 0.1, 0.9, 0.9]),),
            (torch.tensor([0.9, 0.8, 0.1, 0.1, 0.9, 0.1]),),
            (torch.tensor([0.9, 0.9, 0.9, 0.9, 0.9, 0.1]),),
        ],
        constructs=("if->cond",),
    ),
    Case(
        "a_loop_counter_as_the_fill_value_of_full_like",
        LastSeen,
        (torch.tensor([1, 2, 1, 3, 4, 2, 1]),),
        [
            (torch.tensor([5, 5, 5]),),
            (torch.tensor([1, 2, 3, 4, 5, 6]),),
            (torch.tensor([2, 1, 2, 1, 9, 2]),),
        ],
        ({0: torch.export.Dim("requests", min=2, max=64)},),
        constructs=("for->scan", "if->cond"),
    ),
    Case(
        "a_while_counter_through_math_sqrt_cos_and_sin",
        SpiralSearch,
        (torch.tensor([1.0, -0.6]),),
        [
            (torch.tensor([0.1, 0.1]),),  # already there: no step
            (torch.tensor([2.0, 1.5]),),  # a long search
            (torch.tensor([30.0, 30.0]),),  # out of reach: stops at the step limit
        ],
        constructs=("while->while_loop",),
    ),
]
