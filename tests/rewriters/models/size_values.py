"""Sizes used as values: a range step a size test picks, ``math.log`` of a dynamic size, a
window whose bounds come from earlier loops, a shift of ``torch.roll`` rounded from the loop's counter."""

import math

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

LENGTH = torch.export.Dim("length", min=2, max=48)


class StridedPreview(nn.Module):
    """Every other row of a long input, every row of a short one: ``range(0, n, step)`` with the
    step picked by a size test."""

    def forward(self, x):
        step = 2 if x.shape[0] > 8 else 1
        rows = []
        for d in range(0, x.shape[0], step):
            rows.append(x[d] * 2.0 + 1.0)
        return torch.stack(rows)


class EntropyGate(nn.Module):
    """A threshold scaled by ``math.log`` of a (kept) number of rows."""

    def forward(self, x):
        if x.shape[0] > 12:
            x = x[-12:]
        p = torch.softmax(x, dim=0)
        entropy = -(p * torch.log(p)).sum(0).mean()
        if entropy > 0.9 * math.log(x.shape[0]):
            return x.mean(0), torch.ones((), dtype=torch.int64)
        return x.amax(0), torch.zeros((), dtype=torch.int64)


class InkWindow(nn.Module):
    """Crop rows by two `while` loops, then scan columns within those rows: the column test reads
    ``x[top:bottom, left]`` with bounds the earlier loops found."""

    def forward(self, x):
        top = 0
        while x[top].abs().amax() < 0.5:
            top += 1
        bottom = x.shape[0]
        while x[bottom - 1].abs().amax() < 0.5:
            bottom -= 1
        left = 0
        while x[top:bottom, left].abs().amax() < 0.5:
            left += 1
        return x[top:bottom, left:], torch.tensor([top, bottom, left])


class BlankOrCrop(nn.Module):
    """A blank page returns early with its own shape; otherwise `while` loops peel the blank border.
    Computed on a blank page (both paths are, when the returned shapes differ), the loops would walk
    past the last row."""

    def forward(self, x):
        if x.abs().amax() < 0.5:
            return x, torch.tensor([0, x.shape[0], 0])
        top = 0
        while x[top].abs().amax() < 0.5:
            top += 1
        bottom = x.shape[0]
        while x[bottom - 1].abs().amax() < 0.5:
            bottom -= 1
        left = 0
        while x[top:bottom, left].abs().amax() < 0.5:
            left += 1
        return x[top:bottom, left:] * 2.0, torch.tensor([top, bottom, left])


class HostPart(nn.Module):
    """The host of a URL given as character codes: between the second and third slash, after the
    second, or all of it. Both paths of the size tests are computed; ``slashes[1]`` on the path
    not taken would read past a list of one slash."""

    def forward(self, codes):
        slashes = (codes == 47).nonzero().flatten()
        if slashes.numel() >= 3:
            host = codes[slashes[1] + 1 : slashes[2]]
        elif slashes.numel() == 2:
            host = codes[slashes[1] + 1 :]
        else:
            host = codes
        return (host == 46).sum(), (host > 96).sum()


def _url(text: str) -> tuple:
    return (torch.tensor([ord(c) for c in text], dtype=torch.int64),)


