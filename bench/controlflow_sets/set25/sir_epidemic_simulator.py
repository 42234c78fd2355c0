"""Metapopulation SIR simulation with a lockdown policy (public-health planning).

Regions exchange infection through a mobility matrix.  A learned model maps
region features (density, age structure, ...) to transmission rates.  A
lockdown starts when national active cases per 100k exceed lockdown_on and is
lifted when it falls below lockdown_off (hysteresis); the simulation ends after
`days` days or when the epidemic is extinct.  Returns the daily infected counts
per region and the number of lockdown days.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class TransmissionModel(nn.Module):
    def __init__(self, n_feat=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 8), nn.Tanh(), nn.Linear(8, 1))
        with torch.no_grad():
            self.net[2].weight.mul_(6.0)

    def forward(self, feats):
        return 0.04 + 0.36 * torch.sigmoid(self.net(feats)).squeeze(-1)


class SIRSimulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.transmission = TransmissionModel()
        self.recovery = 0.1
        self.lockdown_on = 5000.0   # active cases per 100k inhabitants
        self.lockdown_off = 1000.0
        self.lockdown_factor = 0.3
        self.extinct = 0.5   # fewer than half an infected person left overall

    def step(self, S, I, R, beta, mobility):
        N = S + I + R
        force = mobility @ (I / N)
        new_inf = beta * S * force
        new_rec = self.recovery * I
        return S - new_inf, I + new_inf - new_rec, R + new_rec

    def forward(self, populations, infected, mobility, region_feats, days):
        beta = self.transmission(region_feats)
        mobility = mobility / mobility.sum(dim=1, keepdim=True)
        I = infected
        S = populations - I
        R = torch.zeros_like(S)
        total = populations.sum()
        lockdown = False
        lockdown_days = 0
        history = []
        for day in range(int(days.item())):
            per_100k = I.sum() / total * 1e5
            if not lockdown and per_100k > self.lockdown_on:
                lockdown = True
            elif lockdown and per_100k < self.lockdown_off:
                lockdown = False
            eff_beta = beta * self.lockdown_factor if lockdown else beta
            if lockdown:
                lockdown_days += 1
            S, I, R = self.step(S, I, R, eff_beta, mobility)
            history.append(I)
            if I.sum() < self.extinct:
                break
        if not history:
            return infected.unsqueeze(0), torch.tensor(0)
        return torch.stack(history), torch.tensor(lockdown_days)


def model():
    torch.manual_seed(0)
    return SIRSimulator().eval()


def _make(seed, regions, days, seed_cases, profile=None):
    g = torch.Generator().manual_seed(seed)
    pops = torch.round(1000.0 + 9000.0 * torch.rand(regions, generator=g))
    infected = torch.zeros(regions)
    infected[0] = seed_cases
    mobility = torch.eye(regions) * 5.0 + torch.rand(regions, regions, generator=g)
    if profile is None:
        feats = torch.randn(regions, 4, generator=g)
    else:  # all regions share a demographic profile
        feats = torch.tensor(profile) + 0.3 * torch.randn(regions, 4, generator=g)
    return pops, infected, mobility, feats, torch.tensor([days])


def example_inputs():
    return _make(0, 4, 30, 20.0)


def dynamic_shapes():
    r = Dim("regions", min=2, max=64)
    return ({0: r}, {0: r}, {0: r, 1: r}, {0: r}, None)


def verify_inputs():
    return [
        _make(1, 5, 150, 50.0),                  # wave: lockdown on, then off
        _make(2, 3, 0, 10.0),                    # zero days
        _make(3, 4, 1, 10.0),                    # one day
        _make(4, 3, 60, 3.0, profile=[-3.0, 3.0, -3.0, 3.0]),   # rural: a few cases that die out
        _make(5, 6, 40, 30.0),                   # lockdown still on at the end
    ]
