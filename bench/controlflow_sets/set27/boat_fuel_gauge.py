"""Fuel gauge for a motor boat.

Integrates the fuel-flow meter (litres per hour, negative while refuelling)
every 5 minutes. After three consecutive samples with the engine off, the
estimate is blended with the float-sender reading, converted through the
tapered-hull tank table (implausible sender voltages from sloshing are
ignored). Integration stops when the low-fuel reserve alarm trips.
"""
import torch
import torch.nn as nn

SENDER_VOLTS = [0.5, 1.2, 1.75, 2.2, 2.6, 2.95, 3.3, 3.6, 3.9, 4.2, 4.5]


def sender_to_level(v, table_v, table_level):
    # piecewise-linear inverse of the tank calibration curve
    if v <= table_v[0]:
        return table_level[0]
    if v >= table_v[-1]:
        return table_level[-1]
    idx = torch.searchsorted(table_v, v.reshape(1)).squeeze(0)
    v0, v1 = table_v[idx - 1], table_v[idx]
    l0, l1 = table_level[idx - 1], table_level[idx]
    return l0 + (l1 - l0) * (v - v0) / (v1 - v0)


class BoatFuelGauge(nn.Module):
    def __init__(self, tank_l=200.0, dt_h=5.0 / 60.0, idle_flow=0.05, v_max=4.8, reserve=0.05):
        super().__init__()
        self.frac_per_lph = dt_h / tank_l
        self.idle_flow = idle_flow
        self.v_max = v_max
        self.reserve = reserve
        self.register_buffer("table_v", torch.tensor(SENDER_VOLTS))
        self.register_buffer("table_level", torch.linspace(0.0, 1.0, len(SENDER_VOLTS)))
        self.density = nn.Linear(1, 1)

    def forward(self, flow_lph, sender_v, level0):
        # flow_lph: [T], sender_v: [T], level0: scalar tank fraction
        level = level0
        idle_steps = torch.zeros((), dtype=torch.int64)
        history = []
        for t in range(flow_lph.shape[0]):
            f = flow_lph[t]
            corr = 1.0 + 0.02 * torch.tanh(self.density(f.reshape(1) / 50.0)).squeeze(0)
            level = level - f * corr * self.frac_per_lph
            if f.abs() < self.idle_flow:
                idle_steps = idle_steps + 1
            else:
                idle_steps = torch.zeros_like(idle_steps)
            if idle_steps >= 3 and not sender_v[t] > self.v_max:
                level = 0.7 * level + 0.3 * sender_to_level(sender_v[t], self.table_v, self.table_level)
            history.append(level)
            if level < self.reserve:
                break
        return torch.stack(history)


def model():
    torch.manual_seed(0)
    return BoatFuelGauge().eval()


def _log(pattern, seed, level0):
    # pattern: list of (n, flow_lo, flow_hi, volts_lo, volts_hi)
    g = torch.Generator().manual_seed(seed)
    flow, volts = [], []
    for n, flo, fhi, vlo, vhi in pattern:
        flow.append(flo + (fhi - flo) * torch.rand(n, generator=g))
        volts.append(vlo + (vhi - vlo) * torch.rand(n, generator=g))
    return torch.cat(flow), torch.cat(volts), torch.tensor(level0)


def example_inputs():
    return _log([(10, 20.0, 40.0, 2.5, 3.0), (5, -0.02, 0.02, 2.6, 2.7)], 0, 0.6)


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=1000)
    return ({0: T}, {0: T}, None)


def verify_inputs():
    return [
        # cruise, moored (sender inside the table), refuel, moored in chop (sloshing sender)
        _log([(6, 20.0, 40.0, 2.5, 3.0), (5, -0.02, 0.02, 2.70, 2.72),
              (4, -250.0, -200.0, 3.5, 4.0), (4, -0.02, 0.02, 5.0, 5.5)], 1, 0.6),
        # almost empty, moored with the sender below the table, then full throttle until the alarm
        _log([(4, -0.02, 0.02, 0.30, 0.40), (30, 60.0, 80.0, 0.5, 1.0)], 2, 0.14),
        # brim-full tank, moored with the sender pegged above the table
        _log([(5, -0.02, 0.02, 4.55, 4.7)], 3, 0.97),
        # two samples of trolling
        _log([(2, 5.0, 10.0, 2.6, 2.8)], 4, 0.5),
    ]
