"""Road earthwork mass-haul analysis: average-end-area volumes, shrink/swell,
mass ordinate, balance points, and per-balance-section haul cost with
free-haul / overhaul / waste-and-borrow decisions."""
import torch
import torch.nn as nn
from torch.export import Dim


class MassHaul(nn.Module):
    def __init__(self, spacing=20.0, shrink=0.9, free_haul=155.0, econ_haul=805.0):
        super().__init__()
        self.spacing = spacing
        self.shrink = shrink
        self.free_haul = free_haul
        self.econ_haul = econ_haul
        self.register_buffer("unit_costs", torch.tensor([3.0, 0.012, 9.5]))  # excavate, overhaul per m3*m, borrow+waste

    def volumes(self, cut_area, fill_area):
        cut = 0.5 * (cut_area[1:] + cut_area[:-1]) * self.spacing
        fill = 0.5 * (fill_area[1:] + fill_area[:-1]) * self.spacing
        return cut * self.shrink - fill

    def section_cost(self, net, start, end):
        seg = net[start:end]
        moved = seg.clamp(min=0).sum()
        length = (end - start) * self.spacing
        # centroid-to-centroid haul distance is about half the section length
        haul = torch.tensor(0.5 * length)
        if haul > self.econ_haul:
            # too far to haul: waste the cut and borrow the fill locally
            return moved * self.unit_costs[2]
        cost = moved * self.unit_costs[0]
        if haul > self.free_haul:
            cost = cost + moved * (haul - self.free_haul) * self.unit_costs[1]
        return cost

    def forward(self, cut_area, fill_area):
        # cut_area, fill_area: [S] cross-section areas (m2) at each station
        net = self.volumes(cut_area, fill_area)
        mass = torch.cumsum(net, 0)
        crossings = torch.nonzero((mass[1:] * mass[:-1]) < 0).flatten() + 1
        bounds = [0] + [int(c) for c in crossings] + [net.shape[0]]
        costs = []
        for j in range(len(bounds) - 1):
            if bounds[j + 1] - bounds[j] < 2:
                continue  # sliver section between two close balance points
            costs.append(self.section_cost(net, bounds[j], bounds[j + 1]))
        if len(costs) == 0:
            costs.append(torch.zeros(()))
        return mass, torch.stack(costs)


def model():
    torch.manual_seed(4915)
    return MassHaul().eval()


def _profile(S, seed, waves=2.0, amp=40.0, bias=0.0):
    g = torch.Generator().manual_seed(seed)
    x = torch.linspace(0, 1, S)
    ground_minus_grade = amp * torch.sin(2 * 3.14159 * waves * x + 0.3) + bias + 3.0 * torch.randn(S, generator=g)
    cut = ground_minus_grade.clamp(min=0) * 1.5
    fill = (-ground_minus_grade).clamp(min=0) * 1.5
    return cut, fill


def example_inputs():
    # rolling terrain: several balance points, short and medium hauls
    return _profile(60, 151, waves=3.0)


def dynamic_shapes():
    s = Dim("stations", min=3, max=400)
    return ({0: s}, {0: s})


def verify_inputs():
    return [
        example_inputs(),
        _profile(40, 152, waves=0.2, bias=30.0),   # all cut: no balance point, one long section (overhaul)
        _profile(400, 153, waves=0.7),             # long sections beyond economic haul -> waste/borrow
        _profile(3, 154, bias=10.0),               # minimum: two volumes, one short section (free haul)
        (torch.tensor([10.0, 10.0, 0.0, 0.0, 10.0, 10.0, 0.0, 0.0]),
         torch.tensor([0.0, 0.0, 12.0, 12.0, 0.0, 0.0, 12.0, 12.0])),  # alternating: 3 balance points, last section a sliver
        (torch.tensor([10.0, 0.0, 0.0]), torch.tensor([0.0, 0.0, 20.0])),  # only sliver sections -> zero-cost fallback
    ]
