"""Technical diving: gas planning for a cave penetration with the rule of thirds.

A small model predicts the diver's surface air consumption (SAC) from fitness,
experience, water temperature and workload. The planned profile (one depth per
minute) is walked minute by minute; gas is drawn from the cylinders in order
(stages first, then the back-mounted set), each down to its turn pressure (two
thirds left, three quarters on deep dives). Shallow minutes at the entrance are
not counted. When every cylinder is at its turn pressure the dive is turned.
"""
import torch
import torch.nn as nn


class SacModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, diver):
        return 12.0 + 10.0 * torch.sigmoid(self.mlp(diver)).squeeze(-1)  # litres/min at the surface


class GasTurnPlanner(nn.Module):
    def __init__(self, deep_m=40.0, entrance_m=3.0, stage_task_loading=1.1):
        super().__init__()
        self.sac = SacModel()
        self.deep_m = deep_m
        self.entrance_m = entrance_m
        self.stage_task_loading = stage_task_loading

    def forward(self, depth_m, cylinders, diver):
        sac = self.sac(diver)
        if cylinders.shape[0] > 2:
            sac = sac * self.stage_task_loading  # handling stage bottles costs gas
        usable_fraction = 0.25 if depth_m.max() > self.deep_m else 1.0 / 3.0

        volume = cylinders[:, 0]
        gas = [cylinders[c, 0] * cylinders[c, 1] for c in range(cylinders.shape[0])]  # litres
        reserve = [(1.0 - usable_fraction) * g for g in gas]

        cyl = 0
        turn_minute = depth_m.shape[0]
        deepest = torch.zeros(())
        for minute in range(depth_m.shape[0]):
            depth = depth_m[minute]
            if depth < self.entrance_m:
                continue  # swimming in the open entrance pool
            deepest = torch.maximum(deepest, depth)
            need = sac * (depth / 10.0 + 1.0)
            while need > 0 and cyl < len(gas):
                take = torch.minimum(need, gas[cyl] - reserve[cyl])
                gas[cyl] = gas[cyl] - take
                need = need - take
                if need > 0:
                    cyl += 1  # this cylinder is at its turn pressure, switch (drop the stage)
            if need > 0:
                turn_minute = minute
                break

        pressures = torch.stack(gas) / volume
        return torch.tensor(turn_minute), pressures, deepest, sac


def model():
    torch.manual_seed(13)
    return GasTurnPlanner().eval()


def _dive(profile, cylinders, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.tensor(profile), torch.tensor(cylinders), torch.randn(4, generator=g)


def example_inputs():
    profile = [1.0, 2.0, 8.0, 15.0, 18.0, 21.0] + [22.0] * 24
    return _dive(profile, [[11.0, 200.0], [12.0, 230.0], [12.0, 230.0]], 1)


def dynamic_shapes():
    t = torch.export.Dim("minutes", min=4, max=120)
    c = torch.export.Dim("cylinders", min=2, max=6)
    return ({0: t}, {0: c}, None)


def verify_inputs():
    return [
        example_inputs(),
        # ^ entrance minutes skipped; stage then doubles drawn down; plan finishes before thirds are reached
        _dive([2.0] * 4 + [30.0] * 116, [[7.0, 200.0]] * 6, 2),
        # ^ max minutes and cylinders: stages emptied to thirds one after another, turn when the last one hits thirds
        _dive([5.0, 10.0, 12.0, 12.0], [[12.0, 230.0], [12.0, 230.0]], 3),
        # ^ min minutes, twins only: short dive, no turn
        _dive([10.0, 25.0, 45.0] + [48.0] * 57, [[12.0, 232.0], [12.0, 232.0]], 4),
        # ^ deep -> quarters; turn inside the while loop when the second cylinder runs out
        _dive([4.0, 12.0] + [15.0] * 40, [[11.0, 100.0], [12.0, 220.0], [12.0, 220.0]], 5),
        # ^ half-full stage: thirds reached mid-minute, the rest of that minute comes from the doubles
    ]
