"""Rugby union lineout caller: scores front / middle / back pods from the jumper
pods' stats and how heavily the opposition is contesting each slot, then applies
the coach's match-situation rules (wind, attacking 5 m lineout, chasing a score)."""
import torch
import torch.nn as nn
from torch.export import Dim


class ContestPressure(nn.Module):
    """How strongly the opposition can contest each throw-in slot."""

    def __init__(self, slot_positions, radius):
        super().__init__()
        self.register_buffer("slot_pos_m", torch.tensor(slot_positions))
        self.radius = radius

    def forward(self, defenders):
        pressure = []
        for s in range(self.slot_pos_m.shape[0]):
            p = torch.zeros(())
            for k in range(defenders.shape[0]):
                d = (defenders[k, 0] - self.slot_pos_m[s]).abs()
                if d > self.radius:
                    continue
                lift = 1.0 + defenders[k, 2]  # lifted jumpers contest much harder
                p = p + defenders[k, 1] / 2.0 * (1.0 - d / self.radius) * lift
            pressure.append(p)
        return torch.stack(pressure)


class LineoutCaller(nn.Module):
    def __init__(self):
        super().__init__()
        self.pod_encoder = nn.Linear(4, 16)
        self.scorer = nn.Linear(16 + 2, 1)
        self.contest = ContestPressure([6.0, 10.0, 14.0], radius=2.5)
        self.register_buffer("wind_penalty", torch.tensor([0.0, 0.5, 2.0]))
        self.strong_wind_ms = 8.0

    def forward(self, pods, defenders, conditions):
        # pods: [3, 4] jumper height, lifter strength, catch success rate, fatigue
        # defenders: [K, 3] position along the line (m), height (m), lifted 0/1
        # conditions: [3] wind m/s, score difference, metres to opposition try line
        enc = torch.relu(self.pod_encoder(pods))
        pressure = self.contest(defenders)
        logits = self.scorer(torch.cat([enc, pressure[:, None], pods[:, 2:3]], 1)).squeeze(1) - pressure
        wind, score_diff, to_line = conditions[0], conditions[1], conditions[2]
        if wind > self.strong_wind_ms and not pressure[2] < 0.5:
            logits = logits - self.wind_penalty
        if to_line < 5.0:
            call = torch.argmax(logits[:2])  # attacking maul: front/middle only
        elif score_diff < -7 and to_line < 22:
            call = torch.argmax(logits + pods[:, 0])  # chasing the game: go to the tallest option
        else:
            call = torch.argmax(logits)
        return call, torch.softmax(logits, 0)


def model():
    torch.manual_seed(5205)
    return LineoutCaller().eval()


def _pods(seed):
    g = torch.Generator().manual_seed(seed)
    return torch.stack([1.95 + 0.1 * torch.rand(3, generator=g), torch.rand(3, generator=g),
                        0.7 + 0.25 * torch.rand(3, generator=g), torch.rand(3, generator=g)], 1)


def _defenders(k, seed, lo=3.0, hi=17.0):
    g = torch.Generator().manual_seed(seed)
    pos = lo + (hi - lo) * torch.rand(k, generator=g)
    height = 1.9 + 0.15 * torch.rand(k, generator=g)
    lifted = (torch.rand(k, generator=g) > 0.5).float()
    return torch.stack([pos, height, lifted], 1)


def example_inputs():
    return _pods(1), _defenders(6, 1), torch.tensor([3.0, 0.0, 40.0])


def dynamic_shapes():
    return None, {0: Dim("defenders", min=2, max=16)}, None


def verify_inputs():
    return [
        example_inputs(),                                                      # calm, mid-field -> plain argmax
        (_pods(2), _defenders(16, 2), torch.tensor([11.0, 3.0, 30.0])),        # max defenders, strong wind & back contested -> penalty
        (_pods(3), _defenders(2, 3, 5.0, 7.0), torch.tensor([12.0, 0.0, 3.0])),  # min defenders, front only (back uncontested: `not` false), 5 m maul
        (_pods(4), _defenders(5, 4, 30.0, 40.0), torch.tensor([2.0, -10.0, 15.0])),  # defenders all out of range (continue); chasing a score
        (_pods(5), _defenders(8, 5), torch.tensor([4.0, -10.0, 35.0])),        # behind but far out -> plain argmax
    ]
