"""Operating-point calibration for a binary classifier: score a validation
batch with the learned head, then bisect for the highest decision threshold
that still reaches the target recall on the positives."""
import torch
import torch.nn as nn


class RecallThresholdCalibrator(nn.Module):
    def __init__(self, feat=6, target_recall=0.72, tol=0.02, guard=0.01):
        super().__init__()
        self.head = nn.Sequential(nn.Linear(feat, 8), nn.ReLU(), nn.Linear(8, 1))
        self.target_recall = target_recall
        self.tol = tol
        self.guard = guard

    def recall_at(self, scores, positives, thr):
        tp = ((scores >= thr) & positives).sum()
        return tp.float() / positives.sum().float()

    def forward(self, feats, labels):
        scores = torch.sigmoid(3.0 * self.head(feats)).squeeze(-1)
        positives = labels > 0
        if not positives.any():
            return torch.tensor(1.0), torch.tensor(0), torch.zeros_like(labels)
        lo = scores[positives].amin() - self.guard
        hi = scores.amax()
        steps = 0
        while hi - lo > self.tol:
            mid = 0.5 * (lo + hi)
            if self.recall_at(scores, positives, mid) >= self.target_recall:
                lo = mid
            else:
                hi = mid
            steps += 1
        return lo, torch.tensor(steps), (scores >= lo).long()


def model():
    torch.manual_seed(0)
    return RecallThresholdCalibrator().eval()


def _batch(n, seed, pos_rate=0.5, identical=False):
    g = torch.Generator().manual_seed(seed)
    feats = torch.randn(n, 6, generator=g)
    if identical:
        feats = feats[:1].expand(n, 6).clone()
    labels = (torch.rand(n, generator=g) < pos_rate).long()
    return feats, labels


def example_inputs():
    return _batch(10, 0)


def dynamic_shapes():
    n = torch.export.Dim("samples", min=2, max=512)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        _batch(6, 1, pos_rate=0.0),
        _batch(4, 2, pos_rate=1.0, identical=True),
        _batch(12, 3, pos_rate=0.6),
    ]
