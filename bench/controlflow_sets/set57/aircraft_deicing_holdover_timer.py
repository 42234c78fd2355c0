"""Holdover-time (HOT) tracker for a de-iced aircraft waiting to take off.

After anti-icing fluid is applied, the crew has a limited holdover time
before the fluid fails, which depends on the fluid, outside air temperature
and the kind and rate of precipitation.  The tracker looks at the recent
weather observations (worst case over the last ten minutes), picks the HOT
from the company's guideline for the fluid in use, and tells the crew
whether they are inside the HOT, in the last 20 % (pre-takeoff
contamination check needed) or past it (return for de-icing).
"""
import torch
import torch.nn as nn

FROST, SNOW, FREEZING_DRIZZLE, FREEZING_RAIN = 0.0, 1.0, 2.0, 3.0


class HoldoverTimer(nn.Module):
    def __init__(self, fluid_type=4, window_min=10):
        super().__init__()
        self.fluid_type = fluid_type
        self.window_min = window_min
        # lowest operational use temperature of the fluid
        self.lout_c = -29.0 if fluid_type == 4 else -25.0
        self.snow_minutes = (90.0, 45.0) if fluid_type == 4 else (11.0, 6.0)
        # learned de-rating of the guideline value from the weather trend
        self.trend_net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def guideline_minutes(self, oat, rate, ptype, wind):
        if ptype == FROST:
            hot = torch.full((), 720.0)
        elif ptype == SNOW:
            if rate < 10.0:
                hot = torch.full((), self.snow_minutes[0])
            elif rate < 25.0:
                hot = torch.full((), self.snow_minutes[1])
            else:
                # heavy snow: no holdover guidance exists
                hot = torch.zeros(())
        elif ptype == FREEZING_DRIZZLE and oat >= -10.0:
            hot = torch.full((), 40.0)
        elif ptype == FREEZING_RAIN and oat >= -10.0:
            hot = 25.0 - 1.0 * (-oat).clamp(min=0.0)
        else:
            # freezing precipitation below -10 C: outside the tables
            hot = torch.zeros(())
        if wind > 10.0 and (ptype == SNOW or ptype == FREEZING_DRIZZLE):
            # company policy: blowing precipitation shortens the HOT
            hot = hot * 0.8
        return hot

    def forward(self, wx, elapsed_min):
        # wx: (n_obs, 4) one-minute obs [OAT C, precip rate g/dm2/h, precip type, wind kt]
        recent = wx[-self.window_min:] if wx.shape[0] > self.window_min else wx
        oat = recent[:, 0].min()
        rate = recent[:, 1].max()
        ptype = recent[:, 2].max()
        wind = recent[:, 3].max()

        if oat < self.lout_c:
            # fluid may not be used at all
            return torch.zeros(1), -elapsed_min.reshape(1), torch.tensor([2])

        hot = self.guideline_minutes(oat, rate, ptype, wind)
        trend = recent[-1] - recent[0]
        hot = hot * (0.85 + 0.15 * self.trend_net(trend / 10.0).squeeze(-1))

        remaining = hot - elapsed_min
        if remaining <= 0:
            status = torch.tensor([2])        # return for de-icing
        elif remaining < 0.2 * hot:
            status = torch.tensor([1])        # pre-takeoff contamination check
        else:
            status = torch.tensor([0])
        return hot.reshape(1), remaining.reshape(1), status


def model():
    torch.manual_seed(5709)
    return HoldoverTimer().eval()


N_OBS = torch.export.Dim("n_obs", min=2, max=120)


def _wx(n, oat, rate, ptype, wind, seed):
    g = torch.Generator().manual_seed(seed)
    w = torch.tensor([oat, rate, ptype, wind]).repeat(n, 1)
    w[:, 0] += 0.3 * torch.randn(n, generator=g)
    w[:, 1] = (w[:, 1] + torch.rand(n, generator=g)).clamp(min=0.0) * (ptype != FROST)
    w[:, 3] += torch.rand(n, generator=g)
    return w


def example_inputs():
    # light snow at -4 C, 30 minutes since anti-icing -> inside HOT
    return (_wx(30, -4.0, 5.0, SNOW, 6.0, 1), torch.tensor(30.0))


def dynamic_shapes():
    return ({0: N_OBS}, None)


def verify_inputs():
    return [
        # light snow, calm -> 90 min guideline, status 0 (inside HOT)
        example_inputs(),
        # frost, 2 obs only (window = all obs), 100 min elapsed -> status 0
        (_wx(2, -8.0, 0.0, FROST, 3.0, 2), torch.tensor(100.0)),
        # moderate snow, windy -> 45 min de-rated to ~33, 30 min elapsed -> last 20 %, status 1
        (_wx(60, -6.0, 18.0, SNOW, 15.0, 3), torch.tensor(30.0)),
        # heavy snow -> no guidance, status 2
        (_wx(12, -2.0, 40.0, SNOW, 4.0, 4), torch.tensor(5.0)),
        # freezing drizzle at -3 C, windy, 120 obs -> 40 min de-rated, 50 min elapsed, status 2
        (_wx(120, -3.0, 3.0, FREEZING_DRIZZLE, 14.0, 5), torch.tensor(50.0)),
        # freezing rain at -2 C -> ~23 min, 10 min elapsed, status 0
        (_wx(20, -2.0, 8.0, FREEZING_RAIN, 5.0, 6), torch.tensor(10.0)),
        # freezing drizzle at -14 C -> outside the tables, HOT 0
        (_wx(15, -14.0, 2.0, FREEZING_DRIZZLE, 2.0, 7), torch.tensor(1.0)),
        # -33 C, below the fluid's LOUT -> early return
        (_wx(8, -33.0, 1.0, SNOW, 2.0, 8), torch.tensor(0.0)),
    ]
