"""Deep-ocean tsunami buoy (DART-style) event trigger on bottom-pressure data.

Every 15 s sample of water-column height is predicted from the previous window
with a fixed cubic-extrapolation filter (the least-squares cubic through the
window, evaluated one step ahead). Residuals above the threshold on two
consecutive samples put the station into event mode; samples that jump by a
physically impossible amount (sensor glitches) are left out of the fit. The polarity of the
first motion is reported, plus a learned "tsunami-likeness" score for the
warning centre.
"""
import torch
import torch.nn as nn

NORMAL, EVENT, WARMUP = 0, 1, 2


def cubic_extrapolation_weights(window):
    t = torch.arange(window, dtype=torch.float64)
    t = (t - (window - 1)) / window  # last sample at 0, next sample at 1/window
    vander = torch.stack([t ** k for k in range(4)], dim=1)
    next_row = torch.tensor([(1.0 / window) ** k for k in range(4)], dtype=torch.float64)
    return (next_row @ torch.linalg.pinv(vander)).float()


class TsunamiTrigger(nn.Module):
    def __init__(self, window=96, threshold_m=0.03, glitch_m=0.5, consecutive=2):
        super().__init__()
        self.window = window
        self.threshold_m = threshold_m
        self.glitch_m = glitch_m
        self.consecutive = consecutive
        self.register_buffer("weights", cubic_extrapolation_weights(window))
        self.scorer = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))

    def forward(self, height_m):
        n = height_m.shape[0]
        if n < self.window + 8:
            # not enough history since the last reset to extrapolate the tide
            return torch.tensor(WARMUP), torch.tensor(-1), torch.zeros(()), torch.zeros(())

        residuals = []
        run = 0
        mode = NORMAL
        trigger_at = -1
        accepted = list(height_m[:self.window])
        for t in range(self.window, n):
            if (height_m[t] - accepted[-1]).abs() > self.glitch_m:
                continue  # impossible jump for a 15 s step: glitch, keep it out of the fit
            predicted = (self.weights * torch.stack(accepted[-self.window:])).sum()
            resid = height_m[t] - predicted
            residuals.append(resid)
            accepted.append(height_m[t])
            if resid.abs() > self.threshold_m:
                run += 1
                if run >= self.consecutive:
                    mode = EVENT
                    trigger_at = t
                    break
            else:
                run = 0
        residuals = torch.stack(residuals)

        polarity = torch.zeros(())
        if mode == EVENT:
            polarity = torch.sign(residuals[-1])  # negative: leading depression wave
        feats = torch.stack([residuals.abs().max() / self.threshold_m, polarity, residuals.std() / self.threshold_m])
        score = torch.sigmoid(self.scorer(feats)).squeeze(-1)
        return torch.tensor(mode), torch.tensor(trigger_at), polarity, score


def model():
    torch.manual_seed(101)
    return TsunamiTrigger().eval()


def _record(n, seed, wave_at=None, amplitude=0.05, glitch_at=None):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32)
    h = 4500.0 + 0.6 * torch.sin(2 * torch.pi * t / 2981.0 + seed)  # semidiurnal tide, metres
    h = h + 0.002 * torch.randn(n, generator=g)
    if wave_at is not None:
        k = (t - wave_at).clamp(min=0.0)
        h = h + amplitude * torch.sin(2 * torch.pi * k / 60.0) * (k > 0) * torch.exp(-k / 400.0)
    if glitch_at is not None:
        h[glitch_at] = h[glitch_at] + 3.0
    return (h - 4500.0,)


def example_inputs():
    return _record(240, 1, wave_at=150, amplitude=-0.15)


def dynamic_shapes():
    t = torch.export.Dim("samples", min=16, max=512)
    return ({0: t},)


def verify_inputs():
    return [
        example_inputs(),                        # leading-depression wave -> event, polarity -1
        _record(512, 2),                         # max length, quiet ocean -> loop runs to the end, normal
        _record(16, 3),                          # min length -> warm-up (early return)
        _record(300, 4, wave_at=220, amplitude=0.1, glitch_at=130),
        # ^ glitch skipped (continue), then a leading-elevation wave -> event, polarity +1
        _record(160, 5, wave_at=100, amplitude=0.005),  # sub-threshold wave -> normal
    ]
