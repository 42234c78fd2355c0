"""Mars rover sol planner: greedily execute science tasks by priority while the battery allows.

Kind X. Constructs: 1, 3, 4, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class SolPlanner(nn.Module):
    def __init__(self, reserve_wh=150.0):
        super().__init__()
        self.reserve = reserve_wh
        self.value = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, tasks, battery, air_temp):
        # tasks: (K, 4) = energy Wh, duration h, priority (distinct), needs_heater (0/1)
        # battery: (1,) Wh available; air_temp: (1,) degC
        k = tasks.shape[0]
        done = torch.zeros(k)
        tried = torch.zeros(k, dtype=torch.bool)
        energy = battery[0]
        trace = [energy]
        while energy > self.reserve and not tried.all():
            prio = tasks[:, 2].masked_fill(tried, -1.0)
            i = prio.argmax()
            tried[i] = True
            cost = tasks[i, 0]
            if tasks[i, 3] > 0.5 and air_temp[0] < -70.0:
                cost = cost + 40.0  # heater warm-up
            if energy - cost < self.reserve:
                continue  # would dip into the survival reserve: skip this task
            energy = energy - cost
            done[i] = 1.0
            trace.append(energy)
        sci = (self.value(tasks / 100.0).squeeze(-1) * done).sum()
        return done, torch.stack(trace), sci


def model():
    torch.manual_seed(205)
    return SolPlanner().eval()


def _tasks(rows):
    return torch.tensor(rows, dtype=torch.float32)


T5 = [[120.0, 1.0, 5.0, 1.0], [60.0, 0.5, 3.0, 0.0], [300.0, 2.0, 9.0, 0.0], [45.0, 0.3, 1.0, 1.0], [80.0, 1.5, 7.0, 0.0]]


def example_inputs():
    return _tasks(T5), torch.tensor([500.0]), torch.tensor([-60.0])


def dynamic_shapes():
    return ({0: Dim("tasks", min=2, max=24)}, None, None)


def verify_inputs():
    many = [[20.0 + 3 * i, 0.5, float(i), float(i % 2)] for i in range(24)]
    return [
        example_inputs(),                                         # runs the 300 Wh task, skips three (reserve), runs the last
        (_tasks(T5), torch.tensor([140.0]), torch.tensor([-60.0])),  # below reserve already: loop runs 0 times
        (_tasks(many), torch.tensor([2000.0]), torch.tensor([-80.0])),  # cold: heater costs, all tasks tried
        (_tasks(T5[:2]), torch.tensor([1000.0]), torch.tensor([-80.0])),  # two tasks, both done, heater on first
    ]
