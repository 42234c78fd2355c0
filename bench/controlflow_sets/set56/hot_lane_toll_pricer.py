"""Dynamic toll for a high-occupancy/toll (express) lane corridor.

Every 5 minutes the pricing engine reads the loop detectors along the express
lanes (speed mph, occupancy fraction, volume veh/h/lane), drops detectors that
report garbage, computes the worst density and moves the toll one step up or
down.  The operating agreement forces an extra increase whenever any express
lane detector is below 45 mph.  A small network forecasts each detector's
density 15 minutes ahead for the operator dashboard.
"""
import torch
import torch.nn as nn


class HotLaneTollPricer(nn.Module):
    def __init__(self):
        super().__init__()
        self.forecast = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 1))
        self.min_toll = 0.50
        self.max_toll = 14.00
        self.degraded_mph = 45.0

    def forward(self, detectors, current_toll):
        # detectors: (D, 3) speed, occupancy, volume; current_toll: (1,) dollars
        densities = []
        speeds = []
        for i in range(detectors.shape[0]):
            spd, occ, vol = detectors[i, 0], detectors[i, 1], detectors[i, 2]
            if spd <= 0 or occ > 1.0:
                continue   # stuck or miswired loop
            densities.append(vol / spd)
            speeds.append(spd)
        if len(densities) == 0:
            # no usable detector: keep the posted toll
            return current_toll, torch.zeros(detectors.shape[0])

        dens = torch.stack(densities)
        worst = dens.max()
        step = torch.zeros(1)
        if worst > 45.0:        # LOS F
            step = torch.tensor([0.75])
        elif worst > 30.0:      # LOS D/E
            step = torch.tensor([0.25])
        elif worst < 18.0:      # free flow
            step = torch.tensor([-0.25])
        if torch.stack(speeds).min() < self.degraded_mph:
            step = step + 0.50
        toll = (current_toll + step).clamp(self.min_toll, self.max_toll)

        scaled = detectors / torch.tensor([70.0, 1.0, 2000.0])
        ahead = torch.relu(detectors[:, 2] / detectors[:, 0].clamp(min=5.0)
                           + 5.0 * self.forecast(scaled).squeeze(-1))
        return toll, ahead


def model():
    torch.manual_seed(5604)
    return HotLaneTollPricer().eval()


def _corridor(n, speed, occ, vol, seed):
    g = torch.Generator().manual_seed(seed)
    u = torch.rand(n, 3, generator=g) - 0.5
    return torch.stack([speed + 4.0 * u[:, 0], occ + 0.04 * u[:, 1], vol + 100.0 * u[:, 2]], dim=1)


def example_inputs():
    return (_corridor(10, 60.0, 0.12, 1500.0, 1), torch.tensor([3.25]))


def dynamic_shapes():
    d = torch.export.Dim("detectors", min=2, max=120)
    return ({0: d}, None)


def verify_inputs():
    jam = _corridor(6, 38.0, 0.35, 1900.0, 2)
    faulty = _corridor(2, 60.0, 0.1, 1200.0, 3)
    faulty[0, 0] = 0.0        # stuck at zero speed
    faulty[1, 1] = 1.7        # occupancy > 100 %
    mixed = _corridor(120, 66.0, 0.06, 900.0, 4)
    mixed[7, 0] = -1.0        # one dead loop among many
    moderate = _corridor(5, 58.0, 0.14, 1800.0, 5)
    return [
        # 10 detectors, density ~25 veh/mi -> no step, no degradation
        example_inputs(),
        # 6 detectors at 38 mph, density 50 -> +0.75 and degraded +0.50
        (jam, torch.tensor([6.00])),
        # min 2 detectors, both faulty (continue twice) -> early return with posted toll
        (faulty, torch.tensor([2.75])),
        # max 120 detectors, one dead (continue), density ~14 -> -0.25, clamped at min toll
        (mixed, torch.tensor([0.60])),
        # 5 detectors, density ~31 -> +0.25
        (moderate, torch.tensor([13.90])),
    ]
