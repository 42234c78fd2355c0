"""Mosquito species from the wingbeat tone picked up by a smartphone mic.

Kind T. Constructs: 1, 2, 8, 9.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

SPECIES = ["ae_aegypti", "ae_albopictus", "an_gambiae", "an_arabiensis", "cx_pipiens", "cx_quinq"]


class WingbeatNet(nn.Module):
    def __init__(self, n_species=len(SPECIES), chunk_frames=128, use_spread=True):
        super().__init__()
        self.n_species = n_species
        self.chunk_frames = chunk_frames
        self.use_spread = use_spread
        self.silence_rms = 1e-3
        self.frontend = nn.Conv1d(1, 16, kernel_size=64, stride=16)
        self.conv2 = nn.Conv1d(16, 32, kernel_size=5, padding=2)
        self.drop = nn.Dropout(0.2)
        self.head = nn.Linear(64 if use_spread else 32, n_species)

    def forward(self, audio):
        # audio: [B, N] raw mic samples at 8 kHz
        rms = audio.pow(2).mean().sqrt()
        if rms < self.silence_rms:
            # nothing buzzing near the phone: return the uninformative prior
            prior = torch.full((audio.shape[0], self.n_species), 1.0 / self.n_species)
            return prior.log()

        x = audio - audio.mean(dim=1, keepdim=True)
        x = x / (x.abs().amax(dim=1, keepdim=True) + 1e-6)
        h = F.relu(self.frontend(x.unsqueeze(1)))
        h = F.relu(self.conv2(h))

        B, C, T = h.shape
        if T > self.chunk_frames:
            # long recording: average inside chunks, keep the loudest chunk
            n_chunks = T // self.chunk_frames
            h = h[:, :, : n_chunks * self.chunk_frames]
            h = h.reshape(B, C, n_chunks, self.chunk_frames).mean(-1)
            pooled = h.amax(-1)
        else:
            pooled = h.mean(-1)

        feats = pooled
        if self.use_spread:
            spread = h.amax(-1) - h.amin(-1)
            feats = torch.cat([pooled, spread], dim=1)
        feats = self.drop(feats) if self.training else feats
        return F.log_softmax(self.head(feats), dim=-1)


def model():
    torch.manual_seed(0)
    return WingbeatNet().eval()


def _buzz(batch, n, f0, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / 8000.0
    rows = []
    for b in range(batch):
        f = f0 * (1.0 + 0.05 * b)
        tone = 0.4 * torch.sin(2 * math.pi * f * t) + 0.15 * torch.sin(2 * math.pi * 2 * f * t)
        rows.append(tone + 0.02 * torch.randn(n, generator=g))
    return torch.stack(rows)


def example_inputs():
    return (_buzz(2, 1024, 480.0, 1),)


def dynamic_shapes():
    return ({0: Dim("batch", min=2, max=16), 1: Dim("samples", min=256, max=8000)},)


def verify_inputs():
    return [
        example_inputs(),  # 1024 samples -> 61 frames <= 128: short mean-pool branch
        (_buzz(3, 4000, 620.0, 2),),  # 4000 samples -> 247 frames > 128: chunked branch
        (_buzz(2, 8000, 350.0, 3),),  # max length: chunked branch, 3 chunks
        (_buzz(2, 256, 500.0, 4),),  # min length: short branch
        (torch.zeros(2, 2000),),  # silence: rms 0 < 1e-3 -> early return of prior
        (1e-5 * _buzz(4, 512, 500.0, 5),),  # faint hiss: rms ~1e-5 -> early return
    ]
