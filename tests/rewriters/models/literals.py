"""Python literals read inside graph-op bodies: a loop over a module-level list of holds that breaks
on a tensor test (inside a loop over a dynamic size), and a tensor indexed by a list of joint
numbers in a loop body. torch would make each literal a constant tensor, which torch.onnx's
decompositions cannot run inside a loop's body."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

PALLETS = torch.export.Dim("pallets", min=2, max=32)
FRAMES = torch.export.Dim("frames", min=2, max=32)
HIP, KNEE, ANKLE = 11, 13, 15
PREFERENCE = [3, 1, 2, 0]  # holds, front to back


class FirstFitHolds(nn.Module):
    """Each pallet goes to the first hold, in a fixed preference order, with room left."""

    def forward(self, weights, capacity):
        remaining = capacity.clone()
        plan = []
        for i in range(weights.shape[0]):
            chosen = torch.tensor(-1)
            for h in PREFERENCE:
                if remaining[h] < weights[i]:
                    continue
                remaining = remaining - weights[i] * (torch.arange(4) == h).float()
                chosen = torch.tensor(h)
                break
            if chosen >= 0:
                plan.append(torch.stack([torch.tensor(i), chosen]))
        if plan:
            return torch.stack(plan), remaining
        return torch.zeros(0, 2, dtype=torch.int64), remaining


class LegConfidence(nn.Module):
    """Frames whose leg joints are all confident add their leg's mean position."""

    def forward(self, kps):
        total = torch.zeros(2)
        for t in range(kps.shape[0]):
            frame = kps[t]
            if frame[[HIP, KNEE, ANKLE], 2].min() < 0.3:
                continue
            total = total + frame[[HIP, KNEE, ANKLE], :2].mean(0)
        return total


def _pallets(n: int, scale: float) -> tuple:
    weights = torch.linspace(0.35, 1.45, n) * scale
    return weights, torch.tensor([1.0, 2.6, 0.45, 1.9])


def _frames(n: int, low: tuple) -> tuple:
    g = torch.Generator().manual_seed(n)
    kps = torch.rand(n, 17, 3, generator=g)
    kps[:, :, 2] = 0.8
    for t in low:
        kps[t, KNEE, 2] = 0.1
    return (kps,)


class CappedWhite(nn.Module):
    """``white.new_tensor(4.0)`` in a branch: Tensor.new_tensor traces to a lifted constant with an
    in-place ``detach_`` that torch.onnx cannot translate."""

    def forward(self, x):
        white = x.max()
        if white > 4.0:
            white = white.new_tensor(4.0)  # let highlights burn out
        return x / white


CASES = [
    Case(
        "new_tensor_of_a_constant_in_a_branch",
        seeded(CappedWhite),
        (torch.tensor([1.0, 7.5, 3.0, 2.0]),),
        [(torch.tensor([1.0, 2.0, 0.5]),), (torch.tensor([0.5, 9.0, 3.0, 5.0, 1.0]),)],
        ({0: torch.export.Dim("n", min=2, max=32)},),
    ),
    Case(
        "loop_over_a_literal_list_breaking_in_a_graph_loop",
        seeded(FirstFitHolds),
        _pallets(5, 1.0),
        [_pallets(9, 1.0), _pallets(3, 4.0), _pallets(2, 0.5), _pallets(3, 10.0)],
        ({0: PALLETS}, None),
    ),
    Case(
        "list_of_indices_in_a_loop_body",
        seeded(LegConfidence),
        _frames(6, (1, 4)),
        [_frames(3, ()), _frames(9, (0, 2, 3, 8))],
        ({0: FRAMES},),
    ),
]
