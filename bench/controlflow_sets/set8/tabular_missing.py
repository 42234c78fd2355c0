"""Tabular risk model with missing-value / outlier handling branches before an MLP (deployed feature pipeline)."""

import torch
from torch import nn

N_NUM, N_CAT, CAT_CARD = 8, 2, 5


class FeaturePreprocessor(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("median", torch.linspace(-1.0, 1.0, N_NUM))
        self.register_buffer("mean", torch.zeros(N_NUM))
        self.register_buffer("std", torch.linspace(0.5, 2.0, N_NUM))
        self.clip_value = 15.0  # in log1p space

    def forward(self, x):
        missing = torch.isnan(x)
        if missing.any():
            x = torch.where(missing, self.median.expand_as(x), x)
            flag = missing.float()
        elif (x.abs() > self.clip_value).any():
            x = x.clamp(-self.clip_value, self.clip_value)
            flag = torch.zeros_like(x)
        else:
            flag = torch.zeros_like(x)
        return torch.cat([(x - self.mean) / self.std, flag], dim=1)


class TabularNet(nn.Module):
    def __init__(self, log_transform: bool = True):
        super().__init__()
        self.pre = FeaturePreprocessor()
        self.embs = nn.ModuleList(nn.Embedding(CAT_CARD, 4) for _ in range(N_CAT))
        self.log_transform = log_transform
        self.mlp = nn.Sequential(
            nn.Linear(2 * N_NUM + 4 * N_CAT, 32), nn.LayerNorm(32), nn.GELU(), nn.Linear(32, 1)
        )

    def forward(self, num, cat):
        if self.log_transform:
            num = torch.sign(num) * torch.log1p(num.abs())
        feats = [self.pre(num)]
        for i, emb in enumerate(self.embs):
            feats.append(emb(cat[:, i]))
        logit = self.mlp(torch.cat(feats, dim=1)).squeeze(1)
        prob = torch.sigmoid(logit)
        return prob if logit.numel() > 1 else prob.reshape(1)


def model():
    torch.manual_seed(0)
    return TabularNet().eval()


def example_inputs():
    torch.manual_seed(1)
    return (torch.randn(16, N_NUM), torch.randint(0, CAT_CARD, (16, N_CAT)))


def dynamic_shapes():
    batch = torch.export.Dim("batch", min=1, max=256)
    return ({0: batch}, {0: batch})


def verify_inputs():
    g = torch.Generator().manual_seed(2)
    with_nan = torch.randn(32, N_NUM, generator=g)
    with_nan[3, 2] = float("nan")
    with_nan[10, :] = float("nan")
    outlier = torch.randn(5, N_NUM, generator=g)
    outlier[1, 4] = 1e9
    return [
        (with_nan, torch.randint(0, CAT_CARD, (32, N_CAT), generator=g)),  # impute branch
        (outlier, torch.randint(0, CAT_CARD, (5, N_CAT), generator=g)),  # clip branch
        (
            torch.randn(1, N_NUM, generator=g),
            torch.randint(0, CAT_CARD, (1, N_CAT), generator=g),
        ),  # clean, batch 1
        (torch.randn(256, N_NUM, generator=g) * 3, torch.randint(0, CAT_CARD, (256, N_CAT), generator=g)),
    ]
