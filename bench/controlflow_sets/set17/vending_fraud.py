"""Vending machine fraud detector over a transaction sequence with a cap on reviews (tricky)."""
import torch
from torch import nn


class TxnEncoder(nn.Module):
    def __init__(self, f=6, h=16):
        super().__init__()
        self.lin = nn.Linear(f, h)

    def forward(self, tx: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.lin(tx))
        if tx[..., 0].max() > 50.0:
            # amount column out of range: saturate
            h = torch.sign(h)
        return h


class FraudNet(nn.Module):
    def __init__(self, f=6, h=16):
        super().__init__()
        self.enc = TxnEncoder(f, h)
        self.score = nn.Linear(h, 1)
        self.max_flags = 3

    def forward(self, txs: torch.Tensor):
        # txs: [N, f], N dynamic
        h = self.enc(txs)
        s = torch.sigmoid(self.score(h)).squeeze(-1) + txs[:, 1] * 0.3  # col 1: coin rejected flag
        flagged = []
        i = 0
        n = txs.shape[0]
        while i < n:
            if s[i] > 0.9:
                flagged.append(torch.tensor(i))
                if len(flagged) >= self.max_flags:
                    break
            i += 1
        if len(flagged) == 0:
            idx = torch.zeros(0, dtype=torch.int64)
        else:
            idx = torch.stack(flagged)
        risk = s.max() if s.max() > 1.0 else s.mean()
        return idx, risk


def model():
    torch.manual_seed(9)
    return FraudNet().eval()


def _tx(n, bad=(), big=False):
    g = torch.Generator().manual_seed(10)
    x = torch.randn(n, 6, generator=g) * 0.5
    x[:, 1] = -1.0
    for b in bad:
        x[b, 1] = 2.0
    if big:
        x[0, 0] = 80.0
    return x


def example_inputs():
    return (_tx(8, bad=(2, 5)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("n", min=2, max=256)},)


def verify_inputs():
    return [(_tx(12, bad=(1, 3, 4, 9)),), (_tx(5, big=True),), (_tx(3, bad=(2,)),)]
