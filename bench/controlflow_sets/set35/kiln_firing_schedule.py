"""Pottery / glass kiln controller simulation: runs a multi-segment firing
schedule (ramp rate, target temperature, hold time) through a kiln thermal
model with a learned element-lag correction, in 10-minute control steps.
Heating is limited by element power at high temperature, cooling by natural
heat loss; disabled segments are skipped, segments that cannot finish within
the step budget are cut short, and the firing aborts on over-temperature.

Inputs: schedule [S, 3] (rate C/h, target C, hold minutes), ambient [1] (C).
Outputs: temperature trace [K], abort flag [1].
"""
import torch
import torch.nn as nn


def max_heating_rate(temp):
    if temp < 600.0:
        return 300.0
    elif temp < 1000.0:
        return 200.0
    return 120.0


class KilnThermalModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.lag = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))

    def correction(self, temp, rate, ambient):
        x = torch.stack([temp / 1000.0, rate / 100.0, ambient / 20.0])
        return torch.tanh(self.lag(x)).squeeze(-1)

    def heat_step(self, temp, rate, ambient):
        ramp = torch.clamp(rate, max=max_heating_rate(temp)) / 6.0
        return temp + ramp + 0.5 * self.correction(temp, rate, ambient)

    def cool_step(self, temp, rate, ambient):
        natural = 0.05 * (temp - ambient)
        return temp - torch.minimum(rate / 6.0, natural)

    def hold_step(self, target, rate, ambient):
        return target + 0.2 * self.correction(target, rate, ambient)


class KilnController(nn.Module):
    def __init__(self, max_steps=60, max_safe=1300.0):
        super().__init__()
        self.max_steps = max_steps
        self.max_safe = max_safe
        self.thermal = KilnThermalModel()

    def forward(self, schedule, ambient):
        amb = ambient[0]
        temp = amb
        trace = [temp]
        for s in range(schedule.shape[0]):
            rate, target, hold = schedule[s].unbind(0)
            if rate <= 0:
                continue  # segment disabled in the controller UI
            heating = bool(target > temp)
            steps = 0
            while (temp < target - 0.5 if heating else temp > target + 0.5) and steps < self.max_steps:
                if heating:
                    temp = torch.minimum(self.thermal.heat_step(temp, rate, amb), target)
                else:
                    temp = torch.maximum(self.thermal.cool_step(temp, rate, amb), target)
                trace.append(temp)
                steps += 1
                if temp > self.max_safe:
                    # thermocouple over-temperature: cut the elements and abort
                    return torch.stack(trace), torch.ones(1)
            for _ in range(int(hold.item()) // 10):
                temp = self.thermal.hold_step(target, rate, amb)
                trace.append(temp)
        return torch.stack(trace), torch.zeros(1)


def model():
    torch.manual_seed(12)
    return KilnController().eval()


def _sched(rows, ambient=20.0):
    return torch.tensor(rows, dtype=torch.float32), torch.tensor([ambient])


def example_inputs():
    # bisque firing: candle at 200 C for an hour, 150 C/h to 1000 C, soak, controlled cool to 600 C
    return _sched([[80.0, 200.0, 60.0], [150.0, 1000.0, 10.0], [150.0, 600.0, 0.0]])


def dynamic_shapes():
    return ({0: torch.export.Dim("segments", min=2, max=12)}, None)


def verify_inputs():
    return [
        example_inputs(),  # heat, heat through two power bands, cool; holds of 6, 1 and 0 steps
        _sched([[0.0, 500.0, 30.0], [300.0, 450.0, 0.0]], ambient=25.0),  # disabled first segment (continue)
        _sched([[250.0, 1250.0, 0.0], [120.0, 1320.0, 30.0]]),  # glaze over-fire: passes 1300 C -> abort return
        _sched([[10.0, 900.0, 0.0], [200.0, 950.0, 20.0]]),  # very slow ramp: step budget runs out mid-segment
        _sched([[300.0, 500.0, 20.0], [300.0, 500.0, 10.0], [100.0, 480.0, 0.0],
                [200.0, 700.0, 0.0], [50.0, 300.0, 30.0]]),  # repeat target (while 0 times), short cool, reheat, cool
    ]
