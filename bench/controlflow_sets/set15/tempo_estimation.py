"""Music tempo (BPM) estimator for a DJ / fitness app (on-device audio analysis).

Input: log-mel spectrogram (1, T, 32) at 50 frames/s, T dynamic. A learned onset-strength
function (positive spectral flux + 1x1 conv) feeds an autocorrelation over candidate lags; the
lag range depends on the clip length. The best lag gives the tempo, folded into 70..180 BPM by
octave correction loops.
"""

import torch
import torch.nn.functional as F
from torch import nn

FPS = 50.0


class TempoEstimator(nn.Module):
    def __init__(self, n_mels: int = 32, min_lag: int = 12, max_lag: int = 100):
        super().__init__()
        self.min_lag, self.max_lag = min_lag, max_lag
        self.band_w = nn.Conv1d(n_mels, 1, 1)
        with torch.no_grad():
            self.band_w.weight.mul_(0.1).add_(1.0 / n_mels)
            self.band_w.bias.zero_()

    def onset_strength(self, mel: torch.Tensor) -> torch.Tensor:
        flux = F.relu(mel[:, 1:] - mel[:, :-1])              # (1, T-1, M)
        env = self.band_w(flux.transpose(1, 2)).view(-1)     # (T-1,)
        env = env - env.mean()
        if env.std() > 1e-3:
            env = env / env.std()
        return env

    def forward(self, mel: torch.Tensor):
        env = self.onset_strength(mel)
        n = env.shape[0]
        hi = min(self.max_lag, n // 2)
        if env.abs().amax() < 1e-3:
            # silence / no onsets: no tempo
            return torch.zeros(()), torch.zeros(()), torch.zeros(hi - self.min_lag)
        acs = []
        for lag in range(self.min_lag, hi):
            acs.append((env[lag:] * env[:-lag]).mean())
        ac = torch.stack(acs)
        best = torch.argmax(ac) + self.min_lag
        bpm = 60.0 * FPS / best.float()
        while bpm > 180.0:
            bpm = bpm / 2.0
        while bpm < 70.0:
            bpm = bpm * 2.0
        confidence = ac.max() / (ac.abs().mean() + 1e-6)
        return bpm, confidence, ac


def model() -> nn.Module:
    torch.manual_seed(0)
    return TempoEstimator().eval()


def _clip(t, bpm, seed):
    g = torch.Generator().manual_seed(seed)
    mel = 0.1 * torch.randn(1, t, 32, generator=g)
    if bpm is None:  # silence: constant spectrum
        return torch.full((1, t, 32), -8.0)
    beats = torch.round(torch.arange(0.0, t, 60.0 * FPS / bpm)).long().clamp_max(t - 1)
    mel[:, beats] += 3.0
    return mel


def example_inputs() -> tuple:
    return (_clip(300, 120.0, 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=64, max=2000)},)


def verify_inputs() -> list:
    return [
        (_clip(300, 200.0, 2),),   # beat lag 15 -> 200 BPM -> folded to 100
        (_clip(80, 60.0, 3),),     # short clip: lag range cut by length, slow tempo doubled
        (_clip(500, 150.0, 8),),
        (_clip(400, 40.0, 5),),    # very slow pulse: doubled into range
        (_clip(100, None, 6),),    # silence
    ]
