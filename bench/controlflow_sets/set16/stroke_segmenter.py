"""Handwriting stroke segmenter for a stylus app: pen samples (x, y, pressure) ->
strokes split at pen lifts or long pauses; each stroke of >= 2 points is embedded
by a small MLP on its resampled shape. Returns (n_strokes, D) embeddings and the
stroke boundaries; n_strokes is data-dependent.
"""
import torch
from torch import nn
import torch.nn.functional as F

D = 16
NPTS = 8


def resample(pts):
    # pts: (n, 2) -> (NPTS, 2), normalised to its bounding box
    lo = pts.amin(0)
    span = (pts.amax(0) - lo).amax().clamp_min(1e-3)
    p = (pts - lo) / span
    return F.interpolate(p.t().unsqueeze(0), size=NPTS, mode="linear", align_corners=True)[0].t()


class StrokeSegmenter(nn.Module):
    def __init__(self, min_pressure=0.05, pause_step=0.002):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(NPTS * 2, 32), nn.ReLU(), nn.Linear(32, D))
        self.min_pressure = min_pressure
        self.pause_step = pause_step

    def embed(self, pts):
        return self.mlp(resample(pts).reshape(1, -1))

    def forward(self, pen):  # (N, 3)
        embs = [torch.zeros(0, D)]
        bounds = [torch.zeros(0, 2, dtype=torch.int64)]
        start = 0
        n = pen.shape[0]
        for i in range(1, n + 1):
            if i < n:
                down = pen[i, 2] > self.min_pressure
                step = (pen[i, :2] - pen[i - 1, :2]).norm()
                if down and step > self.pause_step:
                    continue
            # stroke ends before i
            seg = pen[start:i]
            valid = seg[:, 2] > self.min_pressure
            if valid.sum() >= 2:
                embs.append(self.embed(seg[valid][:, :2]))
                bounds.append(torch.tensor([[start, i]]))
            start = i
        return torch.cat(embs), torch.cat(bounds)


def model():
    torch.manual_seed(0)
    return StrokeSegmenter().eval()


def _pen(segments, seed):
    """segments: list of (n_points, pressure[, still]); pen moves steadily unless still."""
    g = torch.Generator().manual_seed(seed)
    rows = []
    pos = torch.zeros(2)
    for seg in segments:
        n, p, still = seg[0], seg[1], len(seg) > 2
        for _ in range(n):
            if not still:
                pos = pos + torch.rand(2, generator=g) * 0.05 + 0.01
            rows.append(torch.cat([pos, torch.tensor([p])]))
    return torch.stack(rows)


def example_inputs():
    return (_pen([(6, 0.5), (2, 0.0), (5, 0.7)], 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=2, max=1024)},)


def verify_inputs():
    return [
        (_pen([(3, 0.0)], 1),),                       # hovering only -> 0 strokes
        (_pen([(4, 0.6), (1, 0.0), (1, 0.6), (1, 0.0), (7, 0.4)], 2),),
        (_pen([(10, 0.9)], 3),),                      # one stroke
        (_pen([(5, 0.8), (2, 0.8, 'pause'), (4, 0.8)], 4),),  # pen rests -> split at pause
    ]
