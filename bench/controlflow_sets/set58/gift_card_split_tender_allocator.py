"""Point-of-sale split tender: price the basket (sales tax, luxury surcharge, coupon
lines), run a learned fraud-risk check, drain gift cards smallest balance first (so the
customer walks out with fewer near-empty cards), then offer loyalty points, leaving the
rest for the bank card.
Outputs: amount charged per gift card, points redeemed, amount left for the bank card,
manager-hold flag.
"""
import torch
import torch.nn as nn


def round_cents(x):
    return torch.round(x * 100.0) / 100.0


class SplitTenderAllocator(nn.Module):
    def __init__(self, tax_rate=0.0825, luxury_rate=0.02, luxury_over=110.0, hold_risk=0.8,
                 allow_points=True, min_points=500, points_per_dollar=100):
        super().__init__()
        self.risk = nn.Linear(4, 1)
        self.tax_rate, self.luxury_rate, self.luxury_over = tax_rate, luxury_rate, luxury_over
        self.hold_risk = hold_risk
        self.allow_points = allow_points
        self.min_points, self.points_per_dollar = min_points, points_per_dollar

    def forward(self, prices, cards, points):
        lines = []
        for i in range(prices.shape[0]):
            p = prices[i]
            if p <= 0:
                lines.append(p)  # coupon / return line: not taxed
                continue
            rate = self.tax_rate + (self.luxury_rate if p > self.luxury_over else 0.0)
            lines.append(p * (1.0 + rate))
        due = round_cents(torch.stack(lines).sum().clamp(min=0.0))
        points = points[0]
        feats = torch.stack([due / 100.0, torch.tensor(cards.shape[0] / 5.0), points / 1000.0,
                             cards.max() / 100.0])
        if torch.sigmoid(self.risk(feats))[0] > self.hold_risk:
            # many cards on a large basket: typical gift-card fraud pattern, hold for a manager
            return torch.zeros_like(cards), torch.zeros(()), due, torch.ones(())
        # smallest balance first; equal balances go in card-slot order (sub-cent tie-break)
        order = torch.argsort(cards + 1e-3 * torch.arange(cards.shape[0]))
        charged = [torch.zeros(()) for _ in range(cards.shape[0])]
        remaining = due
        for j in range(cards.shape[0]):
            idx = order[j]
            if cards[idx] <= 0:
                continue  # empty or frozen card
            take = torch.minimum(cards[idx], remaining)
            charged[idx] = take
            remaining = remaining - take
            if remaining <= 0:
                break
        used_points = torch.zeros(())
        if self.allow_points and remaining > 5.0 and points >= self.min_points:
            dollars = torch.minimum(torch.floor(points / self.points_per_dollar), torch.floor(remaining))
            used_points = dollars * self.points_per_dollar
            remaining = remaining - dollars
        return torch.stack(charged), used_points, round_cents(remaining), torch.zeros(())


def model():
    torch.manual_seed(5816)
    return SplitTenderAllocator().eval()


def example_inputs():
    prices = torch.tensor([19.99, 4.49, 129.00, -10.00, 7.25])
    cards = torch.tensor([25.00, 7.50, 60.00])
    return prices, cards, torch.tensor([1200.0])


def dynamic_shapes():
    return ({0: torch.export.Dim("lines", min=2, max=30)},
            {0: torch.export.Dim("cards", min=2, max=6)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(9)
    many = torch.round(100.0 * (1.0 + 9.0 * torch.rand(30, generator=g))) / 100.0
    many[3] = -5.0
    return [
        # coupon line, one luxury item; all three cards drained, points cover part of the rest
        example_inputs(),
        # small basket, two big cards: first card covers it -> early break, no points
        (torch.tensor([12.50, 3.10]), torch.tensor([50.00, 80.00]), torch.tensor([2000.0])),
        # 30 lines, 6 cards one of them empty (skipped); only 300 points (below minimum)
        (many, torch.tensor([10.00, 0.00, 15.00, 20.00, 12.00, 30.00]), torch.tensor([300.0])),
        # two cards with equal balances: slot 0 is drained first, slot 1 pays the rest
        (torch.tensor([15.0, 8.0]), torch.tensor([20.0, 20.0]), torch.tensor([0.0])),
        # large electronics basket paid with six full cards, no loyalty history: held
        (torch.tensor([499.0, 650.0, 1200.0]), torch.tensor([500.0, 500.0, 500.0, 500.0, 500.0,
                                                             500.0]), torch.tensor([0.0])),
    ]
