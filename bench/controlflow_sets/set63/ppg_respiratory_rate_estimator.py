"""Wearable PPG respiratory-rate estimator (wrist band firmware model).

Kind T.  Constructs: 1, 2, 3, 8.
A 1-D CNN reads the photoplethysmogram and regresses breaths per minute.
Recordings where every subject is moving are rejected early; long recordings
are average-pooled first; flat (detached sensor) or partly moving batches get
blended towards a population prior.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

B = Dim("batch", min=2, max=16)
T = Dim("samples", min=64, max=2048)


def motion_level(accel):
    # per-subject std of the acceleration magnitude (g)
    mag = accel.norm(dim=-1)
    return mag.std(dim=1)


class RespRateNet(nn.Module):
    def __init__(self, channels=16, motion_limit=0.25, prior_bpm=15.0):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(1, channels, 9, padding=4), nn.ReLU(),
            nn.Conv1d(channels, channels, 9, padding=4, stride=2), nn.ReLU(),
            nn.Conv1d(channels, channels, 9, padding=4, stride=2), nn.ReLU(),
        )
        self.rate_head = nn.Linear(channels, 1)
        self.motion_limit = motion_limit
        self.prior_bpm = prior_bpm

    def forward(self, ppg, accel):
        motion = motion_level(accel)
        if (motion > self.motion_limit).all():
            # nobody sat still long enough: no estimate, everything flagged
            return torch.zeros(ppg.shape[0]), torch.ones(ppg.shape[0])

        x = ppg - ppg.mean(dim=1, keepdim=True)
        if ppg.shape[1] > 512:
            x = F.avg_pool1d(x.unsqueeze(1), 4).squeeze(1)

        feats = self.encoder(x.unsqueeze(1)).mean(dim=-1)
        rate = 6.0 + 30.0 * torch.sigmoid(self.rate_head(feats)).squeeze(-1)
        flagged = (motion > self.motion_limit).float()

        if ppg.std() < 1e-2 or motion.max() > self.motion_limit:
            rate = 0.5 * rate + 0.5 * self.prior_bpm
        return rate, flagged


def model():
    torch.manual_seed(63001)
    return RespRateNet().eval()


def _ppg(batch, n, seed, breath_hz=0.25, fs=25.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / fs
    cardiac = torch.sin(2 * torch.pi * 1.2 * t)
    resp = 0.3 * torch.sin(2 * torch.pi * breath_hz * t)
    sig = (cardiac * (1 + resp)).unsqueeze(0).repeat(batch, 1)
    return sig + 0.05 * torch.randn(batch, n, generator=g)


def _accel(batch, n, seed, moving):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([0.0, 0.0, 1.0]).expand(batch, n, 3).clone()
    base = base + 0.01 * torch.randn(batch, n, 3, generator=g)
    for b in moving:
        base[b] += 0.8 * torch.randn(n, 3, generator=g)
    return base


def example_inputs():
    return (_ppg(4, 256, 1), _accel(4, 256, 2, moving=[]))


def dynamic_shapes():
    return ({0: B, 1: T}, {0: B, 1: T})


def verify_inputs():
    return [
        example_inputs(),                                   # still, short: no pooling, no blend
        (_ppg(3, 128, 3), _accel(3, 128, 4, moving=[0, 1, 2])),  # everyone moving: early return
        (_ppg(2, 1024, 5), _accel(2, 1024, 6, moving=[])),  # long recording: avg-pool branch, no blend
        (_ppg(4, 300, 7), _accel(4, 300, 8, moving=[2])),   # one subject moving: `or` 2nd operand -> blend
        (torch.full((2, 200), 0.5) + 1e-3 * torch.randn(2, 200, generator=torch.Generator().manual_seed(9)),
         _accel(2, 200, 10, moving=[])),                    # flat sensor: `or` 1st operand -> blend
    ]
