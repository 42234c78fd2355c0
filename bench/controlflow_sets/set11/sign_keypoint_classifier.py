"""Sign-language gesture classifier over hand keypoint sequences (phone camera, MediaPipe-style
21 keypoints x (x, y) per frame, any number of frames).

Keypoints are centred on the wrist and scaled by the hand span (guarding against a collapsed
hand), long clips are subsampled, and a GRU cell runs over the frames, skipping frames where the
hand did not move. A clip with no moving frame gets the "no sign" logits.
Typical: helper with a ternary, branch on a dynamic size, for over a dynamic size with continue,
early return.
"""
import torch
from torch import nn

NUM_SIGNS = 10


def normalise(kp):
    # kp: (T, 21, 2)
    centred = kp - kp[:, :1]
    span = centred.norm(dim=-1).amax()
    scale = span if span > 1e-3 else torch.ones(())
    return centred / scale


class SignClassifier(nn.Module):
    def __init__(self, hidden: int = 48):
        super().__init__()
        self.hidden = hidden
        self.cell = nn.GRUCell(42, hidden)
        self.head = nn.Linear(hidden, NUM_SIGNS + 1)
        self.motion_eps = 0.01

    def forward(self, kps):
        # kps: (1, T, 42)
        if kps.shape[1] > 64:
            kps = kps[:, ::2]
        x = normalise(kps[0].reshape(-1, 21, 2)).reshape(-1, 42)
        h = torch.zeros(1, self.hidden)
        used = 0
        for t in range(1, x.shape[0]):
            motion = (x[t] - x[t - 1]).abs().mean()
            if motion < self.motion_eps:
                continue
            h = self.cell(x[t:t + 1], h)
            used += 1
        if used == 0:
            no_sign = torch.full((1, NUM_SIGNS + 1), -10.0)
            no_sign[0, NUM_SIGNS] = 10.0
            return no_sign
        return self.head(h)


def model():
    torch.manual_seed(8)
    return SignClassifier().eval()


def _clip(T, seed, still_every=0, scale=0.2):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(1, 1, 42, generator=g)
    drift = 0.05 * torch.randn(1, T, 42, generator=g).cumsum(dim=1)
    clip = base + drift
    if still_every:
        for t in range(0, T, still_every):
            clip[:, t] = clip[:, t - 1] if t > 0 else clip[:, t]
    return scale * clip


def example_inputs():
    return (_clip(24, 0),)


def dynamic_shapes():
    return ({1: torch.export.Dim("frames", min=2, max=256)},)


def verify_inputs():
    return [
        (_clip(100, 1, still_every=3),),             # long clip, subsampled, some still frames
        (torch.full((1, 8, 42), 0.5),),              # frozen, collapsed hand -> no sign
        (_clip(2, 2),),
        (_clip(30, 3, still_every=2),),
    ]
