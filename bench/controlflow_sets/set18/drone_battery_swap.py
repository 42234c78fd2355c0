"""Drone fleet battery planner: a per-step state machine (FLY -> RETURN -> SWAP -> FLY) driven by a
learned discharge model over the mission's telemetry; stops early if the drone lands for good."""
import torch
from torch import nn

FLY, RETURN, SWAP, LANDED = 0, 1, 2, 3


class BatteryPlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.drain = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, telemetry, charge0):
        # telemetry: (T, 3) [wind, payload, distance_to_base]; charge0: (1,) in [0, 1]
        charge = charge0
        state = torch.tensor(FLY)
        swaps = torch.zeros((), dtype=torch.int64)
        states = []
        for t in range(telemetry.shape[0]):
            use = 0.05 + 0.02 * torch.sigmoid(self.drain(telemetry[t]))
            if state == FLY:
                charge = charge - use
                if charge.item() < 0.25 + 0.05 * telemetry[t, 2].item():
                    state = torch.tensor(RETURN)
            elif state == RETURN:
                charge = charge - 0.5 * use
                if telemetry[t, 2] < 0.5:
                    state = torch.tensor(SWAP)
                elif charge.item() < 0.05:
                    state = torch.tensor(LANDED)
            else:
                charge = torch.ones_like(charge)
                swaps = swaps + 1
                state = torch.tensor(FLY)
            states.append(state)
            if state == LANDED:
                break
        return torch.stack(states), charge, swaps


def model():
    torch.manual_seed(0)
    return BatteryPlanner().eval()


def _tel(dist):
    d = torch.tensor(dist, dtype=torch.float32)
    return torch.stack([torch.full_like(d, 0.3), torch.full_like(d, 0.5), d], dim=1)


def example_inputs():
    return (_tel([3.0] * 10 + [2.0, 1.0, 0.2, 0.2, 3.0, 3.0]), torch.tensor([0.9]))


def dynamic_shapes():
    return ({0: torch.export.Dim("steps", min=2, max=500)}, None)


def verify_inputs():
    return [
        (_tel([3.0] * 30), torch.tensor([0.6])),   # returns, never reaches base, lands
        (_tel([1.0] * 4), torch.tensor([1.0])),     # short hop, stays flying
    ]
