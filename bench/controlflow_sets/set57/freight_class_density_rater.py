"""LTL (less-than-truckload) freight rating by density class.

A shipment is a list of handling units (pallets / crates) with dimensions in
inches and weight in pounds.  The carrier's tariff derives a freight class
from the shipment density, prices per hundredweight, then applies the usual
rules: minimum charge, over-length surcharge, linear-foot rule for bulky low
density freight, a volume-quote discount for big shipments and a fuel
surcharge estimated from the lane.
"""
import torch
import torch.nn as nn


def density_class(density_pcf):
    # simplified density scale of the carrier's tariff
    if density_pcf >= 30.0:
        return 60.0
    elif density_pcf >= 15.0:
        return 70.0
    elif density_pcf >= 10.0:
        return 85.0
    elif density_pcf >= 6.0:
        return 125.0
    elif density_pcf >= 2.0:
        return 250.0
    else:
        return 400.0


def linear_foot_charge(units, rate_per_linear_ft, trailer_width_in=96.0):
    """Charge by trailer floor length when pallets cannot be stacked."""
    # two pallets side by side when they fit across the trailer
    widths = torch.minimum(units[:, 0], units[:, 1])
    lengths = torch.maximum(units[:, 0], units[:, 1])
    if 2.0 * widths.max() <= trailer_width_in:
        floor_in = lengths.sum() / 2.0
    else:
        floor_in = lengths.sum()
    return floor_in / 12.0 * rate_per_linear_ft


class FreightRater(nn.Module):
    def __init__(self, base_rate_cwt=38.0, min_charge=95.0, overlength_in=96.0, overlength_fee=85.0,
                 linear_ft_rate=28.0, volume_units=20, volume_discount=0.15):
        super().__init__()
        self.base_rate_cwt = base_rate_cwt
        self.min_charge = min_charge
        self.overlength_in = overlength_in
        self.overlength_fee = overlength_fee
        self.linear_ft_rate = linear_ft_rate
        self.volume_units = volume_units
        self.volume_discount = volume_discount
        # lane features -> fuel surcharge fraction
        self.fuel_net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, units, lane):
        # units: (n_units, 4) [length in, width in, height in, weight lb]
        # lane: (3,) [distance in 1000 mi, diesel $/gal, origin region code]
        cube_ft3 = (units[:, 0] * units[:, 1] * units[:, 2]).sum() / 1728.0
        weight = units[:, 3].sum()
        density = weight / cube_ft3
        freight_class = density_class(density)

        distance_factor = 0.6 + lane[0]
        charge = self.base_rate_cwt * (freight_class / 100.0) * distance_factor * weight / 100.0

        # bulky, light freight taking lots of floor: linear-foot rule if it is worth more
        floor_len_ft = units[:, 0].sum() / 12.0
        if floor_len_ft > 12.0 and density < 6.0:
            charge = torch.maximum(charge, linear_foot_charge(units, self.linear_ft_rate) * distance_factor)

        overlength = units[:, :3].max(dim=1).values > self.overlength_in
        if overlength.any():
            charge = charge + self.overlength_fee * overlength.sum()

        if units.shape[0] > self.volume_units:
            charge = charge * (1.0 - self.volume_discount)

        if charge < self.min_charge:
            charge = torch.full_like(charge, self.min_charge)

        fuel = 0.4 * torch.sigmoid(self.fuel_net(lane)).squeeze(-1)
        total = charge * (1.0 + fuel)
        return total.reshape(1), torch.tensor([freight_class])


def model():
    torch.manual_seed(5705)
    return FreightRater().eval()


N_UNITS = torch.export.Dim("n_units", min=2, max=64)


def _pallets(n, weight, dims=(48.0, 40.0, 48.0), seed=0):
    g = torch.Generator().manual_seed(seed)
    u = torch.tensor([*dims, weight]).repeat(n, 1)
    u[:, 3] += 10.0 * torch.rand(n, generator=g)
    return u


LANE = torch.tensor([1.2, 3.9, 2.0])


def example_inputs():
    # 4 standard pallets of machine parts, ~34 pcf -> class 60
    return (_pallets(4, 1800.0, seed=1), LANE)


def dynamic_shapes():
    return ({0: N_UNITS}, None)


def verify_inputs():
    crate = _pallets(2, 2300.0, dims=(120.0, 40.0, 40.0), seed=7)   # over-length crates, ~36 pcf
    return [
        # class 60 (density >= 30)
        example_inputs(),
        # class 70 (15..30), 64 units -> volume discount
        (_pallets(64, 1000.0, seed=2), LANE),
        # class 85 (10..15), over-length crates mixed in -> over-length surcharge
        (torch.cat([_pallets(3, 650.0, seed=3), _pallets(1, 1000.0, dims=(110.0, 40.0, 40.0))]), LANE),
        # class 125 (6..10), 2 small light boxes -> minimum charge applies
        (_pallets(2, 12.0, dims=(20.0, 16.0, 12.0), seed=4), torch.tensor([0.1, 3.5, 1.0])),
        # class 250 (2..6), 5 pallets, 20 ft of floor -> linear-foot rule, side by side
        (_pallets(5, 200.0, seed=5), LANE),
        # class 400 (< 2), wide 100-in units laid end to end (not side by side) -> linear-foot rule
        (_pallets(3, 200.0, dims=(100.0, 60.0, 80.0), seed=6), LANE),
        # two over-length crates only (~21 pcf, class 70) -> surcharge on every unit
        (crate, LANE),
    ]
