"""Tensors of one size a size branch picked, read together inside nested graph ops: a queue cut to
its most important entries when it is long, then, in a loop over passes, a `while` that masks the
closed-over priorities with the carried `done` flags (rewriters/foreign_symbols.py). And a pose of a
static size carried by a `while` whose `break` leaves it as it was: it keeps its size in the loop's
frame, where both sides of the break's cond give it."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

MAX_QUEUE = 6


class PassQueue(nn.Module):
    """Each pass with a link sends the most important unsent items while its capacity lasts (the
    last one in part); the queue is cut to its `MAX_QUEUE` most important items when it is longer,
    and the passes stop once everything is sent."""

    def forward(self, capacities, items):
        if items.shape[0] > MAX_QUEUE:
            items = items[torch.topk(items[:, 1], MAX_QUEUE).indices]
        sizes = items[:, 0].clone()
        priority = items[:, 1]
        done = torch.zeros(sizes.shape[0], dtype=torch.bool)
        sent = []
        for p in range(capacities.shape[0]):
            if capacities[p] <= 0:  # a pass with no link: skipped
                sent.append(torch.zeros(()))
                continue
            left = capacities[p]
            total = torch.zeros(())
            while left > 0 and not done.all():
                idx = torch.argmax(priority.masked_fill(done, float("-inf")))
                if sizes[idx] <= left:
                    left = left - sizes[idx]
                    total = total + sizes[idx]
                    sizes[idx] = 0.0
                    done[idx] = True
                else:
                    sizes[idx] = sizes[idx] - left
                    total = total + left
                    left = torch.zeros(())
            sent.append(total)
            if done.all():
                break
        return torch.stack(sent), sizes


def _queue(n, seed):
    g = torch.Generator().manual_seed(seed)
    sizes = 1.0 + 4.0 * torch.rand(n, generator=g)
    return torch.stack([sizes, torch.randperm(n, generator=g).float()], dim=1)


def _rotation(angle):
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack([torch.stack([c, -s]), torch.stack([s, c])])


class PoseRefiner(nn.Module):
    """Too few scan points keep the first pose; otherwise each pass moves the points toward the
    mean of the map points near them, and stops when too few are near."""

    def forward(self, scan, map_pts, pose):
        if scan.shape[0] < 6:
            return pose, torch.zeros(())
        cur = scan @ _rotation(pose[2]).T + pose[:2]
        err = torch.tensor(100.0)
        it = 0
        while err > 0.05 and it < 6:
            d, j = ((cur[:, None, :] - map_pts[None]) ** 2).sum(-1).min(dim=1)
            near = d < 2.25
            if near.sum() < 3:
                break
            step = map_pts[j[near]].mean(0) - cur[near].mean(0)
            angle = 0.1 * step.sum()
            cur = cur @ _rotation(angle).T + step
            pose = torch.cat([_rotation(angle) @ pose[:2] + step, (pose[2] + angle).view(1)])
            err = step.abs().sum()
            it += 1
        return pose, err


def _scan(n, shift, seed):
    g = torch.Generator().manual_seed(seed)
    world = torch.rand(24, 2, generator=g) * 4.0
    return world[:n] + torch.tensor(shift), world, torch.tensor([0.2, -0.1, 0.05])


CASES = [
    Case(
        "a_static_size_pose_a_while_carries_past_a_break_that_leaves_it",
        seeded(PoseRefiner),
        _scan(12, [0.3, 0.2], 0),
        [
            _scan(4, [0.3, 0.2], 1),  # too few points: the first pose
            _scan(10, [9.0, 9.0], 2),  # nothing near: breaks in the first pass
            _scan(16, [0.1, -0.2], 3),
        ],
        ({0: torch.export.Dim("scan", min=2, max=64)}, {0: torch.export.Dim("map", min=8, max=64)}, None),
        constructs=("while->while_loop",),
    ),
    Case(
        "a_closed_over_tensor_and_a_carried_one_of_the_size_a_size_branch_picked",
        seeded(PassQueue),
        (torch.tensor([3.0, 5.0, 2.0]), _queue(4, 0)),
        [
            (torch.tensor([30.0, 1.0]), _queue(3, 1)),  # queue empties in the first pass
            (torch.tensor([2.0, 4.0, 0.0, 6.0]), _queue(10, 2)),  # cut to the top MAX_QUEUE, one pass skipped
            (torch.tensor([1.0, 1.0]), _queue(9, 3)),  # never empties
        ],
        ({0: torch.export.Dim("passes", min=2, max=16)}, {0: torch.export.Dim("items", min=2, max=32)}),
        constructs=("if->cond", "while->while_loop"),
    ),
]
