"""Mortgage amortization schedule with behavioural prepayments.

Each month a small network estimates how likely the household is to put its surplus cash
into an extra principal payment; the schedule runs until the loan is paid off or the cash-flow
horizon ends.  Amounts are in thousands of dollars.
"""
import torch
from torch import nn


class MortgagePrepaymentSchedule(nn.Module):
    def __init__(self):
        super().__init__()
        # features per month: surplus cash, income, expenses
        self.propensity = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.prior = nn.Linear(3, 1)  # calibrated logistic prior
        with torch.no_grad():
            self.prior.weight.copy_(torch.tensor([[2.0, 2.5, -2.0]]))
            self.prior.bias.fill_(-1.5)
            self.propensity[2].weight.mul_(0.3)
            self.propensity[2].bias.zero_()
        self.allow_prepay = True
        self.round_cents = False

    def forward(self, loan, cash):
        # loan = [principal, annual_rate, monthly_payment]; cash: [months, 3]
        principal, rate, payment = loan[0], loan[1], loan[2]
        monthly_rate = rate / 12.0
        if payment <= principal * monthly_rate:
            # payment does not even cover the interest: the loan never amortizes
            return torch.zeros(0, 3), principal * monthly_rate - payment, principal

        balance = principal
        total_interest = torch.zeros(())
        rows = []
        month = 0
        while balance > 0 and month < cash.shape[0]:
            interest = balance * monthly_rate
            extra = torch.zeros(())
            if self.allow_prepay:
                feats = cash[month]
                p = torch.sigmoid(self.prior(feats) + self.propensity(feats))[0]
                surplus = cash[month, 0]
                if p > 0.5 and surplus > 0:
                    extra = surplus * p
            remaining = balance + interest - payment - extra
            if remaining <= 0:
                paid = balance + interest
                balance = torch.zeros(())
            else:
                paid = payment + extra
                balance = remaining
            total_interest = total_interest + interest
            rows.append(torch.stack([paid, interest, balance]))
            month += 1

        if not rows:
            return torch.zeros(0, 3), total_interest, balance
        schedule = torch.stack(rows)
        if self.round_cents:
            schedule = torch.round(schedule * 100.0) / 100.0
        return schedule, total_interest, balance


def model():
    torch.manual_seed(0)
    return MortgagePrepaymentSchedule().eval()


def _make_cash(months, seed, shortfall=False):
    g = torch.Generator().manual_seed(seed)
    income = 5.0 + torch.rand(months, generator=g) * 2.0
    expenses = 3.0 + torch.rand(months, generator=g) * 3.0
    surplus = (income - expenses) * 0.5
    if shortfall:
        # well-off household hit by one-off bills: keen to prepay but no spare cash
        income = 6.6 + torch.rand(months, generator=g) * 0.4
        expenses = 3.0 + torch.rand(months, generator=g) * 0.3
        surplus = -0.05 - torch.rand(months, generator=g) * 0.2
    return torch.stack([surplus, income / 5.0, expenses / 5.0], dim=1)


def example_inputs():
    return (torch.tensor([30.0, 0.06, 2.5]), _make_cash(16, 1))


def dynamic_shapes():
    months = torch.export.Dim("months", min=2, max=64)
    return (None, {0: months})


def verify_inputs():
    return [
        # interest-only trap: early return
        (torch.tensor([40.0, 0.09, 0.2]), _make_cash(12, 2)),
        # already paid off: zero iterations, empty schedule
        (torch.tensor([-1.0, 0.05, 1.0]), _make_cash(6, 3)),
        # paid off in the first month
        (torch.tensor([0.8, 0.05, 1.5]), _make_cash(4, 4)),
        # paid off after several months, mixed prepayment decisions
        (torch.tensor([12.0, 0.05, 1.3]), _make_cash(30, 5)),
        # horizon ends before payoff
        (torch.tensor([60.0, 0.07, 1.0]), _make_cash(10, 6)),
        # negative surplus months (prepayment wanted but no cash)
        (torch.tensor([9.0, 0.04, 1.1]), _make_cash(20, 7, shortfall=True)),
        # example
        example_inputs(),
    ]
