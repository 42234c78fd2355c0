"""Card issuer billing engine: daily-balance interest accrual for one billing
cycle with grace period, penalty APR from a small behaviour model, credit
balances, and the minimum payment due on the statement."""
import torch
import torch.nn as nn
from torch.export import Dim


class InterestAccrual(nn.Module):
    def __init__(self):
        super().__init__()
        self.penalty_head = nn.Linear(4, 1)  # risk-based penalty APR uplift
        self.max_penalty_uplift = 0.10
        self.min_payment_floor = 25.0
        self.min_payment_pct = 0.01
        self.compound_daily = True

    def minimum_due(self, closing, interest):
        if closing <= 0:
            return torch.zeros(())
        due = closing * self.min_payment_pct + interest
        return due if due > self.min_payment_floor else torch.clamp(closing, max=self.min_payment_floor)

    def forward(self, daily_balance, payments, terms):
        # terms = [apr, previous statement balance, promo flag]
        apr, prev_statement, promo = terms[0], terms[1], terms[2]
        paid = payments.sum()
        if paid >= prev_statement and prev_statement > 0:
            # paid in full: grace period, no interest on purchases this cycle
            return (torch.zeros_like(daily_balance), torch.zeros(()),
                    self.minimum_due(daily_balance[-1], torch.zeros(())))

        rate = apr
        if paid < 0.02 * prev_statement and not promo > 0.5:
            feats = torch.stack([apr, prev_statement / 1000.0, paid / 1000.0, promo])
            rate = apr + self.max_penalty_uplift * torch.sigmoid(self.penalty_head(feats)).squeeze(0)
        daily_rate = rate / 365.0

        interest = []
        carried = torch.zeros(())
        for day in range(daily_balance.shape[0]):
            bal = daily_balance[day] + carried
            if bal <= 0:
                interest.append(torch.zeros(()))  # credit balance earns nothing
                continue
            accrued = bal * daily_rate
            if self.compound_daily:
                carried = carried + accrued
            interest.append(accrued)
        by_day = torch.stack(interest)
        total = by_day.sum()
        return by_day, total, self.minimum_due(daily_balance[-1] + total, total)


def model():
    torch.manual_seed(5202)
    return InterestAccrual().eval()


def _cycle(days, seed, start, spend, pay_total):
    g = torch.Generator().manual_seed(seed)
    purchases = spend * torch.rand(days, generator=g)
    pays = torch.zeros(days)
    pays[days // 2] = pay_total
    balance = start + torch.cumsum(purchases - pays, 0)
    return balance, pays


def example_inputs():
    bal, pays = _cycle(30, 1, 1800.0, 40.0, 300.0)
    return bal, pays, torch.tensor([0.2299, 1800.0, 0.0])


def dynamic_shapes():
    days = Dim("cycle_days", min=2, max=62)
    return {0: days}, {0: days}, None


def verify_inputs():
    bal_a, pay_a = _cycle(31, 2, 900.0, 30.0, 900.0)
    bal_b, pay_b = _cycle(62, 3, 5000.0, 20.0, 10.0)
    bal_c, pay_c = _cycle(28, 4, 4000.0, 15.0, 0.0)
    bal_d, pay_d = _cycle(2, 5, 300.0, 5.0, 0.0)
    bal_e, pay_e = _cycle(14, 6, 60.0, 2.0, 500.0)
    bal_f, pay_f = _cycle(7, 7, -200.0, 1.0, 0.0)
    return [
        example_inputs(),  # partial payment, no penalty, accrual loop, due > floor
        (bal_a, pay_a, torch.tensor([0.1999, 900.0, 0.0])),   # paid in full -> grace early return
        (bal_b, pay_b, torch.tensor([0.2499, 5000.0, 0.0])),  # tiny payment, no promo -> penalty APR; max days
        (bal_c, pay_c, torch.tensor([0.2499, 4000.0, 1.0])),  # no payment but promo -> `not promo` blocks penalty
        (bal_d, pay_d, torch.tensor([0.1799, 0.0, 0.0])),     # min days, no previous statement (grace test fails), small due -> floor
        (bal_e, pay_e, torch.tensor([0.2299, 600.0, 0.0])),   # overpayment goes negative mid-cycle -> continue on credit days; closing <= 0
        (bal_f, pay_f, torch.tensor([0.2299, 0.0, 0.0])),     # credit balance all cycle, no grace -> zero interest, closing <= 0
        (bal_a, pay_a, torch.tensor([0.1999, 0.0, 0.0])),     # payment made but no previous statement -> grace test fails on `and`, accrual, due at floor
    ]
