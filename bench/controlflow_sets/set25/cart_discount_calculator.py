"""Checkout total for an online shop's cart.

Tiered order discount on the subtotal, an electronics promotion that does not
apply when gift cards are in the cart, free shipping above a threshold, a
handling fee waiver for bulk orders, and a learned coupon-propensity score that
grants a loyalty coupon.  Member pricing is a store-wide config switch.
Returns (total, discount, shipping).
"""
import torch
import torch.nn as nn
from torch.export import Dim

ELECTRONICS, GROCERY, APPAREL, GIFT_CARD = 0, 1, 2, 3


class CouponPropensity(nn.Module):
    def __init__(self):
        super().__init__()
        self.cat_emb = nn.Embedding(4, 4)
        self.net = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 1))

    def forward(self, prices, quantities, categories):
        w = (prices * quantities).unsqueeze(1)
        basket = (self.cat_emb(categories) * w).sum(0) / w.sum()
        stats = torch.stack([torch.log1p(w.sum()) / 5.0, quantities.float().mean() / 3.0])
        return torch.sigmoid(self.net(torch.cat([basket, stats]))).squeeze(0)


class CartPricer(nn.Module):
    def __init__(self, member_pricing=False):
        super().__init__()
        self.propensity = CouponPropensity()
        self.member_pricing = member_pricing
        self.tier1, self.tier2 = 50.0, 200.0
        self.free_shipping = 75.0
        self.shipping_fee = 6.99
        self.handling_fee = 2.5
        self.bulk_lines = 10
        self.electronics_promo = 15.0
        self.coupon = 5.0
        self.coupon_threshold = 0.36  # calibrated on last quarter's redemptions

    def forward(self, prices, quantities, categories):
        if self.member_pricing:
            prices = prices * 0.95
        subtotal = (prices * quantities).sum()

        if subtotal > self.tier2:
            rate = 0.15
        elif subtotal > self.tier1:
            rate = 0.10
        else:
            rate = 0.0
        discount = subtotal * rate

        has_electronics = (categories == ELECTRONICS).any()
        if has_electronics and not (categories == GIFT_CARD).any():
            discount = discount + self.electronics_promo

        if self.propensity(prices, quantities, categories) > self.coupon_threshold:
            discount = discount + self.coupon
        discount = torch.minimum(discount, subtotal)

        shipping = 0.0 if subtotal - discount > self.free_shipping else self.shipping_fee
        fee = 0.0 if prices.shape[0] >= self.bulk_lines else self.handling_fee
        total = subtotal - discount + shipping + fee
        return total, discount, torch.tensor(shipping)


def model():
    torch.manual_seed(0)
    return CartPricer().eval()


def _make(seed, n, price_scale, cats=None):
    g = torch.Generator().manual_seed(seed)
    prices = torch.round(price_scale * (0.5 + torch.rand(n, generator=g)) * 100) / 100 + 0.003
    quantities = torch.randint(1, 4, (n,), generator=g)
    if cats is None:
        categories = torch.randint(0, 4, (n,), generator=g)
    else:
        categories = torch.tensor(cats)
    return prices, quantities, categories


def example_inputs():
    return _make(0, 4, 12.0)


def dynamic_shapes():
    lines = Dim("lines", min=2, max=64)
    return ({0: lines}, {0: lines}, {0: lines})


def verify_inputs():
    return [
        _make(1, 3, 5.0, cats=[1, 1, 2]),                    # small grocery order
        _make(2, 4, 12.0, cats=[0, 1, 2, 1]),                # tier 1, electronics promo
        _make(3, 12, 15.0),                                  # bulk order, tier 2
        _make(4, 5, 30.0, cats=[0, 3, 2, 2, 1]),             # electronics + gift card
        _make(5, 2, 90.0, cats=[0, 0]),                      # expensive electronics
        _make(6, 6, 4.0, cats=[2, 2, 2, 1, 1, 2]),
    ]
