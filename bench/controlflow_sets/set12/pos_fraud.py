"""Point-of-sale fraud velocity checks plus a learned risk score.

Inputs: the card's recent transaction history (N, 3) = [age in seconds, amount,
merchant category id as float], N dynamic (only the 64 most recent are used), and the
current transaction (3,) = [0, amount, category]. Velocity rules (count in the last hour,
spend in the last day, amount spike vs. average) are combined with an MLP score into a
decision: 0 approve, 1 review, 2 decline.
"""
import torch
from torch import nn

CATEGORIES = 8


class VelocityFraud(nn.Module):
    def __init__(self):
        super().__init__()
        self.cat_emb = nn.Embedding(CATEGORIES, 4)
        self.mlp = nn.Sequential(nn.Linear(6 + 4, 32), nn.ReLU(), nn.Linear(32, 1))
        self.max_hist = 64
        self.hour_limit = 5
        self.daily_limit = 2000.0
        self.spike = 4.0
        self.decline_score = 0.2   # operating points calibrated on the score distribution
        self.review_score = 0.35

    def forward(self, history: torch.Tensor, txn: torch.Tensor):
        if history.shape[0] > self.max_hist:
            history = history[-self.max_hist:]
        age, amt = history[:, 0], history[:, 1]
        last_hour = age < 3600.0
        last_day = age < 86400.0
        n_hour = last_hour.sum()
        spend_day = (amt * last_day).sum()
        avg = amt.mean()
        flag = torch.zeros((), dtype=torch.bool)
        if n_hour >= self.hour_limit:
            flag = torch.ones((), dtype=torch.bool)
        if spend_day + txn[1] > self.daily_limit or (n_hour >= 2 and txn[1] > self.spike * avg):
            flag = torch.ones((), dtype=torch.bool)
        feats = torch.stack([n_hour.float() / 5.0, spend_day / 1000.0, avg / 100.0, txn[1] / 100.0,
                             last_day.float().mean(), torch.log1p(age.min() / 60.0)])
        cat = self.cat_emb(txn[2].long())
        score = torch.sigmoid(self.mlp(torch.cat([feats, cat]))[0] * 3.0)
        if flag and score > self.decline_score:
            decision = 2
        elif flag or score > self.review_score:
            decision = 1
        else:
            decision = 0
        return torch.full((), decision, dtype=torch.long), score


def model():
    torch.manual_seed(16)
    return VelocityFraud().eval()


def _hist(seed, n, span_s, amt_scale, cur_amt, cat=3):
    g = torch.Generator().manual_seed(seed)
    age = torch.sort(torch.rand(n, generator=g) * span_s, descending=True).values + 30.0
    amt = torch.rand(n, generator=g) * amt_scale + 5.0
    cats = torch.randint(0, CATEGORIES, (n,), generator=g).float()
    return torch.stack([age, amt, cats], dim=1), torch.tensor([0.0, cur_amt, float(cat)])


def example_inputs():
    return _hist(0, 20, 30 * 86400.0, 60.0, 35.0)


def dynamic_shapes():
    return ({0: torch.export.Dim("N", min=2, max=4096)}, None)


def verify_inputs():
    return [
        _hist(1, 8, 2400.0, 20.0, 15.0),          # burst: many in the last hour
        _hist(2, 100, 10 * 86400.0, 40.0, 900.0), # truncated history, spike
        _hist(3, 2, 90 * 86400.0, 30.0, 20.0),    # sparse history
        _hist(4, 30, 86400.0, 150.0, 300.0, 6),   # heavy daily spend
        _hist(5, 12, 5 * 86400.0, 500.0, 2.0, 1),
        _hist(7, 3, 1800.0, 20.0, 400.0),         # two+ in the last hour and an amount spike
        _hist(8, 40, 86400.0, 20.0, 10.0, 5),     # no rule fires, high model score
        _hist(9, 60, 30 * 86400.0, 300.0, 3000.0, 5),  # rule fires, low model score
    ]
