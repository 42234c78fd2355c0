"""Drone flight controller advisor: land now, return to home, or continue the mission."""
import torch
import torch.nn as nn
import torch.nn.functional as F

LAND, RETURN_HOME, CONTINUE = 0, 1, 2


class EnergyModel(nn.Module):
    """Battery % needed to fly home: learned base cost per km times a wind penalty."""

    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, dist_km, wind_ms, payload_kg):
        base = F.softplus(self.mlp(torch.stack([dist_km, wind_ms, payload_kg]))).squeeze(-1) + 3.0
        if wind_ms > 8.0:
            factor = 1.6
        elif wind_ms > 4.0:
            factor = 1.25
        else:
            factor = 1.0
        return base * dist_km * factor + 4.0


class DroneReturnHomeAdvisor(nn.Module):
    def __init__(self, hard_reserve=12.0, rth_margin=10.0, gust_limit=13.0, metric=True):
        super().__init__()
        self.energy = EnergyModel()
        self.hard_reserve = hard_reserve
        self.rth_margin = rth_margin
        self.gust_limit = gust_limit
        self.metric = metric
        self.register_buffer("actions", torch.eye(3))

    def forward(self, telemetry):
        battery, dist, wind, payload, link = telemetry.unbind(0)
        if not self.metric:  # static
            dist = dist * 1.609
        if battery < self.hard_reserve:
            return self.actions[LAND], battery - self.hard_reserve
        needed = self.energy(dist, wind, payload)
        margin = battery - needed
        if wind > self.gust_limit or (link < 0.5 and dist > 1.0):
            action = RETURN_HOME
        elif margin < self.rth_margin:
            action = RETURN_HOME
        else:
            action = CONTINUE
        return self.actions[action], margin


def model():
    torch.manual_seed(0)
    return DroneReturnHomeAdvisor().eval()


def example_inputs():
    # battery %, distance to home km, wind m/s, payload kg, radio link ok (1/0)
    return (torch.tensor([78.0, 2.4, 5.2, 0.8, 1.0]),)


def verify_inputs():
    return [
        (torch.tensor([9.5, 0.6, 3.0, 0.0, 1.0]),),     # below hard reserve: land
        (torch.tensor([64.0, 3.1, 14.5, 0.5, 1.0]),),   # gusts: go home
        (torch.tensor([55.0, 2.2, 2.1, 1.2, 0.0]),),    # lost link far away: go home
        (torch.tensor([31.0, 4.5, 9.3, 1.5, 1.0]),),    # weak battery in strong wind: not enough margin
    ]
