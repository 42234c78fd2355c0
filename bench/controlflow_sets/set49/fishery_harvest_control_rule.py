"""Fish stock projection (Schaefer surplus production) under a hockey-stick
harvest control rule; returns annual catches and biomass."""
import torch
import torch.nn as nn
from torch.export import Dim


class FisheryHCR(nn.Module):
    def __init__(self, r=0.45, K=1000.0, fmsy=0.22, limit=0.4, trigger=0.8):
        super().__init__()
        self.r = r
        self.K = K
        self.bmsy = K / 2.0
        self.fmsy = fmsy
        self.limit = limit
        self.trigger = trigger
        # learned selectivity adjustment of the fishing mortality by year-type
        self.selectivity = nn.Linear(1, 1)

    def hcr(self, biomass):
        ratio = biomass / self.bmsy
        if ratio < self.limit:
            return torch.zeros_like(biomass)  # fishery closed
        elif ratio < self.trigger:
            f = self.fmsy * (ratio - self.limit) / (self.trigger - self.limit)
        else:
            f = torch.full_like(biomass, self.fmsy)
        return f * biomass

    def forward(self, recruit_anom, b0):
        # recruit_anom: [Y] log recruitment anomalies, b0: [1] starting biomass
        b = b0.clone()
        sel = torch.sigmoid(self.selectivity(recruit_anom[:, None])).squeeze(1)
        catches, biomass = [], []
        for t in range(recruit_anom.shape[0]):
            tac = self.hcr(b) * (0.5 + sel[t])
            catch = torch.minimum(tac, 0.9 * b)
            growth = self.r * b * (1.0 - b / self.K) * torch.exp(recruit_anom[t])
            b = (b + growth - catch).clamp(min=1.0, max=2.0 * self.K)
            catches.append(catch)
            biomass.append(b)
        return torch.cat(catches), torch.cat(biomass)


def model():
    torch.manual_seed(4902)
    return FisheryHCR().eval()


def _inp(years, seed, b0):
    g = torch.Generator().manual_seed(seed)
    return (0.3 * torch.randn(years, generator=g), torch.tensor([b0]))


def example_inputs():
    # healthy stock: mostly "above trigger" branch
    return _inp(20, 11, 700.0)


def dynamic_shapes():
    return ({0: Dim("years", min=2, max=60)}, None)


def verify_inputs():
    return [
        example_inputs(),
        _inp(15, 12, 120.0),   # depleted stock: closed (below limit) then recovers through ramp
        _inp(10, 13, 300.0),   # ramp branch (between limit and trigger)
        _inp(2, 14, 900.0),    # two years only, above trigger
        _inp(60, 15, 150.0),   # long projection, all three branches
    ]
