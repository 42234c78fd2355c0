"""Checking-account overdraft simulator: replays a statement, charges overdraft
fees and scores the customer's overdraft risk.

Constructs: 1 (if/elif/else on balance), 3 (`and not` on tensor predicates),
5 (for over the dynamic number of transactions, append + stack), 9 (fee policy
config flag), 2 (`fee` assigned in every branch, `overdrawn` in some).
"""
import torch
import torch.nn as nn


class OverdraftSimulator(nn.Module):
    def __init__(self, flat_fee=True, fee_amount=35.0):
        super().__init__()
        self.flat_fee = flat_fee
        self.fee_amount = fee_amount
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, tx, opening):
        # tx: [N] signed amounts (USD), opening: [1]
        bal = opening.squeeze()
        overdrawn = torch.zeros((), dtype=torch.bool)
        fees, balances = [], []
        for i in range(tx.shape[0]):
            bal = bal + tx[i]
            if (bal < 0) and not overdrawn:
                fee = torch.tensor(self.fee_amount) if self.flat_fee else 0.05 * (-bal)
                bal = bal - fee
                overdrawn = torch.ones((), dtype=torch.bool)
            elif bal >= 0:
                fee = torch.zeros(())
                overdrawn = torch.zeros((), dtype=torch.bool)
            else:
                fee = torch.zeros(())  # still overdrawn: no new fee
            fees.append(fee)
            balances.append(bal)
        fees = torch.stack(fees)
        balances = torch.stack(balances)
        stats = torch.stack([balances.min(), balances.mean(), fees.sum(), (balances < 0).float().mean()])
        risk = torch.sigmoid(self.risk(stats / 1000.0))
        return balances, fees, risk


def model():
    torch.manual_seed(8)
    return OverdraftSimulator().eval()


def example_inputs():
    # goes negative, stays negative, recovers, goes negative again
    return (torch.tensor([-120.0, -30.0, 500.0, -700.0, 50.0, 400.0]), torch.tensor([100.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("tx", min=2, max=100)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(11)
    long_tx = torch.randint(-300, 300, (100,), generator=g).float() + 0.5
    return [
        example_inputs(),                                          # fee, still-overdrawn, recover, fee again
        (torch.tensor([20.0, 30.0]), torch.tensor([10.0])),        # never negative
        (torch.tensor([-50.0, -25.0]), torch.tensor([10.0])),      # fee then still overdrawn
        (long_tx, torch.tensor([200.0])),                          # max size, mixed
    ]
