"""Geofence entry/exit events with dwell confirmation for a delivery van.

Kind X. Constructs: 1, 2, 3, 5, 6, 7.
GPS fixes (local metres) with timestamps are corrected by a small learned
multipath-bias model, glitches (implied speed above a limit) are skipped,
and a point-in-polygon test (ray casting over the fence's vertices)
drives an OUTSIDE / ENTERING / INSIDE / LEAVING state machine: an entry
or exit only counts after it has persisted for the confirmation time.
Output: event matrix rows [time, +1 enter / -1 exit] (zero rows when none)
and total confirmed dwell time.
"""
import torch
import torch.nn as nn

OUTSIDE, ENTERING, INSIDE, LEAVING = 0, 1, 2, 3


def crosses(p, a, b):
    """Does the ray from p towards +x cross the edge a-b?"""
    if (a[1] > p[1]) == (b[1] > p[1]):
        return False
    x_at = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
    return bool(p[0] < x_at)


def point_in_polygon(p, poly):
    inside = False
    n = poly.shape[0]
    for k in range(n):
        if crosses(p, poly[k], poly[(k + 1) % n]):
            inside = not inside
    return inside


class GeofenceTracker(nn.Module):
    def __init__(self, confirm_s=25.0, max_speed=40.0):
        super().__init__()
        self.confirm_s = confirm_s
        self.max_speed = max_speed
        self.bias = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))

    def forward(self, fixes, times, fence):
        pts = fixes + 0.5 * torch.tanh(self.bias(fixes / 500.0))  # metres of multipath bias
        state = OUTSIDE
        since = times[0]
        entered_at = times[0]
        dwell = torch.zeros(())
        events = []
        last_good = 0
        for t in range(pts.shape[0]):
            if t > 0:
                speed = (pts[t] - pts[last_good]).norm() / (times[t] - times[last_good])
                if speed > self.max_speed:
                    continue  # GPS jump: ignore this fix
            last_good = t
            inside = point_in_polygon(pts[t], fence)
            if state == OUTSIDE and inside:
                state, since = ENTERING, times[t]
            elif state == ENTERING:
                if not inside:
                    state = OUTSIDE
                elif times[t] - since >= self.confirm_s:
                    state, entered_at = INSIDE, since
                    events.append(torch.stack([since, torch.ones(())]))
            elif state == INSIDE and not inside:
                state, since = LEAVING, times[t]
            elif state == LEAVING:
                if inside:
                    state = INSIDE
                elif times[t] - since >= self.confirm_s:
                    state = OUTSIDE
                    dwell = dwell + (since - entered_at)
                    events.append(torch.stack([since, -torch.ones(())]))
        if state in (INSIDE, LEAVING):
            dwell = dwell + (times[-1] - entered_at)  # still there at the end of the trace
        if events:
            return torch.stack(events), dwell
        return torch.zeros(0, 2), dwell


def model():
    torch.manual_seed(3219)
    return GeofenceTracker().eval()


DEPOT = [[0.0, 0.0], [120.0, 0.0], [120.0, 80.0], [60.0, 110.0], [0.0, 80.0]]


def _trace(points, dt=10.0, fence=DEPOT):
    p = torch.tensor(points, dtype=torch.float32)
    t = torch.arange(p.shape[0], dtype=torch.float32) * dt
    return p, t, torch.tensor(fence, dtype=torch.float32)


def example_inputs():
    # drive in, park for 2 minutes, drive out
    return _trace([[-150.0, 40.0], [-60.0, 40.0], [30.0, 40.0], [50.0, 45.0], [52.0, 44.0], [51.0, 46.0],
                   [53.0, 45.0], [50.0, 43.0], [30.0, 40.0], [-40.0, 40.0], [-120.0, 40.0],
                   [-200.0, 40.0], [-280.0, 40.0], [-360.0, 40.0]])


def dynamic_shapes():
    n = torch.export.Dim("fixes", min=2, max=512)
    v = torch.export.Dim("vertices", min=3, max=64)
    return ({0: n}, {0: n}, {0: v})


def verify_inputs():
    return [
        example_inputs(),                                                 # enter -> INSIDE -> leave -> OUTSIDE, 2 events
        _trace([[-100.0, 40.0], [20.0, 40.0], [-80.0, 40.0], [-160.0, 40.0]]),   # drive-through: ENTERING aborted
        _trace([[-100.0, 30.0], [10.0, 30.0], [20.0, 30.0], [20.0, 35.0], [25.0, 30.0],
                [5000.0, 30.0], [30.0, 30.0], [-70.0, 30.0], [20.0, 30.0], [25.0, 35.0]]),  # GPS jump skipped;
                                                                          # leave briefly and come back; ends inside
        _trace([[200.0, 200.0], [210.0, 200.0], [220.0, 205.0]]),          # never near: no events (empty result)
        _trace([[60.0, 40.0], [61.0, 40.0], [62.0, 41.0], [60.0, 42.0], [150.0, 40.0], [240.0, 40.0]],
               fence=[[0.0, 0.0], [100.0, 0.0], [100.0, 100.0]]),        # starts inside a triangle fence (entry
                                                                          # confirmed), trace ends while LEAVING
    ]
