"""Ultrasonic bat-detector: find echolocation calls in a spectrogram and classify the species group.

Kind T. Constructs: 1, 2, 5, 7, 8.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


def frame_energy(spec, min_frames):
    # pad short recordings so the conv front-end always sees min_frames
    if spec.shape[1] < min_frames:
        spec = F.pad(spec, (0, min_frames - spec.shape[1]))
    return spec, spec.mean(0)


class BatCallDetector(nn.Module):
    def __init__(self, n_bins=32, thresh=0.5):
        super().__init__()
        self.thresh = thresh
        self.front = nn.Conv1d(n_bins, 16, kernel_size=3, padding=1)
        self.cls = nn.Linear(16, 4)

    def forward(self, spec):
        # spec: (32, T) log-magnitude spectrogram, 0..1
        spec, energy = frame_energy(spec, 16)
        feats = torch.relu(self.front(spec.unsqueeze(0)))[0]  # (16, T')
        calls = []
        for t in range(spec.shape[1]):
            if energy[t] > self.thresh:
                calls.append(feats[:, t])
        if len(calls) == 0:
            return torch.zeros(4), torch.zeros(())
        c = torch.stack(calls)
        return self.cls(c.mean(0)).softmax(-1), torch.tensor(float(len(calls)))


def model():
    torch.manual_seed(106)
    return BatCallDetector().eval()


def _spec(T, call_frames, seed):
    g = torch.Generator().manual_seed(seed)
    s = 0.1 * torch.rand(32, T, generator=g)
    for t in call_frames:
        s[8:28, t] = 0.95
    return s


def example_inputs():
    return (_spec(40, [5, 6, 7, 20, 21], 1),)


def dynamic_shapes():
    return ({1: Dim("frames", min=8, max=200)},)


def verify_inputs():
    return [
        example_inputs(),          # calls found, no padding
        (_spec(8, [2], 2),),       # short clip -> padded, one call
        (_spec(200, [], 3),),      # no calls -> early return
        (_spec(12, [], 4),),       # padded and silent -> early return
    ]
