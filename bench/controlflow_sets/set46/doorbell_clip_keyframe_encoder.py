"""X: smart-doorbell clip summariser: drop static frames, encode key frames with a
resolution-aware encoder, delta-encode the rest, and return a fixed-size clip embedding.

frames (T, 1, H, W) grayscale in [0, 1]. Returns clip embedding (16,), number of key frames (1,),
number of kept frames (1,).
Constructs: 1, 2, 5, 6, 7, 8, 9
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeyFrameEncoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, stride=2, padding=1)
        self.fc = nn.Linear(8 * 4 * 4, dim)

    def forward(self, frame):
        x = frame.unsqueeze(0)
        # large sensors: cheap downscale before the conv
        if x.shape[-2] > 48:
            x = F.avg_pool2d(x, 2)
        x = F.relu(self.conv(x))
        x = F.adaptive_avg_pool2d(x, 4).flatten(1)
        return torch.tanh(self.fc(x))[0]


class ClipKeyframeEncoder(nn.Module):
    def __init__(self, static_thr=0.01, key_thr=0.12, dim=16, use_temporal_pos=True):
        super().__init__()
        self.key = KeyFrameEncoder(dim)
        self.delta = nn.Linear(3, dim)
        self.static_thr = static_thr
        self.key_thr = key_thr
        self.use_temporal_pos = use_temporal_pos

    def _delta_code(self, frame, ref):
        d = frame - ref
        return torch.tanh(self.delta(torch.stack([d.mean(), d.abs().mean(), d.std()])))

    def forward(self, frames):
        T = frames.shape[0]
        codes = []
        n_key = 0
        ref = frames[0]
        last = frames[0]
        for t in range(T):
            f = frames[t]
            change = (f - last).abs().mean()
            if t > 0 and change < self.static_thr:
                continue
            if t == 0 or (f - ref).abs().mean() > self.key_thr:
                code = self.key(f)
                ref = f
                n_key += 1
            else:
                code = self._delta_code(f, ref)
            if self.use_temporal_pos:  # static
                code = code + 0.01 * t / T
            codes.append(code)
            last = f
        emb = torch.stack(codes).mean(0)
        return emb, torch.tensor([float(n_key)]), torch.tensor([float(len(codes))])


def _clip(T, H, W, seed, events=()):
    """events: list of (t, kind) with kind 'move' (small change) or 'cut' (big change)."""
    g = torch.Generator().manual_seed(seed)
    base = 0.3 + 0.2 * torch.rand(1, H, W, generator=g)
    frames = []
    cur = base
    for t in range(T):
        for et, kind in events:
            if et == t:
                if kind == "move":
                    cur = (cur + 0.05).clamp(0, 1)
                else:
                    cur = 1.0 - cur
        frames.append(cur)
    return (torch.stack(frames),)


def model():
    torch.manual_seed(4619)
    return ClipKeyframeEncoder().eval()


def example_inputs():
    return _clip(10, 32, 40, 1, events=[(3, "move"), (6, "cut")])


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=64), 2: torch.export.Dim("H", min=16, max=128),
             3: torch.export.Dim("W", min=16, max=128)},)


def verify_inputs():
    return [
        example_inputs(),                                       # static frames dropped, one delta frame, one cut
        _clip(2, 16, 16, 2),                                    # minimum sizes, second frame static
        _clip(64, 128, 128, 3, events=[(t, "move") for t in range(5, 60, 3)]),  # max sizes, drift accumulates
                                                                # -> periodic re-keying, H>48 downscale
        _clip(5, 60, 20, 4, events=[(1, "cut"), (2, "cut")]),   # consecutive cuts, H>48
    ]
