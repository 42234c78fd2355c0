"""Card-transaction fraud scorer: hard business rules (some blocking outright)
combined with an MLP over the transaction and a summary of the card history."""
import torch
from torch import nn

# transaction feature layout
AMOUNT, HOUR, FOREIGN, MERCHANT_RISK, TRUSTED_DEVICE, CARD_PRESENT = range(6)


def velocity_rule(history, txn):
    """Many transactions in the last hour, or a large jump over the usual amount."""
    recent = history[:, HOUR] >= txn[HOUR] - 1.0
    n_recent = recent.sum()
    if n_recent >= 5:
        return torch.tensor(0.6)
    usual = history[:, AMOUNT].mean()
    if txn[AMOUNT] > 10.0 * usual:
        return torch.tensor(0.4)
    return torch.tensor(0.0)


class FraudScorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
        self.hard_limit = 5000.0
        self.review = 0.5

    def forward(self, txn, history):
        # txn: (6,), history: (H, 6)
        amount = txn[AMOUNT]
        trusted = txn[TRUSTED_DEVICE] > 0.5
        foreign = txn[FOREIGN] > 0.5
        if amount > self.hard_limit and not trusted:
            # hard block, no model needed
            return torch.tensor(1.0), torch.tensor(2)
        rule = velocity_rule(history, txn)
        if foreign and txn[CARD_PRESENT] < 0.5:
            rule = rule + 0.2
        feats = torch.cat([txn / torch.tensor([1000.0, 24.0, 1.0, 1.0, 1.0, 1.0]),
                           history.mean(0) / torch.tensor([1000.0, 24.0, 1.0, 1.0, 1.0, 1.0])])
        p = torch.sigmoid(self.mlp(feats)).reshape(())
        score = torch.clamp(p + rule, max=1.0)
        if score > self.review:
            action = torch.tensor(1)
        else:
            action = torch.tensor(0)
        return score, action


def model():
    torch.manual_seed(0)
    return FraudScorer().eval()


def _hist(n, hours, amt=40.0):
    h = torch.zeros(n, 6)
    h[:, AMOUNT] = amt + torch.arange(n, dtype=torch.float32)
    h[:, HOUR] = torch.as_tensor(hours, dtype=torch.float32)
    return h


def example_inputs():
    return (torch.tensor([35.0, 14.0, 0.0, 0.2, 1.0, 1.0]), _hist(6, [2.0, 5.0, 8.0, 9.0, 11.0, 12.5]))


def dynamic_shapes():
    return (None, {0: torch.export.Dim("H", min=2, max=512)})


def verify_inputs():
    return [
        (torch.tensor([8000.0, 3.0, 1.0, 0.9, 0.0, 0.0]), _hist(3, [1.0, 2.0, 2.5])),          # hard block
        (torch.tensor([60.0, 20.0, 0.0, 0.1, 1.0, 1.0]), _hist(8, [19.2, 19.4, 19.5, 19.7, 19.8, 10.0, 11.0, 12.0])),  # velocity
        (torch.tensor([900.0, 9.0, 1.0, 0.5, 0.0, 0.0]), _hist(4, [1.0, 2.0, 3.0, 4.0], 30.0)),  # jump + foreign CNP
        (torch.tensor([7000.0, 9.0, 1.0, 0.5, 1.0, 1.0]), _hist(2, [1.0, 2.0], 800.0)),          # big but trusted, present
    ]
