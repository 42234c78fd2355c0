"""Personal-finance app: months to pay off a loan (after a lump-sum payment) with a
risk-based rate premium; stops when the payment cannot cover the interest."""
import torch
import torch.nn as nn


class LoanPayoffPlanner(nn.Module):
    def __init__(self, max_months=360):
        super().__init__()
        self.max_months = max_months
        self.premium = nn.Linear(2, 1)

    def forward(self, loan):
        principal, apr, payment, lump = loan.unbind(0)
        premium = torch.sigmoid(self.premium(torch.stack([apr / 10.0, principal / 50.0]))).squeeze(-1)
        r = (apr + premium) / 1200.0
        balance = principal - lump
        month = torch.zeros((), dtype=torch.long)
        total_interest = torch.zeros(())
        while balance > 0 and month < self.max_months:
            interest = balance * r
            if payment <= interest:
                break
            balance = balance + interest - payment
            total_interest = total_interest + interest
            month = month + 1
        overpaid = (-balance).clamp(min=0.0)
        return month, total_interest, overpaid, balance.clamp(min=0.0)


def model():
    torch.manual_seed(0)
    return LoanPayoffPlanner().eval()


def example_inputs():
    # principal (k$), APR %, monthly payment (k$), lump sum now (k$)
    return (torch.tensor([12.0, 6.9, 0.455, 1.5]),)


def verify_inputs():
    return [
        (torch.tensor([8.0, 5.0, 0.30, 9.25]),),     # lump sum pays it off: no months
        (torch.tensor([40.0, 24.0, 0.70, 0.0]),),    # payment below the monthly interest
        (torch.tensor([25.0, 3.2, 0.913, 4.0]),),
    ]
