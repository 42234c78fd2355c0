"""Beehive monitor: acoustic band energies + hive weight/temperature. An acoustic submodule flags
'piping' (queen sound before swarming); the top level combines it with the weight drop."""
import torch
from torch import nn

BANDS = 16


class PipingDetector(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(BANDS, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, audio):
        # audio: (T, BANDS)
        energy = audio.mean(dim=0)
        if bool(energy.max() < 0.05):
            return torch.zeros(1)            # hive silent (or mic broken)
        piping = energy[4:7].mean() / (energy.mean() + 1e-3)
        score = torch.sigmoid(self.net(energy)) * 0.2
        if piping > 2.0:
            score = score + 0.8
        return score


class SwarmAlert(nn.Module):
    def __init__(self, sensors=("weight", "temp")):
        super().__init__()
        self.piping = PipingDetector()
        self.sensor_heads = nn.ModuleList([nn.Linear(2, 1) for _ in sensors])
        self.use_temp = "temp" in sensors

    def forward(self, audio, weight, temp):
        # weight, temp: (H,) hourly history, H dynamic
        p = self.piping(audio)
        drop = weight[:-1].max() - weight[-1]
        feats = []
        for head, series in zip(self.sensor_heads, (weight, temp)):
            feats.append(head(torch.stack([series.mean(), series.std()])))
        extra = torch.cat(feats).sum() * 0.01
        warm = torch.tensor(False)
        if self.use_temp:  # static
            warm = temp[-1] > 30.0
        if (p > 0.5) and ((drop > 1.0) or warm):
            level = torch.tensor(2)
        elif (p > 0.5) or (drop > 1.0):
            level = torch.tensor(1)
        else:
            level = torch.tensor(0)
        return level, p + extra


def model():
    torch.manual_seed(0)
    return SwarmAlert().eval()


def _audio(T, base, pipe):
    a = torch.full((T, BANDS), base)
    a[:, 4:7] += pipe
    return a


def example_inputs():
    return (_audio(20, 0.2, 2.0), torch.linspace(40, 38, 12), torch.full((12,), 34.0))


def dynamic_shapes():
    hours = torch.export.Dim("hours", min=2, max=168)
    return ({0: torch.export.Dim("frames", min=2, max=400)}, {0: hours}, {0: hours})


def verify_inputs():
    h = torch.full((24,), 40.0)
    return [
        (_audio(8, 0.01, 0.0), torch.linspace(40, 38.5, 24), torch.full((24,), 25.0)),   # silent, weight drop
        (_audio(30, 0.2, 0.0), h, torch.full((24,), 25.0)),                             # normal
        (_audio(12, 0.2, 2.0), torch.full((6,), 40.0), torch.full((6,), 25.0)),         # piping, no drop, cool
        (_audio(12, 0.2, 2.0), torch.full((6,), 40.0), torch.full((6,), 33.0)),         # piping, no drop, warm
    ]
