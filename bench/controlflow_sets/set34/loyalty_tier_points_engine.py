"""Retail loyalty-programme points engine.

Scores a member's recent transactions: the member's tier (from lifetime spend)
sets a points multiplier, each category has its own earn rate, gift-card
purchases and transactions older than a year earn nothing, and a small churn
model adds a retention bonus for members at risk. Inactive members earn at half
rate; members with referrals get a flat bonus.

Kind T. Constructs: 1 (if/elif chains on tensor comparisons), 2 (branches
assign the same variables), 3 (`or` / `not` / `and` on tensor predicates),
5 (for over the dynamic number of transactions), 6 (continue), 7 (tier policy
submodule with its own if/elif chain).
"""
import torch
import torch.nn as nn

GROCERY, FUEL, GIFT_CARD, TRAVEL = 0, 1, 2, 3


class TierPolicy(nn.Module):
    """Maps lifetime spend to (tier id, points multiplier)."""

    def forward(self, lifetime_spend):
        if lifetime_spend >= 10000:
            tier, mult = 3, 2.0
        elif lifetime_spend >= 2500:
            tier, mult = 2, 1.5
        elif lifetime_spend >= 500:
            tier, mult = 1, 1.25
        else:
            tier, mult = 0, 1.0
        return tier, mult


class LoyaltyEngine(nn.Module):
    def __init__(self, hidden=12):
        super().__init__()
        self.tiers = TierPolicy()
        self.register_buffer("earn_rate", torch.tensor([1.0, 0.5, 0.0, 3.0]))
        self.churn = nn.Sequential(nn.Linear(5, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.max_age_days = 365.0

    def forward(self, txns, category, member):
        # txns: (N, 2) [amount $, days ago]; category: (N,) int64 category id;
        # member: (4,) [tenure years, active 0/1, lifetime spend $, referrals]
        tier, mult = self.tiers(member[2])
        points = torch.zeros(())
        recent_spend = torch.zeros(())
        for i in range(txns.shape[0]):
            amount, age = txns[i, 0], txns[i, 1]
            if category[i] == GIFT_CARD or age > self.max_age_days:
                continue
            rate = self.earn_rate[category[i]]
            points = points + torch.floor(amount * rate * mult)
            if age <= 90:
                recent_spend = recent_spend + amount

        feats = torch.stack([member[0] / 10.0, member[1], torch.log1p(member[2]) / 10.0,
                             torch.log1p(recent_spend) / 10.0, torch.tensor(float(tier)) / 3.0])
        churn_risk = torch.sigmoid(self.churn(feats))

        if not member[1] > 0.5:
            points = torch.floor(points * 0.5)
        elif member[3] > 0 and churn_risk < 0.9:
            points = points + 100.0 * member[3]
        retention_bonus = torch.round(churn_risk * 200.0) if tier >= 2 else torch.zeros(1)
        return points.reshape(1), retention_bonus, churn_risk, torch.tensor([tier])


def model():
    torch.manual_seed(3404)
    return LoyaltyEngine().eval()


def example_inputs():
    txns = torch.tensor([[54.20, 3.0], [40.00, 10.0], [100.0, 12.0], [812.5, 120.0], [23.10, 400.0], [61.75, 45.0]])
    # the gift card (3rd) earns nothing, the 5th is older than a year
    category = torch.tensor([GROCERY, FUEL, GIFT_CARD, TRAVEL, GROCERY, GROCERY])
    return (txns, category, torch.tensor([4.0, 1.0, 3120.0, 2.0]))


def dynamic_shapes():
    N = torch.export.Dim("transactions", min=2, max=256)
    return ({0: N}, {0: N}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(34)
    n = 80
    many = torch.stack([
        torch.round(torch.rand(n, generator=g) * 20000) / 100 + 1.0,
        torch.randint(0, 500, (n,), generator=g).float() + 0.5,
    ], dim=1)
    many_cat = torch.randint(0, 4, (n,), generator=g)
    return [
        # tier 2 (>= 2500), active with referrals -> referral bonus, retention bonus;
        # gift card and >1 year both skipped
        example_inputs(),
        # tier 3, 80 random transactions of every category and age
        (many, many_cat, torch.tensor([12.0, 1.0, 25000.0, 0.0])),
        # tier 1, inactive member -> half points
        (torch.tensor([[30.0, 5.0], [12.0, 200.0]]), torch.tensor([GROCERY, FUEL]), torch.tensor([1.0, 0.0, 900.0, 1.0])),
        # tier 0, active, no referrals -> no adjustment; only gift cards -> nothing earned
        (torch.tensor([[25.0, 1.0], [50.0, 2.0]]), torch.tensor([GIFT_CARD, GIFT_CARD]), torch.tensor([0.2, 1.0, 120.0, 0.0])),
    ]
