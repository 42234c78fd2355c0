"""Weather station quality control: per-channel checks (all missing, physical range,
stuck sensor), last-good-value gap filling over the variable-length window, then a small
autoencoder gives an anomaly score on the cleaned window."""

import torch
from torch import nn

MISSING = -999.0
CHANNELS = ["temp_c", "rh_pct", "pressure_hpa", "wind_ms", "rain_mm", "solar_wm2"]


class StationQC(nn.Module):
    def __init__(self, fill_gaps: bool = True):
        super().__init__()
        self.fill_gaps = fill_gaps
        self.register_buffer("lo", torch.tensor([-50.0, 0.0, 850.0, 0.0, 0.0, 0.0]))
        self.register_buffer("hi", torch.tensor([60.0, 100.0, 1100.0, 75.0, 200.0, 1500.0]))
        self.register_buffer("scale", torch.tensor([20.0, 50.0, 50.0, 10.0, 5.0, 500.0]))
        self.enc = nn.Linear(6, 4)
        self.dec = nn.Linear(4, 6)

    def fill(self, series: torch.Tensor, default: torch.Tensor) -> torch.Tensor:
        last = default
        out = []
        for t in range(series.shape[0]):
            v = series[t]
            if v > MISSING + 1.0:
                last = v
            out.append(last)
        return torch.stack(out)

    def forward(self, obs: torch.Tensor):
        # obs: (6, T) ten-minute observations, MISSING where the logger had no value
        flags = []
        cleaned = []
        for c in range(len(CHANNELS)):
            x = obs[c]
            ok = x > MISSING + 1.0
            mid = 0.5 * (self.lo[c] + self.hi[c])
            if not ok.any():
                flags.append(torch.tensor(1))          # channel dead
                cleaned.append(torch.full_like(x, 0.0) + mid)
                continue
            good = x[ok]
            if good.max() > self.hi[c] or good.min() < self.lo[c]:
                flags.append(torch.tensor(2))          # out of physical range
                x = torch.where(ok, x.clamp(self.lo[c], self.hi[c]), x)
            elif good.std() < 1e-3 * self.scale[c] and c != 4:
                flags.append(torch.tensor(3))          # stuck sensor (rain may be 0 all day)
            else:
                flags.append(torch.tensor(0))
            if self.fill_gaps:  # static
                x = self.fill(x, good[0])
            cleaned.append(x)
        clean = torch.stack(cleaned)                  # (6, T)
        z = (clean - 0.5 * (self.lo + self.hi)[:, None]) / self.scale[:, None]
        rec = self.dec(torch.tanh(self.enc(z.t()))).t()
        score = ((rec - z) ** 2).mean(dim=0)          # per time step
        return torch.stack(flags), clean, score


def model() -> nn.Module:
    torch.manual_seed(0)
    return StationQC().eval()


def _obs(T, seed, dead=None, out_of_range=None, stuck=None, gaps=(), too_low=None):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([15.0, 60.0, 1013.0, 4.0, 0.01, 300.0])[:, None]
    noise = torch.tensor([2.0, 10.0, 3.0, 2.0, 0.5, 100.0])[:, None]
    obs = base + noise * torch.rand(6, T, generator=g)
    for c, t in gaps:
        obs[c, t] = MISSING
    if dead is not None:
        obs[dead] = MISSING
    if out_of_range is not None:
        obs[out_of_range, T // 2] = 5000.0
    if too_low is not None:
        obs[too_low, 1] = -80.0
    if stuck is not None:
        obs[stuck] = 7.25
    return (obs,)


def example_inputs() -> tuple:
    return _obs(24, 0, gaps=[(0, 3), (0, 4), (3, 10)])


def dynamic_shapes():
    return ({1: torch.export.Dim("t", min=8, max=144)},)


def verify_inputs() -> list:
    return [
        _obs(144, 1, dead=2, out_of_range=5, stuck=4),  # rain gauge constant is fine
        _obs(8, 2, stuck=3, gaps=[(1, 0), (1, 1)], too_low=0),  # gap at the start: filled with first good
        _obs(60, 3, out_of_range=0, stuck=1, dead=4),
    ]
