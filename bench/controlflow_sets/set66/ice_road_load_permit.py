"""Winter ice-road load permit from auger-hole thickness measurements (Gold's formula).

Each drill hole reports total ice thickness and whether the ice is white/snow ice (which
counts for half). Thawing weather derates candled ice. With few holes the thinnest hole is
used with a safety factor, otherwise a low percentile. A small network trained on past
seasons derates the allowed load from the weather (air temperature, sun index).

Kind: T.  Constructs: 1, 2, 3, 7, 8.
"""
import torch
import torch.nn as nn
from torch.export import Dim


def effective_thickness(thickness_cm, white_ice, air_temp):
    eff = torch.where(white_ice.bool(), 0.5 * thickness_cm, thickness_cm)
    if air_temp > 0:
        # candled (rotting) ice above freezing loses bearing capacity
        eff = eff * 0.85
    return eff


class IceRoadPermit(nn.Module):
    def __init__(self, gold_a=0.0035, min_holes=4, min_thickness_cm=20.0, max_load_t=60.0):
        super().__init__()
        self.gold_a = gold_a            # tonnes / cm^2
        self.min_holes = min_holes
        self.min_thickness_cm = min_thickness_cm
        self.max_load_t = max_load_t
        self.weather = nn.Linear(2, 1)

    def forward(self, thickness_cm, white_ice, weather):
        # thickness_cm: (N,), white_ice: (N,) 0/1 ints, weather: (2,) [air temp C, sun index 0..1]
        n = thickness_cm.shape[0]
        eff = effective_thickness(thickness_cm, white_ice, weather[0])
        if n < self.min_holes:
            design_h = eff.min() * 0.8
        else:
            design_h = torch.quantile(eff, 0.1)
        if design_h < self.min_thickness_cm:
            # closed to vehicles
            return torch.zeros(()), design_h
        derate = 0.7 + 0.3 * torch.sigmoid(self.weather(weather)).squeeze(-1)
        if weather[0] > -2 or (weather[0] > -8 and weather[1] > 0.6):
            derate = derate * 0.75
        load_t = self.gold_a * design_h ** 2 * derate
        load_t = torch.clamp(load_t, max=self.max_load_t)
        return load_t, design_h


def model():
    torch.manual_seed(4)
    return IceRoadPermit().eval()


def example_inputs():
    thick = torch.tensor([62.0, 58.0, 71.0, 66.0, 55.0, 69.0, 60.0, 64.0])
    white = torch.tensor([0, 0, 1, 0, 0, 0, 1, 0])
    return (thick, white, torch.tensor([-18.0, 0.2]))


def dynamic_shapes():
    holes = Dim("holes", min=2, max=200)
    return ({0: holes}, {0: holes}, None)


def verify_inputs():
    return [
        # deep cold, 8 holes: percentile branch, no weather derating
        example_inputs(),
        # only 3 holes: thinnest-hole branch; cold but sunny -> derate via the `and` side of `or`
        (torch.tensor([48.0, 52.0, 45.0]), torch.tensor([0, 0, 0]), torch.tensor([-5.0, 0.9])),
        # thaw: candled ice (helper branch), first operand of `or` -> derate
        (torch.tensor([60.0, 63.0, 59.0, 61.0, 64.0]), torch.tensor([0, 0, 0, 0, 0]),
         torch.tensor([3.0, 0.5])),
        # mostly white ice, thin: closed (early return)
        (torch.tensor([30.0, 28.0, 35.0, 31.0, 27.0, 33.0]), torch.tensor([1, 1, 1, 0, 1, 1]),
         torch.tensor([-12.0, 0.1])),
        # very thick ice, mild but dull day: `and` false, clamp to the max load
        (torch.tensor([200.0, 210.0]), torch.tensor([0, 0]), torch.tensor([-6.0, 0.2])),
    ]
