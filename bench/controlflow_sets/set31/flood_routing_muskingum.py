"""River flood forecast: Muskingum routing through a chain of reaches.

The upstream gauge hydrograph is routed hour by hour through three river
reaches; each reach adds its tributary (lateral) inflow, some reaches spill
onto a flood plain above bankfull discharge, and a learned transmission-loss
model removes water seeping into the aquifer.  The forecast point raises a
warning / flood alarm from the peak discharge.
"""
import torch
import torch.nn as nn


class MuskingumReach(nn.Module):
    def __init__(self, k_hours, x, dt_hours=1.0, bankfull=None):
        super().__init__()
        denom = 2.0 * k_hours * (1.0 - x) + dt_hours
        self.c0 = (dt_hours - 2.0 * k_hours * x) / denom
        self.c1 = (dt_hours + 2.0 * k_hours * x) / denom
        self.c2 = (2.0 * k_hours * (1.0 - x) - dt_hours) / denom
        self.bankfull = bankfull

    def forward(self, inflow):
        outflow = [inflow[0]]
        for t in range(1, inflow.shape[0]):
            q = self.c0 * inflow[t] + self.c1 * inflow[t - 1] + self.c2 * outflow[-1]
            if self.bankfull is not None and q > self.bankfull:
                # flood-plain storage: only part of the excess travels downstream
                q = self.bankfull + 0.4 * (q - self.bankfull)
            outflow.append(q)
        return torch.stack(outflow)


class RiverForecast(nn.Module):
    def __init__(self, warning_stage=300.0, flood_stage=450.0):
        super().__init__()
        self.reaches = nn.ModuleList([
            MuskingumReach(3.0, 0.1, bankfull=380.0),
            MuskingumReach(5.0, 0.2),
            MuskingumReach(2.0, 0.15, bankfull=460.0),
        ])
        self.seepage = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.warning_stage = warning_stage
        self.flood_stage = flood_stage

    def forward(self, upstream, lateral):
        # upstream: [T] m3/s at the upstream gauge; lateral: [T, 3] tributary inflow per reach
        flow = upstream
        peaks = []
        for i, reach in enumerate(self.reaches):  # static
            flow = reach(flow + lateral[:, i])
            # transmission losses: learned fraction, at most 3 %
            feats = torch.stack([flow / 1000.0, lateral[:, i] / 100.0], dim=-1)
            flow = flow * (1.0 - 0.03 * torch.sigmoid(self.seepage(feats)).squeeze(-1))
            peaks.append(flow.max())
        peak = flow.max()
        if peak > self.flood_stage:
            alarm = 2
        elif peak > self.warning_stage:
            alarm = 1
        else:
            alarm = 0
        return flow, torch.stack(peaks), torch.tensor(alarm)


def model():
    torch.manual_seed(5)
    return RiverForecast().eval()


def _make_storm(hours, base, peak, peak_hour, lateral_scale):
    t = torch.arange(hours, dtype=torch.float32)
    upstream = base + (peak - base) * torch.exp(-0.5 * ((t - peak_hour) / 4.0) ** 2)
    lateral = lateral_scale * torch.stack([
        1.0 + torch.exp(-0.5 * ((t - peak_hour - 2) / 5.0) ** 2),
        0.5 + 0.5 * torch.exp(-0.5 * ((t - peak_hour) / 6.0) ** 2),
        0.8 + torch.exp(-0.5 * ((t - peak_hour - 4) / 5.0) ** 2)], dim=1)
    return upstream, lateral


def example_inputs():
    # moderate storm: peaks between warning and flood stage
    return _make_storm(48, 60.0, 340.0, 12.0, 20.0)


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=2, max=240)
    return ({0: hours}, {0: hours})


def verify_inputs():
    return [
        # warning alarm, no reach above bankfull
        example_inputs(),
        # major flood: reaches 1 and 3 spill over bankfull, flood alarm
        _make_storm(72, 80.0, 700.0, 20.0, 40.0),
        # dry weather base flow: no alarm
        _make_storm(24, 30.0, 45.0, 10.0, 5.0),
        # two-hour forecast window (routing loop runs once per reach)
        (torch.tensor([50.0, 52.0]), torch.tensor([[5.0, 3.0, 4.0], [5.5, 3.0, 4.2]])),
    ]
