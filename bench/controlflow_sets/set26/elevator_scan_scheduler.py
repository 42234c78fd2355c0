"""SCAN (elevator algorithm) stop scheduling for a single elevator car.

Floors with waiting passengers are served in SCAN order: the car first heads towards
the side with more calls, keeps its direction while calls remain ahead and reverses
when none do.  A learned model predicts the door dwell time at each stop from the
number of people boarding and the car's load; travel takes a fixed time per floor.
Returns the stop sequence (data-dependent length) and the time to serve all calls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ElevatorScheduler(nn.Module):
    def __init__(self, floor_time=1.5, boarding_load=0.08):
        super().__init__()
        self.dwell = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.floor_time = floor_time
        self.boarding_load = boarding_load

    def dwell_time(self, n_boarding, load):
        n = n_boarding.float().reshape(1)
        return 2.0 + F.softplus(self.dwell(torch.cat([n / 5.0, load, load * n])))

    def forward(self, waiting, start_floor, car_load):
        pending = waiting > 0
        if not pending.any():
            return torch.zeros(0, dtype=torch.long), torch.zeros(1)
        pos = int(start_floor[0])
        stops = []
        clock = torch.zeros(1)
        load = car_load
        if pending[pos]:
            # people waiting at the car's own floor board right away
            pending[pos] = False
            stops.append(pos)
            clock = clock + self.dwell_time(waiting[pos], load)
            load = load + self.boarding_load * waiting[pos]
        above = int(pending[pos + 1:].sum())
        below = int(pending[:pos].sum())
        direction = 1 if above >= below else -1
        while pending.any():
            ahead = pending[pos + 1:] if direction > 0 else pending[:pos]
            if not ahead.any():
                direction = -direction
                continue
            calls = torch.nonzero(ahead)
            nxt = pos + 1 + int(calls[0, 0]) if direction > 0 else int(calls[-1, 0])
            clock = clock + self.floor_time * abs(nxt - pos)
            pos = nxt
            pending[pos] = False
            stops.append(pos)
            clock = clock + self.dwell_time(waiting[pos], load)
            load = load + self.boarding_load * waiting[pos]
        return torch.tensor(stops), clock


def model():
    torch.manual_seed(0)
    return ElevatorScheduler().eval()


def _calls(n_floors, calls, start, load=0.2):
    waiting = torch.zeros(n_floors, dtype=torch.long)
    for floor, people in calls.items():
        waiting[floor] = people
    return waiting, torch.tensor([start]), torch.tensor([load])


def example_inputs():
    return _calls(8, {1: 2, 5: 1, 6: 4}, 3)


def dynamic_shapes():
    return ({0: torch.export.Dim("floors", min=2, max=200)}, None, None)


def verify_inputs():
    return [
        _calls(6, {}, 2),                                   # no calls at all
        _calls(5, {2: 3}, 2, load=0.5),                     # only the car's own floor
        _calls(4, {3: 1}, 0),                               # one trip up
        _calls(10, {1: 2, 6: 1, 8: 5, 2: 1}, 4),            # up first (tie), then reverse down
        _calls(12, {0: 1, 1: 3, 7: 2, 5: 1}, 5, load=0.6),  # more calls below: down first, then up
    ]
