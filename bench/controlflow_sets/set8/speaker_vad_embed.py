"""Speaker-verification front end: energy VAD trims leading/trailing silence, then an x-vector style embedding."""

import torch
from torch import nn

N_MELS, EMB = 24, 32


class EnergyVAD(nn.Module):
    def __init__(self, threshold_db: float = -6.0, floor_db: float = -30.0):
        super().__init__()
        self.threshold_db = threshold_db
        self.floor_db = floor_db

    def forward(self, feats):  # (T, F) log-mel frames of one utterance
        energy = feats.mean(dim=1)
        thr = torch.clamp(energy.max() + self.threshold_db, min=self.floor_db)
        n = feats.shape[0]
        start = torch.tensor(0)
        end = torch.tensor(n)
        if not (energy > thr).any():
            return torch.ones(n, dtype=torch.bool)
        while start < end - 1 and energy[start] < thr:
            start = start + 1
        while end - 1 > start and energy[end - 1] < thr:
            end = end - 1
        idx = torch.arange(n)
        return (idx >= start) & (idx < end)


class XVector(nn.Module):
    def __init__(self):
        super().__init__()
        self.tdnn = nn.Sequential(
            nn.Conv1d(N_MELS, 64, 5, padding=2),
            nn.ReLU(),
            nn.BatchNorm1d(64),
            nn.Conv1d(64, 64, 3, dilation=2, padding=2),
            nn.ReLU(),
            nn.BatchNorm1d(64),
        )
        self.embed = nn.Linear(128, EMB)

    def forward(self, feats, mask):
        h = self.tdnn(feats.t().unsqueeze(0))[0]  # (C, T)
        w = mask.float()
        mean = (h * w).sum(1) / w.sum()
        std = (((h - mean[:, None]) ** 2 * w).sum(1) / w.sum()).clamp_min(1e-5).sqrt()
        return self.embed(torch.cat([mean, std]))


class SpeakerFrontEnd(nn.Module):
    def __init__(self):
        super().__init__()
        self.vad = EnergyVAD()
        self.xvector = XVector()

    def forward(self, feats):
        mask = self.vad(feats)
        emb = self.xvector(feats, mask)
        return nn.functional.normalize(emb, dim=0), mask.sum()


def model():
    torch.manual_seed(0)
    return SpeakerFrontEnd().eval()


def _utt(n, lead, tail, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, N_MELS, generator=g) * 0.5
    x[:lead] -= 20.0
    if tail:
        x[n - tail :] -= 20.0
    return x


def example_inputs():
    return (_utt(60, 5, 5, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=300)},)


def verify_inputs():
    return [
        (_utt(40, 0, 0, 2),),  # speech everywhere: both while loops run zero times
        (_utt(80, 12, 0, 3),),  # silence only at the head
        (_utt(80, 0, 20, 4),),  # silence only at the tail
        (_utt(300, 30, 50, 5),),  # both, longest
        (torch.full((30, N_MELS), -40.0),),  # constant (no frame above threshold): no-speech branch
        (_utt(2, 0, 0, 6),),  # shortest
    ]
