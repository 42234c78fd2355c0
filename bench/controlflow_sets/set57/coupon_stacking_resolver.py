"""Checkout coupon stacking for an online grocery basket.

The customer may attach several digital coupons: percent off a category,
a fixed amount off the order above a minimum spend, or buy-one-get-one
(BOGO) on a category.  The store's policy: rank coupons by what they save
on this basket, apply them best first, at most one percent-off coupon per
category and one BOGO per order, fixed-amount coupons only while the
discounted basket still meets their minimum spend, and at most three
coupons (one if the abuse model flags the basket).
"""
import torch
import torch.nn as nn

PERCENT, FIXED, BOGO = 0, 1, 2
N_CATEGORIES = 8


def category_total(items, cat):
    in_cat = items[:, 2] == cat
    return (items[:, 0] * items[:, 1] * in_cat).sum()


def bogo_savings(items, cat):
    saved = torch.zeros(())
    for i in range(items.shape[0]):
        if items[i, 2] != cat:
            continue
        if items[i, 1] >= 2:
            saved = saved + torch.floor(items[i, 1] / 2.0) * items[i, 0]
    return saved


def coupon_savings(coupon, items, subtotal):
    kind = int(coupon[0])
    if kind == PERCENT:
        return category_total(items, coupon[2]) * coupon[1] / 100.0
    if kind == FIXED:
        return coupon[1] if subtotal >= coupon[3] else torch.zeros(())
    return bogo_savings(items, coupon[2])


class CouponResolver(nn.Module):
    def __init__(self, max_stack=3, abuse_threshold=0.8):
        super().__init__()
        self.max_stack = max_stack
        self.abuse_threshold = abuse_threshold
        self.abuse_net = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1), nn.Sigmoid())

    def forward(self, items, coupons):
        # items: (n_items, 3) [unit price, quantity, category]; coupons: (n_coupons, 4) [type, value, category, min spend]
        subtotal = (items[:, 0] * items[:, 1]).sum()
        n_coupons = coupons.shape[0]
        abuse = self.abuse_net(torch.stack([subtotal / 100.0, torch.tensor(float(n_coupons)),
                                            torch.tensor(float(items.shape[0]))])).squeeze(-1)
        max_stack = 1 if abuse > self.abuse_threshold else self.max_stack

        est = torch.stack([coupon_savings(c, items, subtotal) for c in coupons])
        # best saving first; on equal savings (in cents) the coupon attached first wins
        rank_key = torch.round(est * 100.0) * n_coupons - torch.arange(n_coupons)
        order = torch.argsort(rank_key, descending=True)

        category_used = torch.zeros(N_CATEGORIES, dtype=torch.bool)
        bogo_used = False
        running = subtotal
        applied = []
        for j in range(n_coupons):
            if len(applied) >= max_stack:
                break
            idx = order[j]
            c = coupons[idx]
            if est[idx] <= 0:
                continue
            kind = int(c[0])
            if kind == PERCENT:
                cat = int(c[2])
                if category_used[cat]:
                    continue
                category_used[cat] = True
            elif kind == FIXED:
                if running < c[3]:
                    continue
            else:
                if bogo_used:
                    continue
                bogo_used = True
            running = running - est[idx]
            applied.append(idx)

        applied_ids = torch.stack(applied) if applied else torch.zeros(0, dtype=torch.long)
        return running.reshape(1), applied_ids, abuse.reshape(1)


def model():
    torch.manual_seed(5717)
    return CouponResolver().eval()


N_ITEMS = torch.export.Dim("n_items", min=2, max=64)
N_COUPONS = torch.export.Dim("n_coupons", min=2, max=16)


def _basket(n, seed):
    g = torch.Generator().manual_seed(seed)
    price = torch.round(100.0 * (0.5 + 9.5 * torch.rand(n, generator=g))) / 100.0
    qty = torch.randint(1, 4, (n,), generator=g).float()
    cat = torch.randint(0, N_CATEGORIES, (n,), generator=g).float()
    return torch.stack([price, qty, cat], dim=1)


def example_inputs():
    items = _basket(12, 1)
    coupons = torch.tensor([
        [PERCENT, 20.0, 3.0, 0.0],     # 20% off category 3
        [PERCENT, 10.0, 3.0, 0.0],     # 10% off category 3 again -> blocked by the first
        [FIXED, 5.0, 0.0, 40.0],       # $5 off orders over $40
        [PERCENT, 5.0, 7.0, 0.0],      # 5% off category 7
    ])
    return (items, coupons)


def dynamic_shapes():
    return ({0: N_ITEMS}, {0: N_COUPONS})


def verify_inputs():
    items2 = torch.tensor([[4.0, 2.0, 1.0], [3.0, 1.0, 2.0]])
    items64 = _basket(64, 3)
    many = torch.tensor([[BOGO, 0.0, float(k % N_CATEGORIES), 0.0] if k % 4 == 0 else
                         [FIXED, 2.0 + k, 0.0, 50.0 * k] if k % 4 == 1 else
                         [PERCENT, 5.0 + k, float(k % N_CATEGORIES), 0.0] for k in range(16)])
    return [
        # three coupons applied, the second category-3 percent coupon skipped; loop runs out
        example_inputs(),
        # 2 items, $11 basket: $5-over-$40 coupon saves nothing (continue), BOGO on 2 x $4 applies
        (items2, torch.tensor([[FIXED, 5.0, 0.0, 40.0], [BOGO, 0.0, 1.0, 0.0]])),
        # 64 items, 16 coupons: four BOGOs (only the first applies, the rest continue), then a
        # percent and a fixed coupon -> stack limit of 3 reached (break)
        (items64, many),
        # 16 coupons on a 2-item basket -> abuse model flags it, only one coupon allowed
        (items2, many),
        # nothing to save: minimum spend not met, BOGO on a category not in the basket -> empty list
        (items2, torch.tensor([[FIXED, 5.0, 0.0, 100.0], [BOGO, 0.0, 6.0, 0.0], [PERCENT, 10.0, 5.0, 0.0]])),
        # two $10-over-$30 coupons on a $38 basket: equal savings, first one wins the tie; after it
        # the basket is $28, below the second one's minimum -> skipped
        (torch.tensor([[19.0, 1.0, 0.0], [19.0, 1.0, 4.0]]),
         torch.tensor([[FIXED, 10.0, 0.0, 30.0], [FIXED, 10.0, 0.0, 30.0]])),
    ]
