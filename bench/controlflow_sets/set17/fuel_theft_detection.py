"""Fleet fuel theft detection: scan fuel-level series for drops while the engine is off (tricky)."""
import torch
from torch import nn


class FuelTheft(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.denoise = nn.Conv1d(1, 1, 5, padding=2, bias=False, padding_mode="replicate")
        with torch.no_grad():
            self.denoise.weight.fill_(0.2)
        self.score = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.min_drop = 2.0

    def forward(self, level: torch.Tensor, ignition: torch.Tensor):
        # level: [T] litres, ignition: [T] bool; T dynamic
        lv = self.denoise(level.view(1, 1, -1)).view(-1)
        events = []
        start = -1
        for t in range(1, lv.shape[0]):
            if ignition[t]:
                start = -1
                continue
            if start < 0:
                start = t - 1
            drop = lv[start] - lv[t]
            if drop > self.min_drop:
                events.append(torch.stack([drop, torch.tensor(float(start)), torch.tensor(float(t))]))
                start = -1
        if len(events) == 0:
            return torch.zeros(0, 3), torch.zeros(0)
        ev = torch.stack(events)
        conf = torch.sigmoid(self.score(ev / 10.0)).squeeze(-1)
        return ev, conf


def model():
    torch.manual_seed(18)
    return FuelTheft().eval()


def _series(T, drops, ign_ranges):
    lv = torch.full((T,), 50.0)
    for at, amt in drops:
        lv[at:] -= amt
    ign = torch.zeros(T, dtype=torch.bool)
    for a, b in ign_ranges:
        ign[a:b] = True
    return lv, ign


def example_inputs():
    return _series(30, [(12, 8.0)], [(0, 5)])


def dynamic_shapes():
    t = torch.export.Dim("T", min=8, max=2000)
    return ({0: t}, {0: t})


def verify_inputs():
    return [_series(40, [(10, 6.0), (30, 9.0)], [(20, 25)]), _series(16, [], [(0, 16)]), _series(20, [], [])]
