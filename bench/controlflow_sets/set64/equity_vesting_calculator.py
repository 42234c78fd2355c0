"""Startup equity administration: vested shares and value per option grant.

Each grant row is (shares, start_month, cliff_months, vest_months,
termination_month or -1, terminated_for_cause 0/1).  Vesting is monthly after
the cliff; leavers stop vesting at termination; a change of control with
double-trigger acceleration fully vests people let go (not for cause).  A
small pricing MLP turns market features into a share price.
"""
import torch
import torch.nn as nn


class EquityVesting(nn.Module):
    def __init__(self, n_market=8):
        super().__init__()
        self.pricer = nn.Sequential(nn.Linear(n_market, 16), nn.Tanh(), nn.Linear(16, 1))
        self.min_price = 0.01

    def forward(self, grants, now_month, change_of_control, market):
        price = self.pricer(market).squeeze(-1).exp().clamp_min(self.min_price)
        vested_all = []
        for i in range(grants.shape[0]):
            shares, start, cliff, duration, term, for_cause = grants[i].unbind()
            left = term >= 0
            end = term if left else now_month
            served = end - start

            if served < cliff:
                vested = torch.zeros_like(shares)
            elif served >= duration:
                vested = shares
            else:
                vested = shares * served // duration

            # double-trigger acceleration: change of control AND involuntary exit
            if change_of_control and left and not for_cause:
                vested = shares
            vested_all.append(vested)
        vested = torch.stack(vested_all)
        return vested, vested.float() * price


def model():
    torch.manual_seed(64)
    return EquityVesting().eval()


GRANTS = torch.tensor([
    # shares, start, cliff, months, term, cause
    [4800, 0, 12, 48, -1, 0],      # active, mid-vesting at month 30
    [1200, 25, 12, 48, -1, 0],     # active, still inside the cliff
    [9600, 0, 12, 48, 20, 0],      # left at month 20 (not for cause)
    [2400, 2, 12, 36, 9, 1],       # fired for cause inside the cliff
    [6000, -30, 12, 48, -1, 0],    # fully vested
], dtype=torch.long)


def example_inputs():
    g = torch.Generator().manual_seed(3)
    return (GRANTS, torch.tensor(30), torch.tensor(False), torch.randn(8, generator=g))


def dynamic_shapes():
    n = torch.export.Dim("grants", min=2, max=256)
    return ({0: n}, None, None, None)


def verify_inputs():
    g = torch.Generator().manual_seed(3)
    market = torch.randn(8, generator=g)
    return [
        example_inputs(),   # no change of control: cliff / partial / full vesting branches, leaver and active ternary
        (GRANTS, torch.tensor(30), torch.tensor(True), market),   # acceleration: row 2 accelerated, row 3 blocked (for cause), actives skip
        (GRANTS[:2], torch.tensor(70), torch.tensor(True), -market),  # two actives, both past vesting; no acceleration (not left)
    ]
