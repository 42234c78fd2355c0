"""Accounts-receivable dunning simulator.

For each open invoice (amount, due day, customer features, credit limit) and
its daily payment history, a dunning state machine walks the days: payments
reduce the balance (and calm a reminder back to current), while unpaid
overdue days escalate reminder -> warning -> collections, each step charging
a fee; very old debt is written off. A customer risk submodule (a small MLP,
with a floor for cash-only customers) makes warnings come sooner for risky
customers and weights the expected loss.
"""
import torch
import torch.nn as nn
from torch.export import Dim

CURRENT, REMINDER, WARNING, COLLECTIONS, WRITE_OFF, PAID = 0, 1, 2, 3, 4, 5


class CustomerRisk(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, inv):
        feats = torch.stack([inv[0] / 1000.0, inv[2], inv[3] / 5000.0])
        p = torch.sigmoid(6.0 * (inv[2] - 0.5) + self.mlp(feats).squeeze(0))  # scorecard + learned correction
        if inv[3] <= 0:
            p = torch.clamp(p, min=0.6)  # cash-only customer without a credit line
        return p


def dunning_fee(balance, state):
    if state == COLLECTIONS:
        return torch.clamp(0.1 * balance, min=25.0)
    if state == WARNING:
        return torch.full((), 10.0, dtype=balance.dtype)
    return torch.zeros((), dtype=balance.dtype)


class DunningEngine(nn.Module):
    def __init__(self, collections_after=30, writeoff_after=60):
        super().__init__()
        self.risk = CustomerRisk()
        self.collections_after = collections_after
        self.writeoff_after = writeoff_after

    def forward(self, invoices, payments):
        n_days = payments.shape[1]
        states, recovered, fees, risks, outstanding = [], [], [], [], []
        for i in range(invoices.shape[0]):
            amount = invoices[i, 0]
            due = int(invoices[i, 1])
            risk = self.risk(invoices[i])
            warn_after = 7 if risk > 0.5 else 14
            balance = amount.clone()
            fee = torch.zeros((), dtype=amount.dtype)
            state = CURRENT
            day = 0
            while balance > 0.01 and day < n_days:
                paid = payments[i, day]
                day += 1
                if paid > 0:
                    balance = balance - paid
                    if state == REMINDER:
                        state = CURRENT
                    continue
                overdue = day - due
                if overdue > self.writeoff_after:
                    state = WRITE_OFF
                    break
                if overdue >= self.collections_after and state < COLLECTIONS:
                    state = COLLECTIONS
                elif overdue >= warn_after and state < WARNING:
                    state = WARNING
                elif overdue >= 1 and state < REMINDER:
                    state = REMINDER
                else:
                    continue
                fee = fee + dunning_fee(balance, state)
            if balance <= 0.01:
                state = PAID
            states.append(torch.tensor(state))
            recovered.append(amount - torch.clamp(balance, min=0.0))
            fees.append(fee)
            risks.append(risk)
            outstanding.append(torch.clamp(balance, min=0.0))
        expected_loss = (torch.stack(risks) * torch.stack(outstanding)).sum()
        return torch.stack(states), torch.stack(recovered), torch.stack(fees), expected_loss


def model():
    torch.manual_seed(83)
    return DunningEngine().eval()


def _ledger(rows, n_days):
    """rows: (amount, due_day, customer_score, credit_limit, {day: payment})."""
    inv = torch.tensor([[a, d, s, c] for a, d, s, c, _ in rows])
    pay = torch.zeros(len(rows), n_days)
    for i, (*_, p) in enumerate(rows):
        for day, amt in p.items():
            pay[i, day] = amt
    return inv, pay


def example_inputs():
    return _ledger([
        (1200.0, 10, 0.2, 5000.0, {8: 1200.0}),                # paid before due -> PAID
        (800.0, 5, 0.6, 3000.0, {9: 300.0, 12: 500.0}),        # reminder, partial pay (back to current), paid
        (450.0, 3, 0.9, 0.0, {}),                              # cash customer, never pays: escalates to collections
    ], 40)


def dynamic_shapes():
    n = Dim("invoices", min=2, max=32)
    return ({0: n}, {0: n, 1: Dim("days", min=7, max=90)})


def verify_inputs():
    g = torch.Generator().manual_seed(5)
    many = []
    for k in range(32):
        amt = float(100 * (1 + k % 7))
        pays = {} if k % 5 == 0 else {int(d): amt / 2 for d in torch.randint(0, 90, (2,), generator=g).tolist()}
        many.append((amt, k % 20, (k % 10 + 0.5) / 10.0, 1000.0 * (k % 4), pays))
    return [
        example_inputs(),
        _ledger([
            (300.0, 2, 0.3, 2000.0, {}),                       # never paid: written off (break) after 60 days overdue
            (0.0, 5, 0.1, 2000.0, {}),                         # credit note, zero balance: while runs 0 times
            (600.0, 10, 0.4, 1000.0, {40: 200.0, 50: 400.0}),  # collections, then paid off late
        ], 75),
        _ledger([
            (500.0, 1, 0.6, 500.0, {}),                        # horizon ends while still in reminder
            (90.0, 0, 0.2, 800.0, {0: 90.0}),                  # paid on the first day: one iteration
        ], 7),
        _ledger(many, 90),                                     # 32 invoices x 90 days, mixed histories
    ]
