"""Insurance claim triage for a claims-intake service.

Inputs: structured claim features (B, 16) and adjuster-note token embeddings (B, L, 32), L
dynamic. Submodules carry their own control flow; the top level escalates suspicious batches
to the special investigation unit (SIU) early, else fast-tracks or routes to standard review.
"""

import torch
from torch import nn

ROUTES = ("siu", "fast_track", "standard")


class NotesEncoder(nn.Module):
    def __init__(self, dim: int = 32, max_len: int = 24):
        super().__init__()
        self.max_len = max_len
        self.att = nn.Linear(dim, 1)
        self.proj = nn.Linear(dim, 32)

    def forward(self, notes: torch.Tensor) -> torch.Tensor:
        if notes.shape[1] > self.max_len:
            # long notes: attention pooling over the first max_len tokens
            notes = notes[:, : self.max_len]
            w = torch.softmax(self.att(notes).squeeze(-1), dim=1)
            pooled = (w.unsqueeze(-1) * notes).sum(1)
        else:
            pooled = notes.mean(1)
        return torch.relu(self.proj(pooled))


class FraudHead(nn.Module):
    def __init__(self, calibrate: bool = True):
        super().__init__()
        self.calibrate = calibrate
        self.fc = nn.Linear(48, 1)
        self.temperature = 1.5

    def forward(self, h: torch.Tensor, prior: torch.Tensor) -> torch.Tensor:
        logit = self.fc(h).squeeze(-1) * 0.2 + prior
        if self.calibrate:  # static
            logit = logit / self.temperature
        return torch.sigmoid(logit)


class ClaimTriage(nn.Module):
    def __init__(self):
        super().__init__()
        self.claim_mlp = nn.Sequential(nn.Linear(16, 16), nn.ReLU())
        self.notes = NotesEncoder()
        self.fraud = FraudHead()
        self.severity = nn.Linear(48, 1)
        self.register_buffer("route_onehot", torch.eye(3))

    def forward(self, claim: torch.Tensor, notes: torch.Tensor):
        h = torch.cat([self.claim_mlp(claim), self.notes(notes)], dim=-1)
        # column 0: log claim amount (k$), column 1: prior-claims count
        fraud = self.fraud(h, 1.5 * claim[:, 1] - 3.0)
        amount = claim[:, 0]
        if (fraud > 0.7).any() or (amount > 5.0).any():
            return fraud, self.route_onehot[0]
        sev = torch.sigmoid(self.severity(h).squeeze(-1) * 0.1 + amount - 2.0)
        route = self.route_onehot[1] if sev.mean() < 0.5 else self.route_onehot[2]
        return fraud, route


def model() -> nn.Module:
    torch.manual_seed(0)
    return ClaimTriage().eval()


def _claims(b, l, amount, prior_claims, seed):
    g = torch.Generator().manual_seed(seed)
    c = 0.5 * torch.randn(b, 16, generator=g)
    c[:, 0] = amount
    c[:, 1] = prior_claims
    return c, torch.randn(b, l, 32, generator=g)


def example_inputs() -> tuple:
    return _claims(4, 12, 2.5, 0.0, 1)


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=64)
    return ({0: b}, {0: b, 1: torch.export.Dim("tokens", min=2, max=256)})


def verify_inputs() -> list:
    big = _claims(3, 40, 1.0, 0.0, 2)
    big[0][2, 0] = 7.0
    return [
        big,                              # one large claim -> SIU (amount), long notes
        _claims(2, 8, 1.0, 4.0, 3),       # many prior claims -> fraud score high -> SIU
        _claims(5, 30, 1.0, 0.0, 4),      # small claims -> fast track
    ]
