"""T: barometric / GPS altitude fusion on a hiking watch.

pressure (T,) hPa, gps_alt (T,) m, gps_acc (T,) m (vertical accuracy estimate).
Returns fused altitude track (T,) and total ascent (1,).
Constructs: 1, 3, 5, 6, 8
"""
import torch
import torch.nn as nn


class AltimeterFuser(nn.Module):
    def __init__(self, alpha=0.9, smooth_window=5):
        super().__init__()
        self.alpha = alpha
        self.smooth_window = smooth_window
        self.register_buffer("p0", torch.tensor(1013.25))

    def baro_altitude(self, p):
        return 44330.0 * (1.0 - (p / self.p0) ** 0.1903)

    def forward(self, pressure, gps_alt, gps_acc):
        baro = self.baro_altitude(pressure)
        fused = [gps_alt[0]]
        offset = gps_alt[0] - baro[0]
        for t in range(1, pressure.shape[0]):
            est = baro[t] + offset
            # bad GPS fix: trust the barometer only
            if gps_acc[t] > 20.0:
                fused.append(est)
                continue
            # big disagreement with a very good fix: re-anchor the barometer (weather front)
            if (est - gps_alt[t]).abs() > 50.0 and gps_acc[t] < 5.0:
                offset = gps_alt[t] - baro[t]
                est = gps_alt[t]
            else:
                offset = self.alpha * offset + (1 - self.alpha) * (gps_alt[t] - baro[t])
                est = baro[t] + offset
            fused.append(est)
        track = torch.stack(fused)
        if track.shape[0] > 16:
            k = self.smooth_window
            padded = torch.cat([track[:1].repeat(k // 2), track, track[-1:].repeat(k // 2)])
            track = padded.unfold(0, k, 1).mean(-1)
        ascent = torch.clamp(track[1:] - track[:-1], min=0.0).sum().reshape(1)
        return track, ascent


def _walk(T, seed, acc_pattern, jump_at=None):
    g = torch.Generator().manual_seed(seed)
    alt = 800.0 + torch.cumsum(2.0 + torch.randn(T, generator=g), 0)
    pressure = 1013.25 * (1 - alt / 44330.0) ** (1 / 0.1903)
    gps = alt + 3.0 * torch.randn(T, generator=g)
    if jump_at is not None:
        gps[jump_at:] += 120.0  # barometer drifted by a front
    acc = torch.tensor([acc_pattern[i % len(acc_pattern)] for i in range(T)])
    return pressure, gps, acc


def model():
    torch.manual_seed(4602)
    return AltimeterFuser().eval()


def example_inputs():
    return _walk(24, 1, [8.0, 30.0, 8.0], jump_at=10)


def dynamic_shapes():
    T = torch.export.Dim("T", min=2, max=256)
    return ({0: T}, {0: T}, {0: T})


def verify_inputs():
    return [
        example_inputs(),                         # bad-fix continue + blend; jump with acc 8 -> `and` false; T>16 smoothing
        _walk(12, 2, [3.0, 25.0], jump_at=6),     # re-anchor path (jump + good fix), continue taken, T<=16 no smoothing
        _walk(2, 3, [30.0]),                      # T=min: loop runs once, continue only
        _walk(256, 4, [4.0, 12.0, 40.0], jump_at=100),  # T=max: all paths, smoothing
    ]
