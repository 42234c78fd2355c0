"""Tensors of one size a size branch picked, read together inside nested graph ops: a queue cut to
its most important entries when it is long, then, in a loop over passes, a `while` that masks the
closed-over priorities with the carried `done` flags (rewriters/foreign_symbols.py)."""

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


CASES = [
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
