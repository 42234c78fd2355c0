"""Nanopore sequencing: segment the raw ionic current into events (k-mer levels).

Recursive binary segmentation with a work stack: each segment is split at the
position maximising a two-sample t-like statistic if it is significant and long
enough, up to an event budget.  Adjacent events whose mean levels are too
close (over-segmentation on noise "stutters") are merged afterwards.  Very
long reads are first downsampled by 2.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EventSegmenter(nn.Module):
    def __init__(self, min_len=8, threshold=6.0, merge_tol=2.0, max_events=64, max_samples=2048):
        super().__init__()
        self.min_len = min_len
        self.threshold = threshold
        self.merge_tol = merge_tol
        self.max_events = max_events
        self.max_samples = max_samples

    def best_split(self, seg):
        n = seg.shape[0]
        csum = seg.cumsum(0)
        k = torch.arange(1, n, dtype=seg.dtype)
        left = csum[:-1] / k
        right = (csum[-1] - csum[:-1]) / (n - k)
        stat = (left - right).abs() * torch.sqrt(k * (n - k) / n)
        stat[: self.min_len - 1] = 0.0
        stat[n - self.min_len:] = 0.0
        return stat.max(), int(stat.argmax()) + 1

    def level(self, x, a, b):
        return x[a:b].mean()

    def forward(self, current):
        if current.shape[0] > self.max_samples:
            current = F.avg_pool1d(current.view(1, 1, -1), 2).view(-1)
        x = (current - current.median()) / 1.5   # pA -> units of the open-pore noise
        n = x.shape[0]
        stack = [(0, n)]
        cuts = []
        while stack:
            s, e = stack.pop()
            if e - s < 2 * self.min_len:
                continue
            stat, idx = self.best_split(x[s:e])
            if stat > self.threshold and len(cuts) < self.max_events:
                cuts.append(s + idx)
                stack.append((s, s + idx))
                stack.append((s + idx, e))
        edges = [0] + sorted(cuts) + [n]
        means = []
        for k in range(len(edges) - 1):
            means.append(self.level(x, edges[k], edges[k + 1]))
        i = 0
        while i < len(means) - 1:
            if (means[i] - means[i + 1]).abs() < self.merge_tol:
                del edges[i + 1]
                del means[i + 1]
                means[i] = self.level(x, edges[i], edges[i + 1])
                continue
            i += 1
        levels = torch.stack(means) * 1.5 + current.median()
        lengths = torch.tensor(edges[1:]) - torch.tensor(edges[:-1])
        return levels, lengths


def model():
    torch.manual_seed(1303)
    return EventSegmenter().eval()


def _squiggle(levels, lengths, seed, noise=1.5):
    g = torch.Generator().manual_seed(seed)
    x = torch.cat([torch.full((n,), float(lv)) for lv, n in zip(levels, lengths)])
    return x + noise * torch.randn(x.shape[0], generator=g)


def example_inputs():
    return (_squiggle([80, 95, 70, 105, 88], [40, 60, 30, 50, 45], seed=1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("samples", min=8, max=4096)},)


def verify_inputs():
    return [
        # example: five clear k-mer levels -> several recursive splits, no merges
        example_inputs(),
        # open pore only (no step): the first segment is tested and not split
        (_squiggle([220], [120], seed=2),),
        # short read below 2*min_len: the only segment is skipped (continue) untested
        (_squiggle([90, 100], [7, 7], seed=3),),
        # a small 1 pA "stutter" inside a long event: split by the statistic, merged back
        (_squiggle([80, 81.5, 81.5, 110], [200, 200, 10, 80], seed=4, noise=1.0),),
        # long read (> max_samples, downsampled) with 70 short events -> event budget hit
        (_squiggle([70 + 25 * (k % 2) + 3 * (k % 5) for k in range(70)], [36] * 70, seed=5),),
    ]
