"""Streaming spectral-gating denoiser on a magnitude spectrogram (the STFT runs on
the DSP outside the model). Noise floor tracked on frames judged noise-only."""
import torch
from torch import nn


class SpectralGate(nn.Module):
    def __init__(self, n_freq=32, soft=True):
        super().__init__()
        self.soft = soft
        self.n_init = 2
        self.alpha = nn.Parameter(torch.full((n_freq,), 1.5))  # over-subtraction per bin
        self.smooth = 0.6
        self.floor = 0.05
        self.post = nn.Conv1d(n_freq, n_freq, 1)

    def gain(self, frame, noise):
        snr = frame / (self.alpha * noise + 1e-6)
        if self.soft:  # static
            g = torch.sigmoid(4.0 * (snr - 1.5))
        else:
            g = (snr > 1.5).float()
        return g.clamp(min=self.floor)

    def forward(self, spec):
        # spec: (F, T) magnitudes
        n_frames = spec.shape[1]
        n_init = self.n_init if n_frames > self.n_init else 1
        noise = spec[:, :n_init].mean(dim=1)
        g_prev = torch.ones_like(noise)
        out = []
        n_noise = torch.zeros(())
        for t in range(n_frames):
            frame = spec[:, t]
            if frame.mean() < 2.0 * noise.mean():
                noise = 0.9 * noise + 0.1 * frame
                n_noise = n_noise + 1
            g = self.smooth * g_prev + (1 - self.smooth) * self.gain(frame, noise)
            g_prev = g
            out.append(frame * g)
        y = torch.stack(out, dim=1)
        y = y + 0.01 * self.post(y.unsqueeze(0)).squeeze(0)
        return y.clamp(min=0.0), n_noise / n_frames


def model():
    torch.manual_seed(0)
    return SpectralGate().eval()


def example_inputs():
    torch.manual_seed(1)
    spec = torch.rand(32, 20) * 0.1 + 0.05
    spec[:, 8:14] += torch.rand(32, 6) * 2.0
    return (spec,)


def dynamic_shapes():
    return ({1: torch.export.Dim("T", min=2, max=400)},)


def verify_inputs():
    torch.manual_seed(8)
    speech = torch.rand(32, 30) * 0.1 + 0.05
    speech[:, 3:25] += 1.0 + torch.rand(32, 22)
    return [
        (torch.rand(32, 2) * 0.1 + 0.05,),   # two frames: short-input init
        (speech,),
    ]
