"""Group-expense app: settle up with few transfers.

Everybody's paid amount and share weight (e.g. nights stayed) give a balance. Members marked
exempt (the birthday person) pay nothing unless everybody is exempt. The greedy settle-up
repeatedly lets the biggest debtor pay the biggest creditor until all balances are within
the tolerance; leftover float/cent dust stops it early. Finally, tiny transfers between two
ordinary members are routed through the group treasurer (member 0), who is on the
bank-transfer plan.

Kind: X.  Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def member_shares(total, weights, exempt):
    w = weights.clone()
    if exempt.any() and not exempt.all():
        w = torch.where(exempt.bool(), torch.zeros_like(w), w)
    return total * w / w.sum()


def greedy_settle(balance, tol):
    n = balance.shape[0]
    transfers = torch.zeros(n, n)
    balance = balance.clone()
    while (balance.abs() > tol).any():
        creditor = torch.argmax(balance)
        debtor = torch.argmin(balance)
        amount = torch.minimum(balance[creditor], -balance[debtor])
        if amount < 0.5 * tol:
            # only rounding dust left
            break
        transfers[debtor, creditor] += amount
        balance[creditor] -= amount
        balance[debtor] += amount
    return transfers


class DebtSimplifier(nn.Module):
    def __init__(self, tol=0.05, min_transfer=2.0):
        super().__init__()
        self.tol = tol
        self.min_transfer = min_transfer

    def forward(self, paid, weights, exempt):
        # paid: (N,) money spent by each member, weights: (N,) share weights, exempt: (N,) 0/1
        n = paid.shape[0]
        total = paid.sum()
        if total < 0.01:
            return torch.zeros(n, n), torch.zeros((), dtype=torch.long)
        balance = paid - member_shares(total, weights, exempt)
        transfers = greedy_settle(balance, self.tol)
        for d in range(1, n):
            for c in range(1, n):
                amount = transfers[d, c].clone()
                if amount == 0 or amount >= self.min_transfer:
                    continue
                transfers[d, c] = 0.0
                transfers[d, 0] += amount
                transfers[0, c] += amount
        n_transfers = (transfers > 0).sum()
        return transfers, n_transfers


def model():
    torch.manual_seed(10)
    return DebtSimplifier().eval()


def example_inputs():
    # ski trip, 5 friends, weights = nights stayed
    paid = torch.tensor([310.40, 0.0, 145.25, 1021.10, 262.30])
    weights = torch.tensor([5.0, 5.0, 4.0, 5.0, 3.0])
    exempt = torch.tensor([0, 0, 0, 0, 0])
    return (paid, weights, exempt)


def dynamic_shapes():
    m = Dim("members", min=2, max=64)
    return ({0: m}, {0: m}, {0: m})


def verify_inputs():
    return [
        # several greedy rounds (while runs many), no tiny transfers (both `continue` reasons)
        example_inputs(),
        # nothing spent yet: early return
        (torch.zeros(3), torch.ones(3), torch.tensor([0, 0, 0])),
        # birthday dinner, member 2 exempt (helper branch), one small debt rerouted via treasurer
        (torch.tensor([10.0, 40.0, 0.0, 158.5, 71.5]),
         torch.ones(5), torch.tensor([0, 0, 1, 0, 0])),
        # everybody flagged exempt: `not exempt.all()` is false, plain split; two members (1 round)
        (torch.tensor([80.0, 20.0]), torch.tensor([1.0, 1.0]), torch.tensor([1, 1])),
        # balances are cent dust except one: greedy stops on the dust break
        (torch.tensor([25.06, 24.982, 24.98, 24.978]), torch.ones(4), torch.tensor([0, 0, 0, 0])),
        # already settled within tolerance: while runs 0 times
        (torch.tensor([33.34, 33.33, 33.33]), torch.ones(3), torch.tensor([0, 0, 0])),
    ]
