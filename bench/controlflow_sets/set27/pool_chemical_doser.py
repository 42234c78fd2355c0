"""Swimming-pool chemical dosing controller.

Three peristaltic pumps (chlorine, alkalinity buffer, calcium) each project
the next-hour level of their chemical from the recent probe readings and the
sunlight load, and run for a number of minutes when the projection falls below
the set point. Dosing is suspended while swimmers are in the water unless the
chlorine level is critically low; the shared feed line caps the total.
"""
import torch
import torch.nn as nn


class DosingPump(nn.Module):
    def __init__(self, decay_per_uv, set_point, minutes_per_unit):
        super().__init__()
        self.decay_per_uv = decay_per_uv
        self.set_point = set_point
        self.minutes_per_unit = minutes_per_unit
        self.trend = nn.Linear(4, 1)

    def forward(self, readings, uv_index):
        # readings: [T] probe readings for this chemical
        recent = readings[-4:]
        trend = 0.05 * self.trend(recent / self.set_point).squeeze(-1)
        projected = readings[-1] + trend - self.decay_per_uv * uv_index
        if projected < self.set_point:
            minutes = (self.set_point * 1.2 - projected) * self.minutes_per_unit
        else:
            minutes = torch.zeros(())
        return minutes


class PoolChemicalDoser(nn.Module):
    def __init__(self, max_total_minutes=30.0, critical_chlorine=1.0):
        super().__init__()
        self.max_total = max_total_minutes
        self.critical_chlorine = critical_chlorine
        self.pumps = nn.ModuleList([
            DosingPump(0.08, 2.0, 12.0),   # free chlorine, ppm
            DosingPump(0.02, 8.0, 3.0),    # total alkalinity, x10 ppm
            DosingPump(0.0, 20.0, 1.0),    # calcium hardness, x10 ppm
        ])

    def forward(self, readings, uv_index, swimmers):
        # readings: [3, T]; uv_index: scalar; swimmers: scalar occupancy estimate
        if swimmers > 0.5 and readings[0, -1] > self.critical_chlorine:
            return torch.zeros(len(self.pumps))
        minutes = []
        for k, pump in enumerate(self.pumps):
            minutes.append(pump(readings[k], uv_index))
        minutes = torch.stack(minutes)
        total = minutes.sum()
        if total > self.max_total:
            minutes = minutes * (self.max_total / total)
        return minutes


def model():
    torch.manual_seed(0)
    return PoolChemicalDoser().eval()


def _probe_log(levels, t, uv, swimmers, seed):
    g = torch.Generator().manual_seed(seed)
    lv = torch.tensor(levels).unsqueeze(1)
    drift = torch.linspace(0.1, 0.0, t).unsqueeze(0) * lv
    noise = 0.01 * torch.randn(3, t, generator=g) * lv
    return lv + drift + noise, torch.tensor(uv), torch.tensor(swimmers)


def example_inputs():
    return _probe_log([2.6, 9.0, 24.0], 12, 4.0, 0.0, 0)


def dynamic_shapes():
    T = torch.export.Dim("readings", min=4, max=96)
    return ({1: T}, None, None)


def verify_inputs():
    return [
        _probe_log([2.8, 9.5, 25.0], 8, 5.0, 3.0, 1),    # swimmers in, chlorine fine: hold off
        _probe_log([0.6, 9.5, 25.0], 6, 5.0, 3.0, 2),    # swimmers in but chlorine critical
        _probe_log([2.9, 6.0, 25.0], 24, 2.0, 0.0, 3),   # only the alkalinity buffer runs
        _probe_log([1.2, 6.5, 17.0], 10, 8.0, 0.0, 4),   # everything low: feed line caps total
    ]
