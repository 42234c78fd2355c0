"""Monte-Carlo pricer for an up-and-out barrier call with a learned control variate.

z:      [paths, steps] standard-normal shocks (both dynamic; supplied by the
        caller so the pricer itself is deterministic).
params: [spot, strike, barrier, vol, rate, maturity_years].
Returns (price, knock-out probability).
"""
import torch
import torch.nn as nn
from torch.export import Dim


class BarrierPricer(nn.Module):
    def __init__(self, up_and_out=True, antithetic=True, rebate=0.0):
        super().__init__()
        self.up_and_out = up_and_out
        self.antithetic = antithetic
        self.rebate = rebate
        self.control = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, z, params):
        spot, strike, barrier, vol, rate, mat = params.unbind(0)
        knocked_at_start = spot >= barrier if self.up_and_out else spot <= barrier
        if knocked_at_start:
            return torch.full((), self.rebate), torch.ones(())

        if self.antithetic:  # static
            z = torch.cat([z, -z], dim=0)
        n_paths, n_steps = z.shape
        dt = mat / n_steps
        drift = (rate - 0.5 * vol * vol) * dt
        diffusion = vol * torch.sqrt(dt)

        s = spot.expand(n_paths)
        alive = torch.ones(n_paths, dtype=torch.bool)
        for t in range(n_steps):
            s = s * torch.exp(drift + diffusion * z[:, t])
            crossed = s >= barrier if self.up_and_out else s <= barrier
            alive = alive & ~crossed
            if not alive.any():
                break  # every path is dead: nothing left to simulate

        payoff = torch.where(alive, torch.clamp(s - strike, min=0.0), torch.full_like(s, self.rebate))
        disc = torch.exp(-rate * mat)
        feats = torch.stack([torch.log(s / spot), alive.float()], dim=1)
        cv = self.control(feats).squeeze(-1)
        price = disc * (payoff - 0.01 * (cv - cv.mean())).mean()
        return price, 1.0 - alive.float().mean()


def model():
    torch.manual_seed(21)
    return BarrierPricer().eval()


def _shocks(paths, steps, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(paths, steps, generator=g)


def example_inputs():
    return (_shocks(16, 24, 1), torch.tensor([100.0, 100.0, 135.0, 0.25, 0.03, 1.0]))


def dynamic_shapes():
    return ({0: Dim("paths", min=2, max=4096), 1: Dim("steps", min=2, max=365)}, None)


def verify_inputs():
    return [
        example_inputs(),                                                          # some paths knocked out, loop runs to the end
        (_shocks(8, 12, 2), torch.tensor([140.0, 100.0, 135.0, 0.25, 0.03, 1.0])),  # spot above barrier: early return
        (_shocks(3, 40, 3), torch.tensor([100.0, 95.0, 101.0, 0.3, 0.03, 1.0])),   # barrier just above spot: all paths knocked out -> break
        (_shocks(4, 2, 4), torch.tensor([100.0, 90.0, 300.0, 0.1, 0.01, 0.25])),    # far barrier, 2 steps: nobody knocked out
    ]
