"""Sensor-based ore sorting with an air-jet ejector (mining) (kind X).

Rocks pass one by one under an XRF / NIR sensor (N, F) and their sizes (N,) in cm are
measured.  A grade model (physics prior on the Cu-K line + learned residual) gives the
probability that a rock is ore.  A state machine then walks the belt with a while loop
whose condition depends on the ejector's air-tank pressure (tensor state): ore is
accepted, small waste rocks are blown off (which costs air in proportion to size),
ambiguous or oversize rocks are recirculated.  A long run of waste stops the belt
(break).  The tank recharges a little every rock.

constructs: 1 (if/elif/else on tensors), 2 (variable assigned in one branch only),
            3 (and / not on tensor predicates), 4 (while with tensor condition and
            loop-carried tensor state), 6 (break on a streak driven by tensor conditions)
"""
import torch
import torch.nn as nn

ACCEPT, EJECT, RECIRCULATE, NOT_SEEN = 1.0, 0.0, 2.0, -1.0


class OreSorter(nn.Module):
    def __init__(self, n_feat=8, cu_cutoff=0.5, tank_bar=6.0, min_bar=4.0, eject_bar_per_cm=0.15,
                 recharge_bar=0.1, max_waste_streak=4, max_eject_cm=12.0):
        super().__init__()
        self.residual = nn.Sequential(nn.Linear(n_feat, 32), nn.ReLU(), nn.Linear(32, 1))
        self.cu_cutoff = cu_cutoff
        self.tank_bar = tank_bar
        self.min_bar = min_bar
        self.eject_bar_per_cm = eject_bar_per_cm
        self.recharge_bar = recharge_bar
        self.max_waste_streak = max_waste_streak
        self.max_eject_cm = max_eject_cm

    def forward(self, rocks, sizes, tank):
        n = rocks.shape[0]
        logit = 8.0 * (rocks[:, 0] - self.cu_cutoff) + 0.3 * torch.tanh(self.residual(rocks).squeeze(1))
        p_ore = torch.sigmoid(logit)

        decisions = torch.full((n,), NOT_SEEN)
        pressure = tank.reshape(())
        i = 0
        waste_streak = 0
        while i < n and pressure > self.min_bar:
            if p_ore[i] > 0.7:
                decisions[i] = ACCEPT
                waste_streak = 0
            elif p_ore[i] < 0.3 and not sizes[i] > self.max_eject_cm:
                decisions[i] = EJECT
                pressure = pressure - self.eject_bar_per_cm * sizes[i]
                waste_streak += 1
            else:
                decisions[i] = RECIRCULATE
            i += 1
            if waste_streak >= self.max_waste_streak:
                break
            pressure = torch.clamp(pressure + self.recharge_bar, max=self.tank_bar)

        stopped = torch.zeros(())
        if pressure <= self.min_bar:
            stopped = torch.ones(())
        return decisions, pressure, stopped


def model():
    torch.manual_seed(312)
    return OreSorter().eval()


def _belt(cu, sizes, tank, seed=0):
    g = torch.Generator().manual_seed(seed)
    n = len(cu)
    rocks = torch.rand(n, 8, generator=g)
    rocks[:, 0] = torch.tensor(cu)
    return rocks, torch.tensor(sizes, dtype=torch.float32), torch.tensor([tank])


def example_inputs():
    # ore, waste, ambiguous, oversize waste, ore, waste
    return _belt([0.9, 0.1, 0.5, 0.05, 0.8, 0.2], [5, 4, 6, 15, 7, 3], 6.0)


def dynamic_shapes():
    rocks = torch.export.Dim("rocks", min=2, max=512)
    return ({0: rocks}, {0: rocks}, None)


def verify_inputs():
    return [
        example_inputs(),                                                   # all three branches, whole belt processed
        _belt([0.9, 0.1], [5, 4], 3.5),                                     # tank already below minimum: loop runs 0 times
        _belt([0.1, 0.1, 0.1, 0.1, 0.9, 0.9, 0.9], [3, 3, 3, 3, 3, 3, 3], 6.0),  # 4 waste in a row: break (belt stopped)
        _belt([0.1, 0.9, 0.1, 0.8, 0.1, 0.05, 0.9, 0.1], [10, 2, 11, 2, 10, 9, 3, 8], 6.0),  # big ejections drain the tank: loop exits on pressure
        _belt([0.95, 0.9, 0.85], [4, 5, 6], 4.05),                          # tank just above min: loop runs, every rock accepted
    ]
