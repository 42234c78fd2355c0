"""E-bike automatic gear shifter.

Walks a ride log (cadence in rpm, road grade) sample by sample and decides the
gear for each sample, then estimates rider power with a small MLP.
"""
import torch
import torch.nn as nn

NUM_GEARS = 11
UPSHIFT_CADENCE = 95.0
DOWNSHIFT_CADENCE = 62.0
CLIMB_GRADE = 0.06


class PowerHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, feats):
        return self.net(feats).squeeze(-1)


class BikeGearShifter(nn.Module):
    def __init__(self, num_gears=NUM_GEARS, start_gear=5):
        super().__init__()
        self.num_gears = num_gears
        self.start_gear = start_gear
        self.power = PowerHead()
        self.register_buffer("ratios", torch.linspace(0.6, 2.4, num_gears))

    def forward(self, cadence, grade):
        # cadence: [T] rpm, grade: [T] slope (rise / run)
        gear = torch.tensor(self.start_gear)
        gears = []
        for t in range(cadence.shape[0]):
            c = cadence[t]
            g = grade[t]
            if c > UPSHIFT_CADENCE and gear < self.num_gears - 1:
                gear = gear + 1
            elif c < DOWNSHIFT_CADENCE or g > CLIMB_GRADE:
                if gear > 0:
                    gear = gear - 1
            gears.append(gear)
        gear_seq = torch.stack(gears)
        ratio = self.ratios[gear_seq]
        feats = torch.stack([cadence / 100.0, grade * 10.0, ratio, cadence * ratio / 100.0], dim=-1)
        watts = 150.0 + 50.0 * self.power(feats)
        return gear_seq, watts


def model():
    torch.manual_seed(0)
    return BikeGearShifter().eval()


def _ride(segments, seed):
    # segments: list of (n, cadence_lo, cadence_hi, grade_lo, grade_hi)
    g = torch.Generator().manual_seed(seed)
    cad, gr = [], []
    for n, clo, chi, glo, ghi in segments:
        cad.append(clo + (chi - clo) * torch.rand(n, generator=g))
        gr.append(glo + (ghi - glo) * torch.rand(n, generator=g))
    return torch.cat(cad), torch.cat(gr)


def example_inputs():
    return _ride([(6, 70.0, 90.0, -0.02, 0.03), (4, 98.0, 110.0, -0.03, 0.02)], 1)


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=512)
    return ({0: T}, {0: T})


def verify_inputs():
    return [
        # sprint: upshifts until the top gear, then blocked at the top
        _ride([(8, 100.0, 115.0, -0.02, 0.02), (5, 70.0, 90.0, -0.02, 0.03)], 2),
        # spinning out slowly, drop to the lowest gear and stay blocked there
        _ride([(9, 45.0, 58.0, -0.01, 0.03), (3, 70.0, 90.0, -0.02, 0.03)], 3),
        # climb: normal cadence but steep grade forces downshifts
        _ride([(4, 70.0, 90.0, 0.08, 0.12), (4, 98.0, 105.0, -0.03, 0.02)], 4),
        # two cruising samples: nothing happens
        _ride([(2, 70.0, 90.0, -0.02, 0.03)], 5),
    ]
