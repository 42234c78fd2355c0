"""Retail checkout queue-length estimator from per-frame person-detector scores on a grid of
cells laid along the queue lane (cell 0 at the till). Queue length = number of contiguous
occupied cells from the till, smoothed by a hysteresis tracker."""

import torch
from torch import nn


class QueueLength(nn.Module):
    def __init__(self, cells: int = 16, service_s: float = 45.0, report_wait: bool = True):
        super().__init__()
        self.calib = nn.Linear(cells, cells)
        self.service_s = service_s
        self.report_wait = report_wait

    def instant(self, occ: torch.Tensor) -> torch.Tensor:
        # contiguous run of occupied cells starting at the till
        return torch.cumprod(occ.long(), dim=-1).sum(-1)

    def forward(self, scores: torch.Tensor):
        # scores: (T, cells) detector logits
        p = torch.sigmoid(scores + 0.1 * self.calib(scores))
        occ = p > 0.5
        if scores.shape[0] < 4:
            # too few frames to track: report the latest instantaneous length
            q = self.instant(occ[-1])
            return q, q.float() * self.service_s, q.view(1)
        queue = self.instant(occ[0])
        hist = []
        for t in range(scores.shape[0]):
            n = self.instant(occ[t])
            if n > queue + 1:
                queue = queue + 1
            elif n < queue - 1:
                queue = queue - 1
            hist.append(queue)
        wait = torch.zeros(())
        if self.report_wait:  # static
            wait = queue.float() * self.service_s
        return queue, wait, torch.stack(hist)


def model() -> nn.Module:
    torch.manual_seed(0)
    return QueueLength().eval()


def _frames(lengths, seed):
    g = torch.Generator().manual_seed(seed)
    T = len(lengths)
    s = -4.0 + 0.5 * torch.randn(T, 16, generator=g)
    for t, n in enumerate(lengths):
        s[t, :n] = 4.0 + 0.5 * torch.randn(n, generator=g)
    return s


def example_inputs() -> tuple:
    return (_frames([3, 3, 5, 6, 6, 4, 2, 2], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=300)},)


def verify_inputs() -> list:
    return [
        (_frames([2, 9, 3],1),),                          # short clip
        (_frames([0, 0, 1, 8, 8, 8, 8, 8, 0, 0, 0, 0], 2),),
    ]
