"""VAV air-handler duct static pressure reset (ASHRAE Guideline 36 "trim & respond").

Every control interval, zones whose damper is nearly wide open *and* whose learned
airflow-shortfall estimator says they are starved send a pressure request. The
AHU ignores a few requests, responds to the rest, and otherwise trims the setpoint.
"""
import torch
import torch.nn as nn


class ShortfallEstimator(nn.Module):
    """Per-zone net: (damper position, zone temperature error) -> airflow shortfall score."""

    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, damper, temp_err):
        return self.net(torch.stack([damper, temp_err], dim=-1)).squeeze(-1)


def count_requests(damper, shortfall, n_zones, weight_critical):
    starving = (damper > 0.95) & (shortfall > 0.0)
    req = starving.sum()
    if weight_critical:
        # a damper pinned beyond 98 % is a critical zone and counts twice
        req = req + ((damper > 0.98) & starving).sum()
    # big floors have more rogue zones, so the AHU ignores more requests
    if n_zones > 16:
        ignores = 4
    else:
        ignores = 2
    return req - ignores


class DuctStaticPressureReset(nn.Module):
    def __init__(self, sp_min=0.15, sp_max=1.5, trim=-0.04, respond=0.06, max_respond=0.15,
                 weight_critical=True):
        super().__init__()
        self.estimator = ShortfallEstimator()
        self.sp_min, self.sp_max = sp_min, sp_max
        self.trim, self.respond, self.max_respond = trim, respond, max_respond
        self.weight_critical = weight_critical

    def forward(self, damper, temp_err, sp0):
        n_steps, n_zones = damper.shape
        sp = sp0.reshape(())
        alarms = torch.zeros((), dtype=torch.int64)
        setpoints, requests = [], []
        for t in range(n_steps):
            score = self.estimator(damper[t], temp_err[t])
            net_req = count_requests(damper[t], score, n_zones, self.weight_critical)
            if net_req > 0:
                sp = sp + torch.clamp(net_req * self.respond, max=self.max_respond)
            elif not (damper[t] > 0.5).any():
                sp = sp + 2.0 * self.trim  # every damper is throttled: trim twice as fast
            else:
                sp = sp + self.trim
            if sp > self.sp_max:
                sp = torch.full_like(sp, self.sp_max)
                alarms = alarms + 1  # fan at its limit while zones are still starving
            elif sp < self.sp_min:
                sp = torch.full_like(sp, self.sp_min)
            setpoints.append(sp)
            requests.append(net_req.clamp(min=0))
        return torch.stack(setpoints), torch.stack(requests).float(), alarms


def model():
    torch.manual_seed(5801)
    return DuctStaticPressureReset().eval()


def _case(steps, zones, lo, hi, err_scale, sp0, seed):
    g = torch.Generator().manual_seed(seed)
    damper = lo + (hi - lo) * torch.rand(steps, zones, generator=g)
    temp_err = err_scale * torch.randn(steps, zones, generator=g)
    return damper, temp_err, torch.tensor([sp0])


def example_inputs():
    return _case(12, 8, 0.3, 1.0, 1.5, 0.8, 0)


def dynamic_shapes():
    steps = torch.export.Dim("steps", min=2, max=48)
    zones = torch.export.Dim("zones", min=2, max=64)
    return ({0: steps, 1: zones}, {0: steps, 1: zones}, None)


def verify_inputs():
    return [
        # mixed dampers, 8 zones (<= 16: ignore 2): mostly trims, some responds
        example_inputs(),
        # 64 zones (> 16: ignore 4) all nearly wide open and hot: responds until sp_max -> alarms
        _case(48, 64, 0.96, 1.0, 3.0, 1.2, 1),
        # 2 zones, both throttled below 50 %: double trim, clamps at sp_min
        _case(2, 2, 0.1, 0.4, 0.5, 0.2, 2),
        # 20 zones (> 16), half-open dampers: plain trim, stays inside the band
        _case(6, 20, 0.45, 0.9, 1.0, 0.9, 3),
    ]
