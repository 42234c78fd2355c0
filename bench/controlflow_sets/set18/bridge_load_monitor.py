"""Bridge strain-gauge monitor: long recordings are average-pooled down before a conv encoder;
an overload / fatigue decision is made from the encoded load estimate."""
import torch
from torch import nn
import torch.nn.functional as F

GAUGES = 8


class BridgeLoad(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv1d(GAUGES, 16, 5, padding=2)
        self.conv2 = nn.Conv1d(16, 16, 3, padding=1)
        self.load = nn.Linear(16, 1)
        self.overload = 2.0

    def forward(self, strain):
        # strain: (B, GAUGES, T)
        if strain.shape[2] > 64:
            strain = F.avg_pool1d(strain, 4, 4, ceil_mode=True)
        h = torch.relu(self.conv1(strain))
        h = torch.relu(self.conv2(h))
        pooled = h.mean(dim=2)
        load = self.load(pooled).squeeze(-1) + strain.abs().mean(dim=(1, 2))
        peak = strain.abs().amax()
        if (load.max() > self.overload) and (peak > 3.0):
            alarm = torch.ones(strain.shape[0])
            load = load.clamp(max=10.0)
        elif (load.min() < 0.0) or (peak < 0.05):
            alarm = -torch.ones(strain.shape[0])   # sensor fault / no traffic
        else:
            alarm = torch.zeros(strain.shape[0])
        return load, alarm


def model():
    torch.manual_seed(0)
    return BridgeLoad().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(2, GAUGES, 48) * 0.5,)


def dynamic_shapes():
    return ({2: torch.export.Dim("samples", min=8, max=1024)},)


def verify_inputs():
    torch.manual_seed(2)
    heavy = torch.full((2, GAUGES, 200), 4.0)
    quiet = torch.full((2, GAUGES, 30), 0.01)
    spiky = torch.randn(2, GAUGES, 100) * 0.5
    spiky[0, 0, 5] = 6.0   # peak high but mean load low
    return [(heavy,), (quiet,), (spiky,), (torch.randn(2, GAUGES, 65) * 0.5,)]
