"""On-device image preprocessing + tiny CNN: rescale 0..255 inputs, clamp outliers only when the
spread is large, pad H/W up to a multiple of 16, downsample large images.

Branches on data statistics (max, std) and on dynamic sizes (x.shape[2], x.shape[3]) with
`or`, F.pad amounts computed from dynamic dims.
"""

import torch
import torch.nn.functional as F
from torch import nn


class Preprocess(nn.Module):
    def __init__(self, multiple=16, max_side=64):
        super().__init__()
        self.multiple = multiple
        self.max_side = max_side
        self.mean = nn.Parameter(torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1), requires_grad=False)

    def forward(self, x):
        if x.max() > 1.5:
            x = x / 255.0
        x = x - self.mean
        if x.std() > 1.0:
            x = x.clamp(-2.0, 2.0)
        h, w = x.shape[2], x.shape[3]
        if h % self.multiple != 0 or w % self.multiple != 0:
            ph = (self.multiple - h % self.multiple) % self.multiple
            pw = (self.multiple - w % self.multiple) % self.multiple
            x = F.pad(x, (0, pw, 0, ph))
        if x.shape[2] > self.max_side:
            x = F.avg_pool2d(x, 2)
        return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre = Preprocess()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(8, 4)

    def forward(self, img):
        return self.fc(self.conv(self.pre(img)).flatten(1))


def model():
    torch.manual_seed(0)
    return Net().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.rand(1, 3, 32, 48),)


def dynamic_shapes():
    return ({2: torch.export.Dim("h", min=8, max=128), 3: torch.export.Dim("w", min=8, max=128)},)


def verify_inputs():
    torch.manual_seed(17)
    wild = torch.rand(1, 3, 48, 32)
    wild[..., :8, :] = -6.0  # max stays <= 1.5 but the spread is large
    return [
        (torch.rand(1, 3, 32, 48),),  # in [0,1], small spread, aligned, small: no branch
        (torch.rand(1, 3, 30, 45) * 255,),  # 0..255 -> rescale; unaligned h and w -> pad
        (torch.rand(1, 3, 32, 20),),  # only w unaligned (`or` second operand)
        (wild,),  # large spread -> clamp
        (torch.rand(1, 3, 100, 64) * 255,),  # pad 100 -> 112 then downsample (> 64)
        (torch.rand(1, 3, 80, 16),),  # aligned but tall: downsample only
    ]
