"""Online grocery picker: choose a substitute for an out-of-stock item.

Product attribute vectors (category one-hots, size, brand tier, dietary
flags...) go through a shared product encoder; shelf candidates are visited
from most to least similar.  The picker stops as soon as similarity drops
below the acceptable level, skips items with no stock or priced above the
customer's cap, and takes the first acceptable one.  Customers can opt out
of substitutions entirely.

KIND T.  Constructs: 1 (if on tensor comparisons, ternary on a tensor),
2 (early return; choice assigned only inside the loop, default from before),
5 (for over the dynamic number of candidates), 6 (break / continue on tensor
conditions), 7 (helper with its own branch on the price).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.export import Dim

KIND = "T"
CONSTRUCTS = (1, 2, 5, 6, 7)


class ProductEncoder(nn.Module):
    def __init__(self, n_attr=12, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_attr, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, attrs):
        return F.normalize(self.net(attrs), dim=-1)


class GrocerySubstitutionPicker(nn.Module):
    def __init__(self, min_similarity=0.8, max_markup=1.2, cheap_item=2.0):
        super().__init__()
        self.encoder = ProductEncoder()
        self.min_similarity = min_similarity
        self.max_markup = max_markup
        self.cheap_item = cheap_item

    def price_cap(self, wanted_price):
        if wanted_price < self.cheap_item:
            # cheap staples: a flat 50 cents more is fine
            return wanted_price + 0.5
        return wanted_price * self.max_markup

    def forward(self, wanted, wanted_price, candidates, prices, stock, allow_sub):
        # wanted: (A,), wanted_price: (), candidates: (M, A), prices/stock: (M,), allow_sub: () bool
        if not allow_sub:
            return torch.tensor(-1), torch.zeros(())

        q = self.encoder(wanted.unsqueeze(0))
        c = self.encoder(candidates)
        sim = (c @ q.t()).squeeze(1)
        order = torch.argsort(sim, descending=True)
        cap = self.price_cap(wanted_price)

        choice = torch.tensor(-1)
        for k in range(order.shape[0]):
            j = order[k]
            if sim[j] < self.min_similarity:
                break  # the rest are even less similar
            if stock[j] <= 0:
                continue
            if prices[j] > cap:
                continue
            choice = j
            break
        score = sim[choice] if choice >= 0 else torch.zeros(())
        return choice, score


def model():
    torch.manual_seed(61008)
    return GrocerySubstitutionPicker().eval()


def make_shelf(noise_scales, seed):
    g = torch.Generator().manual_seed(seed)
    wanted = torch.randn(12, generator=g)
    cands = torch.stack([wanted + s * torch.randn(12, generator=g) for s in noise_scales])
    return wanted, cands


def make_case(noise_scales, wanted_price, prices, stock, allow=True, seed=0):
    wanted, cands = make_shelf(noise_scales, seed)
    return (wanted, torch.tensor(wanted_price), cands, torch.tensor(prices),
            torch.tensor(stock), torch.tensor(allow))


def example_inputs():
    # similarity order 0, 2, 1: #0 out of stock (continue), #2 at 5.5 over the 4.8 cap
    # (continue), #1 taken (break)
    return make_case([0.05, 0.3, 0.45, 2.0, 3.0], 4.0, [4.2, 3.9, 5.5, 2.0, 1.0], [0, 6, 3, 9, 9], seed=1)


def dynamic_shapes():
    m = Dim("candidates", min=2, max=200)
    return (None, None, {0: m}, {0: m}, {0: m}, None)


def verify_inputs():
    return [
        # skip no-stock, skip over-cap, pick the third most similar
        example_inputs(),
        # customer opted out: early return
        make_case([0.1, 0.2], 4.0, [4.0, 4.0], [5, 5], allow=False, seed=2),
        # first candidate fine: break immediately on the first visit
        make_case([0.1, 2.5, 3.0], 6.0, [6.5, 6.0, 6.0], [2, 1, 1], seed=3),
        # cheap staple (1.2 -> cap 1.7): close match at 1.6 accepted; others dissimilar
        make_case([0.15, 3.0, 3.5, 4.0], 1.2, [1.6, 1.0, 1.0, 1.0], [4, 4, 4, 4], seed=4),
        # similar items all out of stock, then similarity drops below 0.8: break, no choice
        make_case([0.1, 0.2, 3.0, 4.0], 3.0, [3.0, 3.0, 3.0, 3.0], [0, 0, 5, 5], seed=5),
        # two close matches, one out of stock, one too expensive: loop runs to the end
        make_case([0.1, 0.2], 2.5, [2.6, 3.5], [0, 7], seed=6),
    ]
