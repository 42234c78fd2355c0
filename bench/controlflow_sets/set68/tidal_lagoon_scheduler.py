"""Tidal-range power: two-way operating schedule of a tidal lagoon.

From a sea-level record (15-minute samples, m) and the initial lagoon level,
the lagoon is held closed until the head difference is large enough, then
generates through the turbines (ebb or flood) until the head drops below the
stop head or the lagoon would fall below its ecological minimum level, then
opens the sluices to let the levels equalise, and closes again.  Records longer
than three days are decimated to 30 minutes; neap tides that are too small to
generate leave the gates shut.
"""
import torch
import torch.nn as nn

HOLD, GENERATE, SLUICE = 0, 1, 2


class TidalLagoonScheduler(nn.Module):
    def __init__(self, start_head=2.5, stop_head=1.0, min_lagoon=-3.0, area_m2=11.5e6,
                 flow_coeff=2500.0, rated_head=4.0, max_samples=288):
        super().__init__()
        self.start_head = start_head
        self.stop_head = stop_head
        self.min_lagoon = min_lagoon
        self.area = area_m2
        self.flow_coeff = flow_coeff
        self.rated_head = rated_head
        self.max_samples = max_samples
        self.eta = 0.85

    def turbine_flow(self, head):
        q = self.flow_coeff * torch.sqrt(head.abs())
        if head.abs() > self.rated_head:
            # above rated head the wicket gates throttle back to rated flow
            q = self.flow_coeff * torch.sqrt(torch.tensor(self.rated_head))
        return torch.sign(head) * q

    def forward(self, sea, lagoon0):
        dt = 900.0
        if sea.shape[0] > self.max_samples:
            sea = sea[::2]
            dt = 1800.0
        if sea.max() - sea.min() < 2 * self.start_head:
            return torch.zeros(sea.shape[0]), torch.zeros(()), lagoon0.expand(sea.shape[0])
        lagoon = lagoon0[0]
        mode = HOLD
        power, levels = [], []
        for t in range(sea.shape[0]):
            head = sea[t] - lagoon
            p = torch.zeros(())
            if mode == HOLD:
                if head.abs() > self.start_head:
                    mode = GENERATE
            elif mode == GENERATE:
                if head.abs() < self.stop_head or lagoon < self.min_lagoon:
                    mode = SLUICE
                else:
                    q = self.turbine_flow(head)
                    lagoon = lagoon + q * dt / self.area
                    p = self.eta * 1025.0 * 9.81 * q.abs() * head.abs() / 1e6
            else:
                steps = 0
                while (sea[t] - lagoon).abs() > 0.05 and steps < 4:
                    lagoon = lagoon + 0.5 * (sea[t] - lagoon)
                    steps += 1
                mode = HOLD
            power.append(p)
            levels.append(lagoon)
        power = torch.stack(power)
        energy_mwh = power.sum() * dt / 3600.0
        return power, energy_mwh, torch.stack(levels)


def model():
    torch.manual_seed(1606)
    return TidalLagoonScheduler().eval()


def _tide(n, amp, mean=0.0, phase=0.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    # M2 (12.42 h) plus a little S2 and surge noise, 15-minute samples
    x = amp * torch.sin(2 * torch.pi * t / 49.68 + phase) + 0.15 * amp * torch.sin(2 * torch.pi * t / 48.0)
    return mean + x + 0.03 * torch.randn(n, generator=g)


def example_inputs():
    return _tide(100, 3.8, seed=1), torch.tensor([0.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=600)}, None)


def verify_inputs():
    return [
        # example: spring tide, ~1 day: hold -> generate (ebb and flood) -> sluice -> hold
        example_inputs(),
        # neap tide, range too small -> gates stay shut (early return)
        (_tide(60, 1.0, seed=2), torch.tensor([0.2])),
        # 4 days of record (> 3 days, decimated to 30 min), large tides
        (_tide(384, 4.2, phase=1.0, seed=3), torch.tensor([1.0])),
        # low mean sea level: ebb generation drains the lagoon to its ecological minimum
        (_tide(80, 3.6, mean=-1.5, phase=2.0, seed=4), torch.tensor([-0.5])),
        # two samples with a big jump: starts generating at once, no sluicing
        (torch.tensor([-3.0, 3.0]), torch.tensor([0.0])),
    ]
