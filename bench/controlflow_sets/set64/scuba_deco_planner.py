"""Recreational/tech dive planner: Buehlmann-style decompression schedule.

The dive profile is a list of (depth m, minutes) segments.  Four nitrogen
tissue compartments are loaded with the Haldane equation.  If the tissues
allow a direct ascent the plan only adds the customary safety stop after
deeper dives; otherwise the diver ascends to the first 3 m stop and waits
minute by minute at each stop until the gradient-factor ceiling clears the
next stop.  Plans that exceed the allowed total deco time are aborted.
"""
import torch
import torch.nn as nn

SURFACE_BAR = 1.013
WATER_VAPOUR_BAR = 0.0627
N2_FRACTION = 0.79


class DecoPlanner(nn.Module):
    def __init__(self, gf_high=0.85, ascent_m_per_min=9.0, stop_step_m=3.0, max_deco_min=60,
                 safety_stop_from_m=10.0):
        super().__init__()
        self.gf = gf_high
        self.ascent_rate = ascent_m_per_min
        self.step = stop_step_m
        self.max_deco = max_deco_min
        self.safety_from = safety_stop_from_m
        self.register_buffer("half_time", torch.tensor([5.0, 12.5, 27.0, 54.3]))
        self.register_buffer("a", torch.tensor([1.1696, 0.8618, 0.6200, 0.4701]))
        self.register_buffer("b", torch.tensor([0.5578, 0.7222, 0.8126, 0.8673]))

    def _ambient(self, depth):
        return SURFACE_BAR + depth / 10.0

    def _load(self, p, depth, minutes):
        inspired = N2_FRACTION * (self._ambient(depth) - WATER_VAPOUR_BAR)
        k = 1.0 - torch.pow(2.0, -minutes / self.half_time)
        return p + (inspired - p) * k

    def _ceiling(self, p):
        tolerated = (p - self.a * self.gf) / (self.gf / self.b - self.gf + 1.0)
        return ((tolerated.max() - SURFACE_BAR) * 10.0).clamp_min(0.0)

    def forward(self, segments):
        p = torch.full((4,), N2_FRACTION * (SURFACE_BAR - WATER_VAPOUR_BAR))
        max_depth = segments[:, 0].max()
        for s in range(segments.shape[0]):
            p = self._load(p, segments[s, 0], segments[s, 1])

        depth = segments[-1, 0]
        stops = []
        total = torch.zeros(())
        exceeded = torch.tensor(False)
        ceiling = self._ceiling(p)
        if ceiling <= 0.0:
            if max_depth > self.safety_from:
                stops.append(torch.stack([torch.tensor(5.0), torch.tensor(3.0)]))
                total = total + 3.0
        else:
            first_stop = torch.ceil(ceiling / self.step) * self.step
            p = self._load(p, (depth + first_stop) / 2, (depth - first_stop) / self.ascent_rate)
            depth = first_stop
            while depth > 0:
                next_stop = depth - self.step
                minutes = torch.zeros(())
                while self._ceiling(p) > next_stop:
                    if total >= self.max_deco:
                        break
                    p = self._load(p, depth, torch.tensor(1.0))
                    minutes = minutes + 1
                    total = total + 1
                if total >= self.max_deco and self._ceiling(p) > next_stop:
                    exceeded = torch.tensor(True)
                    break
                if minutes > 0:
                    stops.append(torch.stack([depth, minutes]))
                p = self._load(p, depth - self.step / 2, self.step / self.ascent_rate)
                depth = next_stop

        schedule = torch.stack(stops) if len(stops) > 0 else torch.zeros(0, 2)
        return schedule, total, exceeded, p


def model():
    torch.manual_seed(64)
    return DecoPlanner().eval()


def _dive(*segs):
    return torch.tensor(segs, dtype=torch.float32)


def example_inputs():
    return (_dive((40.0, 25.0), (30.0, 5.0)),)


def dynamic_shapes():
    s = torch.export.Dim("segments", min=2, max=20)
    return ({0: s},)


def verify_inputs():
    return [
        example_inputs(),                               # deco dive: several stops, outer while many times, inner waits
        (_dive((18.0, 30.0), (12.0, 10.0)),),          # no-deco, deeper than 10 m -> safety stop
        (_dive((8.0, 30.0), (6.0, 20.0)),),            # no-deco shallow -> no safety stop, empty schedule
        (_dive((60.0, 40.0), (50.0, 20.0)),),          # huge obligation -> total deco cap hit: inner break, outer break
        (_dive((30.0, 30.0), (25.0, 10.0), (12.0, 5.0)),),  # multi-level deco dive, 3 segments: stops at 6 m and 3 m
        (_dive((39.0, 12.0), (34.0, 3.0)),),            # first stop 6 m clears during the ascent: 0 minutes there (no append)
        (_dive((24.0, 35.0), (19.0, 3.0)),),            # light deco: only the 3 m stop, outer while runs once
    ]
