"""Stratified solar hot-water storage tank (1-D multi-node model).

The tank is a stack of L layers (top first). For every simulation step the
collector loop delivers water at some temperature; when the pump is off
(collector colder than the tank bottom) nothing is inserted. Otherwise the
inflow goes to the first layer it is warmer than (plume model) and mixes
there. A learned heat-loss model cools every layer towards ambient.
Temperature inversions (e.g. a slug of hot water trapped low in the tank after
a drain-back refill) are removed by repeated overturn-and-mix passes until the
profile is stable (or a pass budget runs out).

Kind: X.  Constructs: 1, 2, 3, 4, 5, 6, 7.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class StratifiedTank(nn.Module):
    def __init__(self, mix_tol=0.05, max_passes=6):
        super().__init__()
        self.loss_net = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1))
        self.mix_tol = mix_tol
        self.max_passes = max_passes

    def insert_inflow(self, temps, t_in, frac):
        target = temps.shape[0] - 1
        for k in range(temps.shape[0]):
            if t_in > temps[k]:
                target = k
                break
        mixed = (1.0 - frac) * temps[target] + frac * t_in
        return torch.cat([temps[:target], mixed.reshape(1), temps[target + 1:]])

    def heat_loss(self, temps, ambient):
        # loss coefficient depends on the layer-to-ambient difference (insulation is not linear)
        dt = (temps - ambient).unsqueeze(1) / 50.0
        ua = 0.02 + 0.02 * torch.sigmoid(self.loss_net(torch.cat([dt, dt.abs()], dim=1))).squeeze(1)
        return temps - ua * (temps - ambient)

    def remove_inversions(self, temps):
        passes = 0
        while bool((temps[1:] > temps[:-1] + self.mix_tol).any()) and passes < self.max_passes:
            layers = [temps[0]]
            for k in range(1, temps.shape[0]):
                if temps[k] <= layers[-1] + self.mix_tol:
                    layers.append(temps[k])
                    continue
                # warmer water below: the two layers overturn and mix
                avg = 0.5 * (layers[-1] + temps[k])
                layers[-1] = avg
                layers.append(avg)
            temps = torch.stack(layers)
            passes += 1
        return temps, passes

    def forward(self, layer_temps, inflow):
        # layer_temps: [L] initial layer temperatures (top first)
        # inflow: [S, 3] per step (collector outlet temp, inflow fraction, ambient temp)
        temps = layer_temps
        total_passes = 0
        pump_steps = torch.zeros(())
        for step in range(inflow.shape[0]):
            t_in, frac, ambient = inflow[step, 0], inflow[step, 1], inflow[step, 2]
            if t_in > temps.min():
                temps = self.insert_inflow(temps, t_in, frac)
                pump_steps = pump_steps + 1
            temps = self.heat_loss(temps, ambient)
            temps, passes = self.remove_inversions(temps)
            total_passes += passes
        stored = (temps - 20.0).clamp(min=0.0).sum()
        return temps, stored, pump_steps, torch.tensor(total_passes)


def model():
    torch.manual_seed(632)
    return StratifiedTank().eval()


def _day(layers, top, bottom, collector, frac=0.3, ambient=15.0, inverted_at=None):
    temps = torch.linspace(top, bottom, layers)
    if inverted_at is not None:
        temps[inverted_at] = top + 8.0  # slug of hot water trapped low in the tank
    steps = len(collector)
    inflow = torch.stack([torch.tensor(collector), torch.full((steps,), frac), torch.full((steps,), ambient)], dim=1)
    return temps, inflow


def example_inputs():
    return _day(8, 60.0, 30.0, [25.0, 45.0, 55.0, 65.0, 50.0, 28.0])


def dynamic_shapes():
    return ({0: Dim("layers", min=3, max=40)}, {0: Dim("steps", min=2, max=96)})


def verify_inputs():
    return [
        example_inputs(),                                        # morning: step 0 pump off (collector colder than the
                                                                 # tank bottom), then inflow into layers 4/1/0/2/7;
                                                                 # no inversions (mixing loop runs 0 times)
        _day(12, 55.0, 20.0, [70.0, 72.0, 75.0, 74.0], frac=0.5),  # hot afternoon: inflow always enters layer 0 (break at k=0)
        _day(5, 50.0, 45.0, [40.0, 41.0, 30.0], ambient=-5.0),   # winter night: pump never runs, heat loss only
        _day(10, 60.0, 30.0, [35.0, 50.0], inverted_at=6),       # trapped hot slug: pass budget hit, then 2 more passes
        _day(3, 50.0, 40.0, [44.9, 47.0, 60.0, 20.0, 30.0], frac=0.6),  # 3 layers: inflow into bottom/middle/top, then off
        _day(16, 80.0, 10.0, [90.0, 12.0], inverted_at=12, ambient=0.0),  # big inversion: pass budget hit (second `and` operand)
    ]
