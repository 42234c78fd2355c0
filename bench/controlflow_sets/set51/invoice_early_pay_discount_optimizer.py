"""Accounts-payable early-payment discount optimizer ("2/10 net 30").

Invoices: amount, discount fraction, discount days, net days.  Taking a
discount is worth it when its annualized return beats the cost of capital;
with limited cash the best ones are taken greedily.
"""
import torch
import torch.nn as nn


class EarlyPayOptimizer(nn.Module):
    def __init__(self, conservative=False, cost_of_capital=0.08, keep_cash_buffer=0.1):
        super().__init__()
        self.conservative = conservative
        self.cost_of_capital = cost_of_capital
        self.keep_cash_buffer = keep_cash_buffer
        # predicts probability the supplier honours a late-taken discount
        self.supplier_leniency = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def annualized_return(self, disc, disc_days, net_days):
        window = (net_days - disc_days).clamp(min=1.0)
        return disc / (1.0 - disc) * 365.0 / window

    def forward(self, invoices, cash):
        amount, disc, disc_days, net_days = invoices.unbind(dim=1)
        ret = self.annualized_return(disc, disc_days, net_days)
        worth = ret > self.cost_of_capital
        cost = amount * (1.0 - disc)
        leniency = self.supplier_leniency(invoices / 100.0).squeeze(-1)

        if cash > cost.sum() and not self.conservative:
            take = worth
        elif not worth.any() or cash <= 0:
            take = torch.zeros_like(worth)
        else:
            budget = cash * (1.0 - self.keep_cash_buffer)
            if invoices.shape[0] > 32:
                # many invoices: rank by return per dollar
                order = torch.argsort(ret * worth.float(), descending=True)
            else:
                order = torch.argsort(ret * worth.float() + 0.01 * leniency, descending=True)
            spent = torch.cumsum(cost[order] * worth[order].float(), dim=0)
            take_sorted = (spent <= budget) & worth[order]
            take = torch.zeros_like(worth)
            take[order] = take_sorted
        savings = (amount * disc * take.float()).sum()
        return take.long(), savings


def model():
    torch.manual_seed(5107)
    return EarlyPayOptimizer().eval()


def _invoices(n, seed):
    g = torch.Generator().manual_seed(seed)
    amount = 500 + 9500 * torch.rand(n, generator=g)
    disc = torch.tensor([0.0, 0.01, 0.02, 0.005])[torch.randint(0, 4, (n,), generator=g)]
    disc_days = torch.full((n,), 10.0)
    net_days = torch.tensor([30.0, 45.0, 60.0])[torch.randint(0, 3, (n,), generator=g)]
    return torch.stack([amount, disc, disc_days, net_days], dim=1)


def example_inputs():
    return (_invoices(12, 1), torch.tensor(20000.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("invoices", min=2, max=200)}, None)


def verify_inputs():
    return [
        # example: cash limited, <= 32 invoices -> greedy with leniency tie-break
        example_inputs(),
        # min: plenty of cash -> take every worthwhile discount
        (_invoices(2, 2), torch.tensor(1e6)),
        # no cash at all -> take nothing
        (_invoices(5, 3), torch.tensor(0.0)),
        # max: cash limited, > 32 invoices -> rank by return only
        (_invoices(200, 4), torch.tensor(150000.0)),
        # no discounts worth taking (all 0%) with limited cash -> take nothing
        (torch.tensor([[1000.0, 0.0, 10.0, 30.0], [2000.0, 0.0, 10.0, 30.0]]), torch.tensor(100.0)),
    ]
