"""Arc-length resampling of a handwriting pen stroke, followed by a direction embedding.

Digitiser strokes are sampled in time, so slow parts of the stroke are dense and fast parts
sparse.  The stroke is resampled at a fixed spacing along its arc length (duplicate points
from pen jitter are skipped); each resampled point then gets a small embedding of its
local writing direction, as used by online handwriting recognisers.
"""
import torch
from torch import nn


class StrokeArclengthResampler(nn.Module):
    def __init__(self, spacing=1.0, min_seg=0.05, emb=8):
        super().__init__()
        self.spacing = spacing
        self.min_seg = min_seg
        self.embed = nn.Linear(4, emb)

    def forward(self, stroke):
        # stroke: [P, 2] pen positions in mm
        samples = [stroke[0]]
        carry = torch.zeros(())  # arc length travelled since the last emitted sample
        for s in range(stroke.shape[0] - 1):
            a, b = stroke[s], stroke[s + 1]
            seg = (b - a).norm()
            if seg < self.min_seg:
                continue
            pos = self.spacing - carry
            while pos <= seg:
                samples.append(a + (b - a) * (pos / seg))
                pos = pos + self.spacing
            carry = seg - (pos - self.spacing)
        pts = torch.stack(samples)
        if pts.shape[0] < 2:
            pts = torch.stack([stroke[0], stroke[-1]])
        d = pts[1:] - pts[:-1]
        d = torch.cat([d, d[-1:]], dim=0)
        direction = d / (d.norm(dim=-1, keepdim=True) + 1e-6)
        feats = torch.cat([direction, pts - pts.mean(0)], dim=-1)
        return pts, torch.tanh(self.embed(feats))


def model():
    torch.manual_seed(0)
    return StrokeArclengthResampler().eval()


def _make(steps, seed, dup=()):
    """steps: list of segment lengths; direction wanders smoothly."""
    g = torch.Generator().manual_seed(seed)
    n = len(steps)
    heading = torch.cumsum(0.6 * (torch.rand(n, generator=g) - 0.5), 0)
    lengths = torch.tensor(steps)
    for i in dup:
        lengths[i] = 0.01
    delta = torch.stack([torch.cos(heading), torch.sin(heading)], dim=1) * lengths[:, None]
    start = torch.rand(1, 2, generator=g) * 5.0
    return (torch.cat([start, start + torch.cumsum(delta, 0)], dim=0),)


def example_inputs():
    return _make([0.4, 0.5, 1.7, 0.3, 2.6, 0.8, 0.35], 0)


def dynamic_shapes():
    return ({0: torch.export.Dim("points", min=2, max=128)},)


def verify_inputs():
    return [
        _make([0.3, 0.25], 1),                                  # too short: no sample emitted
        _make([0.37, 0.45, 1.35, 0.4, 3.3, 0.55], 2, dup=(3,)),  # 0, 1 and many samples per segment, jitter
        _make([0.6, 0.7, 0.2, 2.4, 0.7, 0.05, 1.6], 3, dup=(5,)),
        _make([4.45], 4),                                       # a single long segment
        example_inputs(),
    ]
