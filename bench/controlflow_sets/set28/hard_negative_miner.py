"""Metric learning: mine semi-hard negatives per anchor from a memory bank and compute a triplet loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SemiHardMiner(nn.Module):
    def __init__(self, dim=8, emb=8):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, emb))
        self.margin = 0.2
        self.bank_size = 24

    def forward(self, anchors, anchor_labels, bank, bank_labels):
        # anchors [A, D], anchor_labels [A], bank [M, D], bank_labels [M]
        if bank.shape[0] > self.bank_size:
            # memory bank keeps only the most recent entries
            bank = bank[-self.bank_size:]
            bank_labels = bank_labels[-self.bank_size:]
        ea = F.normalize(self.proj(anchors), dim=1)
        eb = F.normalize(self.proj(bank), dim=1)
        sim = ea @ eb.T
        losses = []
        for i in range(anchors.shape[0]):
            pos_mask = bank_labels == anchor_labels[i]
            if not pos_mask.any():
                continue
            hardest_pos = sim[i][pos_mask].min()
            negs = sim[i][~pos_mask]
            if negs.numel() == 0:
                continue
            semi = negs[(negs > hardest_pos - self.margin) & (negs < hardest_pos)]
            if semi.numel() == 0:
                semi = negs.max().unsqueeze(0)
            losses.append(F.relu(semi - hardest_pos + self.margin).mean())
        if len(losses) == 0:
            return torch.zeros(())
        return torch.stack(losses).mean()


def model():
    torch.manual_seed(0)
    return SemiHardMiner().eval()


def _case(seed, a_labels, b_labels, spread):
    g = torch.Generator().manual_seed(seed)
    centers = torch.randn(5, 8, generator=g) * 2.0
    a_labels = torch.tensor(a_labels)
    b_labels = torch.tensor(b_labels)
    anchors = centers[a_labels] + spread * torch.randn(len(a_labels), 8, generator=g)
    bank = centers[b_labels] + spread * torch.randn(len(b_labels), 8, generator=g)
    return anchors, a_labels, bank, b_labels


def example_inputs():
    return _case(0, [0, 1, 2], [0, 1, 2, 0, 1, 2, 3], 0.8)


def dynamic_shapes():
    a = torch.export.Dim("anchors", min=2, max=32)
    m = torch.export.Dim("bank", min=2, max=64)
    return ({0: a}, {0: a}, {0: m}, {0: m})


def verify_inputs():
    return [
        _case(1, [0, 1, 4], [0, 1, 2, 0, 1, 3, 2, 0], 0.9),             # anchor 4 has no positive
        _case(2, [0, 1], [0, 0, 0, 1, 1], 1.2),
        _case(3, [2, 3, 0], [2, 2, 3, 3, 1, 1, 0, 0] * 4, 1.0),          # bank truncated to 24
        _case(4, [1, 1], [1, 1, 1], 0.5),                               # no negatives at all -> zero loss
        _case(5, [0, 2, 1, 3], [0, 1, 2, 3, 4, 0, 1, 2, 3, 4], 0.3),     # tight clusters -> no semi-hard
    ]
