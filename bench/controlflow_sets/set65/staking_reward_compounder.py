"""Proof-of-stake validator: auto-compounding policy simulation.

Each epoch the validator earns rewards at the epoch's APR.  Rewards accumulate as pending until
they exceed a compounding threshold that depends on the transaction (gas) fee, then they are
restaked (paying the fee).  A negative APR entry encodes a slashing event, which burns part of
the stake and forfeits pending rewards.  If the stake drops below the protocol minimum the
validator is ejected and the simulation stops.
"""
import torch
import torch.nn as nn
from torch.export import Dim

EPOCHS_PER_YEAR = 365.0


def slash(stake, pending, fraction):
    """Burn a fraction of the stake; pending rewards are forfeited."""
    return stake * (1.0 - fraction), torch.zeros_like(pending)


class StakingCompounder(nn.Module):
    def __init__(self, min_stake=32.0, slash_fraction=0.05, threshold_mult=2.0):
        super().__init__()
        self.min_stake = min_stake
        self.slash_fraction = slash_fraction
        self.threshold_mult = threshold_mult

    def forward(self, apr, stake, gas_fee):
        pending = torch.zeros(())
        fees = torch.zeros(())
        history = []
        for e in range(apr.shape[0]):
            rate = apr[e]
            if rate < 0:
                stake, pending = slash(stake, pending, self.slash_fraction)
                if stake < self.min_stake:
                    history.append(stake)
                    break  # ejected
            else:
                pending = pending + stake * rate / EPOCHS_PER_YEAR
            # compound when the pending amount pays for the fee several times over
            threshold = self.threshold_mult * gas_fee + torch.sqrt(2.0 * gas_fee * stake * 0.05 / EPOCHS_PER_YEAR)
            if pending > threshold and not rate < 0:
                stake = stake + pending - gas_fee
                fees = fees + gas_fee
                pending = torch.zeros(())
            history.append(stake + pending)
        return torch.stack(history), fees


def model():
    return StakingCompounder().eval()


def _aprs(n, base, slashes=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    a = base + 0.01 * torch.rand(n, generator=g)
    for i in slashes:
        a[i] = -1.0
    return a


def example_inputs():
    return (_aprs(60, 0.045), torch.tensor(33.5), torch.tensor(0.002))


def dynamic_shapes():
    return ({0: Dim("epochs", min=2, max=2000)}, None, None)


def verify_inputs():
    return [
        example_inputs(),                                                         # compounds every few epochs, no slashing
        (_aprs(40, 0.04, slashes=(10,), seed=1), torch.tensor(40.0), torch.tensor(0.003)),   # slashed once, stays above min
        (_aprs(30, 0.05, slashes=(5, 12), seed=2), torch.tensor(34.0), torch.tensor(0.002)), # second slash -> below min -> break
        (_aprs(20, 0.03, seed=3), torch.tensor(33.0), torch.tensor(0.5)),                    # huge fee: never compounds
    ]
