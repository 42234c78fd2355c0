"""Island microgrid economic dispatch (merit order).

A small network forecasts solar output for each hour from the hour features;
the net demand is then served hour by hour by committing generators in order
of marginal cost, skipping units that are offline, respecting each unit's
capacity and minimum stable output. Surplus solar is curtailed; demand that
cannot be met is reported as unserved energy.

Kind X. Constructs: 1 (if on tensor comparisons), 2 (branches assign the same
variable; `continue` paths leave state untouched), 3 (`and` in the while
condition), 4 (while over generators with a tensor condition: remaining
demand), 5 (for over the dynamic number of hours, append + stack), 6 (continue
on surplus hours and on offline units). Two dynamic dims (hours, generators);
the inner loop's trip count is data dependent.
"""
import torch
import torch.nn as nn


class SolarForecaster(nn.Module):
    def __init__(self, hidden=16, peak_kw=400.0):
        super().__init__()
        self.peak_kw = peak_kw
        self.net = nn.Sequential(nn.Linear(3, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, hour_feats):
        # hour_feats: (T, 3) [hour of day, cloud cover 0-1, temperature C]
        hour, cloud = hour_feats[:, 0], hour_feats[:, 1]
        clear_sky = torch.clamp(torch.sin((hour - 6.0) / 12.0 * torch.pi), min=0.0)
        feats = hour_feats / torch.tensor([24.0, 1.0, 30.0])
        correction = 1.0 + 0.1 * torch.tanh(self.net(feats)).squeeze(-1)
        return self.peak_kw * clear_sky * (1.0 - 0.8 * cloud) * correction


class MeritOrderDispatch(nn.Module):
    def __init__(self):
        super().__init__()
        self.solar = SolarForecaster()

    def forward(self, demand, hour_feats, gens):
        # demand: (T,) kW; hour_feats: (T, 3); gens: (G, 4) [capacity kW, cost $/kWh, available 0/1, min output kW]
        net = demand - self.solar(hour_feats)
        order = torch.argsort(gens[:, 1])          # cheapest first (costs are distinct)
        n_gens = gens.shape[0]
        dispatch, unserved, curtailed = [], [], []
        for t in range(demand.shape[0]):
            remaining = net[t]
            if remaining <= 0:
                dispatch.append(torch.zeros(n_gens))
                unserved.append(torch.zeros(()))
                curtailed.append(-remaining)
                continue
            out = torch.zeros(n_gens)
            k = 0
            while remaining > 0 and k < n_gens:
                g = order[k]
                k += 1
                if gens[g, 2] < 0.5:
                    continue
                p = torch.minimum(gens[g, 0], remaining)
                if p < gens[g, 3]:
                    p = gens[g, 3]   # run at minimum stable output, the surplus is curtailed
                out[g] = p
                remaining = remaining - p
            dispatch.append(out)
            unserved.append(remaining.clamp(min=0.0))
            curtailed.append((-remaining).clamp(min=0.0))
        dispatch = torch.stack(dispatch)
        cost = dispatch @ gens[:, 1]
        return dispatch, torch.stack(unserved), torch.stack(curtailed), cost


def model():
    torch.manual_seed(3412)
    return MeritOrderDispatch().eval()


GENS = torch.tensor([
    # capacity, cost, available, min output
    [300.0, 0.22, 1.0, 60.0],    # diesel A
    [150.0, 0.35, 1.0, 40.0],    # diesel B (peaker)
    [200.0, 0.12, 1.0, 0.0],     # battery discharge
    [120.0, 0.18, 0.0, 30.0],    # biogas, offline for maintenance
])


def _day(hours, seed, base=420.0):
    g = torch.Generator().manual_seed(seed)
    h = torch.arange(hours, dtype=torch.float32) % 24
    demand = base + 180.0 * torch.exp(-((h - 19.0) / 3.0) ** 2) + 20.0 * torch.rand(hours, generator=g)
    cloud = torch.rand(hours, generator=g)
    temp = 18.0 + 8.0 * torch.rand(hours, generator=g)
    return demand, torch.stack([h, cloud, temp], dim=1)


def example_inputs():
    demand, feats = _day(24, 1)
    return (demand, feats, GENS.clone())


def dynamic_shapes():
    T = torch.export.Dim("hours", min=2, max=168)
    G = torch.export.Dim("generators", min=2, max=16)
    return ({0: T}, {0: T}, {0: G})


def verify_inputs():
    d2, f2 = _day(6, 2, base=900.0)    # night, huge demand
    d3, f3 = _day(48, 3, base=150.0)   # low demand, sunny middays
    d4 = torch.tensor([100.0, 130.0])
    f4 = torch.tensor([[12.0, 0.0, 25.0], [2.0, 0.0, 15.0]])
    return [
        # a day: night hours need several units (offline unit skipped), evening peak
        example_inputs(),
        # demand above total available capacity: while loop exhausts all units -> unserved
        (d2, f2, GENS.clone()),
        # two days of low demand with solar surplus at midday -> continue (curtail)
        (d3, f3, GENS.clone()),
        # surplus hour, then a small load served by the cheapest unit alone (loop exits on remaining)
        (d4, f4, GENS.clone()),
        # small load below the only unit's minimum stable output -> runs at minimum, surplus curtailed
        (torch.tensor([30.0, 45.0]), torch.tensor([[0.0, 0.5, 10.0], [1.0, 0.5, 10.0]]),
         torch.tensor([[300.0, 0.22, 1.0, 60.0], [100.0, 0.30, 0.0, 10.0]])),
    ]
