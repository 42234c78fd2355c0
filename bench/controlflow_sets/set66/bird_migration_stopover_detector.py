"""Songbird GPS-tag track: find migration stopovers.

Fixes (lat, lon, hours since deployment, HDOP) are scanned in order. Poor fixes and
physically impossible jumps are skipped. A run of slow movement longer than a day is a
stopover: its centroid, arrival time and duration are recorded and a small classifier
module labels it as a fuelling stop or a weather stop. Stopovers separated by a short
flight hop at the same site are merged afterwards.

Kind: X.  Constructs: 1, 2, 3, 5, 6, 7.
"""
import math

import torch
import torch.nn as nn
from torch.export import Dim

EARTH_KM = 6371.0


def haversine_km(lat1, lon1, lat2, lon2):
    p1, p2 = torch.deg2rad(lat1), torch.deg2rad(lat2)
    dphi = p2 - p1
    dlmb = torch.deg2rad(lon2 - lon1)
    a = torch.sin(dphi / 2) ** 2 + torch.cos(p1) * torch.cos(p2) * torch.sin(dlmb / 2) ** 2
    return 2 * EARTH_KM * torch.asin(torch.sqrt(a.clamp(0.0, 1.0)))


class StopoverClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(2, 1)

    def forward(self, duration_h, radius_km):
        if duration_h > 96:
            # long stays are always refuelling
            return torch.ones(())
        x = torch.stack([duration_h / 48.0, radius_km])
        return torch.sigmoid(self.net(x)).squeeze(-1)


class StopoverDetector(nn.Module):
    def __init__(self, stop_speed=2.0, max_speed=120.0, max_hdop=5.0, min_hours=24.0,
                 merge_gap_h=12.0, merge_km=10.0):
        super().__init__()
        self.stop_speed = stop_speed
        self.max_speed = max_speed
        self.max_hdop = max_hdop
        self.min_hours = min_hours
        self.merge_gap_h = merge_gap_h
        self.merge_km = merge_km
        self.classify = StopoverClassifier()

    def summarize(self, fixes, start, end):
        seg = fixes[start:end + 1]
        lat, lon = seg[:, 0].mean(), seg[:, 1].mean()
        radius = haversine_km(seg[:, 0], seg[:, 1], lat, lon).max()
        duration = seg[-1, 2] - seg[0, 2]
        fuel = self.classify(duration, radius)
        return torch.stack([lat, lon, seg[0, 2], duration, fuel])

    def forward(self, fixes):
        # fixes: (T, 4) [lat deg, lon deg, hours, HDOP]
        n = fixes.shape[0]
        stops = []
        in_stop = False
        start = 0
        prev = 0
        for t in range(1, n):
            if fixes[t, 3] > self.max_hdop:
                continue
            dist = haversine_km(fixes[prev, 0], fixes[prev, 1], fixes[t, 0], fixes[t, 1])
            speed = dist / (fixes[t, 2] - fixes[prev, 2])
            if speed > self.max_speed or (speed > 0.5 * self.max_speed and fixes[t, 3] > 2.0):
                continue
            slow = speed < self.stop_speed
            if slow and not in_stop:
                in_stop = True
                start = prev
            elif not slow and in_stop:
                in_stop = False
                if fixes[prev, 2] - fixes[start, 2] >= self.min_hours:
                    stops.append(self.summarize(fixes, start, prev))
            prev = t
        if in_stop and fixes[prev, 2] - fixes[start, 2] >= self.min_hours:
            stops.append(self.summarize(fixes, start, prev))
        if len(stops) == 0:
            return torch.zeros(0, 5)
        # merge stopovers interrupted by a short hop at the same site
        i = 0
        while i < len(stops) - 1:
            a, b = stops[i], stops[i + 1]
            gap = b[2] - (a[2] + a[3])
            if gap < self.merge_gap_h and haversine_km(a[0], a[1], b[0], b[1]) < self.merge_km:
                total = b[2] + b[3] - a[2]
                stops[i] = torch.stack([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, a[2], total,
                                        torch.maximum(a[4], b[4])])
                del stops[i + 1]
            else:
                i += 1
        return torch.stack(stops)


def model():
    torch.manual_seed(17)
    return StopoverDetector().eval()


def _track(legs, start=(52.0, 13.0), step_h=2.0, spikes=(), bad_hdop=(), wobbly=()):
    """legs: list of (kind, hours); 'fly' moves 40 km/h south-west, 'hop' 4 km/h south,
    'stop' drifts ~0.3 km/h."""
    lat, lon = start
    t = 0.0
    rows = [[lat, lon, t, 1.0]]
    k = 0
    for kind, hours in legs:
        for _ in range(int(hours / step_h)):
            k += 1
            t += step_h
            if kind == "fly":
                lat -= 40.0 * step_h / 111.0 * 0.8
                lon -= 40.0 * step_h / (111.0 * math.cos(math.radians(lat))) * 0.6
            elif kind == "hop":
                lat -= 4.0 * step_h / 111.0
            else:
                lat += 0.3 * step_h / 111.0 * (1 if k % 2 else -1)
            rows.append([lat, lon, t, 1.0])
    fixes = torch.tensor(rows, dtype=torch.float32)
    for i in spikes:
        fixes[i, 0] += 3.0
    for i in bad_hdop:
        fixes[i, 0] += 1.0
        fixes[i, 3] = 9.0
    for i in wobbly:
        fixes[i, 0] += 1.5
        fixes[i, 3] = 3.0
    return (fixes,)


def example_inputs():
    return _track([("fly", 10), ("stop", 30), ("fly", 8), ("stop", 12), ("fly", 6),
                   ("stop", 110), ("fly", 4)], spikes=[3], bad_hdop=[20])


def dynamic_shapes():
    return ({0: Dim("fixes", min=2, max=5000)},)


def verify_inputs():
    return [
        # two stopovers (30 h and 110 h, the long one classified by the duration rule), a
        # 12 h rest that is too short, a GPS spike and a bad-HDOP fix skipped
        example_inputs(),
        # pure flight: no stopover -> early return
        _track([("fly", 20)]),
        # track ends during a stopover (closed after the loop); short hop splits a stopover
        # in two which are merged again; mid-speed jump with mediocre HDOP skipped
        _track([("fly", 6), ("stop", 30), ("hop", 2), ("stop", 40)], wobbly=[30]),
        # single 26 h stopover between two flights, nothing to merge
        _track([("fly", 8), ("stop", 26), ("fly", 8)]),
    ]
