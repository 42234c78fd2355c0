"""Parking guidance system: send each arriving vehicle to the lowest level with enough free bays."""
import torch
import torch.nn as nn


class LevelRouter(nn.Module):
    def __init__(self):
        super().__init__()
        self.ev_levels = 1      # only the lowest level has chargers

    def forward(self, vehicle_bays, needs_charger, level_free, level_capacity):
        # vehicle_bays [N] int64 bays per vehicle (1 car, 2 van), needs_charger [N] bool,
        # level_free [L] int64, level_capacity [L] int64
        free = level_free.clone()
        assigned = []
        for i in range(vehicle_bays.shape[0]):
            if (free == 0).all():
                # garage full: everybody else is turned away
                assigned.append(torch.full((vehicle_bays.shape[0] - i,), -1, dtype=torch.int64))
                break
            need = vehicle_bays[i]
            level = 0
            while level < free.shape[0] and free[level] < need:
                level += 1
            if needs_charger[i] and not level < self.ev_levels:
                assigned.append(torch.full((1,), -1, dtype=torch.int64))
                continue
            if level == free.shape[0]:
                assigned.append(torch.full((1,), -1, dtype=torch.int64))
                continue
            free[level] = free[level] - need
            assigned.append(torch.full((1,), level, dtype=torch.int64))
        occupancy = 1.0 - free.float() / level_capacity.float()
        return torch.cat(assigned), occupancy


def model():
    return LevelRouter().eval()


def _case(bays, charger, free, cap):
    return (torch.tensor(bays, dtype=torch.int64), torch.tensor(charger),
            torch.tensor(free, dtype=torch.int64), torch.tensor(cap, dtype=torch.int64))


def example_inputs():
    return _case([1, 2, 1, 1], [False, True, False, False], [2, 3, 5], [10, 10, 10])


def dynamic_shapes():
    n = torch.export.Dim("vehicles", min=2, max=64)
    lv = torch.export.Dim("levels", min=2, max=8)
    return ({0: n}, {0: n}, {0: lv}, {0: lv})


def verify_inputs():
    return [
        _case([1, 1, 2, 1, 2], [False, False, False, True, False], [3, 4, 2], [20, 20, 20]),  # fills level 0 then climbs
        _case([2, 2, 1, 1, 1, 1], [False, False, False, False, False, False], [1, 2], [5, 5]),   # van rejected, garage fills up
        _case([1, 1, 1], [True, True, True], [1, 5], [8, 8]),                                    # EV turned away when chargers full
        _case([2, 1], [False, False], [0, 0], [6, 6]),                                           # already full
    ]
