"""Reverse-osmosis desalination: decide clean-in-place (CIP) per pressure-vessel stage.

Per stage, the SCADA history holds feed pressure (bar), permeate flow (m3/h), differential
pressure (bar) and temperature (C). Permeate flow is normalised to 25 C, a baseline window
at the start of the run is compared with the latest window, and the standard rules
(normalised flow drop > 10 % or dP rise > 15 %) trigger a CIP. A per-stage fouling network
can ask for a cheaper flush instead.

Kind: T.  Constructs: 1, 3, 7, 8, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def window_mean(x, n, from_start):
    if x.shape[0] >= 2 * n:
        return x[:n].mean(0) if from_start else x[-n:].mean(0)
    # short history: compare first and last samples only
    return x[0] if from_start else x[-1]


def temperature_correction(temp_c):
    # factor that brings permeate flow measured at temp_c to 25 C
    return torch.exp(2640.0 * (1.0 / (273.15 + temp_c) - 1.0 / 298.15))


class StageFouling(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 12), nn.ReLU(), nn.Linear(12, 1))

    def forward(self, flow_drop, dp_rise, feed_rise):
        f = torch.stack([flow_drop, dp_rise, feed_rise])
        # learned residual on top of the engineering prior (any combined degradation > 15 %)
        prior = 10.0 * (f.sum() - 0.15)
        return torch.sigmoid(self.net(f * 5.0).squeeze(-1) + prior)


class RoCleaningTrigger(nn.Module):
    def __init__(self, n_stages=2, window=6, conservative=False):
        super().__init__()
        self.window = window
        self.conservative = conservative
        self.stages = nn.ModuleList([StageFouling() for _ in range(n_stages)])

    def forward(self, readings):
        # readings: (stages, T, 4) [feed bar, permeate m3/h, dP bar, temp C]
        actions = []
        scores = []
        for s, fouling_net in enumerate(self.stages):
            x = readings[s]
            nflow = x[:, 1] * temperature_correction(x[:, 3])
            flow_drop = 1.0 - window_mean(nflow, self.window, False) / window_mean(nflow, self.window, True)
            dp_rise = window_mean(x[:, 2], self.window, False) / window_mean(x[:, 2], self.window, True) - 1.0
            feed_rise = window_mean(x[:, 0], self.window, False) / window_mean(x[:, 0], self.window, True) - 1.0
            score = fouling_net(flow_drop, dp_rise, feed_rise)
            if flow_drop > 0.10 or dp_rise > 0.15:
                action = torch.tensor(2)      # CIP
            elif score > 0.5 and not self.conservative:
                action = torch.tensor(1)      # forward flush
            else:
                action = torch.tensor(0)
            actions.append(action)
            scores.append(score)
        return torch.stack(actions), torch.stack(scores)


def model():
    torch.manual_seed(7)
    return RoCleaningTrigger().eval()


def _history(n, flow_loss, dp_gain, feed_gain=0.0, temp0=24.0, temp_swing=0.0):
    t = torch.linspace(0.0, 1.0, n)
    feed = 55.0 * (1.0 + feed_gain * t)
    flow = 40.0 * (1.0 - flow_loss * t)
    dp = 1.2 * (1.0 + dp_gain * t)
    temp = temp0 + temp_swing * t
    return torch.stack([feed, flow, dp, temp], dim=-1)


def example_inputs():
    stage1 = _history(48, 0.16, 0.05)          # lead elements foul first: flow drop -> CIP
    stage2 = _history(48, 0.02, 0.03)          # healthy
    return (torch.stack([stage1, stage2]),)


def dynamic_shapes():
    return ({1: Dim("samples", min=2, max=2000)},)


def verify_inputs():
    return [
        # stage 1 CIP by flow drop, stage 2 healthy (no action)
        example_inputs(),
        # short history (5 samples): first/last comparison in window_mean; stage 2 dP rise -> CIP
        (torch.stack([_history(5, 0.01, 0.02), _history(5, 0.03, 0.25)]),),
        # slow fouling visible only in feed pressure: fouling net asks for a flush on stage 1
        (torch.stack([_history(30, 0.05, 0.10, feed_gain=0.6), _history(30, 0.0, 0.0)]),),
        # winter: temperature falls, raw flow falls but normalised flow does not -> no CIP
        (torch.stack([_history(20, 0.12, 0.02, temp0=22.0, temp_swing=-5.0),
                      _history(20, 0.0, 0.0)]),),
    ]
