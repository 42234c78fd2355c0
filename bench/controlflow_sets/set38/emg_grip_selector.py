"""Myoelectric prosthetic hand: pick a grip pattern from a window of 8-channel surface EMG.

Kind T. Constructs: 1 2 3 7 8 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

GRIPS = ("rest", "power", "pinch", "tripod", "point")


class GripSelector(nn.Module):
    def __init__(self, channels=8, smooth_output=True):
        super().__init__()
        self.channels = channels
        self.head = nn.Sequential(nn.Linear(3 * channels, 32), nn.Tanh(), nn.Linear(32, len(GRIPS)))
        # per-channel maximum voluntary contraction from the calibration session
        self.register_buffer("mvc", torch.tensor([0.8, 0.9, 0.7, 0.8, 0.85, 0.75, 0.8, 0.9]))
        self.register_buffer("hold_bias", torch.tensor([0.0, 3.0, 0.0, 0.0, 0.0]))
        self.rest_level = 0.05
        self.cocontraction = 0.3
        self.smooth_output = smooth_output

    def features(self, emg):
        # the armband streams at 2 kHz, long windows get decimated so feature scales match training
        if emg.shape[1] > 256:
            emg = F.avg_pool1d(emg.unsqueeze(0), kernel_size=2).squeeze(0)
        rms = emg.pow(2).mean(dim=1).sqrt()
        mav = emg.abs().mean(dim=1)
        s = torch.sign(emg)
        zero_cross = (s[:, 1:] != s[:, :-1]).float().mean(dim=1)
        return rms, mav, zero_cross

    def forward(self, emg):
        rms, mav, zc = self.features(emg)
        act = (rms / self.mvc).clamp(max=2.0)
        if act.max() < self.rest_level:
            # arm relaxed: open hand, skip the classifier
            probs = F.one_hot(torch.tensor(0), len(GRIPS)).float()
            return probs, act

        half = self.channels // 2
        flexor = act[:half].mean()
        extensor = act[half:].mean()
        logits = self.head(torch.cat([act, mav, zc]))
        if flexor > self.cocontraction and extensor > self.cocontraction:
            # co-contraction is the user's "hold" command -> lock the power grip
            logits = logits + self.hold_bias
        elif not (flexor > 0.1 or extensor > 0.1):
            # weak activity: be less confident
            logits = logits * 0.5
        probs = logits.softmax(-1)
        if self.smooth_output:  # static config flag
            probs = 0.9 * probs + 0.1 / len(GRIPS)
        return probs, act


def model():
    torch.manual_seed(0)
    return GripSelector().eval()


def _make_emg(T, flex_amp, ext_amp, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(8, T, generator=g)
    amp = torch.tensor([flex_amp] * 4 + [ext_amp] * 4).unsqueeze(1)
    return x * amp


def example_inputs():
    return (_make_emg(128, 0.6, 0.05, 1),)


def dynamic_shapes():
    return ({1: torch.export.Dim("samples", min=32, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                   # flexors active only: plain classifier path, no decimation
        (_make_emg(64, 0.01, 0.01, 2),),    # relaxed arm: early return (rest)
        (_make_emg(400, 0.8, 0.8, 3),),     # co-contraction "hold", long window -> decimated
        (_make_emg(96, 0.06, 0.06, 4),),    # weak activity (0.05 < act, means < 0.1): damped logits
        (_make_emg(300, 0.04, 0.5, 5),),    # extensors only, decimated, else path of the elif
    ]
