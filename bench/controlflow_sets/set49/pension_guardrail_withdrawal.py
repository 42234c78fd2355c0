"""Retirement drawdown simulation with Guyton-Klinger style guardrails:
cut or raise spending when the withdrawal rate leaves a band, skip the
inflation raise after losing years, stop when the portfolio is depleted."""
import torch
import torch.nn as nn
from torch.export import Dim


class GuardrailDrawdown(nn.Module):
    def __init__(self, start_balance=1_000_000.0, initial_rate=0.05, fee=0.004):
        super().__init__()
        self.start_balance = start_balance
        self.initial_rate = initial_rate
        self.fee = fee
        # equity share glide path (learned-ish, from seed)
        self.glide = nn.Linear(1, 1)

    def forward(self, equity_ret, bond_ret, inflation):
        # each [Y]: annual real equity / bond returns and inflation
        balance = torch.tensor(self.start_balance)
        withdrawal = balance * self.initial_rate
        balances, withdrawals = [], []
        for y in range(equity_ret.shape[0]):
            rate = withdrawal / balance
            if rate > self.initial_rate * 1.2:
                withdrawal = withdrawal * 0.9      # capital-preservation rule
            elif rate < self.initial_rate * 0.8:
                withdrawal = withdrawal * 1.1      # prosperity rule
            if not (equity_ret[y] < 0 or inflation[y] < 0):
                withdrawal = withdrawal * (1.0 + inflation[y])
            eq_share = 0.3 + 0.4 * torch.sigmoid(self.glide(torch.tensor([y / 30.0])))[0]
            port_ret = eq_share * equity_ret[y] + (1 - eq_share) * bond_ret[y] - self.fee
            balance = (balance - withdrawal) * (1.0 + port_ret)
            balances.append(balance.clamp(min=0.0))
            withdrawals.append(withdrawal)
            if balance <= 0:
                break
        return torch.stack(balances), torch.stack(withdrawals)


def model():
    torch.manual_seed(4906)
    return GuardrailDrawdown().eval()


def _years(Y, seed, eq_mu=0.05, eq_sd=0.15):
    g = torch.Generator().manual_seed(seed)
    eq = eq_mu + eq_sd * torch.randn(Y, generator=g)
    bd = 0.01 + 0.04 * torch.randn(Y, generator=g)
    inf = 0.025 + 0.015 * torch.randn(Y, generator=g)
    return eq, bd, inf


def example_inputs():
    # typical 30-year retirement: both guardrails, skipped raises, survives
    return _years(30, 51)


def dynamic_shapes():
    y = Dim("years", min=2, max=60)
    return ({0: y}, {0: y}, {0: y})


def verify_inputs():
    crash = (torch.full((40,), -0.35), torch.full((40,), -0.1), torch.full((40,), 0.03))
    return [
        example_inputs(),
        crash,                              # depleted early -> break taken
        _years(2, 52, eq_mu=0.08, eq_sd=0.0),   # two good years, no guardrail hit
        _years(60, 53, eq_mu=0.12),         # strong markets: prosperity rule, survives 60 y
        _years(45, 54, eq_mu=-0.02),        # weak markets: preservation rule then depletion
    ]
