"""Fingertip pulse oximeter: SpO2 from red/IR PPG by ratio-of-ratios, with
signal-quality gating (finger-off, motion) and a small learned calibration residual.

Inputs: ppg [2, N] (red, infrared), accel [3, N] (wrist/finger accelerometer, g).
Outputs: spo2 [1] (percent, -1 when no reading), confidence [1].
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpO2Estimator(nn.Module):
    def __init__(self, window=128, learned_correction=True):
        super().__init__()
        self.window = window
        self.learned_correction = learned_correction
        self.correction = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, ppg, accel):
        # only use the most recent analysis window
        if ppg.shape[1] > self.window:
            ppg = ppg[:, -self.window:]
            accel = accel[:, -self.window:]

        x = F.avg_pool1d(ppg.unsqueeze(0), 5, stride=1, padding=2, count_include_pad=False).squeeze(0)
        dc = x.mean(dim=1)
        ac = x.max(dim=1).values - x.min(dim=1).values
        perfusion = ac[1] / dc[1] * 100.0
        motion = accel.std(dim=1).norm()

        if perfusion < 0.2 or dc[1] < 1e-3:
            # finger off the sensor or no usable pulse
            return torch.full((1,), -1.0), torch.zeros(1)

        r = (ac[0] / dc[0]) / (ac[1] / dc[1])
        if r < 0.4:
            spo2 = torch.full_like(r, 100.0)
        elif r > 2.0:
            spo2 = 60.0 - 5.0 * (r - 2.0)
        else:
            spo2 = 110.0 - 25.0 * r

        if self.learned_correction:
            feats = torch.stack([r, perfusion / 10.0, motion, dc[1]])
            spo2 = spo2 + 2.0 * torch.tanh(self.correction(feats)).squeeze(-1)

        confidence = torch.exp(-motion)
        if motion > 0.5 and not perfusion > 5.0:
            confidence = confidence * 0.5
        return spo2.clamp(min=0.0, max=100.0).reshape(1), confidence.reshape(1)


def model():
    torch.manual_seed(0)
    return SpO2Estimator().eval()


def _ppg(n, dc_red, amp_red, dc_ir, amp_ir, motion, seed, hr_hz=1.2, fs=50.0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(n, dtype=torch.float32) / fs
    pulse = torch.sin(2 * torch.pi * hr_hz * t)
    red = dc_red + amp_red * pulse
    ir = dc_ir + amp_ir * pulse
    accel = motion * torch.randn(3, n, generator=g)
    return torch.stack([red, ir]), accel


def example_inputs():
    # 200 samples (> window, truncated), R ~ 0.6 -> linear region, still hand
    return _ppg(200, 1.0, 0.012, 1.0, 0.02, 0.02, seed=1)


def dynamic_shapes():
    n = torch.export.Dim("n_samples", min=16, max=512)
    return ({1: n}, {1: n})


def verify_inputs():
    return [
        example_inputs(),  # N > window; quality ok; 0.4 <= R <= 2; no motion
        _ppg(64, 1.0, 0.003, 1.0, 0.01, 1.0, seed=2),  # N <= window; R ~ 0.3 < 0.4; motion with low perfusion -> halved
        _ppg(100, 1.0, 0.125, 1.0, 0.05, 1.0, seed=3),  # R ~ 2.5 > 2; motion but high perfusion -> not halved
        _ppg(150, 1.0, 0.0002, 1.0, 0.0003, 0.02, seed=4),  # perfusion < 0.2 -> early return (first operand)
        _ppg(40, 1.0, 0.0001, 0.0003, 0.00005, 0.02, seed=5),  # perfusion ok but IR DC < 1e-3 -> early return (second operand)
        _ppg(128, 1.2, 0.02, 0.9, 0.03, 0.02, seed=6),  # N == window exactly (no truncation); linear region
    ]
