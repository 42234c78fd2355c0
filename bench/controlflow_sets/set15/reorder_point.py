"""Stock replenishment: reorder point and order quantity for one SKU (store back-office box).

Inputs: daily sales history (D,), D dynamic, and [on hand, on order, lead time days,
unit cost, holding cost rate, target service level] (6,). A small forecaster predicts daily demand from the last
28 days; the safety stock is found by a bisection on the service level; the order quantity
is EOQ, rounded up to whole case packs.
"""

import math

import torch
from torch import nn

WINDOW = 28
CASE = 12.0


class Replenisher(nn.Module):
    def __init__(self, order_cost: float = 40.0, max_iter: int = 10):
        super().__init__()
        self.order_cost, self.max_iter = order_cost, max_iter
        self.fc = nn.Linear(WINDOW, 1)
        with torch.no_grad():
            self.fc.weight.mul_(0.01)

    def forward(self, sales: torch.Tensor, params: torch.Tensor):
        if sales.shape[0] > WINDOW:
            hist = sales[-WINDOW:]
        else:
            hist = torch.cat([sales[:1].expand(WINDOW - sales.shape[0]), sales])
        level = hist.mean()
        demand = (level + self.fc(hist / (level + 1.0)).squeeze()).clamp_min(0.0)
        sigma = hist.std()
        on_hand, on_order, lead, unit_cost, hold_rate, service = params.unbind(0)
        # z such that Phi(z) = service, by bisection, until the safety stock is known to
        # within half a unit (fast movers stop at the iteration cap)
        lo, hi = torch.tensor(0.0), torch.tensor(4.0)
        spread = sigma * lead.sqrt()
        it = 0
        while (hi - lo) * spread > 0.5 and it < self.max_iter:
            mid = 0.5 * (lo + hi)
            if 0.5 * (1 + torch.erf(mid / math.sqrt(2.0))) < service:
                lo = mid
            else:
                hi = mid
            it += 1
        z = 0.5 * (lo + hi)
        safety = z * sigma * lead.sqrt()
        rop = demand * lead + safety
        position = on_hand + on_order
        if position > rop:
            return rop, torch.zeros(())
        eoq = torch.sqrt(2 * demand * 365.0 * self.order_cost / (unit_cost * hold_rate))
        qty = torch.ceil((eoq + rop - position).clamp_min(CASE) / CASE) * CASE
        qty = qty * 2 if demand > 100.0 else qty
        return rop, qty


def model() -> nn.Module:
    torch.manual_seed(0)
    return Replenisher().eval()


def _sales(d, mean, seed):
    g = torch.Generator().manual_seed(seed)
    return (mean + 0.2 * mean * torch.randn(d, generator=g)).clamp_min(0.0)


def example_inputs() -> tuple:
    return _sales(60, 20.0, 1), torch.tensor([50.0, 0.0, 5.0, 3.0, 0.25, 0.95])


def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=2, max=730)}, None)


def verify_inputs() -> list:
    return [
        (_sales(14, 20.0, 2), torch.tensor([400.0, 100.0, 5.0, 3.0, 0.25, 0.97])),   # plenty: no order
        (_sales(90, 150.0, 3), torch.tensor([300.0, 0.0, 3.0, 1.5, 0.2, 0.92])),    # fast mover
        (_sales(40, 500.0, 5), torch.tensor([2000.0, 0.0, 14.0, 8.0, 0.3, 0.92])),  # volatile: bisection cap
    ]
