"""Coral-reef thermal stress monitor in the style of NOAA Coral Reef Watch:
HotSpots above the maximum monthly mean (MMM), Degree Heating Weeks over the
last 12 weeks, a five-level bleaching alert, and a learned regression of the
expected fraction of bleached colonies for the reef-manager dashboard.

Inputs: sst [D] daily sea-surface temperature (C), mmm [1] site climatology (C).
Outputs: dhw [1], alert one-hot [5] (none, watch, warning, alert 1, alert 2),
predicted bleached fraction [1].
"""
import torch
import torch.nn as nn


class BleachingAlert(nn.Module):
    def __init__(self, window=84):
        super().__init__()
        self.window = window
        self.register_buffer("levels", torch.eye(5))
        self.severity = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, sst, mmm):
        if (sst < -2.0).any() or (sst > 40.0).any():
            # buoy sensor fault: report nothing rather than a false alarm
            return torch.zeros(1), self.levels[0], torch.zeros(1)

        if sst.shape[0] >= self.window:
            recent = sst[-self.window:]
            coverage = 1.0
        else:
            recent = sst
            coverage = self.window / sst.shape[0]

        hotspot = recent - mmm
        dhw = torch.zeros(())
        for d in range(recent.shape[0]):
            if hotspot[d] >= 1.0:
                dhw = dhw + hotspot[d] / 7.0
        dhw = dhw * coverage

        current = hotspot[-1]
        if current <= 0.0:
            level = 0
        elif current < 1.0:
            level = 1
        elif dhw < 4.0:
            level = 2
        elif dhw < 8.0:
            level = 3
        else:
            level = 4

        trend = recent[-7:].mean() - recent[:7].mean()
        feats = torch.stack([dhw / 8.0, current, trend, recent.std()])
        bleached = torch.sigmoid(self.severity(feats))
        return dhw.reshape(1), self.levels[level], bleached


def model():
    torch.manual_seed(7)
    return BleachingAlert().eval()


def _sst(days, peak_anomaly, warm_days, final_anomaly, seed, mmm=28.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(days, dtype=torch.float32)
    base = mmm - 1.0 + 0.5 * torch.sin(2 * torch.pi * t / 365.0)
    bump = torch.zeros(days)
    if warm_days > 0:
        start = days - warm_days
        bump[start:] = peak_anomaly + 1.0
    sst = base + bump + 0.05 * torch.randn(days, generator=g)
    sst[-1] = mmm + final_anomaly
    return sst, torch.tensor([mmm])


def example_inputs():
    return _sst(120, 0.6, 50, 1.5, seed=1)  # ~50 days at +1.6 C over MMM -> DHW ~ 7.8, alert level 1


def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=14, max=730)}, None)


def verify_inputs():
    fault_low = _sst(30, 0.0, 0, -0.5, seed=6)
    fault_low[0][3] = -9.0
    fault_high = _sst(30, 0.0, 0, -0.5, seed=7)
    fault_high[0][10] = 85.0
    return [
        example_inputs(),  # full 12-week window, alert level 1 (4 <= DHW < 8)
        _sst(60, 0.0, 0, 0.5, seed=2),  # short record (coverage scaling), no HotSpot >= 1, watch level
        _sst(200, 0.0, 0, -0.3, seed=3),  # long record, cool: no stress
        _sst(100, 2.0, 70, 3.0, seed=4),  # severe marine heatwave: DHW >= 8 -> alert level 2
        _sst(20, 0.4, 6, 1.2, seed=5),  # short warm spell: HotSpot >= 1 but DHW < 4 -> warning
        fault_low,  # sensor fault (reading below -2 C) -> early return
        fault_high,  # sensor fault (reading above 40 C, second operand) -> early return
    ]
