"""Soaring glider thermalling assistant: fly circles, sample the (filtered)
vario around each circle, shift the circle towards the strongest lift until the
climb is even all round, then tighten the circle while that keeps improving the
average climb. Gives up on thermals too weak to be worth circling in.

Kind X; constructs 1, 2, 4, 6, 7, 8, 9."""
import torch
import torch.nn as nn
from torch.export import Dim

GLIDER_SINK = 0.8   # m/s in a 40 degree bank


def thermal_lift(px, py, thermal):
    """Gaussian thermal core (x, y, core climb m/s, radius m) minus the glider's own sink."""
    cx, cy, w0, radius = thermal.unbind(0)
    d2 = ((px - cx) ** 2 + (py - cy) ** 2) / radius ** 2
    return w0 * torch.exp(-d2) - GLIDER_SINK


def sample_circle(center, headings, thermal, radius):
    px = center[0] + radius * torch.cos(headings)
    py = center[1] + radius * torch.sin(headings)
    return thermal_lift(px, py, thermal)


class VarioFilter(nn.Module):
    """Total-energy vario smoothing. Long circles (many samples) get a learned FIR
    smoother around the circle; short ones are used raw."""

    def __init__(self):
        super().__init__()
        self.fir = nn.Conv1d(1, 1, 5, padding=2, padding_mode="circular", bias=False)
        with torch.no_grad():
            w = torch.tensor([0.1, 0.2, 0.4, 0.2, 0.1]) + 0.02 * torch.randn(5)
            self.fir.weight.copy_((w / w.sum()).view(1, 1, 5))

    def forward(self, lift):
        if lift.shape[0] > 16:
            return self.fir(lift[None, None])[0, 0]
        return lift


class ThermalCentering(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(413)
        self.vario = VarioFilter()
        self.max_circles = 8
        self.min_climb = 0.3          # m/s average, below that leave the thermal
        self.even_spread = 0.4        # m/s max-min around the circle = centred
        self.min_radius = 45.0
        self.start_radius = 100.0

    def circle_climb(self, center, headings, thermal, radius):
        return self.vario(sample_circle(center, headings, thermal, radius))

    def forward(self, headings, thermal):
        # headings: [K] sample headings around a circle (rad), thermal: [4] (x, y, core climb, radius)
        center = torch.zeros(2, dtype=headings.dtype)
        radius = torch.full((), self.start_radius, dtype=headings.dtype)
        track = []
        avg = torch.zeros((), dtype=headings.dtype)
        for n in range(self.max_circles):
            lift = self.circle_climb(center, headings, thermal, radius)
            avg = lift.mean()
            track.append(torch.stack([center[0], center[1], radius, avg]))
            if avg < self.min_climb:
                # not worth it: leave and report where we gave up
                return torch.stack(track), torch.zeros_like(avg)
            spread = lift.max() - lift.min()
            if spread < self.even_spread:
                while radius * 0.8 > self.min_radius:
                    tighter = self.circle_climb(center, headings, thermal, radius * 0.8).mean()
                    if tighter < avg + 0.05:
                        break
                    radius, avg = radius * 0.8, tighter
                track.append(torch.stack([center[0], center[1], radius, avg]))
                break
            best = headings[torch.argmax(lift)]
            step = 0.5 * radius * torch.clamp(spread / (spread + avg), max=1.0)
            center = center + step * torch.stack([torch.cos(best), torch.sin(best)])
        return torch.stack(track), avg


def model():
    return ThermalCentering().eval()


def _headings(K, offset=0.05):
    return torch.arange(K, dtype=torch.float32) * (2 * 3.14159265 / K) + offset


def example_inputs():
    return _headings(24), torch.tensor([120.0, 60.0, 3.0, 150.0])


def dynamic_shapes():
    return ({0: Dim("samples", min=4, max=36)}, None)


def verify_inputs():
    return [
        example_inputs(),                                          # off-centre thermal: shift x4, centred, tighten twice
        (_headings(4), torch.tensor([500.0, 0.0, 1.5, 80.0])),     # min samples, core far away -> weak climb, leave at once
        (_headings(12), torch.tensor([5.0, -5.0, 1.6, 400.0])),    # wide weak thermal already centred; tightening does not help (break)
        (_headings(36), torch.tensor([-120.0, -60.0, 5.0, 120.0])),  # max samples (FIR): chase, centre, tighten
        (_headings(8), torch.tensor([300.0, 0.0, 6.0, 250.0])),    # big thermal far off: still chasing after max circles
    ]
