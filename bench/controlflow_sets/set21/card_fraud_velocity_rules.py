"""Card-issuer authorisation scorer: MLP on recent transactions plus velocity / geography rules."""
import torch
from torch import nn
from torch.export import Dim


class FraudScorer(nn.Module):
    def __init__(self, max_recent=20, hard_limit=5000.0):
        super().__init__()
        self.max_recent = max_recent
        self.hard_limit = hard_limit
        self.mlp = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, tx, home_country):
        # tx: [N, 3] = amount, minutes ago (newest first), foreign flag
        if tx.shape[0] > self.max_recent:
            tx = tx[: self.max_recent]
        amt, age, foreign = tx[:, 0], tx[:, 1], tx[:, 2]
        if amt[0] > self.hard_limit:
            return torch.ones(1), torch.ones(1)
        in_hour = (age < 60.0).float()
        n_hour = in_hour.sum()
        spend_hour = (amt * in_hour).sum()
        feat = torch.stack([amt.mean() / 100.0, amt.max() / 1000.0, n_hour / 10.0,
                            foreign.mean(), home_country[0]]).view(1, 5)
        score = torch.sigmoid(self.mlp(feat)).view(1)
        flag = torch.zeros(1)
        if n_hour > 5 and spend_hour > 1000.0:
            score = torch.maximum(score, torch.full((1,), 0.9))
            flag = torch.ones(1)
        elif foreign[0] > 0.5 and not home_country[0] < 0.5:
            score = 0.5 * (score + 1.0)
        return score, flag


def model():
    torch.manual_seed(0)
    return FraudScorer().eval()


def _tx(amounts, ages, foreign):
    return torch.stack([torch.tensor(amounts), torch.tensor(ages), torch.tensor(foreign)], 1)


def example_inputs():
    return (_tx([42.5, 18.0, 230.0, 12.3, 64.0], [3.0, 45.0, 130.0, 600.0, 1500.0], [0.0, 0.0, 0.0, 0.0, 0.0]),
            torch.tensor([1.0]))


def verify_inputs():
    burst = [310.0 + 7.0 * i for i in range(24)]
    ages = [2.0 + 4.5 * i for i in range(24)]
    return [
        (_tx([7200.0, 20.0], [1.0, 300.0], [0.0, 0.0]), torch.tensor([1.0])),     # over the hard limit
        (_tx(burst, ages, [0.0] * 24), torch.tensor([1.0])),                      # card-testing burst
        (_tx([88.0, 15.0, 40.0], [5.0, 200.0, 900.0], [1.0, 0.0, 0.0]), torch.tensor([1.0])),  # abroad, domestic card
        (_tx([88.0, 15.0, 40.0], [5.0, 200.0, 900.0], [1.0, 1.0, 1.0]), torch.tensor([0.0])),  # travel card
        (_tx([50.0] * 7, [5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0], [0.0] * 7), torch.tensor([1.0])),  # many small
    ]


def dynamic_shapes():
    return ({0: Dim("n_tx", min=2, max=128)}, None)
