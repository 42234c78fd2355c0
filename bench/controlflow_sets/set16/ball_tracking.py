"""Ball tracker for a sports camera: per-frame heatmap (fixed blur + small learned
residual), peak search refined by a few mean-shift steps, constant-velocity
prediction when the ball is lost, and the track is dropped after too many misses.
Returns the (n_tracked, 2) positions (data-dependent length) and a visibility flag
per tracked frame.
"""
import torch
from torch import nn
import torch.nn.functional as F

S = 32
REFINE = 2


class Heat(nn.Module):
    def __init__(self):
        super().__init__()
        self.res = nn.Conv2d(1, 1, 3, padding=1)
        nn.init.normal_(self.res.weight, std=0.01)
        nn.init.zeros_(self.res.bias)

    def forward(self, f):  # (1, 1, S, S)
        blur = F.avg_pool2d(f, 3, stride=1, padding=1, count_include_pad=False)
        return blur + self.res(f)


class BallTracker(nn.Module):
    def __init__(self, min_peak=0.3, max_miss=2):
        super().__init__()
        self.heat = Heat()
        self.min_peak = min_peak
        self.max_miss = max_miss
        ys, xs = torch.meshgrid(torch.arange(S, dtype=torch.float32), torch.arange(S, dtype=torch.float32), indexing="ij")
        self.register_buffer("grid", torch.stack([ys, xs], -1))

    def forward(self, frames):  # (T, 1, S, S)
        pos = torch.full((2,), S / 2.0)
        vel = torch.zeros(2)
        misses = 0
        seen = torch.zeros((), dtype=torch.bool)
        track, vis = [torch.zeros(0, 2)], [torch.zeros(0)]
        for t in range(frames.shape[0]):
            hm = self.heat(frames[t:t + 1])[0, 0]
            peak = hm.amax()
            if peak < self.min_peak:
                misses += 1
                if misses > self.max_miss:
                    break
                pos = pos + vel
                track.append(pos.unsqueeze(0))
                vis.append(torch.zeros(1))
                continue
            misses = 0
            idx = hm.flatten().argmax()
            new = torch.stack([idx // S, idx % S]).float()
            for _ in range(REFINE):  # mean-shift refinement in a soft window
                w = torch.exp(-((self.grid - new) ** 2).sum(-1) / 8.0) * hm.clamp_min(0)
                new = (w.unsqueeze(-1) * self.grid).sum((0, 1)) / w.sum()
            vel = new - pos if seen else vel
            pos = new
            seen = torch.ones((), dtype=torch.bool)
            track.append(pos.unsqueeze(0))
            vis.append(torch.ones(1))
        return torch.cat(track), torch.cat(vis)


def model():
    torch.manual_seed(0)
    return BallTracker().eval()


def _frames(path, seed):
    """path: list of (y, x) or None (ball occluded)."""
    g = torch.Generator().manual_seed(seed)
    f = torch.rand(len(path), 1, S, S, generator=g) * 0.1
    for t, p in enumerate(path):
        if p is not None:
            y, x = p
            f[t, 0, y - 1:y + 2, x - 1:x + 2] = 1.0
            f[t, 0, y, x] = 1.5
    return f


def example_inputs():
    return (_frames([(5, 5), (7, 8), (9, 11), None, (13, 17)], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=120)},)


def verify_inputs():
    return [
        (_frames([(20, 20), None, None, None, (10, 10), (11, 11)], 1),),  # lost -> break
        (_frames([None, None, None, (4, 4)], 2),),                       # never seen -> break
        (_frames([(8, 24), (9, 22), (10, 20), (11, 18)], 3),),
    ]
