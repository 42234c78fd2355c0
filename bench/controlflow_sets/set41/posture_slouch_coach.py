"""Posture coach for a clip-on wearable (1 Hz torso pitch + motion energy).

The first seconds after clipping on calibrate the upright pitch. The device
buzzes when the wearer has leaned forward past the slouch angle for `hold`
consecutive seconds while sitting still; walking resets the streak. A small
MLP (stack of linear layers) gives a per-second posture quality score.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class SlouchCoach(nn.Module):
    def __init__(self, calib=4, slouch_deg=15.0, hold=5, walk_thr=0.3):
        super().__init__()
        self.calib = calib
        self.slouch_deg = slouch_deg
        self.hold = hold
        self.walk_thr = walk_thr
        self.layers = nn.ModuleList([nn.Linear(2, 8), nn.Linear(8, 8), nn.Linear(8, 1)])

    def forward(self, pitch, motion):
        base = pitch[: self.calib].mean()
        streaks, buzzes = [], []
        streak = 0
        for t in range(pitch.shape[0]):
            if motion[t] > self.walk_thr:
                streak = 0  # walking: posture does not count
                streaks.append(torch.tensor(streak))
                continue
            lean = pitch[t] - base
            if lean > self.slouch_deg:
                streak += 1
            else:
                streak = 0
            if streak == self.hold:
                buzzes.append(lean)
            streaks.append(torch.tensor(streak))

        h = torch.stack([(pitch - base) / 30.0, motion], dim=1)
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i < len(self.layers) - 1:
                h = torch.relu(h)
        quality = torch.sigmoid(h.squeeze(1))

        worst = torch.stack(buzzes).max() if buzzes else pitch.new_zeros(())
        return torch.stack(streaks), quality, torch.tensor(len(buzzes)), worst


def model():
    torch.manual_seed(37)
    return SlouchCoach().eval()


def _session(*segments):
    """segments: (seconds, pitch_deg, motion)."""
    p = torch.cat([torch.full((n,), float(a)) for n, a, _ in segments])
    m = torch.cat([torch.full((n,), float(b)) for n, _, b in segments])
    return p, m


def example_inputs():
    return _session((4, 5.0, 0.05), (8, 25.0, 0.05), (8, 6.0, 0.05))


def dynamic_shapes():
    t = Dim("seconds", min=8, max=600)
    return ({0: t}, {0: t})


def verify_inputs():
    return [
        example_inputs(),                                                  # one 8 s slouch -> one buzz
        _session((4, 5.0, 0.05), (3, 26.0, 0.05), (1, 24.0, 0.8), (3, 26.0, 0.05), (2, 8.0, 0.6)),
        # ^ slouch interrupted by walking (continue) before reaching hold -> no buzz
        _session((4, 3.0, 0.05), (4, 10.0, 0.05)),                         # never slouching, minimum length
        _session((4, 4.0, 0.05), (6, 30.0, 0.05), (2, 5.0, 0.05), (7, 28.0, 0.1)),  # two buzzes
        _session(*[(4, 5.0, 0.05), (6, 27.0, 0.05), (20, 6.0, 0.5), (14, 7.0, 0.05)] * 13),
        # ^ long day (572 s): repeated slouches and walks
    ]
