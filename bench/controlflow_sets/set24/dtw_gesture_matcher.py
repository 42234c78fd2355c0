"""Gesture matching with banded dynamic time warping (DTW).

Both sequences are embedded frame-wise by a shared MLP, then DTW is filled row
by row inside a Sakoe-Chiba band (widened automatically when the lengths
differ by more than the band).  Rows whose best cumulative cost already
exceeds the abandon threshold stop the computation early (early abandoning,
as in UCR-suite style nearest-neighbour search).
Returns (normalised distance, abandoned flag).
"""
import torch
import torch.nn as nn

BIG = 1e6


class FrameEmbed(nn.Module):
    def __init__(self, d_in=3, d=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 16), nn.Tanh(), nn.Linear(16, d))

    def forward(self, x):
        return self.net(x)


class DTWGestureMatcher(nn.Module):
    def __init__(self, band=3, abandon=4.0):
        super().__init__()
        self.embed = FrameEmbed()
        self.band = band
        self.abandon = abandon

    def forward(self, query, template):
        a = self.embed(query)
        b = self.embed(template)
        N, M = a.shape[0], b.shape[0]
        cost = torch.cdist(a, b)
        w = self.band
        if abs(N - M) > w:
            w = abs(N - M)
        prev = torch.full((M + 1,), BIG)
        prev[0] = 0.0
        for i in range(1, N + 1):
            row = [torch.tensor(BIG)]
            for j in range(1, M + 1):
                if j < i - w or j > i + w:
                    row.append(torch.tensor(BIG))
                    continue
                best = torch.minimum(torch.minimum(prev[j], prev[j - 1]), row[j - 1])
                row.append(cost[i - 1, j - 1] + best)
            prev = torch.stack(row)
            if prev.min() > self.abandon:
                return prev.min() / (N + M), torch.tensor(True)
        return prev[M] / (N + M), torch.tensor(False)


def model():
    torch.manual_seed(0)
    return DTWGestureMatcher().eval()


def _gesture(g, n, speed=1.0, noise=0.05, shift=0.0):
    t = torch.linspace(0, 1, n).unsqueeze(1) * speed
    base = torch.cat([torch.sin(6 * t), torch.cos(4 * t), t], 1) + shift
    return base + noise * torch.randn(n, 3, generator=g)


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_gesture(g, 10), _gesture(g, 12))


def dynamic_shapes():
    return ({0: torch.export.Dim("query_len", min=2, max=40)},
            {0: torch.export.Dim("template_len", min=2, max=40)})


def verify_inputs():
    g = torch.Generator().manual_seed(18)
    return [
        (_gesture(g, 2), _gesture(g, 2)),                     # minimal sequences
        (_gesture(g, 8), _gesture(g, 9)),                     # similar lengths inside the band
        (_gesture(g, 4), _gesture(g, 14)),                    # band widened
        (_gesture(g, 12), _gesture(g, 10, shift=6.0)),        # dissimilar: abandoned early
    ]
