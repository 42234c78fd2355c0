"""Temporal action segmentation post-processing.

A temporal conv net produces per-frame class scores for a video; the frame
labels are run-length encoded into segments (label, start, end), background
segments (label 0) are dropped, segments shorter than `min_len` frames are
absorbed by the previous kept segment when it has the same label or dropped
otherwise.  Output: [n_segments, 4] = (label, start, end, mean confidence),
where n_segments depends on the data.
"""
import torch
import torch.nn as nn


class TemporalConvNet(nn.Module):
    def __init__(self, d_in=8, n_classes=4, d=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(d_in, d, 3, padding=1), nn.ReLU(),
            nn.Conv1d(d, n_classes, 1))

    def forward(self, feats):                    # [T, d_in] -> [T, C]
        return self.net(feats.t().unsqueeze(0))[0].t()


class ActionSegmentDecoder(nn.Module):
    def __init__(self, d_in=8, n_classes=4, min_len=3):
        super().__init__()
        self.tcn = TemporalConvNet(d_in, n_classes)
        self.min_len = min_len
        self.proj = nn.Linear(d_in, n_classes, bias=False)

    def forward(self, feats):
        scores = self.tcn(feats) * 0.1 + self.proj(feats)
        probs = scores.softmax(-1)
        labels = scores.argmax(-1)
        conf = probs.amax(-1)
        T = feats.shape[0]
        segments = []
        start = 0
        for t in range(1, T + 1):
            if t < T and labels[t] == labels[start]:
                continue
            lab = int(labels[start])
            if lab == 0:
                start = t
                continue                                   # background
            seg = torch.stack([torch.tensor(float(lab)), torch.tensor(float(start)),
                               torch.tensor(float(t - 1)), conf[start:t].mean()])
            if t - start < self.min_len:
                if len(segments) > 0 and int(segments[-1][0]) == lab:
                    prev = segments[-1]
                    segments[-1] = torch.stack([prev[0], prev[1], seg[2], (prev[3] + seg[3]) / 2])
                start = t
                continue
            segments.append(seg)
            start = t
        if not segments:
            return feats.new_zeros(0, 4)
        return torch.stack(segments)


def model():
    torch.manual_seed(0)
    m = ActionSegmentDecoder()
    with torch.no_grad():
        m.proj.weight.copy_(torch.eye(4, 8) * 4.0)   # feature dims 0..3 carry class evidence
    return m.eval()


def _video(g, labels):
    labels = torch.tensor(labels)
    T = labels.shape[0]
    f = 0.3 * torch.randn(T, 8, generator=g)
    f[torch.arange(T), labels] += 1.5
    return f


def _runs(*pairs):
    out = []
    for lab, n in pairs:
        out += [lab] * n
    return out


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (_video(g, _runs((0, 3), (1, 6), (2, 5), (0, 4))),)


def dynamic_shapes():
    return ({0: torch.export.Dim("frames", min=2, max=300)},)


def verify_inputs():
    g = torch.Generator().manual_seed(15)
    return [
        (_video(g, _runs((0, 12))),),                                  # only background
        (_video(g, _runs((2, 2))),),                                   # single short segment
        (_video(g, _runs((1, 6), (3, 2), (1, 5), (0, 2), (1, 2), (0, 3), (2, 2), (3, 7))),),  # drop + merge
        (_video(g, _runs((0, 4), (2, 10), (1, 8), (3, 30))),),         # long clean video
    ]
