"""Two-way radio squelch gate with hysteresis.

Frames of demodulated audio are band-passed by a small conv filter, then a
per-frame energy gate opens/closes the speaker with open/close thresholds
relative to the noise floor estimated from the first frames.
"""
import torch
import torch.nn as nn


class VoiceBandFilter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(1, 1, kernel_size=5, padding=2, bias=False)

    def forward(self, frames):
        return self.conv(frames.unsqueeze(1)).squeeze(1)


class SquelchGate(nn.Module):
    def __init__(self, open_db=6.0, close_db=3.0, noise_frames=3):
        super().__init__()
        self.filter = VoiceBandFilter()
        self.open_ratio = 10 ** (open_db / 10)
        self.close_ratio = 10 ** (close_db / 10)
        self.noise_frames = noise_frames

    def frame_energy(self, frames):
        return frames.pow(2).mean(dim=1) + 1e-8

    def noise_floor(self, energy):
        if energy.shape[0] > self.noise_frames:
            return energy[: self.noise_frames].median()
        return energy.min()

    def forward(self, frames):
        filtered = self.filter(frames)
        energy = self.frame_energy(filtered)
        floor = self.noise_floor(energy)
        out = []
        is_open = False
        for i in range(frames.shape[0]):
            snr = energy[i] / floor
            if snr > self.open_ratio or (is_open and snr > self.close_ratio):
                is_open = True
                out.append(filtered[i])
            else:
                is_open = False
                out.append(torch.zeros_like(filtered[i]))
        gated = torch.stack(out)
        duty = (gated.abs().sum(dim=1) > 0).float().mean()
        return gated, duty


def model():
    torch.manual_seed(5102)
    return SquelchGate().eval()


def _burst(n, length, loud, seed):
    g = torch.Generator().manual_seed(seed)
    x = 0.05 * torch.randn(n, length, generator=g)
    for i, a in enumerate(loud):
        if i < n:
            x[i] = x[i] * a
    return x


def example_inputs():
    # noise, noise, noise, loud talk, fading (between close/open), noise, ...
    return (_burst(8, 64, [1, 1, 1, 8, 1.6, 1, 8, 1], 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=128),
             1: torch.export.Dim("samples", min=16, max=256)},)


def verify_inputs():
    return [
        # example: gate opens (open thr), stays open on hangover (close thr), closes
        example_inputs(),
        # min frames/max samples: only 2 frames -> noise floor from min() path
        (_burst(2, 256, [1, 20], 2),),
        # max frames / min samples: long quiet stretch with periodic bursts
        (_burst(128, 16, [1, 1, 1] + [1, 1, 9, 2] * 31 + [1], 3),),
    ]
