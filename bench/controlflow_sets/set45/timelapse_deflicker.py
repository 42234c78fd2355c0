"""Time-lapse deflicker: per-frame exposure matching against a slowly drifting
reference, dropped (black) frames replaced by the previous output, and a tiny
learned residual clean-up on corrected frames.

Kind T. Constructs: 1, 2, 5, 6.
"""
import torch
import torch.nn as nn
from torch.export import Dim


class Deflicker(nn.Module):
    def __init__(self, tolerance=0.04, momentum=0.9):
        super().__init__()
        self.tolerance = tolerance
        self.momentum = momentum
        self.register_buffer("rgb_weights", torch.tensor([0.299, 0.587, 0.114]))
        self.refine = nn.Conv2d(3, 3, 3, padding=1)
        with torch.no_grad():
            self.refine.weight.mul_(0.05)
            self.refine.bias.zero_()

    def forward(self, frames):
        # frames: [T, 3, H, W] in [0, 1]
        luma = (frames * self.rgb_weights.view(1, 3, 1, 1)).sum(1).mean((1, 2))
        out = [frames[0]]
        ref = luma[0]
        for t in range(1, frames.shape[0]):
            cur = luma[t]
            if cur < 0.02:
                out.append(out[-1])  # dropped frame from the intervalometer
                continue
            ratio = ref / cur
            if (ratio - 1.0).abs() > self.tolerance:
                corrected = (frames[t] * ratio).clamp(0, 1)
                corrected = (corrected + self.refine(corrected.unsqueeze(0))[0]).clamp(0, 1)
            else:
                corrected = frames[t]
            out.append(corrected)
            ref = self.momentum * ref + (1 - self.momentum) * cur
        return torch.stack(out)


def model():
    torch.manual_seed(3)
    return Deflicker().eval()


def _clip(gains, h=24, w=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = 0.3 + 0.3 * torch.rand(3, h, w, generator=g)
    return torch.stack([(base * k).clamp(0, 1) for k in gains])


def example_inputs():
    return (_clip([1.0, 1.2, 0.97, 1.0, 0.8, 1.01], seed=0),)


def dynamic_shapes():
    return ({0: Dim("frames", min=2, max=64), 2: Dim("h", min=8, max=128), 3: Dim("w", min=8, max=128)},)


def verify_inputs():
    steady = [1.0 + 0.01 * ((i % 3) - 1) for i in range(64)]
    return [
        example_inputs(),  # 1.2 and 0.8 corrected, 0.97 (5% off the drifted ref) corrected, 1.0/1.01 kept
        (_clip([1.0, 1.0], h=8, w=8, seed=1),),  # T=2: loop runs once, within tolerance
        (_clip([1.0, 0.0, 1.1, 0.0, 0.0, 0.9], h=16, w=20, seed=2),),  # black frames -> continue (twice in a row)
        (_clip(steady, h=10, w=12, seed=3),),  # T=64: loop many times, never corrects
        (_clip([1.0, 1.25], h=128, w=128, seed=4),),  # max spatial size, one corrected frame
    ]
