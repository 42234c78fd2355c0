"""Microfinance joint-liability group loan: weekly repayment ledger.

Each member owes an equal weekly instalment of their loan plus interest.  A
member's repayment capacity is their weekly income minus a household
subsistence need (a small learned model of income and income history).
Members who earn nothing that week (illness, travel) pay nothing.  Shortfalls
are covered first from the group savings fund, then by the other members'
surplus; if the surplus cannot carry the shortfall the group defaults.  Groups
below the minimum size are not jointly liable and repay individually.
"""
import torch
import torch.nn as nn


class GroupLoanLedger(nn.Module):
    def __init__(self, rate=0.12, savings_share=0.1, min_group=3):
        super().__init__()
        self.rate = rate
        self.savings_share = savings_share
        self.min_group = min_group
        self.need_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))

    def capacity(self, income, history_mean):
        feats = torch.stack([income, history_mean], dim=-1) / 100.0
        need = 20.0 + 10.0 * torch.sigmoid(self.need_net(feats)).squeeze(-1)
        return income - need

    def member_payment(self, cap, due):
        if cap >= due:
            return due, cap - due
        if cap > 0:
            return cap, torch.zeros(())
        return torch.zeros(()), torch.zeros(())

    def forward(self, cashflow, loan):
        weeks, members = cashflow.shape[0], cashflow.shape[1]
        due = loan * (1.0 + self.rate) / weeks
        ledger = torch.zeros(weeks)
        if members < self.min_group:
            for w in range(weeks):
                cap = self.capacity(cashflow[w], cashflow[: w + 1].mean(0)).clamp(min=0.0)
                ledger[w] = torch.minimum(cap, due).sum()
            return ledger, torch.tensor(-1), torch.zeros(())
        savings = torch.zeros(())
        history = cashflow[0].clone()
        for w in range(weeks):
            shortfall = torch.zeros(())
            surplus = torch.zeros(())
            paid_total = torch.zeros(())
            for m in range(members):
                if cashflow[w, m] < 1.0:
                    shortfall = shortfall + due[m]
                    continue
                paid, extra = self.member_payment(self.capacity(cashflow[w, m], history[m]), due[m])
                shortfall = shortfall + (due[m] - paid)
                surplus = surplus + extra
                paid_total = paid_total + paid
            if shortfall > 0:
                cover = torch.minimum(savings, shortfall)
                savings = savings - cover
                shortfall = shortfall - cover
                paid_total = paid_total + cover
                if shortfall > surplus:
                    ledger[w] = paid_total
                    return ledger, torch.tensor(w), savings
                surplus = surplus - shortfall
                paid_total = paid_total + shortfall
            savings = savings + self.savings_share * surplus
            ledger[w] = paid_total
            history = 0.8 * history + 0.2 * cashflow[w]
        return ledger, torch.tensor(-1), savings


def model():
    torch.manual_seed(1707)
    return GroupLoanLedger().eval()


def _incomes(weeks, members, seed, base=80.0, spread=40.0, absent=()):
    g = torch.Generator().manual_seed(seed)
    x = base + spread * torch.rand(weeks, members, generator=g)
    for w, m in absent:
        x[w, m] = 0.0
    return x


def example_inputs():
    cash = _incomes(12, 5, seed=1, absent=[(3, 1), (7, 0), (7, 4)])
    cash[5, 2] = 31.0   # a bad week: pays part of the instalment
    return cash, torch.tensor([500.0, 400.0, 600.0, 450.0, 550.0])


def dynamic_shapes():
    weeks = torch.export.Dim("weeks", min=2, max=104)
    members = torch.export.Dim("members", min=2, max=30)
    return ({0: weeks, 1: members}, {0: members})


def verify_inputs():
    crisis = _incomes(10, 4, seed=3, base=90.0, spread=20.0, absent=[(2, 0), (2, 1), (2, 2)])
    mixed = _incomes(6, 4, seed=5, base=120.0, spread=10.0)
    mixed[:, 2:] = _incomes(6, 2, seed=6, base=35.0, spread=10.0)
    mixed[1, 3] = 12.0   # income below subsistence: present but pays nothing
    return [
        # example: absences and a partial payment covered by savings and by the group
        # surplus; full-payment weeks; no default
        example_inputs(),
        # pair of borrowers (below the joint-liability group size) -> individual repayment
        (_incomes(8, 2, seed=2), torch.tensor([300.0, 350.0])),
        # flood week: three of four members earn nothing -> group default (early return)
        (crisis, torch.tensor([400.0, 400.0, 400.0, 400.0])),
        # mixed-income group: two poor members pay partially every week (one of them
        # once below subsistence, capacity <= 0), the better-off members carry them
        (mixed, torch.tensor([150.0, 150.0, 150.0, 150.0])),
    ]
