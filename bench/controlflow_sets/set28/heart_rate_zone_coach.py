"""Fitness watch: classify a workout by heart-rate intensity and produce coaching scores."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ZoneCoach(nn.Module):
    def __init__(self, n_advice=5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(4, 16), nn.ReLU())
        self.recovery_head = nn.Linear(16, n_advice)
        self.tempo_head = nn.Linear(16, n_advice)
        self.endurance_head = nn.Linear(16, n_advice)
        self.dropout = nn.Dropout(0.2)
        self.long_session = 32
        self.allow_max_effort = False

    def forward(self, hr, max_hr):
        # hr [B, T] beats per minute, max_hr [B]
        if hr.shape[1] > self.long_session:
            hr = F.avg_pool1d(hr.unsqueeze(1), 4).squeeze(1)
        frac = hr / max_hr[:, None]
        stats = torch.stack([frac.mean(1), frac.std(1), frac.amax(1), frac.amin(1)], dim=1)
        feats = self.encoder(stats)
        if self.training:
            feats = self.dropout(feats)
        intensity = frac.mean()
        if intensity > 0.85:
            advice = self.recovery_head(feats)
            zone = 4
        elif intensity > 0.7:
            advice = self.tempo_head(feats)
            zone = 3
        else:
            advice = self.endurance_head(feats)
            zone = 2
        scale = 1.2 if intensity < 0.6 else 1.0
        advice = advice * scale
        if (frac > 0.95).any() and not self.allow_max_effort:
            advice = advice - 1.0
        return advice, torch.full((hr.shape[0],), zone, dtype=torch.int64)


def model():
    torch.manual_seed(0)
    return ZoneCoach().eval()


def _case(seed, b, t, level, spike=None):
    g = torch.Generator().manual_seed(seed)
    max_hr = 180.0 + 15.0 * torch.rand(b, generator=g)
    wobble = 0.03 * torch.sin(torch.arange(t, dtype=torch.float32) / 3.0)
    hr = (level + wobble)[None, :] * max_hr[:, None]
    hr = hr + 0.5 * torch.randn(b, t, generator=g)
    if spike is not None:
        hr[0, t // 2] = spike * max_hr[0]
    return hr, max_hr


def example_inputs():
    return _case(0, 3, 20, 0.75)


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=16)
    t = torch.export.Dim("samples", min=8, max=128)
    return ({0: b, 1: t}, {0: b})


def verify_inputs():
    return [
        _case(1, 2, 16, 0.9),                 # recovery zone, no spike (max < 0.95)
        _case(2, 4, 64, 0.78),                # tempo zone, long session (downsampled)
        _case(3, 3, 24, 0.55, spike=0.99),    # endurance, low intensity scale, spike
        _case(4, 2, 40, 0.65),                # endurance, scale 1.0, downsampled
        _case(5, 5, 12, 0.8, spike=0.98),     # tempo with spike
    ]
