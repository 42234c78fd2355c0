"""Adaptive cruise control: keep a time-headway gap to the lead vehicle.

Simulates the ego vehicle over the lead vehicle's speed log (dt = 0.5 s).  The controller
brakes when the gap is shorter than desired and closing, accelerates toward the set speed
when the road ahead is clear, and otherwise tracks the gap proportionally.  The run ends
early when the lead vehicle leaves the lane (control handed back to the driver) or when the
gap falls below the safety minimum (emergency stop).
"""
import torch
from torch import nn

DT = 0.5


class AdaptiveCruiseGapKeeper(nn.Module):
    def __init__(self, set_speed=30.0, headway=1.8, standstill=4.0, min_gap=2.0):
        super().__init__()
        self.set_speed = set_speed
        self.headway = headway
        self.standstill = standstill
        self.min_gap = min_gap
        self.k_gap = nn.Parameter(torch.tensor(0.15))
        self.k_speed = nn.Parameter(torch.tensor(0.4))

    def forward(self, lead_speed, lead_present, init):
        # lead_speed: [T] m/s, lead_present: [T] bool, init: [2] = initial gap m, ego speed m/s
        gap, v = init[0], init[1]
        speeds = [v]
        gaps = [gap]
        status = 0
        for t in range(lead_speed.shape[0]):
            if not lead_present[t]:
                status = 1
                break
            vl = lead_speed[t]
            desired = self.standstill + self.headway * v
            if gap < desired and v > vl + 1.0:
                accel = torch.clamp(self.k_gap * (gap - desired) + self.k_speed * (vl - v), min=-6.0)
            elif gap > desired + 15.0 and v < self.set_speed:
                accel = torch.full((), 1.5)
            else:
                accel = torch.clamp(self.k_gap * (gap - desired) + self.k_speed * (vl - v), -3.0, 1.5)
            v_new = torch.clamp(v + accel * DT, min=0.0)
            gap = gap + (vl - 0.5 * (v + v_new)) * DT
            v = v_new
            speeds.append(v)
            gaps.append(gap)
            if gap < self.min_gap:
                return torch.stack(speeds), torch.stack(gaps), torch.tensor(2)
        return torch.stack(speeds), torch.stack(gaps), torch.tensor(status)


def model():
    torch.manual_seed(0)
    return AdaptiveCruiseGapKeeper().eval()


def _make(profile, init, seed, leave_at=None):
    g = torch.Generator().manual_seed(seed)
    speed = torch.tensor(profile) + 0.3 * torch.rand(len(profile), generator=g)
    present = torch.ones(len(profile), dtype=torch.bool)
    if leave_at is not None:
        present[leave_at:] = False
    return speed, present, torch.tensor(init)


def example_inputs():
    return _make([25.0] * 10 + [20.0] * 10, [50.0, 27.0], 5)


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=2, max=200)
    return ({0: steps}, {0: steps}, None)


def verify_inputs():
    return [
        # open road: far lead, accelerate toward the set speed, then follow
        _make([28.0] * 30, [120.0, 20.0], 1),
        # lead brakes hard to a stop -> emergency
        _make([20.0, 12.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0], [12.0, 22.0], 2),
        # lead changes lane after a while
        _make([22.0] * 12, [40.0, 22.0], 3, leave_at=6),
        # lead gone immediately
        _make([22.0] * 4, [40.0, 22.0], 4, leave_at=0),
        example_inputs(),
    ]
