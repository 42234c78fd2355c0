"""Distribution transformer thermal model (IEEE C57.91 clause 7) with fan staging.

Steps the top-oil rise exponentially toward its ultimate value for each load step,
adds the winding hot-spot gradient, stages cooling (ONAN -> ONAF -> OFAF) from the
hot-spot temperature, sheds load in an emergency and trips on a 180 degC hot spot.
Outputs: hot-spot temperature per step, aging acceleration factor per step, equivalent
aging over the profile, and the step at which the protection tripped (-1 if never).
"""
import math

import torch
import torch.nn as nn

# mode: (oil exponent n, winding exponent m, top-oil time constant h, rating multiplier)
COOLING = {
    "ONAN": (0.8, 0.8, 3.0, 1.0),
    "ONAF": (0.9, 0.8, 2.0, 1.33),
    "OFAF": (1.0, 0.8, 1.25, 1.67),
}


def next_mode(mode, hot_spot):
    if hot_spot > 105.0 and mode == "ONAF":
        return "OFAF"
    if hot_spot > 95.0 and mode == "ONAN":
        return "ONAF"
    if hot_spot < 80.0:
        return "ONAN"  # fans off with hysteresis
    return mode


class HotSpotAging(nn.Module):
    def __init__(self, dt_h=0.25, top_oil_rise=55.0, hs_gradient=25.0, loss_ratio=4.87,
                 trip_c=180.0):
        super().__init__()
        self.dt_h = dt_h
        self.top_oil_rise, self.hs_gradient, self.loss_ratio = top_oil_rise, hs_gradient, loss_ratio
        self.trip_c = trip_c

    def forward(self, load_pu, ambient_c):
        steps = load_pu.shape[0]
        r = self.loss_ratio
        mode = "ONAN"
        d_top = torch.tensor(20.0)  # oil starts near ambient + light-load rise
        theta_h = ambient_c[0] + d_top
        trip = torch.tensor(-1)
        hot, faa = [], []
        for t in range(steps):
            n, m, tau, mult = COOLING[mode]
            k = load_pu[t] / mult
            if k > 1.5 or (theta_h > 140.0 and k > 1.0):
                k = 0.8 * k  # emergency: shed a fifth of the load
            ultimate = self.top_oil_rise * ((k * k * r + 1.0) / (r + 1.0)) ** n
            d_top = d_top + (ultimate - d_top) * (1.0 - math.exp(-self.dt_h / tau))
            theta_h = ambient_c[t] + d_top + self.hs_gradient * k ** (2.0 * m)
            if theta_h > self.trip_c:
                trip = torch.tensor(t)
                break  # protection opens the breaker
            hot.append(theta_h)
            faa.append(torch.exp(15000.0 / 383.0 - 15000.0 / (theta_h + 273.0)))
            mode = next_mode(mode, theta_h)
        done = len(hot)
        # de-energised for the rest of the profile: hot spot falls to ambient, no aging
        hot_t = torch.cat([torch.stack(hot), ambient_c[done:]]) if done > 0 else ambient_c.clone()
        faa_t = torch.cat([torch.stack(faa), torch.zeros(steps - done)]) if done > 0 \
            else torch.zeros(steps)
        return hot_t, faa_t, faa_t.mean(), trip


def model():
    torch.manual_seed(5810)
    return HotSpotAging().eval()


def _profile(steps, base, peak, peak_at, width, amb_mean, amb_amp):
    t = torch.arange(steps, dtype=torch.float32)
    load = base + (peak - base) * torch.exp(-((t - peak_at) / width) ** 2)
    ambient = amb_mean + amb_amp * torch.sin(2 * torch.pi * (t - steps / 4) / steps)
    return load, ambient


def example_inputs():
    # one summer day in 15-minute steps, evening peak at 1.2 pu: fans stage on and off
    return _profile(96, 0.6, 1.2, 75, 10, 30.0, 6.0)


def dynamic_shapes():
    s = torch.export.Dim("steps", min=4, max=96)
    return ({0: s}, {0: s})


def verify_inputs():
    return [
        # ONAN -> ONAF -> OFAF and back, no emergency
        example_inputs(),
        # 4 steps of light winter load: stays ONAN
        _profile(4, 0.4, 0.5, 2, 2, -5.0, 2.0),
        # heat wave with a 3.2 pu fault-recovery overload: all fans, emergency shedding,
        # hot spot still passes 180 degC -> trip at step 18, rest of profile de-energised
        _profile(40, 0.9, 3.2, 20, 12, 42.0, 3.0),
        # 3.5 pu on a 45 degC day trips on the very first step: whole profile de-energised
        (torch.tensor([3.5, 1.0, 1.0, 1.0, 1.0]), torch.tensor([45.0, 44.0, 43.0, 42.0, 41.0])),
        # hot evening, 2 pu: OFAF, hot spot above 140 degC with k > 1 -> conditional shedding,
        # no trip
        _profile(60, 1.0, 2.0, 30, 15, 40.0, 2.0),
    ]
