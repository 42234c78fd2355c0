"""Airport stand allocation for a day's schedule: flights in arrival order,
gates tried nearest-first, wide-bodies only on wide-capable gates, a minimum
turnaround buffer, remote stands when nothing fits, and a learned score for
passenger walking comfort of the resulting plan.

Kind X. Constructs: 1, 2, 3, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def gates_by_distance(gates):
    return torch.argsort(gates[:, 1])


def first_free_gate(flight, gates, order, free_at, buffer):
    """Index of the nearest gate that can take the flight, or -1."""
    for j in range(order.shape[0]):
        g = order[j]
        if flight[2] > 0.5 and gates[g, 0] < 0.5:
            continue  # wide-body cannot use a narrow stand
        if free_at[g] + buffer <= flight[0]:
            return g
    return -1


class GateAssigner(nn.Module):
    def __init__(self, buffer_min=12.5):
        super().__init__()
        self.buffer = buffer_min
        self.comfort = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, flights, gates):
        # flights: [F, 3] (arrival min, departure min, is_widebody)
        # gates:   [G, 2] (wide_capable, walking distance m)
        order = gates_by_distance(gates)
        free_at = torch.full((gates.shape[0],), -1e4)
        by_arrival = torch.argsort(flights[:, 0])
        assignment = torch.full((flights.shape[0],), -1.0)
        walk = torch.zeros(())
        remote = torch.zeros(())
        invalid = torch.zeros(())
        for k in range(flights.shape[0]):
            i = by_arrival[k]
            f = flights[i]
            if f[1] <= f[0]:
                assignment[i] = -2.0  # corrupt schedule row
                invalid = invalid + 1
                continue
            g = first_free_gate(f, gates, order, free_at, self.buffer)
            if g < 0:
                remote = remote + 1  # bus the passengers from a remote stand
                walk = walk + 800.0
            else:
                assignment[i] = g.float()
                free_at[g] = f[1]
                walk = walk + gates[g, 1]
        n = flights.shape[0]
        feats = torch.stack([walk / (300.0 * n), remote / n, invalid / n])
        return assignment, torch.sigmoid(self.comfort(feats)).squeeze()


def model():
    torch.manual_seed(16)
    return GateAssigner().eval()


def _gates(spec):
    # spec: list of (wide_capable, distance)
    return torch.tensor(spec, dtype=torch.float32)


GATES_4 = _gates([(1.0, 420.0), (0.0, 120.0), (0.0, 260.0), (1.0, 90.0)])


def example_inputs():
    flights = torch.tensor([
        [360.0, 420.0, 0.0],
        [365.0, 440.0, 1.0],
        [370.0, 415.0, 0.0],
        [375.0, 470.0, 1.0],
        [380.0, 430.0, 0.0],
        [395.0, 460.0, 1.0],
        [440.0, 500.0, 0.0],
        [450.0, 445.0, 0.0],
    ])
    return flights, GATES_4


def dynamic_shapes():
    return ({0: Dim("flights", min=2, max=128)}, {0: Dim("gates", min=2, max=32)})


def _busy_day(n_flights, n_gates):
    k = torch.arange(n_flights, dtype=torch.float32)
    arr = 300.0 + 10.0 * k
    dep = arr + 45.0 + 20.0 * (k % 4)
    wide = (k % 5 == 0).float()
    flights = torch.stack([arr, dep, wide], dim=1)
    j = torch.arange(n_gates, dtype=torch.float32)
    gates = torch.stack([(j % 3 == 0).float(), 50.0 + 37.0 * j], dim=1)
    return flights, gates


def verify_inputs():
    return [
        example_inputs(),  # wide-bodies skip narrow gates, gates reused after buffer, 1 remote, 1 corrupt row
        (torch.tensor([[600.0, 650.0, 0.0], [500.0, 560.0, 0.0]]), _gates([(0.0, 100.0), (0.0, 50.0)])),  # min sizes; out-of-order arrivals, nearest gate each time
        (torch.tensor([[600.0, 700.0, 1.0], [610.0, 700.0, 1.0], [620.0, 690.0, 0.0]]),
         _gates([(0.0, 100.0), (0.0, 50.0)])),  # no wide gate: both wide-bodies remote after skipping every gate
        _busy_day(128, 32),  # max sizes: long scan over gates, many reuses
        _busy_day(40, 3),  # tiny airport: frequent remote stands
    ]
