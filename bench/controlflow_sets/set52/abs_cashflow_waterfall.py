"""Auto-loan ABS deal cash-flow waterfall: monthly collections plus modelled
prepayments pay class A then class B interest, then principal sequentially
unless the overcollateralisation test fails (turbo: everything to class A);
residual cash goes to the equity holder. The run stops once the notes are
retired, and equity gets the remaining collections from then on."""
import torch
import torch.nn as nn
from torch.export import Dim


class InterestWaterfall(nn.Module):
    """Pays note interest (plus any carried shortfall) senior to junior."""

    def __init__(self, coupons):
        super().__init__()
        self.register_buffer("coupon", torch.tensor(coupons))

    def forward(self, cash, balances, shortfall):
        for k in range(len(balances)):
            due = balances[k] * self.coupon[k] / 12.0 + shortfall[k]
            paid = torch.minimum(cash, due)
            cash = cash - paid
            shortfall[k] = due - paid
            if cash <= 0:
                break  # junior classes get nothing this month
        return cash


class CashflowWaterfall(nn.Module):
    def __init__(self):
        super().__init__()
        self.prepay = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))  # monthly prepayment rate model
        self.interest = InterestWaterfall([0.045, 0.07])
        self.register_buffer("note_balance", torch.tensor([70.0, 20.0]))  # class A, class B ($m)
        self.pool_start = 100.0
        self.oc_trigger = 1.05
        self.retired_eps = 1e-3

    def pay_principal_sequential(self, cash, balances):
        for k in range(len(balances)):
            paid = torch.minimum(cash, balances[k])
            balances[k] = balances[k] - paid
            cash = cash - paid
            if cash <= 0:
                break
        return cash

    def forward(self, collections, defaults):
        # collections, defaults: [months] in $m
        balances = [self.note_balance[0].clone(), self.note_balance[1].clone()]
        shortfall = [torch.zeros(()), torch.zeros(())]
        pool = torch.tensor(self.pool_start)
        equity, oc_fail = [], []
        for t in range(collections.shape[0]):
            factor = pool / self.pool_start
            smm = 0.02 * torch.sigmoid(self.prepay(torch.stack([torch.tensor(t / 60.0), factor]))).squeeze(0)
            prepaid = smm * pool
            pool = (pool - defaults[t] - prepaid - 0.6 * collections[t]).clamp(min=0.0)
            cash = collections[t] + prepaid
            cash = self.interest(cash, balances, shortfall)
            notes = balances[0] + balances[1]
            failing = pool / notes.clamp(min=self.retired_eps) < self.oc_trigger
            oc_fail.append(failing)
            if failing and cash > 0:
                paid = torch.minimum(cash, balances[0])  # turbo class A
                balances[0] = balances[0] - paid
                cash = cash - paid
            elif cash > 0:
                cash = self.pay_principal_sequential(cash, balances)
            equity.append(cash.clamp(min=0.0))
            if balances[0] + balances[1] < self.retired_eps:
                break  # deal paid off
        while len(equity) < collections.shape[0]:
            k = len(equity)
            equity.append(collections[k])
            oc_fail.append(torch.tensor(False))
        return (torch.stack(equity), torch.stack(balances), torch.stack(shortfall),
                torch.stack(oc_fail).to(torch.int64))


def model():
    torch.manual_seed(5219)
    return CashflowWaterfall().eval()


def _deal(months, seed, level, default_rate, stress_from=None):
    g = torch.Generator().manual_seed(seed)
    coll = level * (1.0 + 0.1 * torch.randn(months, generator=g)).clamp(min=0.2)
    dflt = default_rate * torch.rand(months, generator=g)
    if stress_from is not None:
        coll[stress_from:] = coll[stress_from:] * 0.05
        dflt[stress_from:] = dflt[stress_from:] + 3.0
    return coll, dflt


def example_inputs():
    return _deal(36, 1, 3.2, 0.2)


def dynamic_shapes():
    m = Dim("months", min=2, max=120)
    return {0: m}, {0: m}


def verify_inputs():
    return [
        example_inputs(),                      # performing pool: sequential principal, notes retired early -> break, equity tail
        _deal(2, 2, 3.0, 0.1),                 # min months, deal runs the whole time
        _deal(120, 3, 2.0, 0.4, stress_from=6),  # max months, defaults spike -> OC fails (turbo), interest shortfall breaks before class B
        _deal(24, 4, 0.3, 0.05),               # thin collections: pool amortises faster than notes -> OC fails later -> turbo
    ]
