"""Distribution substation: forecast feeder demand, shed lowest-priority feeders until under capacity."""
import torch
import torch.nn as nn


class LoadShedder(nn.Module):
    def __init__(self, n_features=6):
        super().__init__()
        self.forecast = nn.Sequential(nn.Linear(n_features, 16), nn.Tanh(), nn.Linear(16, 1))
        self.partial_fraction = 0.5

    def forward(self, base_load, features, protected, capacity):
        # base_load [N] kW, features [N, F], protected [N] bool (hospitals...), capacity [1] kW
        adjust = 1.0 + 0.2 * torch.tanh(self.forecast(features).squeeze(-1))
        demand = base_load * adjust
        served = torch.ones_like(demand)
        total = demand.sum()
        k = demand.shape[0] - 1          # feeders are ordered by priority, shed from the back
        while total > capacity[0] and k >= 0:
            if protected[k]:
                k -= 1
                continue
            excess = total - capacity[0]
            if excess < self.partial_fraction * demand[k]:
                # rolling brown-out on this feeder is enough
                served[k] = 1.0 - excess / demand[k]
                total = capacity[0]
                break
            else:
                served[k] = 0.0
                total = total - demand[k]
            k -= 1
        return served * demand, total


def model():
    torch.manual_seed(0)
    return LoadShedder().eval()


def _case(seed, n, protected_idx, capacity):
    g = torch.Generator().manual_seed(seed)
    base = 20.0 + 60.0 * torch.rand(n, generator=g)
    feats = torch.randn(n, 6, generator=g)
    prot = torch.zeros(n, dtype=torch.bool)
    for i in protected_idx:
        prot[i] = True
    return base, feats, prot, torch.tensor([float(capacity)])


def example_inputs():
    return _case(0, 6, [0], 200.0)


def dynamic_shapes():
    n = torch.export.Dim("feeders", min=2, max=32)
    return ({0: n}, {0: n}, {0: n}, None)


def verify_inputs():
    return [
        _case(1, 5, [0], 1000.0),           # under capacity: loop never runs
        _case(2, 8, [6], 300.0),            # protected feeder skipped, several full sheds
        _case(3, 6, [1], 20.0),             # cannot meet capacity: loop runs out of feeders
        _case(4, 4, [], 130.0),             # a single full shed is enough
        _case(5, 7, [2, 5], 250.0),         # protected feeders, partial brown-out
    ]
