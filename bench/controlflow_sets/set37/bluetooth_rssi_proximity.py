"""BLE beacon proximity for a museum audio guide.

The phone reports one RSSI sample per advertising interval.  Readings the radio
stack could not measure arrive as +127.  The guide smooths the trace, converts it
to a distance with a log-distance path-loss model (plus a small learned
correction for the room), and decides whether the visitor is immediate / near /
far from the exhibit.
"""
import torch
import torch.nn as nn
from torch.export import Dim

IMMEDIATE, NEAR, FAR = 0, 1, 2


class RSSIProximity(nn.Module):
    def __init__(self, smoothing="ema", alpha=0.3, path_loss_n=2.2):
        super().__init__()
        self.smoothing = smoothing
        self.alpha = alpha
        self.n = path_loss_n
        self.floor_dbm = -100.0
        self.immediate_m, self.near_m = 0.5, 3.0
        self.room = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.register_buffer("zones", torch.tensor([IMMEDIATE, NEAR, FAR]))

    def forward(self, rssi, tx_power):
        invalid = rssi > 0
        if invalid.any():
            rssi = torch.where(invalid, torch.full_like(rssi, self.floor_dbm), rssi)

        smoothed = rssi
        if self.smoothing == "ema":
            smoothed = []
            s = rssi[0]
            for t in range(rssi.shape[0]):
                s = self.alpha * rssi[t] + (1 - self.alpha) * s
                smoothed.append(s)
            smoothed = torch.stack(smoothed)

        level = smoothed[-1]
        stats = torch.stack([level / 100.0, rssi.std() / 10.0, invalid.float().mean()])
        offset_db = 2.0 * torch.tanh(self.room(stats))[0]
        dist = 10.0 ** ((tx_power[0] - level + offset_db) / (10.0 * self.n))

        zone = self.zones[0] if dist < self.immediate_m else (self.zones[1] if dist < self.near_m else self.zones[2])
        return zone, dist, smoothed


def model():
    torch.manual_seed(21)
    return RSSIProximity().eval()


def _gen_trace(n, level, seed, drop_every=0):
    g = torch.Generator().manual_seed(seed)
    x = level + 2.0 * torch.randn(n, generator=g)
    if drop_every:
        x[::drop_every] = 127.0
    return x


def example_inputs():
    return _gen_trace(20, -65.0, 0), torch.tensor([-59.0])


def dynamic_shapes():
    return ({0: Dim("samples", min=2, max=256)}, None)


def verify_inputs():
    return [
        example_inputs(),                                        # ~2 m -> NEAR, no dropouts
        (_gen_trace(40, -48.0, 1), torch.tensor([-59.0])),      # strong signal -> IMMEDIATE
        (_gen_trace(60, -85.0, 2), torch.tensor([-59.0])),      # weak -> FAR
        (_gen_trace(30, -66.0, 3, drop_every=4), torch.tensor([-59.0])),  # +127 dropouts replaced by floor -> FAR
        (_gen_trace(2, -90.0, 4), torch.tensor([-62.0])),       # two samples only -> FAR
    ]
