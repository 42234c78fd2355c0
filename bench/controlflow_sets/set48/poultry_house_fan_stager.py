"""Broiler house ventilation: stage tunnel fans to bring the wind-chill effective temperature to the
age-dependent setpoint, or run heaters with minimum ventilation when the house is cold.
"""
import torch
import torch.nn as nn


class FanStager(nn.Module):
    def __init__(self, n_stages=8, chill_per_stage=1.1):
        super().__init__()
        self.n_stages = n_stages
        self.chill_per_stage = chill_per_stage
        self.tunnel_from = 4
        self.load_net = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))

    def house_temperature(self, temps):
        if temps.shape[0] > 8:
            # long house: drop the hottest and coldest probes (sun-exposed end walls)
            s, _ = torch.sort(temps)
            return s[1:-1].mean()
        return temps.mean()

    def forward(self, temps, age_days, outside):
        target = torch.clamp(32.0 - 0.3 * age_days, min=21.0).reshape(())
        house = self.house_temperature(temps)
        bias = 0.05 * torch.tanh(self.load_net(torch.stack([house, outside.reshape(()), target]) / 30.0)).squeeze()
        effective = house + bias

        stage = 0
        heat = torch.zeros(())
        if effective < target - 1.0:
            heat = torch.clamp((target - effective) / 4.0, max=1.0)
        else:
            while effective > target + 0.5 and stage < self.n_stages:
                stage += 1
                # wind chill grows once the tunnel curtain opens, and hot outside air adds load
                gain = self.chill_per_stage * (1.5 if stage > self.tunnel_from else 1.0)
                effective = effective - gain
                if outside > house:
                    effective = effective + 0.2
        mode = torch.tensor(2.0 if stage > self.tunnel_from else (1.0 if stage > 0 else 0.0))
        return torch.tensor(float(stage)), heat, effective, mode


def model():
    torch.manual_seed(48008)
    return FanStager().eval()


def example_inputs():
    return torch.tensor([29.0, 29.4, 28.8, 29.2]), torch.tensor([28.0]), torch.tensor([26.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("probes", min=2, max=32)}, None, None)


def verify_inputs():
    return [
        example_inputs(),  # target 23.6, house ~29.1: several stages, tunnel mode, outside cooler
        (torch.tensor([31.0, 30.5, 33.5, 31.2, 30.8, 31.1, 30.9, 31.0, 29.0, 31.3]),
         torch.tensor([35.0]), torch.tensor([34.0])),  # >8 probes -> trimmed mean; hot outside (+0.2 per stage); all 8 stages run
        (torch.tensor([24.0, 24.3]), torch.tensor([7.0]), torch.tensor([5.0])),  # chick brooding, cold -> heater, no loop
        (torch.tensor([30.2, 30.0, 30.1]), torch.tensor([7.0]), torch.tensor([20.0])),  # target 29.9: inside deadband, 0 stages
        (torch.tensor([31.2, 31.4]), torch.tensor([7.0]), torch.tensor([20.0])),  # exactly one stage (31.3 -> 30.2 < 30.4)
    ]
