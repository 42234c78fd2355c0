"""Voice activity segmenter for a far-field speaker.

Frames of log-mel features are padded to a multiple of 4 frames, scored for
speech, and a hangover state machine turns the scores into [start, end) speech
segments. Output: segments [K, 2] int64 (K may be 0) and per-frame probability.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class VadSegmenter(nn.Module):
    def __init__(self, n_mels=8, on=0.5, hangover=2):
        super().__init__()
        self.on, self.hangover = on, hangover
        self.scorer = nn.Linear(n_mels, 1)

    def forward(self, frames):  # frames: [1, T, 8]
        if frames.shape[1] % 4 != 0:
            frames = F.pad(frames, (0, 0, 0, 4 - frames.shape[1] % 4), value=-4.0)
        logit = 0.2 * self.scorer(frames).squeeze(-1) + 2.0 * frames.mean(-1)
        prob = torch.sigmoid(logit)[0]
        segs = []
        active = False
        start = 0
        hang = 0
        for t in range(frames.shape[1]):
            if prob[t] > self.on:
                if not active:
                    start = t
                    active = True
                hang = self.hangover
            elif active:
                hang -= 1
                if hang == 0:
                    segs.append(torch.tensor([start, t - self.hangover + 1]))
                    active = False
        if active:
            segs.append(torch.tensor([start, frames.shape[1]]))
        if len(segs) == 0:
            return torch.zeros(0, 2, dtype=torch.long), prob
        return torch.stack(segs), prob


def _frames(pattern, seed):
    g = torch.Generator().manual_seed(seed)
    level = torch.tensor([2.5 if c == "s" else -2.5 for c in pattern])
    x = level[:, None] + 0.3 * torch.randn(len(pattern), 8, generator=g)
    return x.unsqueeze(0)


def model():
    torch.manual_seed(0)
    return VadSegmenter().eval()


def example_inputs():
    return (_frames("....ssssss...ss.s.....ssss..", 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=2, max=128)},)


def verify_inputs():
    return [
        (_frames("......", 1),),                       # silence: no segment
        (_frames("....ssssssss", 2),),                 # speech until the end, no padding
        (_frames("ss.s..ssss.ss...ssss......s...ss..", 3),),
    ]
