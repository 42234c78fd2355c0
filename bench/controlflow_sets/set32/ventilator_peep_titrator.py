"""Closed-loop PEEP advisor for a mechanically ventilated ICU patient.

Kind T. Constructs: 1, 2, 3, 9.
Inputs are one breath of airway pressure and flow sampled at 50 Hz, the
recent SpO2 readings and the current PEEP.  The advisor computes tidal
volume, plateau / driving pressure and static compliance, runs a small
1-D CNN breath-quality model, and applies the unit's titration protocol:
raise PEEP when oxygenation is poor, lower it when driving pressure is high
and the lung is poorly compliant (overdistension), otherwise keep it.
"""
import torch
import torch.nn as nn


class BreathQuality(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(2, 8, 5, padding=2), nn.ReLU(),
            nn.Conv1d(8, 8, 5, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(8, 1))

    def forward(self, pressure, flow):
        x = torch.stack([pressure / 30.0, flow], 0).unsqueeze(0)
        return self.net(x).squeeze()


class PeepTitrator(nn.Module):
    def __init__(self, dt=0.02, peep_step=2.0):
        super().__init__()
        self.dt = dt
        self.peep_step = peep_step
        self.quality = BreathQuality()
        self.drop = nn.Dropout(0.2)

    def forward(self, pressure, flow, spo2, peep):
        if flow.abs().max() < 0.05:
            # no flow at all: circuit disconnected -> alarm, keep settings
            return peep, torch.ones(1)

        volume = torch.cumsum(flow.clamp(min=0.0), 0) * self.dt  # litres
        tidal = volume.max()
        n_tail = pressure.shape[0] // 5
        plateau = pressure[-n_tail:].mean()
        driving = plateau - peep.squeeze()
        compliance = tidal * 1000.0 / driving.clamp(min=1.0)  # mL / cmH2O

        score = self.quality(pressure, flow)
        score = self.drop(score) if self.training else score

        new_peep = peep
        if spo2.min() < 85 or spo2.mean() < 90:
            new_peep = peep + self.peep_step
        elif driving > 15 and compliance < 40:
            new_peep = peep - self.peep_step
        new_peep = new_peep.clamp(5.0, 20.0)
        alarm = (torch.sigmoid(score) < 0.2).float().reshape(1)
        return new_peep, alarm


def model():
    torch.manual_seed(3204)
    return PeepTitrator().eval()


def _breath(n, peep, plateau, peak_flow, spo2_level, spo2_n, dip=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0, 1, n)
    insp = (t < 0.35).float()
    flow = peak_flow * (insp * torch.sin(t / 0.35 * torch.pi) - (1 - insp) * 0.6 * torch.exp(-(t - 0.35) * 8))
    pressure = peep + (plateau - peep) * (1 - torch.exp(-t * 10)) * insp
    pressure = torch.where(t > 0.8, torch.full_like(t, plateau), pressure)
    pressure = pressure + 0.1 * torch.randn(n, generator=g)
    spo2 = spo2_level + 0.5 * torch.randn(spo2_n, generator=g)
    if dip:
        spo2[spo2_n // 2] = spo2_level - dip
    return pressure, flow, spo2, torch.tensor([peep])


def example_inputs():
    # healthy oxygenation, moderate driving pressure -> keep PEEP
    return _breath(150, 10.0, 22.0, 0.9, 95.0, 30, seed=1)


def dynamic_shapes():
    t = torch.export.Dim("samples", min=10, max=500)
    s = torch.export.Dim("spo2_readings", min=2, max=120)
    return ({0: t}, {0: t}, {0: s}, None)


def verify_inputs():
    return [
        example_inputs(),                                     # else: keep PEEP ('or' both false, 'and' first false)
        _breath(150, 10.0, 22.0, 0.0, 95.0, 30, seed=2),      # zero flow -> disconnect early return
        _breath(200, 8.0, 24.0, 0.8, 93.0, 20, dip=12.0, seed=3),  # one deep desaturation: min < 85 -> raise PEEP
        _breath(120, 8.0, 24.0, 0.8, 88.0, 40, seed=4),       # chronically low SpO2: min>=85 but mean<90 -> raise
        _breath(180, 12.0, 32.0, 0.6, 96.0, 25, seed=5),      # driving 20, stiff lung -> lower PEEP
        _breath(160, 12.0, 32.0, 2.5, 96.0, 25, seed=6),      # driving 20 but compliant -> keep ('and' second false)
        _breath(100, 5.0, 12.0, 0.7, 84.0, 10, seed=7),       # low SpO2 at PEEP 5: raise to 7
        _breath(300, 6.0, 28.0, 0.5, 97.0, 6, seed=8),        # lower PEEP from 6 -> clamped at 5
    ]
