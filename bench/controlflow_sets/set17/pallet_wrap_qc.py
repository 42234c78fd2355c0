"""Pallet stretch-wrap QC: per-layer film coverage, count bad layers, early reject (typical)."""
import torch
from torch import nn


class PalletWrapQC(nn.Module):
    def __init__(self, feat=8):
        super().__init__()
        self.layer_score = nn.Linear(feat, 1)
        self.max_bad = 2

    def forward(self, layers: torch.Tensor):
        # layers: [L, feat] per wrap layer (feature 0 = film coverage 0..1); L dynamic
        bad = torch.zeros((), dtype=torch.int64)
        scores = []
        for i in range(layers.shape[0]):
            cov = layers[i, 0]
            s = torch.sigmoid(self.layer_score(layers[i])).squeeze(-1) * cov
            scores.append(s)
            if cov < 0.6:
                bad = bad + 1
                if bad > self.max_bad:
                    return torch.tensor(False), torch.stack(scores)
        ok = bad == 0
        if layers.shape[0] < 4:
            ok = torch.tensor(False)
        return ok, torch.stack(scores)


def model():
    torch.manual_seed(20)
    return PalletWrapQC().eval()


def _layers(covs):
    g = torch.Generator().manual_seed(21)
    x = torch.rand(len(covs), 8, generator=g)
    x[:, 0] = torch.tensor(covs)
    return x


def example_inputs():
    return (_layers([0.9, 0.95, 0.8, 0.9, 0.85]),)


def dynamic_shapes():
    return ({0: torch.export.Dim("layers", min=2, max=64)},)


def verify_inputs():
    return [(_layers([0.9, 0.3, 0.2, 0.9, 0.1, 0.9]),), (_layers([0.9, 0.2, 0.9, 0.9]),), (_layers([0.9, 0.9, 0.9]),)]
