"""Consumer-loan default scorer with calibration and policy overrides.

An MLP with a soft-clipping risk head (submodule with its own branch) predicts
default probability per applicant; a batch with a very risky or very
low-income applicant triggers manual-review flooring, an all-low-risk batch
gets a loyalty discount.
"""
import torch
import torch.nn as nn


class RiskHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, 1)

    def forward(self, h):
        z = self.fc(h).squeeze(-1)
        if z.abs().max() > 3.0:
            z = 3.0 * torch.tanh(z / 3.0)
        return z


class LoanScorer(nn.Module):
    def __init__(self, n_feats=10, calibrate=True):
        super().__init__()
        self.calibrate = calibrate
        self.enc = nn.Linear(n_feats, 16)
        self.head = RiskHead(16)
        self.register_buffer("temp", torch.tensor(1.3))
        self.register_buffer("shift", torch.tensor(-0.8))

    def forward(self, x):  # x: [B, 10]; column 0 = normalised income
        z = self.head(torch.relu(self.enc(x)))
        if self.calibrate:  # static
            z = z * self.temp + self.shift
        pd = torch.sigmoid(z)
        review = torch.zeros((), dtype=torch.long)
        if (pd > 0.85).any() or x[:, 0].min() < -2.5:
            pd = torch.maximum(pd, torch.full_like(pd, 0.2))
            review = review + 1
        elif not (pd > 0.3).any():
            pd = pd * 0.9
        return pd, review


def _apps(B, scale, low_income, seed):
    g = torch.Generator().manual_seed(seed)
    x = scale * torch.randn(B, 10, generator=g)
    x[:, 0] = x[:, 0].clamp(-2.0, 2.0)
    if low_income:
        x[0, 0] = -3.0
    return x


def model():
    torch.manual_seed(0)
    return LoanScorer().eval()


def example_inputs():
    return (_apps(6, 1.0, False, 0),)


def dynamic_shapes():
    return ({0: torch.export.Dim("applicants", min=2, max=64)},)


def verify_inputs():
    return [
        (_apps(4, 0.2, False, 1),),     # calm batch: small logits
        (_apps(3, 0.2, True, 2),),      # low-income applicant -> review
        (_apps(16, 20.0, False, 3),),   # extreme features -> soft clip
    ]
