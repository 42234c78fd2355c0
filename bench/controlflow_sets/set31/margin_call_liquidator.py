"""Broker risk engine: automatic liquidation on a margin call.

When an account's equity falls below its house maintenance requirement the
engine unwinds positions, best margin-relief-per-impact-cost first, trading at
most 10 % of each name's average daily volume, until equity is back above the
requirement with a buffer.  A learned market-impact model estimates trading
costs.  Accounts still in deficit after today's liquidity go to the risk desk.
"""
import torch
import torch.nn as nn


def house_margin(qty, price, vol):
    """Maintenance requirement per position: higher for shorts and volatile names."""
    rate = torch.where(qty < 0, 0.30 + vol, 0.25 + 0.5 * vol).clamp(max=1.0)
    return qty.abs() * price * rate


def account(qty, price, vol, cash):
    equity = cash + (qty * price).sum()
    return equity, house_margin(qty, price, vol).sum()


class MarginLiquidator(nn.Module):
    def __init__(self, buffer=1.1, adv_cap=0.1):
        super().__init__()
        self.buffer = buffer
        self.adv_cap = adv_cap
        self.impact = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, positions, cash):
        # positions: [P, 4] = signed quantity, price, annualised volatility, avg daily volume
        qty, price, vol, adv = positions.unbind(-1)
        equity, req = account(qty, price, vol, cash)
        if equity >= req:
            return torch.zeros_like(qty), equity / req.clamp(min=1.0), torch.zeros(())

        relief = house_margin(qty, price, vol)
        feats = torch.stack([vol, (qty.abs() / adv).clamp(max=10.0), torch.log(price)], dim=-1)
        impact_bps = 5.0 + 20.0 * torch.sigmoid(self.impact(feats)).squeeze(-1)
        order = torch.argsort(relief / impact_bps, descending=True)

        remaining = qty.clone()
        for k in range(positions.shape[0]):
            i = order[k]
            if remaining[i] == 0:
                continue   # already flat
            trade = torch.minimum(remaining[i].abs(), self.adv_cap * adv[i]) * remaining[i].sign()
            cash = cash + trade * price[i] - trade.abs() * price[i] * impact_bps[i] * 1e-4
            remaining[i] = remaining[i] - trade
            equity, req = account(remaining, price, vol, cash)
            if equity >= self.buffer * req:
                break
        if equity < req:
            status = 2   # still short: escalate to the risk desk
        else:
            status = 1   # margin call resolved by liquidation
        return qty - remaining, equity / req.clamp(min=1.0), torch.tensor(status)


def model():
    torch.manual_seed(59)
    return MarginLiquidator().eval()


def _make_book(rows, cash):
    return torch.tensor(rows, dtype=torch.float32), torch.tensor(cash)


def example_inputs():
    # leveraged long book after a sell-off: needs several trades
    return _make_book([[1200.0, 41.3, 0.35, 9000.0],
                       [-500.0, 88.7, 0.55, 4000.0],
                       [3000.0, 12.9, 0.60, 20000.0],
                       [150.0, 310.2, 0.25, 1500.0],
                       [800.0, 57.4, 0.40, 6000.0]], -80000.0)


def dynamic_shapes():
    return ({0: torch.export.Dim("positions", min=2, max=2048)}, None)


def verify_inputs():
    return [
        # deficit resolved after a few trades (break)
        example_inputs(),
        # healthy account: early return, nothing sold
        _make_book([[100.0, 50.2, 0.3, 10000.0], [200.0, 20.1, 0.2, 50000.0]], 5000.0),
        # small deficit: first trade fixes it
        _make_book([[1000.0, 30.5, 0.3, 100000.0], [400.0, 45.1, 0.2, 80000.0]], -36000.0),
        # illiquid names and a flat line: every position traded, flat one skipped (continue),
        # still in deficit -> risk desk
        _make_book([[5000.0, 20.3, 0.8, 2000.0],
                    [-3000.0, 15.7, 0.9, 1500.0],
                    [0.0, 99.1, 0.3, 5000.0],
                    [2500.0, 33.3, 0.7, 1000.0]], -160000.0),
    ]
