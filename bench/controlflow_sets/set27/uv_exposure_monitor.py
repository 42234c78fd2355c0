"""Sun-exposure monitor for a wearable UV sensor (one sample per minute).

Long recordings are downsampled by two; any reading in the extreme range
raises an immediate alert. Otherwise every complete 10-minute window is
embedded and the embeddings are averaged together with soft time-in-band
fractions (moderate / high / very high / extreme-approach).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UvExposureMonitor(nn.Module):
    def __init__(self, extreme_uv=11.0, window=10, max_len=120):
        super().__init__()
        self.extreme_uv = extreme_uv
        self.window = window
        self.max_len = max_len
        self.register_buffer("bands", torch.tensor([3.0, 6.0, 8.0, 10.0]))
        self.window_net = nn.Sequential(nn.Linear(window, 16), nn.GELU(), nn.Linear(16, 8))

    def forward(self, uv):
        # uv: [T] UV index readings
        if uv.shape[0] > self.max_len:
            uv = F.avg_pool1d(uv[None, None], kernel_size=2, stride=2)[0, 0]
        if uv.max() > self.extreme_uv:
            return torch.tensor(True), torch.zeros(12)
        in_band = torch.sigmoid((uv[:, None] - self.bands) * 2.0).mean(0)
        if uv.shape[0] < self.window:
            return torch.tensor(False), torch.cat([torch.zeros(8), in_band])
        feats = []
        for start in range(0, uv.shape[0] - self.window + 1, self.window):
            seg = uv[start:start + self.window]
            feats.append(self.window_net(seg / self.extreme_uv))
        dose = torch.stack(feats).mean(0)
        return torch.tensor(False), torch.cat([dose, in_band])


def model():
    torch.manual_seed(0)
    return UvExposureMonitor().eval()


def _outing(t, base, amp, seed, glare_at=None):
    g = torch.Generator().manual_seed(seed)
    minutes = torch.arange(t, dtype=torch.float32)
    shade = 0.8 + 0.2 * torch.sin(minutes / 7.0)          # walking in and out of shade
    uv = (base + amp * torch.sin(minutes / 40.0)) * shade + 0.2 * torch.rand(t, generator=g)
    if glare_at is not None:
        uv[glare_at] = 12.5                                # snow / water reflection
    return (uv,)


def example_inputs():
    return _outing(60, 5.0, 1.5, 0)


def dynamic_shapes():
    T = torch.export.Dim("minutes", min=2, max=600)
    return ({0: T},)


def verify_inputs():
    return [
        _outing(6, 2.0, 0.5, 1),                 # quick errand: no full window
        _outing(14, 4.0, 1.0, 2),                # exactly one window
        _outing(75, 6.0, 2.0, 3),                # several windows
        _outing(300, 5.0, 2.5, 4),               # afternoon at the beach: downsampled
        _outing(40, 7.0, 1.0, 5, glare_at=20),   # reflection spike: alert
    ]
