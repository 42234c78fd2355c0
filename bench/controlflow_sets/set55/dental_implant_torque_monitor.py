"""Dental implant placement: loading protocol from insertion torque and ISQ.

The surgical motor logs the insertion torque curve (Ncm) while the implant is
seated; after placement four resonance-frequency (ISQ) readings are taken
(mesial, distal, buccal, lingual). The model recommends immediate, early or
delayed loading and flags over-torque (risk of crestal bone necrosis).
"""
import torch
import torch.nn as nn


class StabilityHead(nn.Module):
    """Learned stability score from torque-curve and ISQ statistics."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, torque, isq):
        final = torque[-4:].mean()
        feats = torch.stack([torque.max() / 50.0, final / 50.0, torque.mean() / 50.0,
                             isq.min() / 80.0, isq.mean() / 80.0, isq.std() / 10.0])
        score = torch.sigmoid(self.mlp(feats)).squeeze(0)
        if isq.min() < 55:
            # one side is clearly mobile: do not trust the torque curve
            return score * 0.5
        return score


class ImplantTorqueMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = StabilityHead()

    def forward(self, torque, isq):
        peak = torque.max()
        stability = self.head(torque, isq)
        if peak > 50 and not (isq.min() < 65):
            protocol = torch.tensor(0)      # immediate loading
        elif peak > 35 or isq.mean() > 70:
            protocol = torch.tensor(1)      # early loading, 6-8 weeks
        else:
            protocol = torch.tensor(2)      # delayed loading, 3-4 months
        over_torque = (peak > 80).long()
        return protocol, stability, over_torque


def model():
    torch.manual_seed(5510)
    return ImplantTorqueMonitor().eval()


def _placement(samples, peak, isq_mean, isq_spread, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.linspace(0.0, 1.0, samples)
    torque = peak * t ** 1.5 + 1.5 * torch.rand(samples, generator=g)
    isq = isq_mean + isq_spread * torch.tensor([-1.0, 0.3, 0.9, -0.2])
    return torque, isq


def example_inputs():
    return _placement(64, 55.0, 74.0, 3.0, 1)


def dynamic_shapes():
    samples = torch.export.Dim("samples", min=8, max=256)
    return ({0: samples}, None)


def verify_inputs():
    return [
        example_inputs(),                       # high torque, good ISQ -> immediate loading
        _placement(8, 40.0, 62.0, 2.0, 2),      # samples=min, moderate torque -> early loading
        _placement(256, 90.0, 58.0, 6.0, 3),    # samples=max, over-torque but a low ISQ side -> early, mobile side halves score
        _placement(40, 25.0, 60.0, 2.0, 4),     # soft bone, low ISQ -> delayed
        _placement(50, 25.0, 76.0, 2.0, 5),     # low torque but high ISQ -> early via "or"
    ]
