"""SMT reflow-oven profile check from a thermocouple profiler run.

For each thermocouple on the test board: soak time (first crossing of 150 C
to first crossing of 200 C), time above liquidus (217 C, only if the peak
reached it), peak temperature and maximum ramp rate are checked against the
solder-paste window (SAC305). Thermocouples that never left ambient are
treated as detached. Long logs come from the 2 Hz profiler and are averaged
down to the 1 Hz grid the limits are written for. A small MLP maps the profile metrics to a voiding
risk for the joint under each thermocouple.

Constructs: 1, 2, 3, 4, 5, 6, 7, 8
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class ReflowProfileChecker(nn.Module):
    def __init__(self):
        super().__init__()
        self.liquidus = 217.0
        self.risk = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
        self.register_buffer("scale", torch.tensor([100.0, 100.0, 250.0, 3.0]))

    def first_crossing(self, trace, level):
        i = 0
        n = trace.shape[0]
        while i < n and trace[i] < level:
            i += 1
        return torch.tensor(float(i))

    def forward(self, temps):
        if temps.shape[1] > 400:
            # 2 Hz profiler: average sample pairs down to 1 Hz
            temps = F.avg_pool1d(temps.unsqueeze(0), 2).squeeze(0)

        metrics = []
        for c in range(temps.shape[0]):
            tr = temps[c]
            if tr.max() < 50.0:
                metrics.append(torch.zeros(5))
                continue  # detached thermocouple: reads ambient
            soak = self.first_crossing(tr, 200.0) - self.first_crossing(tr, 150.0)
            peak = tr.max()
            if peak >= self.liquidus:
                tal = (tr > self.liquidus).sum().float()
            else:
                tal = torch.zeros(())  # never reflowed: cold joint
            ramp = (tr[1:] - tr[:-1]).max()
            ok = (soak >= 60) & (soak <= 120) & (tal >= 60) & (tal <= 150) & (peak >= 235) & (peak <= 250) & (ramp <= 3.0)
            metrics.append(torch.stack([soak, tal, peak, ramp, ok.float()]))
        m = torch.stack(metrics)
        risk = torch.sigmoid(self.risk(m[:, :4] / self.scale)).squeeze(1)
        return m, risk


def model():
    torch.manual_seed(67)
    return ReflowProfileChecker().eval()


def _profile(T, dt, start=25.0, soak_s=90.0, peak=243.0, hold_s=40.0, gen=None):
    """piecewise-linear reflow profile sampled every dt seconds"""
    pts = [(0.0, start)]
    t = 0.0
    if start < 150.0:
        t = (150.0 - start) / 1.5
        pts.append((t, 150.0))
    t += soak_s
    pts.append((t, 200.0 if start < 200 else start))
    t += (peak - 200.0) / 2.0
    pts.append((t, peak))
    t += hold_s
    pts.append((t, peak - 1.0))
    t += (peak - 40.0) / 2.5
    pts.append((t, 40.0))
    ts = torch.arange(T, dtype=torch.float64) * dt
    xs = torch.tensor([p[0] for p in pts], dtype=torch.float64)
    ys = torch.tensor([p[1] for p in pts], dtype=torch.float64)
    idx = torch.searchsorted(xs, ts).clamp(1, len(pts) - 1)
    x0, x1, y0, y1 = xs[idx - 1], xs[idx], ys[idx - 1], ys[idx]
    y = torch.where(ts >= xs[-1], ys[-1], y0 + (y1 - y0) * (ts - x0) / (x1 - x0))
    return (y + 0.3 * torch.randn(T, generator=gen, dtype=torch.float64)).float()


def _run(T, dt, channels, seed):
    gen = torch.Generator().manual_seed(seed)
    rows = []
    for ch in channels:
        if ch == "detached":
            rows.append(24.0 + 0.3 * torch.randn(T, generator=gen))
        else:
            rows.append(_profile(T, dt, gen=gen, **ch))
    return (torch.stack(rows),)


def example_inputs():
    # 1 Hz, 300 s: good joint, cooler corner (short TAL), detached thermocouple
    return _run(300, 1.0, [dict(), dict(peak=226.0, soak_s=110.0), "detached"], 1)


def dynamic_shapes():
    return ({0: Dim("thermocouples", min=2, max=8), 1: Dim("samples", min=60, max=900)},)


def verify_inputs():
    return [
        example_inputs(),                                               # 1 Hz path; detached (continue); peak above liquidus
        _run(600, 0.5, [dict(soak_s=70.0), dict(peak=190.0)], 2),      # 2 Hz log (decimated); second TC never reaches 200 C or liquidus
        _run(120, 1.0, [dict(start=160.0, soak_s=30.0), dict(start=149.0, soak_s=25.0, peak=238.0)], 3),  # pre-heated boards: 150 C crossed at sample 0 / at sample 1
    ]
