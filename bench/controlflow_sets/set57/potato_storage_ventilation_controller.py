"""Ventilation controller for a bulk potato store.

Temperature / humidity / CO2 probes are buried in the pile.  Every control
interval the controller decides between cooling with outside air, a
fresh-air purge against CO2 build-up, or plain recirculation, and whether
the humidifier runs.  Fan speed for outside-air cooling comes from a small
model trained on the store's historical logs.
"""
import torch
import torch.nn as nn


class ProbeAggregator(nn.Module):
    """Combine pile probes, ignoring dead probes (which read exactly zero)."""

    def __init__(self, min_probes_for_median=4):
        super().__init__()
        self.min_probes_for_median = min_probes_for_median

    def forward(self, probes):
        alive = probes[:, 0] != 0.0
        probes = probes[alive]
        if probes.shape[0] >= self.min_probes_for_median:
            return probes.median(dim=0).values
        return probes.mean(dim=0)


class StoreVentController(nn.Module):
    def __init__(self, holding_temp=7.0, curing=False):
        super().__init__()
        self.curing = curing
        self.holding_temp = holding_temp
        self.probes = ProbeAggregator()
        self.fan_net = nn.Sequential(nn.Linear(4, 12), nn.Tanh(), nn.Linear(12, 1))
        self.co2_limit_ppm = 3000.0
        self.min_rh = 90.0

    def forward(self, probes, outside):
        # probes: (n_probes, 3) [pile temp C, RH %, CO2 ppm]; outside: (2,) [temp C, RH %]
        pile = self.probes(probes)
        pile_temp, pile_rh, pile_co2 = pile[0], pile[1], pile[2]
        out_temp = outside[0]
        # during wound curing the pile is held warm
        target = 13.0 if self.curing else self.holding_temp

        humidifier = torch.zeros(())
        too_warm = pile_temp > target + 0.5
        outside_useful = (out_temp < pile_temp - 1.0) and (out_temp > -2.0)
        if too_warm and outside_useful:
            mode = torch.tensor(1)            # outside-air cooling
            feats = torch.stack([pile_temp - target, pile_temp - out_temp, pile_rh / 100.0, outside[1] / 100.0])
            fan = torch.sigmoid(self.fan_net(feats)).squeeze(-1)
            if outside[1] < self.min_rh:
                humidifier = torch.ones(())
        elif pile_co2 > self.co2_limit_ppm:
            mode = torch.tensor(2)            # short fresh-air purge at fixed speed
            fan = torch.tensor(0.3)
        else:
            mode = torch.tensor(0)            # recirculate to even out the pile
            fan = torch.tensor(0.15)
        return mode, fan, humidifier


def model():
    torch.manual_seed(5706)
    return StoreVentController().eval()


N_PROBES = torch.export.Dim("n_probes", min=2, max=48)


def _probes(n, temp, rh, co2, seed, dead=0):
    g = torch.Generator().manual_seed(seed)
    p = torch.tensor([temp, rh, co2]).repeat(n, 1)
    p = p + torch.randn(n, 3, generator=g) * torch.tensor([0.2, 1.0, 50.0])
    p[:dead] = 0.0
    return p


def example_inputs():
    # warm pile after harvest, cold dry night -> outside-air cooling with humidifier
    return (_probes(12, 10.0, 94.0, 1500.0, 1, dead=2), torch.tensor([3.0, 80.0]))


def dynamic_shapes():
    return ({0: N_PROBES}, None)


def verify_inputs():
    return [
        # median of 10 live probes; too warm + useful outside air -> cooling, humidifier on (RH 80)
        example_inputs(),
        # 2 probes (mean); too warm, humid outside -> cooling, humidifier stays off
        (_probes(2, 9.5, 95.0, 1200.0, 2), torch.tensor([4.0, 95.0])),
        # 48 probes; pile at target but CO2 high -> purge
        (_probes(48, 7.2, 95.0, 4200.0, 3), torch.tensor([10.0, 70.0])),
        # too warm but outside is warmer -> not useful; CO2 ok -> recirculate
        (_probes(6, 9.0, 95.0, 1500.0, 4), torch.tensor([12.0, 60.0])),
        # too warm, outside colder but freezing (-6 C) -> not useful; CO2 high -> purge
        (_probes(5, 9.0, 95.0, 3600.0, 5, dead=2), torch.tensor([-6.0, 85.0])),
    ]
