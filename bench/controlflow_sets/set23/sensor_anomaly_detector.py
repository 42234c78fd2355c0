"""Industrial sensor anomaly detector: per-channel normalisation with a
flat-line (dead sensor) check, convolutional autoencoder reconstruction error,
and a three-level alarm that also requires drift for the warning level."""
import torch
import torch.nn as nn


class ConvAutoencoder(nn.Module):
    def __init__(self, channels, hidden):
        super().__init__()
        self.enc = nn.Conv1d(channels, hidden, 5, padding=2)
        self.dec = nn.Conv1d(hidden, channels, 5, padding=2)

    def forward(self, z):
        h = torch.relu(self.enc(z.transpose(1, 2)))
        return self.dec(h).transpose(1, 2)


class SensorAnomalyDetector(nn.Module):
    def __init__(self, channels=3, hidden=8, warn=4.0, critical=15.0, drift_limit=0.5):
        super().__init__()
        self.ae = ConvAutoencoder(channels, hidden)
        self.warn = warn
        self.critical = critical
        self.drift_limit = drift_limit
        self.min_std = 0.01

    def normalize(self, x):
        mean = x.mean(dim=1, keepdim=True)
        std = x.std(dim=1, keepdim=True)
        dead = std < self.min_std
        if bool(dead.any()):
            std = torch.where(dead, torch.ones_like(std), std)
        return (x - mean) / std, dead.flatten(1).any(1)

    def forward(self, x):
        z, dead = self.normalize(x)
        recon = self.ae(z)
        err = (recon - z).pow(2).mean(dim=2).amax(dim=1)
        q = x.shape[1] // 4
        drift = (x[:, -q:].mean(1) - x[:, :q].mean(1)).abs().amax()
        if dead.any():
            return err, torch.tensor(3)
        score = err.max()
        if score.item() > self.critical:
            level = 2
        elif score.item() > self.warn and drift > self.drift_limit:
            level = 1
        else:
            level = 0
        weight = 2.0 if level >= 1 else 1.0
        return err * weight, torch.tensor(level)


def model():
    torch.manual_seed(0)
    return SensorAnomalyDetector().eval()


def _signal(b, t, seed, spike=0.0, ramp=0.0, dead_channel=None):
    g = torch.Generator().manual_seed(seed)
    time = torch.linspace(0, 6.28, t)
    base = torch.stack([torch.cos(time * (k + 1)) for k in range(3)], -1)
    x = base.unsqueeze(0) + 0.1 * torch.randn(b, t, 3, generator=g)
    x = x + ramp * torch.linspace(0, 1, t).view(1, t, 1)
    if spike:
        x[:, t // 2, 0] += spike
    if dead_channel is not None:
        x[:, :, dead_channel] = 0.7
    return (x,)


def example_inputs():
    return _signal(2, 32, 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=16),
             1: torch.export.Dim("time", min=8, max=256)},)


def verify_inputs():
    return [
        _signal(3, 48, 1, spike=25.0),
        _signal(2, 24, 2, ramp=3.0),
        _signal(3, 20, 6, spike=5.0),
        _signal(4, 40, 3, dead_channel=1),
    ]
