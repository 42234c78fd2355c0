"""Snore detection on a bedside device: log-mel frames of a variable-length clip. Silent
clips return early; clipped (overdriven) input is rescaled; long clips get temporal
smoothing before the clip-level decision."""

import torch
from torch import nn
import torch.nn.functional as F

SILENCE = -6.0   # mean log-mel below this is silence
CLIP_LEVEL = 4.0


def is_overdriven(mel: torch.Tensor) -> bool:
    if mel.max() > CLIP_LEVEL:
        return True
    return False


class SnoreNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(40, 32, 3, padding=1)
        self.c2 = nn.Conv1d(32, 32, 3, padding=1)
        self.frame = nn.Conv1d(32, 1, 1)

    def forward(self, mel: torch.Tensor):
        # mel: (1, 40, F) log-mel, F frames of 32 ms
        Fr = mel.shape[-1]
        energy = mel.mean()
        if energy < SILENCE:
            return torch.zeros(1), torch.zeros(1, Fr)
        if is_overdriven(mel) and not (energy > 2.0):
            mel = mel - (mel.max() - CLIP_LEVEL)
        h = F.relu(self.c1(mel))
        h = F.relu(self.c2(h))
        p = torch.sigmoid(self.frame(h))[:, 0]  # (1, F)
        if Fr > 50:
            p = F.avg_pool1d(p.unsqueeze(0), 5, stride=1, padding=2, count_include_pad=False)[0]
        clip_prob = p.max(dim=-1).values
        return clip_prob, p


def model() -> nn.Module:
    torch.manual_seed(0)
    return SnoreNet().eval()


def _mel(Fr, level, seed, peak=None):
    g = torch.Generator().manual_seed(seed)
    mel = level + torch.randn(1, 40, Fr, generator=g)
    if peak is not None:
        mel[0, 5, Fr // 2] = peak
    return (mel,)


def example_inputs() -> tuple:
    return _mel(30, -2.0, 0, peak=1.0)


def dynamic_shapes():
    return ({2: torch.export.Dim("frames", min=8, max=200)},)


def verify_inputs() -> list:
    return [
        _mel(8, -9.0, 1),               # silence -> early return
        _mel(120, -1.0, 2, peak=9.0),   # overdriven, long clip smoothed
        _mel(200, 3.0, 3, peak=9.0),    # loud overall: overdriven but kept
        _mel(51, -3.0, 4),
    ]
