"""Stores into a slice whose bound a converted loop computes (``adj[:t] = adj[:t] / k``: rescale the
history before a split, t the loop's counter)."""

import torch
from torch import nn

from tests.rewriters.models.case import Case, seeded

DAYS = torch.export.Dim("days", min=2, max=128)


class SplitRescale(nn.Module):
    """Prices before a 2:1 (or 3:1) split are divided by the ratio; a halted day is skipped."""

    def forward(self, close, volume):
        adj = close.clone()
        for t in range(1, close.shape[0]):
            if volume[t] == 0:
                continue
            ratio = close[t - 1] / close[t]
            k = torch.round(ratio)
            if ratio > 1.8 and (ratio - k).abs() < 0.1:
                adj[:t] = adj[:t] / k
        return adj


def _bars(prices, halted=()):
    volume = torch.ones(len(prices))
    volume[list(halted)] = 0.0
    return torch.tensor(prices), volume


class FirstFreeChannel(nn.Module):
    """First-fit channels on a chain of links: `occ[s:d, w] = 1.0` with `s`, `d` read from the
    request (`int(req[i, 0])`) and `w` the inner loop's counter, after `if occ[s:d, w].max() > 0.5:
    continue`."""

    def forward(self, requests, occupancy):
        occ = occupancy.clone()
        picked = []
        for i in range(requests.shape[0]):
            s, d = int(requests[i, 0]), int(requests[i, 1])
            channel = torch.tensor(-1.0)
            for w in range(occ.shape[1]):
                if occ[s:d, w].max() > 0.5:
                    continue
                occ[s:d, w] = 1.0
                channel = torch.tensor(float(w))
                break
            picked.append(channel)
        return torch.stack(picked), occ


CASES = [
    Case(
        "slice_store_of_one_channel_between_bounds_read_from_a_request",
        seeded(FirstFreeChannel),
        (torch.tensor([[0, 3], [1, 2], [0, 4], [2, 4]]), torch.zeros(5, 3)),
        [
            (torch.tensor([[0, 2], [1, 3]]), torch.ones(4, 2)),  # every channel taken: blocked
            (torch.tensor([[0, 1], [0, 1], [0, 1]]), torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]])),
        ],
        (
            {0: torch.export.Dim("requests", min=2, max=16)},
            {0: torch.export.Dim("links", min=2, max=16), 1: torch.export.Dim("channels", min=2, max=16)},
        ),
        constructs=("for->while_loop",),
    ),
    Case(
        "slice_store_bounded_by_the_loop_counter_in_a_branch",
        seeded(SplitRescale),
        _bars([100.0, 101.0, 99.0, 50.2, 51.0, 52.0]),  # one 2:1 split
        [
            _bars([20.0, 20.4]),  # no split, minimum length
            _bars([90.0, 91.0, 30.2, 30.0, 31.0, 10.1, 10.0], halted=(4,)),  # two 3:1 splits, a halted day
            _bars([50.0, 51.0, 52.0, 53.0]),  # no split
        ],
        ({0: DAYS}, {0: DAYS}),
        constructs=("for->while_loop",),
    ),
]
