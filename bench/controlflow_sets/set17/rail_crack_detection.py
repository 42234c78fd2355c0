"""Rail crack detection on ultrasonic A-scans: scan segments, stop at first confirmed crack (tricky)."""
import torch
from torch import nn


class SegmentScorer(nn.Module):
    def __init__(self, seg=16):
        super().__init__()
        self.conv = nn.Conv1d(1, 8, 5, padding=2)
        self.fc = nn.Linear(8, 1)

    def forward(self, s: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.conv(s.unsqueeze(1))).amax(dim=-1)
        score = torch.sigmoid(self.fc(h)).squeeze(-1)
        if s.abs().max() > 3.5:
            # transducer saturated: treat the segment as a certain defect
            return torch.ones_like(score)
        return score


class RailCrack(nn.Module):
    def __init__(self, seg=16):
        super().__init__()
        self.seg = seg
        self.scorer = SegmentScorer(seg)
        self.thresh = 2.0

    def forward(self, scan: torch.Tensor):
        # scan: [B, L], L dynamic; pad to a multiple of seg
        L = scan.shape[1]
        rem = L % self.seg
        if rem != 0:
            scan = torch.nn.functional.pad(scan, (0, self.seg - rem))
        n = scan.shape[1] // self.seg
        scores = []
        first = torch.full((), -1, dtype=torch.int64)
        for i in range(n):
            s = scan[:, i * self.seg:(i + 1) * self.seg]
            energy = s.pow(2).mean()
            if energy < 0.05:
                scores.append(torch.zeros(scan.shape[0]))
                continue
            sc = self.scorer(s) + energy
            scores.append(sc)
            if sc.max() > self.thresh:
                first = torch.tensor(i, dtype=torch.int64)
                break
        return torch.stack(scores, dim=1), first


def model():
    torch.manual_seed(2)
    return RailCrack().eval()


def _scan(L, crack_at=None, quiet=(), b=2):
    g = torch.Generator().manual_seed(3)
    x = torch.randn(b, L, generator=g) * 0.5
    for q in quiet:
        x[:, q * 16:(q + 1) * 16] = 0.0
    if crack_at is not None:
        x[:, crack_at * 16 + 4:crack_at * 16 + 8] = 4.0
    return x


def example_inputs():
    return (_scan(64, crack_at=2, quiet=(1,)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=8), 1: torch.export.Dim("length", min=16, max=1024)},)


def verify_inputs():
    return [(_scan(100),), (_scan(48, crack_at=0),), (_scan(80, quiet=(0, 2)),), (_scan(32, b=3),)]
