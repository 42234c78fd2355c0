"""Wine quality grader for a lab bench tablet (physico-chemical features -> 0..10 score + grade).

Input: (B, 11) features in the UCI wine-quality column order, B dynamic. Invalid batches
(negative concentrations or impossible pH) return early with the "reject" grade.
"""

import torch
from torch import nn

FEATURE_MEAN = torch.tensor([8.3, 0.53, 0.27, 2.5, 0.087, 15.9, 46.5, 0.997, 3.31, 0.66, 10.4])
FEATURE_STD = torch.tensor([1.7, 0.18, 0.19, 1.4, 0.047, 10.5, 32.9, 0.0019, 0.15, 0.17, 1.07])


class WineGrader(nn.Module):
    def __init__(self, standardize: bool = True):
        super().__init__()
        self.standardize = standardize
        self.register_buffer("mean", FEATURE_MEAN.clone())
        self.register_buffer("std", FEATURE_STD.clone())
        self.mlp = nn.Sequential(nn.Linear(11, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU(), nn.Linear(16, 1))
        # grades: reject, table, quality, premium
        self.register_buffer("grades", torch.eye(4))

    def forward(self, x: torch.Tensor):
        if (x < 0).any() or (x[:, 8] > 14.0).any():
            return torch.zeros(x.shape[0]), self.grades[0]
        if self.standardize:  # static
            z = (x - self.mean) / self.std
        else:
            z = x
        residual = self.mlp(z).squeeze(-1)
        # Domain prior: alcohol up, volatile acidity down.
        score = 5.6 + 0.9 * z[:, 10] - 0.6 * z[:, 1] + 0.2 * torch.tanh(residual)
        score = score.clamp(0.0, 10.0)
        avg = score.mean()
        if avg >= 7.0:
            grade = self.grades[3]
        elif avg >= 5.0:
            grade = self.grades[2]
        else:
            grade = self.grades[1]
        return score, grade


def model() -> nn.Module:
    torch.manual_seed(0)
    return WineGrader().eval()


def _batch(n, alcohol, volatile, seed):
    g = torch.Generator().manual_seed(seed)
    x = FEATURE_MEAN + 0.1 * FEATURE_STD * torch.randn(n, 11, generator=g)
    x[:, 10] = alcohol
    x[:, 1] = volatile
    return x.abs()


def example_inputs() -> tuple:
    return (_batch(4, 10.5, 0.5, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=64)},)


def verify_inputs() -> list:
    neg = _batch(3, 11.0, 0.4, 2)
    neg[1, 3] = -0.5
    bad_ph = _batch(2, 11.0, 0.4, 3)
    bad_ph[0, 8] = 15.0
    return [
        (neg,),                         # negative concentration -> reject
        (bad_ph,),                      # pH out of range -> reject
        (_batch(5, 13.5, 0.25, 4),),    # premium
        (_batch(6, 8.6, 0.95, 5),),     # table wine
    ]
