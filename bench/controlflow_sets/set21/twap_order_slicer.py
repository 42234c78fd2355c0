"""Broker execution algo: slice a parent order over intraday volume slots (participation cap, limit price, child lots)."""
import torch
from torch import nn
from torch.export import Dim


class TwapOrderSlicer(nn.Module):
    def __init__(self, participation=0.1, lot=100.0, limit_price=101.0):
        super().__init__()
        self.participation = participation
        self.lot = lot
        self.limit_price = limit_price
        self.impact = nn.Linear(2, 1)   # learned per-child price impact model

    def forward(self, total_qty, volume, price):
        S = volume.shape[0]
        remaining = total_qty.clone()
        fills = []
        cost = torch.zeros(1)
        for s in range(S):
            if remaining.item() < 0.5:
                break
            if price[s] > self.limit_price:
                fills.append(torch.zeros(1))
                continue
            q = torch.minimum(remaining, self.participation * volume[s:s + 1])
            n_child = torch.ceil(q / self.lot)
            child_px = price[s:s + 1]
            for c in range(int(n_child.item())):
                feat = torch.cat([child_px, q / 1000.0]).view(1, 2)
                child_px = child_px + 0.01 * torch.sigmoid(self.impact(feat)).view(1)
            cost = cost + q * child_px
            remaining = remaining - q
            fills.append(q)
        done = torch.cat(fills)
        sched = torch.cat([done, torch.zeros(S - done.shape[0])])
        filled = total_qty - remaining
        avg_px = cost / torch.clamp(filled, min=1.0)
        return sched, avg_px, remaining


def model():
    torch.manual_seed(0)
    return TwapOrderSlicer().eval()


def example_inputs():
    vol = torch.tensor([2350.0, 0.0, 4120.0, 3730.0, 5210.0, 2980.0, 1870.0, 3330.0])
    px = torch.tensor([100.2, 100.4, 101.6, 100.9, 100.5, 100.3, 100.7, 100.1])
    return (torch.tensor([1200.0]), vol, px)


def verify_inputs():
    return [
        # small order, filled in the first slot -> break early
        (torch.tensor([150.0]), torch.tensor([2350.0, 4120.0, 3730.0]), torch.tensor([100.2, 100.5, 100.6])),
        # large order never completes (normal loop exit), one slot above the limit
        (torch.tensor([9000.0]), torch.tensor([1230.0, 6420.0, 2890.0, 4440.0, 3110.0]),
         torch.tensor([100.3, 101.4, 100.8, 100.6, 100.2])),
        # everything above the limit: nothing traded
        (torch.tensor([500.0]), torch.tensor([3000.0, 2000.0, 3500.0, 4100.0]),
         torch.tensor([101.5, 101.2, 102.0, 101.9])),
    ]


def dynamic_shapes():
    s = Dim("slots", min=2, max=390)
    return (None, {0: s}, {0: s})
