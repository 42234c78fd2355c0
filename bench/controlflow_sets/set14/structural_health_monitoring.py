"""Structural health monitoring of a bridge deck: a line of accelerometers (variable count)
gives ambient vibration windows. Each channel gets a damage index (RMS growth over the
healthy baseline plus a learned spectral-feature distance; dead channels skipped); then
damage sites are located greedily: take the worst sensor, remove its spill-over from its
neighbours, repeat while something is above threshold (at most MAX_SITES sites)."""

import torch
from torch import nn
import torch.nn.functional as F

BASE_RMS = 0.1
MAX_SITES = 2
SPILL = 0.7
REACH = 2


class SensorEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 7, stride=4, padding=3)
        self.fc = nn.Linear(8, 16)

    def forward(self, x):  # (S, T) -> (S, 16)
        h = F.relu(self.conv(x.unsqueeze(1)))
        return self.fc(h.mean(dim=-1))


class DamageLocator(nn.Module):
    def __init__(self, thresh: float = 0.5):
        super().__init__()
        self.enc = SensorEncoder()
        self.register_buffer("baseline", torch.randn(16) * 0.1)
        self.thresh = thresh

    def damage_index(self, acc, feats):
        idx = []
        for s in range(acc.shape[0]):
            if acc[s].abs().max() < 1e-3:
                idx.append(torch.zeros(()))  # dead channel
                continue
            rms = acc[s].pow(2).mean().sqrt()
            growth = torch.log(rms / BASE_RMS).clamp_min(0.0)
            idx.append(growth + 0.02 * torch.tanh((feats[s] - self.baseline).norm()))
        return torch.stack(idx)

    def forward(self, acc: torch.Tensor):
        # acc: (S, T) acceleration windows, one row per sensor along the deck
        S = acc.shape[0]
        dmg = self.damage_index(acc, self.enc(acc))
        residual = dmg.clone()
        sites = torch.zeros(S)
        found = 0
        while residual.max() > self.thresh and found < MAX_SITES:
            k = torch.argmax(residual)
            sev = residual[k].clone()
            sites = sites + sev * F.one_hot(k, S).float()
            for j in range(S):
                if j == k:
                    residual[j] = 0.0
                    continue
                dist = (k - j).abs()
                if dist > REACH:
                    continue
                residual[j] = (residual[j] - sev * SPILL ** dist.float()).clamp_min(0.0)
            found += 1
        return dmg, sites


def model() -> nn.Module:
    torch.manual_seed(0)
    return DamageLocator().eval()


def _deck(S, seed, damaged=(), dead=()):
    g = torch.Generator().manual_seed(seed)
    amp = torch.full((S,), 0.09)
    for k, a in damaged:
        for j in range(S):
            d = abs(j - k)
            if d <= 1:
                amp[j] = max(float(amp[j]), a * (0.6 ** d))
    acc = amp[:, None] * torch.randn(S, 128, generator=g)
    for k in dead:
        acc[k] = 0.0
    return (acc,)


def example_inputs() -> tuple:
    return _deck(6, 0, damaged=[(2, 0.5)])


def dynamic_shapes():
    return ({0: torch.export.Dim("sensors", min=3, max=16)},)


def verify_inputs() -> list:
    return [
        _deck(3, 1),                                        # healthy: no site
        _deck(10, 2, damaged=[(1, 0.6), (7, 0.4)], dead=(4,)),  # two sites, one dead sensor
        _deck(16, 3, damaged=[(0, 0.8), (6, 0.5), (12, 0.45)]),  # three candidates, capped at two
        _deck(8, 4, dead=(0, 7)),
    ]
