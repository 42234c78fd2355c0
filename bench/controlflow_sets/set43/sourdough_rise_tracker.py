"""Sourdough starter rise tracker.

A jar camera measures the height of a sourdough starter every 15 minutes after
feeding. The model smooths the curve, finds the lag phase and the time the
starter doubled, and predicts (with a small MLP) how many hours until peak so
the baker knows when to mix the dough.
Constructs: 1, 2, 5, 6, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SourdoughRiseTracker(nn.Module):
    def __init__(self, smooth=True, sample_minutes=15.0):
        super().__init__()
        self.smooth = smooth                      # config flag
        self.hours_per_sample = sample_minutes / 60.0
        self.head = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, heights, temp_c):
        h = heights
        if self.smooth:
            h = F.avg_pool1d(h[None, None], kernel_size=3, stride=1, padding=1,
                             count_include_pad=False)[0, 0]
        rise = h / h[0]

        doubled_at = torch.tensor(-1.0)
        rates = []
        for t in range(1, h.shape[0]):
            if rise[t] < 1.1:
                # still in the lag phase, nothing to learn from this sample
                continue
            rates.append(rise[t] - rise[t - 1])
            if rise[t] >= 2.0:
                doubled_at = torch.tensor(float(t))
                break

        if doubled_at < 0:
            # never doubled: tell the baker to wait, longer when the kitchen is cold
            wait_h = (26.0 - temp_c[0]).clamp(min=0.0) * 0.5 + 2.0
            if temp_c[0] < 18.0:
                wait_h = wait_h + 3.0
            elif temp_c[0] > 30.0:
                wait_h = wait_h * 0.5
            return torch.stack([wait_h, torch.tensor(0.0), rise.max()])

        growth = torch.stack(rates)
        feats = torch.stack([
            doubled_at * self.hours_per_sample,
            growth.mean(),
            growth.max(),
            (temp_c[0] - 24.0) / 5.0,
        ])
        out = self.head(feats)
        hours_to_peak = F.softplus(out[0])
        return torch.stack([hours_to_peak, torch.sigmoid(out[1]), rise.max()])


def model():
    torch.manual_seed(0)
    return SourdoughRiseTracker().eval()


def _curve(n, lag, double_at, top=2.6):
    """Height curve: flat for `lag` samples, then linear to `top` x at the end."""
    t = torch.arange(n, dtype=torch.float32)
    ramp = ((t - lag).clamp(min=0.0) / max(double_at - lag, 1)) * 1.0
    return (40.0 * (1.0 + ramp.clamp(max=top - 1.0))).float()


def example_inputs():
    # lag 4 samples, doubles between samples 11 and 12 -> continue taken, break taken
    return (_curve(24, 4, 11.5), torch.tensor([24.0]))


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=4, max=96)
    return ({0: steps}, None)


def verify_inputs():
    return [
        example_inputs(),                                   # continue taken, break taken, no early return
        (_curve(6, 0, 2), torch.tensor([25.0])),            # rises from start (continue never taken), doubles -> break
        (torch.full((8,), 40.0), torch.tensor([15.0])),     # flat: continue every step, never doubles, early return, cold branch
        (_curve(10, 2, 20), torch.tensor([33.0])),          # rising but not doubled: loop runs out, early return, hot branch
        (torch.full((5,), 40.0), torch.tensor([22.0])),     # flat, early return, mild temperature (no adjustment)
    ]
