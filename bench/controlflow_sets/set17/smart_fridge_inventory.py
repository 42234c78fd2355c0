"""Smart fridge inventory: per-shelf detections, keep confident items, count per class (tricky)."""
import torch
from torch import nn


class ShelfHead(nn.Module):
    def __init__(self, d=16, classes=5):
        super().__init__()
        self.obj = nn.Linear(d, 1)
        self.cls = nn.Linear(d, classes)

    def forward(self, feats: torch.Tensor):
        return torch.sigmoid(self.obj(feats)).squeeze(-1), self.cls(feats)


class FridgeInventory(nn.Module):
    def __init__(self, d=16, classes=5):
        super().__init__()
        self.heads = nn.ModuleList([ShelfHead(d, classes) for _ in range(3)])
        self.classes = classes
        self.conf = 0.5

    def forward(self, shelves: torch.Tensor):
        # shelves: [3, N, d] -- N candidate boxes per shelf (dynamic)
        counts = torch.zeros(self.classes)
        kept = []
        for k, head in enumerate(self.heads):
            obj, logits = head(shelves[k])
            mask = obj > self.conf
            if not mask.any():
                continue
            sel = logits[mask]
            labels = sel.argmax(-1)
            counts = counts + torch.bincount(labels, minlength=self.classes).float()
            kept.append(sel.softmax(-1))
        if len(kept) == 0:
            return counts, torch.zeros(0, self.classes)
        items = torch.cat(kept, dim=0)
        low_stock = counts.sum() < 3
        if low_stock:
            counts = counts + 100.0
        return counts, items


def model():
    torch.manual_seed(3)
    return FridgeInventory().eval()


def _sh(n, signs):
    g = torch.Generator().manual_seed(4)
    x = torch.randn(3, n, 16, generator=g)
    m = model()
    out = []
    for k in range(3):
        w = m.heads[k].obj.weight[0].detach()
        out.append(x[k] + signs[k] * 3.0 * w / w.norm())
    return torch.stack(out)


def example_inputs():
    return (_sh(6, [1.0, -1.0, 1.0]),)


def dynamic_shapes():
    return ({1: torch.export.Dim("boxes", min=2, max=64)},)


def verify_inputs():
    return [(_sh(10, [-1.0, 1.0, -1.0]),), (_sh(4, [-3.0, -3.0, -3.0]),), (_sh(3, [1.0, 3.0, 3.0]),), (_sh(2, [3.0, -3.0, -3.0]),)]
