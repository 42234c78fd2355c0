"""Always-on keyword spotter with posterior smoothing and a detection state machine.

A small conv + GRU acoustic model produces per-frame posteriors (filler + 3 keywords).
Posteriors are smoothed over a sliding window, then a frame-by-frame state machine
requires `min_hits` consecutive confident frames before firing, and ignores frames in
a refractory period after each detection. Output: (num_detections, 3) rows of
[frame, keyword id, confidence]; zero rows when nothing fires (data-dependent shape).
"""

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim


class KWSDetector(nn.Module):
    def __init__(self, n_mels=40, n_kw=3, smooth=5, trigger=0.33, filler_max=0.5, min_hits=3, refractory=10):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, 32, 5, padding=2)
        self.gru = nn.GRU(32, 32, batch_first=True)
        self.head = nn.Linear(32, n_kw + 1)
        self.smooth = smooth
        self.trigger = trigger
        self.filler_max = filler_max
        self.min_hits = min_hits
        self.refractory = refractory

    def posteriors(self, feats):
        h = F.relu(self.conv(feats.transpose(1, 2))).transpose(1, 2)
        h, _ = self.gru(h)
        p = self.head(h)[0].softmax(-1)  # (T, K+1)
        # causal moving average over `smooth` frames
        c = torch.cumsum(F.pad(p, (0, 0, self.smooth, 0)), dim=0)
        return (c[self.smooth :] - c[: -self.smooth]) / self.smooth

    def forward(self, feats):
        post = self.posteriors(feats)
        detections = []
        cooldown = 0
        hits = 0
        for t in range(post.shape[0]):
            if cooldown > 0:
                cooldown -= 1
                continue
            p = post[t]
            conf = p[1:].max()
            if conf > self.trigger and p[0] < self.filler_max:
                hits += 1
                if hits >= self.min_hits:
                    kw = int(p[1:].argmax().item()) + 1
                    detections.append(torch.stack([torch.tensor(float(t)), torch.tensor(float(kw)), conf]))
                    cooldown = self.refractory
                    hits = 0
            else:
                hits = 0
        if len(detections) == 0:
            return torch.zeros(0, 3)
        return torch.stack(detections)


def model():
    torch.manual_seed(0)
    m = KWSDetector()
    with torch.no_grad():
        m.head.bias.copy_(torch.tensor([0.5, 0.0, -0.3, -0.6]))
        m.head.weight.mul_(8.0)  # peaky output layer, as after training
    return m.eval()


def _utt(seed, t, kw_scale):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(1, t, 40, generator=g) * 0.5
    # a "spoken keyword" region with a strong fixed spectral pattern
    patt = torch.randn(40, generator=g)
    s = t // 3
    x[0, s : s + t // 3] += kw_scale * patt
    return (x,)


def example_inputs():
    return _utt(1, 120, 3.0)


def dynamic_shapes():
    return {"feats": {1: Dim("frames", min=8, max=400)}}


def verify_inputs():
    return [_utt(2, 60, 0.0), _utt(3, 300, 4.0), _utt(4, 8, 0.0), _utt(5, 200, 2.5)]
