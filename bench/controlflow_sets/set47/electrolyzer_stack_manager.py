"""PEM electrolyser plant manager: per-stack current derating from cell
voltages and temperatures, emergency trip, learned stack health.

Constructs: 1, 2 (early returns from the helper and from forward),
3 (`or` / `and` on tensor predicates), 4 (while reducing the current until the
predicted max cell voltage is safe), 7 (helper called per stack),
9 (loop over nn.ModuleList of per-stack health models).
"""
import torch
import torch.nn as nn


def predict_cells(v, i, i0):
    # simple polarisation model: 1.45 V reversible + ohmic/activation part scaling with current
    return 1.45 + (v - 1.45) * (i / i0)


def derate(v, t, i, v_max=2.0, t_warn=80.0, t_trip=95.0):
    """Returns the safe current for one stack."""
    i_new = i
    if t.max() > t_warn or v.max() > v_max:
        if t.max() > t_trip:
            return torch.zeros(())
        i_new = i * 0.9
        while predict_cells(v, i_new, i).max() > v_max and i_new > 0.1 * i:
            i_new = i_new * 0.8
    return i_new


class ElectrolyserManager(nn.Module):
    def __init__(self, n_stacks=3):
        super().__init__()
        self.health = nn.ModuleList([nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
                                     for _ in range(n_stacks)])

    def forward(self, volts, temps, current):
        # volts, temps: [3, C] per cell; current: [3] A/cm2 setpoints
        if current.sum() == 0:
            return torch.zeros(3), torch.zeros(3)
        new_i, health = [], []
        for s, net in enumerate(self.health):
            i_s = derate(volts[s], temps[s], current[s])
            new_i.append(i_s)
            feats = torch.stack([volts[s].mean() - 1.45, volts[s].std(), temps[s].mean() / 100.0])
            health.append(torch.sigmoid(net(feats)).squeeze())
        return torch.stack(new_i), torch.stack(health)


def model():
    torch.manual_seed(18)
    return ElectrolyserManager().eval()


def _plant(C, v_levels, t_levels, seed):
    g = torch.Generator().manual_seed(seed)
    v = torch.tensor(v_levels).unsqueeze(1) + 0.005 * torch.randn(3, C, generator=g)
    t = torch.tensor(t_levels).unsqueeze(1) + 0.2 * torch.randn(3, C, generator=g)
    return v, t


def example_inputs():
    v, t = _plant(16, [1.80, 2.45, 1.90], [65.0, 70.0, 84.0], 0)
    return (v, t, torch.tensor([2.0, 2.0, 2.0]))


def dynamic_shapes():
    c = torch.export.Dim("cells", min=4, max=64)
    return ({1: c}, {1: c}, None)


def verify_inputs():
    v2, t2 = _plant(4, [1.70, 1.75, 1.80], [60.0, 62.0, 64.0], 1)
    v3, t3 = _plant(64, [2.15, 5.0, 1.9], [70.0, 72.0, 97.0], 2)
    v4, t4 = _plant(8, [1.8, 1.8, 1.8], [60.0, 60.0, 60.0], 3)
    return [
        example_inputs(),                              # healthy / overvoltage (several while iters) / hot (0 iters)
        (v2, t2, torch.tensor([1.0, 1.5, 2.0])),       # min size, all healthy
        (v3, t3, torch.tensor([2.0, 2.0, 2.0])),       # max size: 1 iter / current floor hit / trip
        (v4, t4, torch.zeros(3)),                      # plant in standby -> early return
    ]
