"""Overnight charge planner for a depot of electric vans.

A small network predicts a safe per-slot charge rate (fraction of pack capacity
per 15-minute slot) from each van's cell temperatures; the planner then charges
every van below the target state of charge slot by slot until all are charged
or the night (max_slots) is over.  A pack that is too hot is not charged at all.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class ChargeRateHead(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, cell_temps):
        feats = torch.stack(
            [cell_temps.mean(1), cell_temps.amax(1), cell_temps.amin(1), cell_temps.std(1)], dim=1)
        feats = (feats - 30.0) / 10.0
        return 0.03 + 0.07 * torch.sigmoid(self.net(feats)).squeeze(-1)


class FleetChargePlanner(nn.Module):
    def __init__(self):
        super().__init__()
        self.rate_head = ChargeRateHead()
        self.cutoff_temp = 55.0
        self.derate_temp = 40.0
        self.target_soc = 0.8
        self.max_slots = 12
        self.pack_kwh = 60.0

    def forward(self, soc, cell_temps):
        if not (cell_temps.amax() < self.cutoff_temp):
            # thermal protection: nobody charges tonight
            return soc.clone(), torch.zeros_like(soc), torch.zeros((), dtype=torch.int64)

        rate = self.rate_head(cell_temps)
        if cell_temps.mean() > self.derate_temp or soc.min() < 0.05:
            # warm depot or a deeply discharged pack: charge gently
            rate = rate * 0.5

        energy = torch.zeros_like(soc)
        slots = 0
        while (soc < self.target_soc).any():
            if slots >= self.max_slots:
                break
            charging = soc < self.target_soc
            added = torch.where(charging, torch.minimum(rate, 1.0 - soc), torch.zeros_like(soc))
            soc = soc + added
            energy = energy + added * self.pack_kwh
            slots += 1
        return soc, energy, torch.tensor(slots)


def model():
    torch.manual_seed(0)
    return FleetChargePlanner().eval()


def _make(seed, n_vans, n_cells, soc_lo, soc_hi, t_lo, t_hi, hot_cell=None, deep=False):
    g = torch.Generator().manual_seed(seed)
    soc = soc_lo + (soc_hi - soc_lo) * torch.rand(n_vans, generator=g)
    temps = t_lo + (t_hi - t_lo) * torch.rand(n_vans, n_cells, generator=g)
    if hot_cell is not None:
        temps[0, 0] = hot_cell
    if deep:
        soc[-1] = 0.02
    return soc, temps


def example_inputs():
    return _make(0, 4, 6, 0.3, 0.7, 22.0, 34.0)


def dynamic_shapes():
    vans = Dim("vans", min=2, max=16)
    cells = Dim("cells", min=2, max=24)
    return ({0: vans}, {0: vans, 1: cells})


def verify_inputs():
    return [
        _make(1, 4, 6, 0.3, 0.7, 22.0, 34.0),                 # several slots
        _make(2, 3, 8, 0.2, 0.6, 25.0, 35.0, hot_cell=61.0),  # thermal cutoff, early return
        _make(3, 5, 4, 0.85, 0.95, 20.0, 30.0),               # everybody already charged
        _make(4, 2, 12, 0.74, 0.77, 20.0, 30.0),              # one slot is enough
        _make(5, 6, 10, 0.05, 0.3, 41.0, 50.0),               # warm depot: derated, night runs out
        _make(6, 8, 3, 0.4, 0.6, 18.0, 28.0, deep=True),      # deeply discharged van: derated
    ]
