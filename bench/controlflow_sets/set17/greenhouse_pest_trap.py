"""Greenhouse sticky-trap counter: blob proposals, keep top-k by score with data-dependent k (tricky)."""
import torch
from torch import nn


class TrapCounter(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1)
        self.cls = nn.Conv2d(4, 3, 1)  # whitefly, thrips, aphid
        self.thresh = 0.5

    def forward(self, img: torch.Tensor):
        # img: [1, 3, H, W]; dark pixels on a yellow card are insects
        dark = 1.0 - img.mean(1).squeeze(0)  # [H, W]
        cand = dark.flatten()
        n = int((cand > self.thresh).sum().item())
        if n == 0:
            return torch.zeros(3), torch.zeros(0, dtype=torch.int64)
        k = n if n < 20 else 20
        vals, idx = cand.topk(k)
        h = torch.relu(self.conv(img))
        cls = self.cls(h).squeeze(0).flatten(1)  # [3, H*W]
        labels = []
        for j in range(k):
            if vals[j] < 0.8:
                continue
            labels.append(cls[:, idx[j]].argmax())
        counts = torch.zeros(3)
        for lab in labels:
            counts = counts + nn.functional.one_hot(lab, 3).float()
        return counts, idx


def model():
    torch.manual_seed(23)
    return TrapCounter().eval()


def _card(h, w, spots):
    x = torch.full((1, 3, h, w), 0.9)
    for i, (r, c, d) in enumerate(spots):
        x[:, :, r, c] = 1.0 - d - i * 0.002
    return x


def example_inputs():
    return (_card(16, 16, [(2, 3, 0.95), (8, 8, 0.6), (12, 5, 0.9)]),)


def dynamic_shapes():
    return ({2: torch.export.Dim("H", min=8, max=256), 3: torch.export.Dim("W", min=8, max=256)},)


def verify_inputs():
    many = [(r, c, 0.95) for r in range(5) for c in range(5)]
    return [(_card(12, 20, []),), (_card(20, 20, many),), (_card(8, 8, [(1, 1, 0.6)]),)]
