"""Card BIN lookup + transaction risk scorer for a payment gateway.

Inputs: card numbers as digits (B, 16) int64 and transaction features (B, 6) float32
[amount $, hour, foreign, card-present, velocity, account age y]; B dynamic.
The issuer BIN (first 6 digits) is hashed into an embedding table. Batches with a number that
fails the Luhn check are refused; otherwise a risk head decides approve / review / decline.
"""

import torch
from torch import nn

N_BUCKETS = 4096
DECISIONS = ("refuse", "approve", "review", "decline")


def luhn_ok(digits: torch.Tensor) -> torch.Tensor:
    rev = digits.flip(1)
    doubled = rev[:, 1::2] * 2
    doubled = torch.where(doubled > 9, doubled - 9, doubled)
    total = rev[:, 0::2].sum(1) + doubled.sum(1)
    return total % 10 == 0


class BinRisk(nn.Module):
    def __init__(self):
        super().__init__()
        self.bin_emb = nn.Embedding(N_BUCKETS, 16)
        self.mlp = nn.Sequential(nn.Linear(16 + 6, 32), nn.ReLU(), nn.Linear(32, 1))
        self.register_buffer("pow10", 10 ** torch.arange(5, -1, -1))
        self.register_buffer("decisions", torch.eye(4))

    def forward(self, digits: torch.Tensor, txn: torch.Tensor):
        if not luhn_ok(digits).all():
            return torch.ones(digits.shape[0]), self.decisions[0]
        bin6 = (digits[:, :6] * self.pow10).sum(1)
        bucket = (bin6 * 2654435761) % N_BUCKETS
        e = self.bin_emb(bucket)
        amount = txn[:, 0]
        x = torch.cat([e, torch.log1p(amount).unsqueeze(1), txn[:, 1:]], dim=1)
        rule = 0.8 * torch.log1p(amount) - 6.0 + 2.0 * txn[:, 2] - 1.5 * txn[:, 3] + 0.5 * txn[:, 4]
        risk = torch.sigmoid(rule + 0.1 * self.mlp(x).squeeze(-1))
        if risk.max() > 0.9 or (amount > 10000).any():
            decision = self.decisions[3]
        else:
            decision = self.decisions[2] if risk.mean() > 0.3 else self.decisions[1]
        return risk, decision


def model() -> nn.Module:
    torch.manual_seed(0)
    return BinRisk().eval()


def _card(prefix: str, body_seed: int) -> torch.Tensor:
    g = torch.Generator().manual_seed(body_seed)
    d = [int(c) for c in prefix] + torch.randint(0, 10, (15 - len(prefix),), generator=g).tolist()
    rev = d[::-1]
    s = 0
    for i, v in enumerate(rev):  # digits after the check digit: doubled at even index here
        v2 = v * 2 if i % 2 == 0 else v
        s += v2 - 9 if v2 > 9 else v2
    d.append((10 - s % 10) % 10)
    return torch.tensor(d)


def _batch(prefixes, txns):
    return torch.stack([_card(p, i) for i, p in enumerate(prefixes)]), torch.tensor(txns)


def example_inputs() -> tuple:
    return _batch(["411111", "550000"], [[25.0, 14, 0, 1, 1, 3.0], [60.0, 10, 0, 1, 0, 8.0]])


def dynamic_shapes():
    b = torch.export.Dim("batch", min=2, max=128)
    return ({0: b}, {0: b})


def verify_inputs() -> list:
    bad = _batch(["411111", "378282"], [[25.0, 14, 0, 1, 1, 3.0], [60.0, 10, 0, 1, 0, 8.0]])
    bad[0][1, 15] = (bad[0][1, 15] + 1) % 10
    return [
        bad,                                                                             # Luhn fail
        _batch(["601100", "411111", "520000"], [[20000.0, 3, 0, 1, 0, 1.0], [5.0, 12, 0, 1, 0, 2.0],
                                                [9.0, 9, 0, 1, 0, 5.0]]),                # huge amount
        _batch(["356600", "411111"], [[300.0, 2, 1, 0, 1, 0.1], [200.0, 3, 1, 0, 0, 0.2]]),  # review
        _batch(["400000", "411111"], [[5000.0, 4, 1, 0, 5, 0.0], [30.0, 12, 0, 1, 0, 4.0]]),  # risk > 0.9
    ]
