"""Wildlife camera-trap burst filter (runs on the trap before uploading over LTE).

A PIR trigger captures a burst of B frames. Wind-blown vegetation causes many
empty bursts, so frames whose difference from the burst background (per-pixel
median) is small are dropped, and the remaining frames are scored by a tiny CNN
for "animal present". Large frames are downsampled first. Returns the indices of
the frames worth uploading and the index of the best one (-1 if none).

Kind: T. Constructs: 1, 2, 5, 6, 8, 9.
"""
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import Dim


class ConvBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, stride=2, padding=1)
        self.norm = nn.BatchNorm2d(cout)

    def forward(self, x):
        return F.relu(self.norm(self.conv(x)))


class CameraTrapFilter(nn.Module):
    def __init__(self, max_side=96, min_motion=0.015):
        super().__init__()
        self.blocks = nn.ModuleList([ConvBlock(3, 8), ConvBlock(8, 16), ConvBlock(16, 16)])
        self.classifier = nn.Linear(16, 1)
        self.max_side = max_side
        self.min_motion = min_motion

    def animal_score(self, frame):
        x = frame.unsqueeze(0)
        for block in self.blocks:
            x = block(x)
        return torch.sigmoid(self.classifier(x.mean(dim=(2, 3))))[0, 0]

    def forward(self, frames):
        if frames.shape[-1] > self.max_side or frames.shape[-2] > self.max_side:
            frames = F.interpolate(frames, size=(64, 64), mode="area")
        background = frames.median(dim=0).values
        keep, scores = [], []
        for b in range(frames.shape[0]):
            motion = (frames[b] - background).abs().mean()
            if motion < self.min_motion:
                continue  # nothing moved in this frame
            keep.append(b)
            scores.append(self.animal_score(frames[b]) * motion.clamp(max=0.5))
        if not keep:
            return torch.zeros(0, dtype=torch.long), torch.tensor(-1)
        best = keep[int(torch.argmax(torch.stack(scores)))]
        return torch.tensor(keep, dtype=torch.long), torch.tensor(best)


def model():
    torch.manual_seed(4207)
    return CameraTrapFilter().eval()


def _burst(n, h, w, animal_frames, seed, sway=0.01):
    """Textured scene; an animal (bright blob) appears in the listed frames."""
    g = torch.Generator().manual_seed(seed)
    scene = 0.3 + 0.2 * torch.rand(3, h, w, generator=g)
    yy = torch.linspace(-1, 1, h).view(-1, 1)
    xx = torch.linspace(-1, 1, w).view(1, -1)
    frames = []
    for b in range(n):
        f = scene + sway * torch.randn(3, h, w, generator=g)
        if b in animal_frames:
            k = animal_frames.index(b)  # the animal walks towards the camera: bigger each frame
            cx = -0.6 + 0.3 * k
            blob = torch.exp(-((xx - cx) ** 2 + (yy - 0.1) ** 2) / (0.06 * (1.0 + 0.6 * k)))
            f = f + torch.stack([0.6 * blob, 0.45 * blob, 0.3 * blob])
        frames.append(f)
    return (torch.stack(frames),)


def example_inputs():
    return _burst(6, 64, 80, [1, 2, 3], seed=0)


def dynamic_shapes():
    return ({0: Dim("burst", min=2, max=16), 2: Dim("height", min=32, max=256),
             3: Dim("width", min=32, max=256)},)


def verify_inputs():
    return [
        example_inputs(),                              # some frames dropped, some kept; small frames
        _burst(5, 48, 48, [], seed=1),                 # wind only: every frame dropped -> (empty, -1)
        _burst(4, 120, 160, [0, 1, 2], seed=2),        # large frames downsampled; one frame dropped
        _burst(3, 64, 128, [2], seed=3),               # wide frame downsampled; single animal frame kept
    ]
