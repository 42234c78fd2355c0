"""Floor-framing design aid (LRFD): for each simply supported beam pick the lightest
W-section from a catalogue that passes flexure, shear and live-load deflection
(L/360); if none does, weld cover plates onto the heaviest section, thickening them
until it works or the plate limit is hit. Long, live-load-dominated beams get camber.
A small learned cost model prices the result.
Outputs per beam: catalogue index (-1 invalid, 8 = plated), utilisation, plate mm,
camber mm, cost estimate.
"""
import torch
import torch.nn as nn

FY, E = 345.0, 200000.0  # MPa
# name, mass kg/m, depth mm, Zx 1e3 mm^3, Ix 1e6 mm^4, web area mm^2
CATALOG = [
    ("W200x22", 22.0, 206.0, 220.0, 20.0, 1290.0),
    ("W250x33", 33.0, 258.0, 420.0, 49.0, 1720.0),
    ("W310x39", 39.0, 310.0, 610.0, 85.0, 1810.0),
    ("W360x45", 45.0, 352.0, 830.0, 122.0, 2430.0),
    ("W410x54", 54.0, 403.0, 1060.0, 186.0, 3020.0),
    ("W460x68", 68.0, 459.0, 1490.0, 297.0, 4180.0),
    ("W530x85", 85.0, 535.0, 2100.0, 485.0, 5190.0),
    ("W610x101", 101.0, 603.0, 2900.0, 762.0, 6390.0),
]
PLATE_WIDTH = 250.0  # mm


def governing_load(dead, live):
    c1, c2 = 1.4 * dead, 1.2 * dead + 1.6 * live
    return c1 if c1 > c2 else c2


def plated(section, t):
    name, mass, d, zx, ix, aw = section
    arm = d / 2.0 + t / 2.0
    area = PLATE_WIDTH * t
    return (name, mass + 2 * area * 7.85e-3, d + 2 * t, zx + 2 * area * arm / 1e3,
            ix + 2 * area * arm * arm / 1e6, aw)


def utilisation(section, dead, live, span):
    _, _, _, zx, ix, aw = section
    wu = governing_load(dead, live)  # kN/m
    flexure = (wu * span ** 2 / 8.0) / (0.9 * FY * zx / 1e3)  # kN m / kN m
    shear = (wu * span / 2.0) / (0.6 * FY * aw / 1e3)
    defl = 5.0 * live * (span * 1e3) ** 4 / (384.0 * E * ix * 1e6)  # mm
    return torch.maximum(torch.maximum(flexure, shear), defl / (span * 1e3 / 360.0))


class BeamSizer(nn.Module):
    def __init__(self, max_plate=40.0, plate_step=5.0, camber_span=10.0):
        super().__init__()
        self.cost = nn.Linear(3, 1)
        self.max_plate, self.plate_step, self.camber_span = max_plate, plate_step, camber_span

    def forward(self, spans, loads):
        idxs, utils, plates, cambers = [], [], [], []
        for i in range(spans.shape[0]):
            span, dead, live = spans[i], loads[i, 0], loads[i, 1]
            if span <= 0 or (dead <= 0 and live <= 0):
                idxs.append(torch.tensor(-1))  # bad takeoff line: flag for the engineer
                utils.append(torch.zeros(()))
                plates.append(torch.zeros(()))
                cambers.append(torch.zeros(()))
                continue
            plate = torch.zeros(())
            for k, section in enumerate(CATALOG):
                util = utilisation(section, dead, live, span)
                if util <= 1.0:
                    break
            else:
                k = len(CATALOG)
                while util > 1.0 and plate < self.max_plate:
                    plate = plate + self.plate_step
                    util = utilisation(plated(CATALOG[-1], plate), dead, live, span)
            camber = torch.zeros(())
            if span > self.camber_span and live > dead:
                # camber out 80 % of the dead-load deflection, rounded to 5 mm
                ix = CATALOG[min(k, len(CATALOG) - 1)][4]
                dl = 5.0 * dead * (span * 1e3) ** 4 / (384.0 * E * ix * 1e6)
                camber = torch.round(0.8 * dl / 5.0) * 5.0
            idxs.append(torch.tensor(k))
            utils.append(util)
            plates.append(plate)
            cambers.append(camber)
        idx, plate = torch.stack(idxs), torch.stack(plates)
        mass = torch.tensor([CATALOG[min(max(int(j), 0), 7)][1] for j in idx])
        cost = self.cost(torch.stack([mass / 100.0, plate / 40.0, spans / 10.0], dim=1)).squeeze(1)
        return idx, torch.stack(utils), plate, torch.stack(cambers), cost


def model():
    torch.manual_seed(5817)
    return BeamSizer().eval()


def example_inputs():
    spans = torch.tensor([4.0, 6.5, 8.0, 11.0, 7.2])
    loads = torch.tensor([[6.0, 8.0], [10.0, 12.0], [14.0, 18.0], [5.0, 15.0], [20.0, 2.0]])
    return spans, loads


def dynamic_shapes():
    beams = torch.export.Dim("beams", min=2, max=20)
    return ({0: beams}, {0: beams})


def verify_inputs():
    g = torch.Generator().manual_seed(17)
    spans = 3.0 + 9.0 * torch.rand(20, generator=g)
    loads = torch.stack([4.0 + 16.0 * torch.rand(20, generator=g),
                         2.0 + 20.0 * torch.rand(20, generator=g)], dim=1)
    spans[7] = 0.0  # blank span on the takeoff
    return [
        # office floor: light to heavy sections, one cambered long beam (11 m), one
        # plant-room beam where 1.4D governs
        example_inputs(),
        # 20 beams from a takeoff, one with a zero span (flag -1)
        (spans, loads),
        # transfer girder (plated, works at some thickness) and a short deep-loaded stub
        # where shear governs and plates cannot help (stops at the plate limit)
        (torch.tensor([12.0, 1.2]), torch.tensor([[60.0, 40.0], [1500.0, 900.0]])),
        # two unloaded placeholder beams
        (torch.tensor([5.0, 6.0]), torch.tensor([[0.0, 0.0], [-1.0, 0.0]])),
    ]
