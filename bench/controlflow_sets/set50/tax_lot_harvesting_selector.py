"""Tax-loss harvesting: pick which tax lots of one holding to sell.

lots[i] = (shares, cost basis per share, days held).  Short-term losses are
harvested first (they offset income taxed at the higher rate), then long-term
ones; within a bucket lots are visited in order of a learned after-tax benefit
score.  Selling stops as soon as the target realised loss is reached, partial
lots allowed.  Any repurchase inside the 30-day wash-sale window blocks
harvesting entirely.
Returns shares to sell per lot, realised loss, and whether the target was hit.
"""
import torch
import torch.nn as nn


class HarvestSelector(nn.Module):
    def __init__(self, min_shares=1.0):
        super().__init__()
        self.benefit = nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1))
        self.min_shares = min_shares
        self.long_term_days = 365.0

    def forward(self, lots, price, recent_buys, target_loss):
        n = lots.shape[0]
        sell = torch.zeros(n)
        if (recent_buys <= 30.0).any():
            return sell, torch.zeros(1), torch.tensor(False)      # wash-sale window open

        shares, basis, days = lots[:, 0], lots[:, 1], lots[:, 2]
        loss_per_share = basis - price                # positive = a loss
        is_long = days >= self.long_term_days
        feats = torch.stack([loss_per_share / price, days / 365.0, shares / 100.0], dim=1)
        score = loss_per_share + 0.05 * price * torch.tanh(self.benefit(feats)).squeeze(1)
        order = torch.argsort(score, descending=True, stable=True).tolist()

        remaining = target_loss.clone()
        reached = False
        for bucket in (False, True):                  # short-term first
            for i in order:
                if bool(is_long[i]) != bucket:
                    continue
                if loss_per_share[i] <= 0 or shares[i] < self.min_shares:
                    continue                          # a gain, or a dust lot
                lot_loss = shares[i] * loss_per_share[i]
                if lot_loss >= remaining:
                    sell[i] = torch.ceil(remaining / loss_per_share[i])
                    remaining = remaining - sell[i] * loss_per_share[i]
                    reached = True
                    break
                sell[i] = shares[i]
                remaining = remaining - lot_loss
            if reached:
                break
        else:
            # every eligible lot sold and still short of the target
            remaining = remaining.clamp(min=0.0)
        realised = target_loss - remaining
        return sell, realised, torch.tensor(reached)


def model():
    torch.manual_seed(512)
    return HarvestSelector().eval()


def _portfolio(n, seed, price=50.0, target=2000.0, last_buy=45.0, m=4):
    g = torch.Generator().manual_seed(seed)
    shares = torch.randint(1, 200, (n,), generator=g).float()
    shares[0] = 0.5                                        # dust lot from a DRIP
    basis = price * (0.7 + 0.6 * torch.rand(n, generator=g))
    days = torch.randint(10, 900, (n,), generator=g).float()
    lots = torch.stack([shares, basis, days], dim=1)
    buys = last_buy + 10.0 * torch.arange(m, dtype=torch.float32)
    return lots, torch.tensor([price]), buys, torch.tensor([target])


def example_inputs():
    return _portfolio(10, seed=1)


def dynamic_shapes():
    return ({0: torch.export.Dim("lots", min=2, max=64)}, None,
            {0: torch.export.Dim("buys", min=2, max=16)}, None)


def verify_inputs():
    return [
        example_inputs(),                               # target reached within the short-term bucket
        _portfolio(2, seed=2, last_buy=12.0, m=2),      # wash sale -> early return, nothing sold
        _portfolio(64, seed=3, target=1.0e6, m=16),     # huge target: all loss lots sold (for/else)
        _portfolio(30, seed=4, target=16000.0),         # spills over into the long-term bucket
    ]
