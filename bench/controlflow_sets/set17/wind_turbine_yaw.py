"""Wind turbine yaw controller: decide yaw correction from an anemometer window (typical)."""
import torch
from torch import nn


class YawController(nn.Module):
    def __init__(self, feat=8, hidden=32):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(feat, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.head = nn.Linear(hidden, 1)
        self.deadband = 0.5
        self.use_gust_filter = True

    def forward(self, wind: torch.Tensor) -> torch.Tensor:
        # wind: [B, T, feat]; feature 0 is the yaw misalignment in degrees
        h = self.enc(wind).mean(dim=1)
        misalign = wind[:, :, 0].mean()
        speed = wind[:, :, 1].abs().mean()
        if self.use_gust_filter:  # static
            h = h * 0.9
        cmd = self.head(h)
        if speed < 0.2:
            # cut-in not reached: park the nacelle, no yaw
            return torch.zeros_like(cmd)
        if misalign.abs() < self.deadband:
            out = cmd * 0.0
        elif misalign > 0:
            out = -torch.relu(cmd) - misalign
        else:
            out = torch.relu(cmd) - misalign
        rate = 2.0 if speed > 3.0 else 1.0
        return out.clamp(-10.0, 10.0) * rate


def model():
    torch.manual_seed(0)
    return YawController().eval()


def _w(mis, spd, b=2, t=16):
    g = torch.Generator().manual_seed(1)
    x = torch.randn(b, t, 8, generator=g) * 0.1
    x[:, :, 0] = mis
    x[:, :, 1] = spd
    return x


def example_inputs():
    return (_w(2.0, 1.5),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=32), 1: torch.export.Dim("time", min=2, max=256)},)


def verify_inputs():
    return [(_w(2.0, 5.0, 3, 20),), (_w(-2.0, 1.0),), (_w(0.1, 1.0, 4, 8),), (_w(1.0, 0.05),)]
