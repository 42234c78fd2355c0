"""Geotechnical preloading: staged-embankment settlement of layered clay (Terzaghi 1-D).

Each clay layer has a thickness (m), a coefficient of consolidation cv (m^2/yr) and a volume
compressibility mv (1/kPa).  The embankment is raised in stages (surcharge increment, duration).
After every stage the settlement of each layer is its ultimate settlement under the total
surcharge times the average degree of consolidation U(Tv), where the time factor uses the time
since loading began.  U is evaluated with the small-Tv approximation, the Fourier series (summed
until the terms fall below a tolerance) or taken as complete for large Tv.  Thin seams are
ignored.  If a stage pushes the settlement beyond the allowable value the programme stops.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim


def degree_of_consolidation(tv, tol=1e-4):
    if tv < 0.05:
        return torch.sqrt(4.0 * tv / math.pi)
    if tv > 2.0:
        return torch.ones(())
    total = torch.zeros(())
    term = torch.ones(())
    m = 0
    while term > tol:
        big_m = math.pi / 2.0 * (2 * m + 1)
        term = 2.0 / big_m ** 2 * torch.exp(-(big_m ** 2) * tv)
        total = total + term
        m += 1
    return 1.0 - total


class PreloadSettlementPlanner(nn.Module):
    def __init__(self, min_thickness=0.3, allowable=0.9, double_drainage=True):
        super().__init__()
        self.min_thickness = min_thickness
        self.allowable = allowable
        self.double_drainage = double_drainage

    def layer_settlement(self, layer, stress, elapsed):
        thickness, cv, mv = layer[0], layer[1], layer[2]
        drainage_path = thickness / 2.0 if self.double_drainage else thickness
        tv = cv * elapsed / drainage_path ** 2
        return mv * thickness * stress * degree_of_consolidation(tv)

    def forward(self, layers, stages):
        stress = torch.zeros(())
        elapsed = torch.zeros(())
        history = []
        for k in range(stages.shape[0]):
            stress = stress + stages[k, 0]
            elapsed = elapsed + stages[k, 1]
            settlement = torch.zeros(())
            for i in range(layers.shape[0]):
                if layers[i, 0] < self.min_thickness:
                    continue
                settlement = settlement + self.layer_settlement(layers[i], stress, elapsed)
            history.append(settlement)
            if settlement > self.allowable:
                break  # stop raising the embankment: install wick drains / wait
        return torch.stack(history), stress


def model():
    return PreloadSettlementPlanner().eval()


def _layers(rows):
    return torch.tensor(rows)


def example_inputs():
    layers = _layers([[2.0, 1.5, 3e-4], [4.0, 0.8, 5e-4], [0.2, 0.5, 6e-4], [3.0, 2.5, 2e-4]])
    stages = torch.tensor([[30.0, 0.5], [30.0, 0.5], [40.0, 1.0]])
    return (layers, stages)


def dynamic_shapes():
    return ({0: Dim("layers", min=2, max=32)}, {0: Dim("stages", min=2, max=16)})


def verify_inputs():
    soft = _layers([[6.0, 0.6, 1.2e-3], [5.0, 0.4, 1.0e-3]])
    sand_seams = _layers([[1.0, 20.0, 1e-4], [0.25, 5.0, 1e-4], [1.2, 30.0, 1e-4]])
    return [
        example_inputs(),   # thin seam skipped (continue); U from the series, complete (Tv > 2) by stage 3; no break
        (soft, torch.tensor([[50.0, 0.02], [50.0, 0.5], [50.0, 1.0], [50.0, 2.0], [50.0, 2.0]])),  # soft clay: allowable exceeded at stage 4 -> break
        (sand_seams, torch.tensor([[20.0, 1.0], [20.0, 2.0]])),                       # fast-draining layers: Tv > 2, U = 1
        (_layers([[3.0, 1.0, 4e-4], [2.0, 1.0, 4e-4]]), torch.tensor([[10.0, 0.01], [10.0, 0.01]])),  # very early: only small-Tv branch
    ]
