"""Buy-now-pay-later servicing: late fees and acceleration on an installment plan.

Each installment has an amount due, an amount actually paid (both in integer
cents, as ledgers keep them) and how many days late the payment was.
Paid-in-full on-time installments need no work.  Short or late payments
inside the grace period carry over; outside it (or when less than half was
paid) they incur a capped late fee.  Two missed installments in a row charge
off the plan: the rest of the balance is accelerated and servicing stops.  A
tiny risk model scores the resulting ledger.
"""
import torch
import torch.nn as nn


class BNPLLedger(nn.Module):
    def __init__(self, grace_days=3, fee_pct=25, fee_cap_cents=700, miss_pct=10):
        super().__init__()
        self.grace_days = grace_days
        self.fee_pct = fee_pct
        self.fee_cap_cents = fee_cap_cents
        self.miss_pct = miss_pct
        self.risk = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, due, paid, days_late):
        n = due.shape[0]
        fees = torch.zeros_like(due)
        carry = torch.zeros((), dtype=due.dtype)
        missed_in_row = 0
        charged_off = torch.tensor(False)
        accelerated = torch.zeros((), dtype=due.dtype)
        for k in range(n):
            owed = due[k] + carry
            if paid[k] >= owed and days_late[k] <= 0:
                carry = torch.zeros_like(carry)
                missed_in_row = 0
                continue

            shortfall = (owed - paid[k]).clamp_min(0)
            if days_late[k] > self.grace_days or 2 * shortfall > due[k]:
                fees[k] = (due[k] * self.fee_pct // 100).clamp_max(self.fee_cap_cents)
            carry = shortfall

            missed = 100 * paid[k] < self.miss_pct * due[k]
            missed_in_row = missed_in_row + 1 if missed else 0
            if missed_in_row >= 2:
                charged_off = torch.tensor(True)
                accelerated = carry + due[k + 1:].sum()
                break

        balance = accelerated if charged_off else carry
        feats = torch.stack([fees.sum() / 1e4, balance / 1e4, paid.sum() / due.sum(),
                             days_late.clamp_min(0).float().mean() / 30.0])
        return fees, balance, self.risk(feats.float())


def model():
    torch.manual_seed(64)
    return BNPLLedger().eval()


def _c(*v):
    return torch.tensor(v, dtype=torch.long)


def example_inputs():
    due = _c(5000, 5000, 5000, 5000)
    paid = _c(5000, 5000, 3000, 7000)
    late = _c(0, 5, 0, 1)
    return due, paid, late


def dynamic_shapes():
    k = torch.export.Dim("installments", min=2, max=24)
    return ({0: k}, {0: k}, {0: k})


def verify_inputs():
    return [
        example_inputs(),   # on time (continue), paid but late -> fee, short within grace (no fee), catch-up with carry
        (_c(2500, 2500, 2500, 2500, 2500, 2500), _c(2500, 0, 0, 0, 0, 0),
         _c(0, 30, 30, 0, 0, 0)),                     # two misses in a row -> break, charge-off, accelerate the rest
        (_c(10000, 10000, 10000), _c(0, 10000, 0),
         _c(10, 0, 10)),                              # miss, partial recovery resets streak (ternary else), miss again: no charge-off
        (_c(8000, 8000), _c(8000, 8000), _c(0, 0)),   # everything on time: continue every time
        (_c(4000, 4000, 4000, 4000), _c(4000, 300, 200, 4000),
         _c(0, 2, 1, 0)),                             # misses within grace but < 10% paid -> fee by shortfall, charge-off at 3rd
    ]
