"""Mobile crane load moment limiter (LMI).

Every sample of a lift is checked against the crane's load chart: the hook
radius follows from boom length and angle, the rated capacity is read off
the chart (derated when the crane stands on rubber instead of outriggers)
and the limiter reports the utilisation.  Above 100 % it cuts out hoist-up /
boom-down motions for the rest of the lift; a lifted outrigger pad means the
crane is already tipping and the whole lift is locked out.
"""
import torch
import torch.nn as nn


class LoadMomentLimiter(nn.Module):
    def __init__(self):
        super().__init__()
        # 50 t all-terrain crane, main boom, 360 deg slew, full outriggers
        self.register_buffer("chart_radius", torch.tensor([3.0, 5.0, 8.0, 12.0, 16.0, 20.0, 25.0, 30.0]))
        self.register_buffer("chart_capacity", torch.tensor([50.0, 35.0, 22.0, 14.0, 9.5, 7.0, 5.0, 3.6]))
        self.slew_offset_m = 1.2
        self.min_pad_bar = 20.0
        self.on_rubber_derate = 0.4
        self.warn_ratio = 0.9
        self.use_dynamic_factor = True
        # dynamic amplification of the hook load from hoisting / slewing
        self.dyn = nn.Linear(3, 1)

    def rated_capacity(self, radius):
        r, c = self.chart_radius, self.chart_capacity
        if radius > r[-1]:
            return torch.zeros_like(radius)  # beyond the chart: no lifting allowed
        if radius <= r[0]:
            return c[0].clone()
        hi = torch.searchsorted(r, radius.reshape(1)).squeeze(0)
        lo = hi - 1
        w = (radius - r[lo]) / (r[hi] - r[lo])
        return c[lo] + w * (c[hi] - c[lo])

    def forward(self, lift, pads):
        n = lift.shape[0]
        if (pads < 1.0).any() and pads.max() > 150.0:
            # one pad off the ground, another heavily loaded: tipping, lock out
            return (torch.full((n,), 9.99), torch.full((n,), 3, dtype=torch.long),
                    torch.tensor(0))
        on_outriggers = bool((pads >= self.min_pad_bar).all())
        derate = 1.0 if on_outriggers else self.on_rubber_derate

        utils, codes = [], []
        cutout_at = torch.tensor(-1)
        for i in range(n):
            length, angle, load = lift[i, 0], lift[i, 1], lift[i, 2]
            radius = length * torch.cos(torch.deg2rad(angle)) + self.slew_offset_m
            cap = self.rated_capacity(radius) * derate
            if self.use_dynamic_factor:
                load = load * (1.0 + 0.02 * torch.sigmoid(self.dyn(lift[i] / 40.0)).squeeze(0))
            util = load / torch.clamp(cap, min=0.1)
            if util >= 1.0:
                code = 2
                cutout_at = torch.tensor(i)
            elif util >= self.warn_ratio:
                code = 1
            else:
                code = 0
            utils.append(util)
            codes.append(code)
            if code == 2:
                break  # cut-out: only lowering motions from here on

        util_t = torch.stack(utils)
        code_t = torch.tensor(codes, dtype=torch.long)
        if util_t.shape[0] < n:
            rest = n - util_t.shape[0]
            util_t = torch.cat([util_t, util_t[-1:].expand(rest)])
            code_t = torch.cat([code_t, torch.full((rest,), 2, dtype=torch.long)])
        return util_t, code_t, cutout_at


def model():
    torch.manual_seed(5901)
    return LoadMomentLimiter().eval()


def make_lift(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    # 8 samples on full outriggers, a normal lift that passes through the warning band
    lift = make_lift([[20.0, 60.0, 8.0], [20.0, 55.0, 8.0], [24.0, 50.0, 8.0], [24.0, 45.0, 7.6],
                      [28.0, 48.0, 6.0], [28.0, 52.0, 7.0], [30.0, 60.0, 9.0], [30.0, 65.0, 9.0]])
    return lift, torch.tensor([80.0, 95.0, 70.0, 88.0])


def dynamic_shapes():
    n = torch.export.Dim("n_samples", min=2, max=24)
    return ({0: n}, None)


def verify_inputs():
    ex = example_inputs()
    # on rubber (one pad unloaded, no pad heavily loaded) and a short steep boom
    # radius <= 3 m -> first chart entry; both samples normal; n = min
    rubber = (make_lift([[10.0, 80.0, 12.0], [12.0, 70.0, 9.0]]),
              torch.tensor([0.0, 30.0, 40.0, 35.0]))
    # long sequence (n = max): booming down until the radius leaves the chart
    rows = [[30.0, 75.0 - 3.0 * k, 3.0] for k in range(18)]
    rows[10] = [40.0, 2.0, 3.0]  # beyond 30 m radius: capacity 0 -> cut-out, break
    rows += [[30.0, 40.0, 3.0]] * 6
    cutout = (make_lift(rows), torch.tensor([110.0, 95.0, 120.0, 100.0]))
    # overload by weight at mid radius (cut-out at the third sample)
    overload = (make_lift([[16.0, 45.0, 10.0], [16.0, 45.0, 14.0], [16.0, 45.0, 20.0],
                           [16.0, 45.0, 5.0]]), torch.tensor([60.0, 60.0, 60.0, 60.0]))
    # tipping: pad lifted off while the opposite pad carries the load -> early return
    tipping = (make_lift([[20.0, 30.0, 9.0], [20.0, 25.0, 9.0], [20.0, 20.0, 9.0]]),
               torch.tensor([0.5, 210.0, 160.0, 3.0]))
    return [ex, rubber, cutout, overload, tipping]