def _ink(rows: int, cols: int, top: int, bottom: int, left: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(rows * 100 + cols)
    x = 0.1 * torch.rand(rows, cols, generator=g)
    x[top : rows - bottom, left:] = 1.0 + torch.rand(rows - top - bottom, cols - left, generator=g)
    return x


def _peaked(rows: int, cols: int) -> torch.Tensor:
    x = torch.zeros(rows, cols)
    x[-1] = 6.0
    return x


def _flat(rows: int, cols: int) -> torch.Tensor:
    return torch.linspace(0.0, 0.01, rows * cols).reshape(rows, cols)


def _turned(i, n):
    """Past the last of ``n`` notes: back to the one before it, going down."""
    if i >= n:
        return max(n - 2, 0), -1
    return i, 1


class BouncingArpeggio(nn.Module):
    """``max(n - 2, 0)`` of a dynamic size in a helper a loop body calls: torch 2.13 turns Python's
    max of a size in a while_loop body into a min (0 at every size), which verification catches."""

    def forward(self, notes, steps):
        out = []
        i, d = 0, 1
        for _ in range(int(steps.item())):
            i, d = _turned(i + d, notes.shape[0]) if d > 0 else (i + d, d)
            if i < 0:
                i, d = 0, 1
            out.append(notes[i])
        return torch.stack(out)


class DevelopmentFactors(nn.Module):
    """Chain-ladder factors: column ``j`` summed over the ``n - 1 - j`` rows observed at that age
    (``tri[:rows, j]``, ``rows`` computed from the loop's counter), a `continue` where nothing was
    reported yet."""

    def forward(self, tri):
        n = tri.shape[0]
        factors = []
        for j in range(n - 1):
            rows = n - 1 - j
            den = tri[:rows, j].sum()
            if den <= 0:
                factors.append(torch.ones_like(den))
                continue
            factors.append(tri[:rows, j + 1].sum() / den)
        return torch.stack(factors)


class TimeToExpiry(nn.Module):
    """``math.sqrt(tau)`` of ``tau = n * dt`` (a float of a dynamic size) in a helper, before a loop
    that reads ``(n - t) * dt`` per step."""

    def scaled(self, x, tau):
        sd = 0.2 * math.sqrt(tau)
        if x.mean() > 0:
            return x / sd
        return x * sd

    def forward(self, x):
        n = x.shape[0]
        out = self.scaled(x, n / 252.0)
        for t in range(n):
            out[t] = out[t] * ((n - t) / 252.0)
        return out


class RawBits(nn.Module):
    """``math.ceil(math.log2(k))`` of a dynamic size ``k`` (the bits of a raw code), read as a value
    in both branches of a tensor test."""

    def forward(self, counts):
        k = counts.shape[0]
        raw_bits = math.ceil(math.log2(k))
        p = torch.softmax(counts, 0)
        entropy = -(p * torch.log2(p)).sum()
        if entropy > 0.8 * raw_bits:
            return torch.full((k,), float(raw_bits)), entropy
        return -torch.log2(p), entropy - raw_bits


class DispersedSum(nn.Module):
    """Rows summed after shifts that grow with the row: ``torch.roll(x[c], -int(round(0.6 * c * c)))``
    with ``c`` the loop's counter (``round`` of a tensor and a roll by a value in a loop's body)."""

    def delay(self, c):
        return int(round(0.6 * c * c))

    def forward(self, x):
        out = torch.zeros_like(x[0])
        for c in range(x.shape[0]):
            out = out + torch.roll(x[c], -self.delay(c)) + 0.5 * x[c].roll(int(c) % 3)
        return out


class ThinkTime(nn.Module):
    """``max(40 - n // 2, 15)`` of a dynamic size in a helper without control flow, after a size
    branch: a Python max compares sizes, a guard the size-branch retry dropped, so one side was
    taken for every size."""

    def moves_to_go(self, played):
        return max(40 - played // 2, 15)

    def forward(self, evals, clock):
        if evals.shape[0] < 8:
            return clock[0] * 0.01
        base = clock[0] / self.moves_to_go(evals.shape[0])
        if evals[-1] > evals[0]:
            return base * 1.5
        return base


CASES = [
    Case(
        "a_range_step_picked_by_a_size_test",
        seeded(StridedPreview),
        (torch.randn(12, 3),),
        [(torch.randn(5, 3),), (torch.randn(9, 3),), (torch.randn(8, 3),), (torch.randn(31, 3),)],
        ({0: LENGTH},),
    ),
    Case(
        "math_log_of_a_size_a_size_branch_kept",
        seeded(EntropyGate),
        (_flat(20, 4),),
        [(_peaked(20, 4),), (_flat(6, 4),), (_peaked(6, 4),), (_flat(13, 4),)],
        ({0: LENGTH},),
        constructs=("if->cond",),
    ),
    Case(
        "a_window_bounded_by_earlier_while_loops",
        seeded(InkWindow),
        (_ink(10, 8, 2, 3, 1),),
        [(_ink(6, 5, 0, 0, 0),), (_ink(16, 9, 4, 1, 3),), (_ink(7, 12, 1, 2, 5),)],
        ({0: torch.export.Dim("rows", min=4, max=32), 1: torch.export.Dim("cols", min=4, max=32)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "loops_after_an_early_return_of_another_shape",
        seeded(BlankOrCrop),
        (_ink(10, 8, 2, 3, 1),),
        [(0.1 * _flat(6, 5),), (_ink(16, 9, 4, 1, 3),), (0.2 * _flat(12, 7),), (_ink(7, 12, 0, 0, 0),)],
        ({0: torch.export.Dim("rows", min=4, max=32), 1: torch.export.Dim("cols", min=4, max=32)},),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_position_read_under_a_size_test_both_paths_computed",
        seeded(HostPart),
        _url("http://a.b.example.com/x/y"),
        [_url("mail.example.org"), _url("ftp/x.y.z"), _url("https://shop.example.com"), _url("a//b/c.d")],
        ({0: torch.export.Dim("chars", min=4, max=256)},),
    ),
    Case(
        "max_of_a_size_in_a_helper_a_loop_body_calls",
        seeded(BouncingArpeggio),
        (torch.tensor([57, 60, 64, 67]), torch.tensor([9])),
        [
            (torch.tensor([57, 60, 64]), torch.tensor([9])),  # turns at the top twice
            (torch.tensor([5, 6]), torch.tensor([5])),
            (torch.tensor([57, 60, 64, 67, 71, 74]), torch.tensor([3])),  # never turns
        ],
        ({0: torch.export.Dim("notes", min=2, max=8)}, None),
    ),
    Case(
        "slice_bounded_by_a_value_of_the_loop_counter",
        seeded(DevelopmentFactors),
        (torch.rand(6, 6).cumsum(1),),
        [(torch.rand(3, 3).cumsum(1),), (torch.cat([torch.zeros(5, 1), torch.rand(5, 4)], 1).cumsum(1),)],
        ({0: torch.export.Dim("years", min=2, max=12), 1: torch.export.Dim("years", min=2, max=12)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "math_sqrt_of_a_float_of_a_dynamic_size",
        seeded(TimeToExpiry),
        (torch.randn(10) + 1.0,),
        [(torch.randn(4) - 2.0,), (torch.randn(30) + 1.0,)],
        ({0: LENGTH},),
    ),
    Case(
        "math_ceil_of_a_log_of_a_dynamic_size",
        seeded(RawBits),
        (torch.zeros(10),),
        [(torch.arange(12.0),), (torch.zeros(5),), (torch.tensor([0.0, 5.0, 0.0]),)],
        ({0: torch.export.Dim("k", min=2, max=64)},),
        constructs=("if->cond",),
    ),
    Case(
        "roll_by_a_rounded_value_of_the_loop_counter",
        seeded(DispersedSum),
        (torch.randn(6, 20),),
        [(torch.randn(2, 20),), (torch.randn(11, 40),)],
        ({0: torch.export.Dim("channels", min=2, max=12), 1: torch.export.Dim("samples", min=8, max=64)},),
        constructs=("for->while_loop",),
    ),
    Case(
        "python_max_of_a_size_in_a_helper_without_control_flow",
        seeded(ThinkTime),
        (torch.arange(30.0), torch.tensor([300.0])),
        [
            (-torch.arange(30.0), torch.tensor([300.0])),
            (torch.arange(70.0), torch.tensor([120.0])),  # the floor of 15 moves
            (torch.arange(2.0), torch.tensor([60.0])),  # the size branch
        ],
        ({0: torch.export.Dim("plies", min=2, max=200)}, None),
        constructs=("if->cond",),
    ),
]
