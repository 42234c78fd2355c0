"""Plasma etch endpoint detection from optical emission spectroscopy (OES).

Eight monitored emission lines are mixed with learned (positive) weights into
one endpoint trace, smoothed with a moving average, and differentiated.  The
endpoint is the first step after the minimum etch time at which the trace
falls faster than k * (mean |derivative|) for `confirm` consecutive samples.
If no endpoint shows up the run is flagged for over-etch review instead.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EtchEndpointDetector(nn.Module):
    def __init__(self, channels=8, min_etch_steps=5, confirm=3, k=2.0):
        super().__init__()
        self.channel_logits = nn.Parameter(0.3 * torch.randn(channels))
        self.register_buffer("kernel", torch.full((1, 1, 5), 0.2))
        self.min_etch_steps = min_etch_steps
        self.confirm = confirm
        self.k = k

    def endpoint_trace(self, oes):
        w = torch.softmax(self.channel_logits, dim=0)
        trace = oes @ w
        padded = F.pad(trace.view(1, 1, -1), (2, 2), mode="replicate")
        return F.conv1d(padded, self.kernel).view(-1)

    def forward(self, oes):
        smooth = self.endpoint_trace(oes)
        deriv = smooth[1:] - smooth[:-1]
        scale = deriv.abs().mean() + 1e-6

        run = 0
        endpoint = -1
        for t in range(deriv.shape[0]):
            if t < self.min_etch_steps:
                continue                     # plasma still stabilising
            if deriv[t] < -self.k * scale:
                run += 1
                if run >= self.confirm:
                    endpoint = t - self.confirm + 1
                    break
            else:
                run = 0

        if endpoint < 0:
            # no endpoint: report over-etch ratio of the final signal
            return torch.tensor(-1), smooth[-1] / smooth[0].clamp_min(1e-6)
        drop = smooth[endpoint] / smooth[0].clamp_min(1e-6)
        return torch.tensor(endpoint), drop


def model():
    torch.manual_seed(502)
    return EtchEndpointDetector().eval()


def _run(n, drop_at=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = 1.0 + 0.5 * torch.rand(8, generator=g)
    level = torch.ones(n, 1)
    if drop_at is not None:
        t = torch.arange(n, dtype=torch.float32).unsqueeze(1)
        level = 1.0 - 0.6 * torch.sigmoid((t - drop_at) / 1.5)
    return (base * level + 0.002 * torch.randn(n, 8, generator=g),)


def example_inputs():
    return _run(120, drop_at=70, seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=16, max=512)},)


def verify_inputs():
    return [
        example_inputs(),              # clear drop at ~70 -> endpoint found (break out of loop)
        _run(16, seed=2),              # shortest run, flat trace -> no endpoint, early return
        _run(512, drop_at=400, seed=3),  # longest run, late endpoint
        _run(200, seed=4),             # flat noisy trace -> run counter resets, no endpoint
    ]
