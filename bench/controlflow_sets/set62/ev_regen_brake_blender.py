"""Electric-vehicle brake blending: regenerative vs friction torque.

Given the recent brake-pedal history and the vehicle state (speed, battery
state of charge, battery temperature) the controller splits the driver's
brake-torque demand between the motor (regeneration) and the friction brakes.
A learned comfort model proposes the regen share; a rule-based helper limits
it for a full or frozen battery, derates it for cold cells and fades it out
at crawling speed. Panic stops go entirely to the friction brakes / ABS.

Kind: T.  Constructs: 1, 2, 3, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class RegenBrakeBlender(nn.Module):
    def __init__(self, max_total_nm=2400.0, max_regen_nm=900.0):
        super().__init__()
        self.split_net = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))
        self.max_total_nm = max_total_nm
        self.max_regen_nm = max_regen_nm

    def regen_limit(self, speed_kph, soc, temp_c):
        if soc > 0.95 or temp_c < 0.0:
            # battery cannot accept charge
            return torch.zeros(())
        limit = self.max_regen_nm * torch.clamp(speed_kph / 15.0, max=1.0)
        if temp_c < 10.0:
            limit = limit * 0.5  # cold cells: derate charge current
        return limit

    def forward(self, pedal_history, vehicle):
        # pedal_history: [T] pedal travel in [0, 1], oldest first
        # vehicle: [3] = (speed km/h, state of charge, battery temp C)
        speed, soc, temp = vehicle[0], vehicle[1], vehicle[2]
        pedal = pedal_history[-1]
        pedal_rate = (pedal_history[-1] - pedal_history[0]) / pedal_history.shape[0]
        demand = pedal * self.max_total_nm

        if pedal > 0.8 and pedal_rate > 0.05:
            # panic stop: everything to friction brakes so ABS can modulate
            regen = torch.zeros(())
        else:
            feats = torch.stack([pedal, 10.0 * pedal_rate, speed / 100.0, soc, temp / 40.0])
            share = torch.sigmoid(self.split_net(feats)).squeeze()
            regen = torch.minimum(demand * share, self.regen_limit(speed, soc, temp))
        friction = demand - regen
        return torch.stack([regen, friction])


def model():
    torch.manual_seed(625)
    return RegenBrakeBlender().eval()


def _case(pedal_start, pedal_end, steps, speed, soc, temp):
    return (torch.linspace(pedal_start, pedal_end, steps), torch.tensor([speed, soc, temp]))


def example_inputs():
    return _case(0.1, 0.3, 10, 60.0, 0.6, 25.0)


def dynamic_shapes():
    return ({0: Dim("ticks", min=2, max=50)}, None)


def verify_inputs():
    return [
        example_inputs(),                       # gentle braking at 60 km/h, warm battery: learned share below the limit
        _case(0.0, 0.95, 6, 90.0, 0.6, 25.0),   # stamp on the pedal: panic stop, no regen
        _case(0.85, 0.9, 20, 90.0, 0.6, 25.0),  # held hard braking: pedal > 0.8 but slow rate -> blended, capped at regen limit
        _case(0.2, 0.4, 8, 50.0, 0.97, 25.0),   # full battery: early return of zero limit (first `or` operand)
        _case(0.2, 0.4, 2, 50.0, 0.5, -8.0),    # frozen battery: zero limit (second `or` operand)
        _case(0.2, 0.5, 12, 8.0, 0.5, 5.0),     # cold cells at crawl speed: derated and faded limit
    ]
