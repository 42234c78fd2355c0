"""Winter road maintenance: spreader rate controller for a gritting route.

For every road segment on the route the truck's controller picks the
material (dry salt, pre-wetted salt, or sand when it is too cold for salt to
work) and a spread rate from pavement temperature and snow depth, scaled by
a learned refreeze-risk term.  Dry, warm segments are skipped; deep snow is
plowed before spreading.  When the hopper cannot cover the next segment the
truck spreads what is left and returns to the depot.
"""
import torch
import torch.nn as nn

NONE, SALT, PREWET, SAND = 0, 1, 2, 3


class SpreaderController(nn.Module):
    def __init__(self):
        super().__init__()
        # kg per lane-km
        self.salt_rate = 15.0
        self.prewet_rate = 22.0
        self.cold_prewet_rate = 30.0
        self.sand_rate = 120.0
        self.plow_depth_cm = 5.0
        self.refreeze = nn.Linear(4, 1)

    def material_and_rate(self, temp_c, snow_cm):
        if temp_c < -12.0:
            return SAND, self.sand_rate  # salt no longer melts: abrasive only
        if temp_c < -9.0:
            return PREWET, self.cold_prewet_rate
        elif temp_c < -4.0:
            return PREWET, self.prewet_rate
        rate = self.salt_rate * (1.5 if snow_cm > 2.0 else 1.0)
        return SALT, rate

    def forward(self, segments, hopper_kg):
        n = segments.shape[0]
        temp, snow, traffic, lane_km = segments.unbind(1)
        scale = torch.tensor([10.0, 10.0, 20.0, 5.0])
        risk = torch.sigmoid(self.refreeze(segments / scale)).squeeze(1)

        rates = torch.zeros(n)
        material = torch.zeros(n, dtype=torch.long)
        plowed = torch.zeros(n, dtype=torch.long)
        remaining = hopper_kg.clone()
        stop_at = torch.tensor(n)
        for i in range(n):
            if temp[i] > 1.0 and not snow[i] > 0.5:
                continue  # dry and above freezing: spinner off
            if snow[i] > self.plow_depth_cm:
                plowed[i] = 1
            mat, base = self.material_and_rate(temp[i], snow[i])
            rate = base * (0.9 + 0.2 * risk[i])
            # heavy traffic helps the brine work: 10 % less on busy roads
            rate = rate * 0.9 if traffic[i] > 15.0 else rate
            material[i] = mat
            if mat == SAND:
                rates[i] = rate  # sand comes from the front box, not the hopper
                continue
            need = rate * lane_km[i]
            if need > remaining:
                rates[i] = remaining / lane_km[i]
                remaining = torch.zeros(())
                stop_at = torch.tensor(i)
                break  # hopper empty: back to the depot
            rates[i] = rate
            remaining = remaining - need
        return rates, material, plowed, stop_at, hopper_kg - remaining


def model():
    torch.manual_seed(5908)
    return SpreaderController().eval()


def make_route(rows):
    return torch.tensor(rows, dtype=torch.float32)


def example_inputs():
    # pavement C, snow cm, traffic (k veh/day), lane-km
    route = make_route([[-2.0, 1.0, 22.0, 6.0],    # salt, busy road
                        [-6.5, 3.0, 8.0, 4.0],     # pre-wet
                        [2.5, 0.0, 12.0, 3.0],     # dry and warm: skip
                        [-10.5, 7.0, 4.0, 5.0],    # plow + cold pre-wet
                        [-15.0, 2.0, 2.0, 8.0],    # sand
                        [-1.0, 4.0, 10.0, 6.0]])   # salt, 1.5x for snow
    return route, torch.tensor(3000.0)


def dynamic_shapes():
    return ({0: torch.export.Dim("segments", min=2, max=40)}, None)


def verify_inputs():
    ex = example_inputs()
    # 2 segments: warm but slushy (snow on a +2 C road) -> salt; then a sanding segment
    two = (make_route([[2.0, 1.5, 5.0, 3.0], [-13.0, 0.0, 1.0, 2.0]]), torch.tensor(500.0))
    # 40 segments on a long rural route, small hopper -> runs out, return to depot
    g = torch.Generator().manual_seed(11)
    temp = -14.0 + 16.0 * torch.rand(40, generator=g)
    snow = 8.0 * torch.rand(40, generator=g)
    traffic = 30.0 * torch.rand(40, generator=g)
    lane_km = 2.0 + 6.0 * torch.rand(40, generator=g)
    rural = (torch.stack([temp, snow, traffic, lane_km], 1), torch.tensor(1200.0))
    return [ex, two, rural]
