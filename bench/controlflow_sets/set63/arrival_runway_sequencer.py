"""Arrival manager (AMAN) for a single runway with inspection closures.

Kind X.  Constructs: 1, 2, 3, 4, 5, 6, 7.
Flights are sequenced emergencies first, then by ETA.  Each landing slot
respects wake-turbulence separation behind the previous lander (helper with
branches on the categories) plus a learned runway-occupancy buffer, and is
pushed past runway closures with a `while` loop (closures may chain).  A
flight whose delay eats into its fuel reserve diverts (continue) unless it
is an emergency; too many diversions trigger a ground stop (break).
"""
import torch
import torch.nn as nn
from torch.export import Dim

FLIGHTS = Dim("flights", min=2, max=48)
CLOSURES = Dim("closures", min=2, max=8)
LIGHT, MEDIUM, HEAVY = 0, 1, 2


def wake_separation(leader, follower):
    # minutes between a leader and a follower of the given wake categories
    if leader == HEAVY and follower != HEAVY:
        return 6.0 if follower == LIGHT else 5.0
    elif leader == MEDIUM and follower == LIGHT:
        return 4.0
    return 3.0


def closure_hit(t, closures):
    return (t >= closures[:, 0]) & (t < closures[:, 1])


class ArrivalManager(nn.Module):
    def __init__(self, reserve_min=30.0, max_diversions=3, reopen_min=1.0):
        super().__init__()
        self.buffer = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.reserve = reserve_min
        self.reopen = reopen_min
        self.max_diversions = max_diversions

    def forward(self, flights, closures):
        # flights: (eta min, wake category, endurance min, emergency flag); closures: (start, end) min
        n = flights.shape[0]
        buffer = 0.5 * torch.sigmoid(self.buffer(flights / 60.0)).squeeze(-1)
        order = torch.argsort(flights[:, 0] - 1000.0 * flights[:, 3])
        slots = torch.full((n,), -1.0)
        diverted = torch.zeros(n)

        last_t, last_cat, n_div = None, None, 0
        for i in order.tolist():
            eta, cat = flights[i, 0], int(flights[i, 1].round())
            t = eta
            if last_t is not None:
                t = torch.maximum(eta, last_t + wake_separation(last_cat, cat) + buffer[i])
            while closure_hit(t, closures).any():
                # first slot: one minute after the runway reopens
                t = torch.where(closure_hit(t, closures), closures[:, 1] + self.reopen, t).max()
            if t - eta > flights[i, 2] - self.reserve and not flights[i, 3] > 0.5:
                diverted[i] = 1.0
                n_div += 1
                if n_div >= self.max_diversions:
                    break                                  # ground stop: stop sequencing
                continue
            slots[i] = t
            last_t, last_cat = t, cat
        return slots, diverted


def model():
    torch.manual_seed(63013)
    return ArrivalManager().eval()


def _case(flights, closures):
    return torch.tensor(flights, dtype=torch.float32), torch.tensor(closures, dtype=torch.float32)


def example_inputs():
    return _case(
        [[3.1, 1, 120, 0], [5.7, 2, 200, 0], [6.4, 1, 90, 0], [14.2, 0, 150, 0],
         [17.9, 2, 100, 0], [24.3, 2, 240, 0], [26.0, 0, 80, 0], [41.5, 1, 110, 0]],
        [[20.0, 30.0], [200.0, 210.0]])


def dynamic_shapes():
    return ({0: FLIGHTS}, {0: CLOSURES})


def verify_inputs():
    return [
        example_inputs(),                       # every wake-separation case; the 20-30 closure pushes a flight
        _case([[5.0, 1, 100, 0], [40.0, 1, 100, 0]], [[100.0, 110.0], [300.0, 320.0]]),
        # ^ no conflict at all: while loop never entered
        _case([[12.5, 0, 90, 0], [13.3, 1, 35, 0], [14.1, 2, 36, 1], [50.0, 1, 120, 0]],
              [[10.0, 20.0], [20.5, 25.0], [25.5, 31.0]]),
        # ^ chained closures (3 while turns); low-fuel flight diverts (continue); low-fuel emergency lands
        _case([[10.0, 1, 40, 0], [11.0, 1, 41, 0], [12.0, 0, 42, 0], [13.0, 1, 43, 0], [14.0, 2, 200, 0]],
              [[5.0, 60.0], [70.0, 75.0]]),
        # ^ long snow-clearing closure: three diversions -> ground stop (break), last two never sequenced
    ]
