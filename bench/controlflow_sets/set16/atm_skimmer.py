"""ATM skimmer detector: card-slot camera crop + capacitive bezel sensor trace.
An overlay on the slot changes the bezel capacitance and the slot geometry.
Sensor faults (flat-lined trace) fall back to vision only; both cues must agree
for a high-confidence alert.
"""
import torch
from torch import nn

N_HEADS = 3


class SlotEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 5, stride=2, padding=2), nn.ReLU(),
                                  nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU(),
                                  nn.AdaptiveAvgPool2d(2), nn.Flatten())
        self.heads = nn.ModuleList([nn.Linear(64, 1) for _ in range(N_HEADS)])

    def forward(self, x):
        f = self.conv(x)
        votes = [torch.sigmoid(h(f)) for h in self.heads]
        return torch.cat(votes, -1).mean(-1, keepdim=True)


def capacitance_anomaly(trace, baseline=100.0):
    dev = (trace.mean(-1, keepdim=True) - baseline).abs() / baseline
    return (dev * 10.0).clamp(0.0, 1.0)


class SkimmerDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision = SlotEncoder()

    def forward(self, crop, trace):  # (1, 3, 64, 96), (1, T)
        v = self.vision(crop)
        flat = trace.std() < 1e-3
        if flat:
            return v, torch.zeros(1, 1, dtype=torch.bool)
        c = capacitance_anomaly(trace)
        score = 0.5 * v + 0.5 * c
        # a powered overlay also adds switching noise to the bezel trace
        alert = (c > 0.5) & (trace.std() > 1.0)
        if not alert.any() and c.item() > 0.8:
            score = score * 0.8 + 0.2  # capacitance alone: raise but do not alert
        return score, alert


def model():
    torch.manual_seed(0)
    return SkimmerDetector().eval()


def _inp(t, cap, noise, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.rand(1, 3, 64, 96, generator=g),
            cap + noise * torch.randn(1, t, generator=g))


def example_inputs():
    return _inp(50, 101.0, 0.5, 0)


def dynamic_shapes():
    return (None, {1: torch.export.Dim("samples", min=4, max=2000)})


def verify_inputs():
    return [
        _inp(20, 100.0, 0.0, 1),    # flat-lined sensor -> vision only
        _inp(200, 115.0, 0.5, 2),   # passive overlay: raised score, no alert
        _inp(64, 112.0, 3.0, 4),    # powered overlay -> alert
        _inp(8, 103.0, 0.5, 3),     # mild deviation
    ]
