"""Factory-floor noise dosimeter: microphone samples are padded to whole frames, each frame's level
and a small machine-fault classifier are computed; exposure class follows the loudest frame."""
import torch
from torch import nn
import torch.nn.functional as F

FRAME = 64


class NoiseMonitor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fault = nn.Sequential(nn.Linear(FRAME, 16), nn.ReLU(), nn.Linear(16, 3))
        self.ref = 2e-5

    def forward(self, audio):
        # audio: (T,) pascal, T dynamic
        T = audio.shape[0]
        if T % FRAME != 0:
            audio = F.pad(audio, (0, FRAME - T % FRAME))
        n_frames = audio.shape[0] // FRAME
        levels = []
        for i in range(n_frames):
            frame = audio[i * FRAME:(i + 1) * FRAME]
            rms = frame.pow(2).mean().sqrt()
            levels.append(20.0 * torch.log10(rms / self.ref + 1e-6))
        levels = torch.stack(levels)
        if audio.shape[0] > 8 * FRAME:
            # long capture: classify on a coarse 8-frame summary
            summary = audio.reshape(-1, FRAME)[: 8]
        else:
            summary = audio.reshape(-1, FRAME)
        fault = torch.softmax(self.fault(summary).mean(dim=0), dim=0)
        peak = levels.max()
        if peak > 85.0:
            exposure = torch.tensor(2)
        elif peak > 70.0:
            exposure = torch.tensor(1)
        else:
            exposure = torch.tensor(0)
        return levels, fault, exposure


def model():
    torch.manual_seed(0)
    return NoiseMonitor().eval()


def _tone(T, amp):
    t = torch.arange(T, dtype=torch.float32)
    return amp * torch.sin(t * 0.3)


def example_inputs():
    return (_tone(300, 0.2),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=8, max=48000)},)


def verify_inputs():
    return [(_tone(1024, 2.0),), (_tone(40, 0.01),), (_tone(600, 0.2),)]
