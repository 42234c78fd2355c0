"""Lightning detection network: group located strokes (time-ordered) into flashes and
summarise each flash (centroid, multiplicity, peak current, duration, cloud-to-ground flag).

Kind X. Constructs: 1 2 3 5 6 7
"""
import torch
import torch.nn as nn


class FlashGrouper(nn.Module):
    def __init__(self, max_gap_s=0.5, max_radius_km=10.0, max_duration_s=2.0, min_current_ka=2.0):
        super().__init__()
        self.max_gap = max_gap_s
        self.max_radius = max_radius_km
        self.max_duration = max_duration_s
        self.min_current = min_current_ka

    def centroid(self, strokes):
        if strokes.shape[0] == 1:
            return strokes[0, 1:3]
        w = strokes[:, 3].abs()
        return (strokes[:, 1:3] * w[:, None]).sum(0) / w.sum()

    def summarise(self, members):
        strokes = torch.stack(members)
        c = self.centroid(strokes)
        peak = strokes[:, 3].abs().max()
        duration = strokes[-1, 0] - strokes[0, 0]
        # negative strokes above 10 kA are almost always cloud-to-ground
        if (strokes[:, 3] < -10.0).any():
            cg = torch.ones(())
        else:
            cg = torch.zeros(())
        mult = torch.tensor(float(len(members)))
        return torch.stack([c[0], c[1], mult, peak, duration, cg])

    def starts_new_flash(self, stroke, first, last):
        gap = stroke[0] - last[0]
        dist = (stroke[1:3] - first[1:3]).norm()
        return gap > self.max_gap or dist > self.max_radius or stroke[0] - first[0] > self.max_duration

    def forward(self, strokes):
        flashes = []
        members = []
        for i in range(strokes.shape[0]):
            s = strokes[i]
            if s[3].abs() < self.min_current:
                continue        # weak detections are mostly intra-cloud noise
            if len(members) > 0 and self.starts_new_flash(s, members[0], members[-1]):
                flashes.append(self.summarise(members))
                members = []
            members.append(s)
        if len(members) > 0:
            flashes.append(self.summarise(members))
        if len(flashes) == 0:
            return torch.zeros(0, 6)
        return torch.stack(flashes)


def model():
    torch.manual_seed(12)
    return FlashGrouper().eval()


def _make_storm(spec, seed):
    """spec: list of (t0, x, y, n_strokes, current) flashes; strokes 0.13 s apart, 0.5 km jitter."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    for t0, x, y, n, cur in spec:
        for k in range(n):
            jitter = (torch.rand(2, generator=g) - 0.5)
            rows.append(torch.tensor([t0 + 0.13 * k, x + jitter[0].item(), y + jitter[1].item(), cur * (1.0 - 0.02 * k)]))
    return (torch.stack(rows),)


def example_inputs():
    return _make_storm([(0.0, 5.0, 5.0, 3, -25.0), (4.0, 6.0, 4.0, 2, 15.0), (4.35, 30.0, 2.0, 1, -8.0)], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("strokes", min=2, max=256)},)


def verify_inputs():
    return [
        example_inputs(),   # 3 flashes: time gap split, distance split (0.22 s later but 24 km away); CG and IC
        _make_storm([(0.0, 0.0, 0.0, 2, 1.0), (1.0, 3.0, 3.0, 3, -1.5)], 1),
        # ^ every stroke below 2 kA: all skipped, empty result
        _make_storm([(0.0, 1.0, 1.0, 25, -30.0), (9.0, 1.0, 1.0, 1, 12.0)], 2),
        # ^ 25 strokes over 3.1 s at one place: split by max duration; then a lone positive stroke (single-member centroid)
        _make_storm([(0.0, 2.0, 2.0, 4, 20.0), (0.6, 2.0, 2.0, 2, 1.0), (0.8, 2.5, 2.0, 2, 18.0)], 3),
        # ^ weak strokes inside a flash are skipped (continue), flash continues across them
    ]
