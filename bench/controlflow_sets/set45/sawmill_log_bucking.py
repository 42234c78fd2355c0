"""Sawmill log bucking: walk along a scanned stem (diameter and defect score
every 10 cm), skip rot/knot zones, and greedily cut the longest product whose
top diameter and defect rules are met; otherwise trim a little and retry.
A small learned price model values each piece.

Kind X. Constructs: 1, 2, 3, 4, 6, 7, 9.
"""
import torch
import torch.nn as nn
from torch.export import Dim

# product catalogue: (length in 10 cm steps, minimum top diameter cm)
PRODUCTS = [(49, 24.0), (37, 18.0), (31, 14.0), (25, 10.0)]


class LogBucker(nn.Module):
    def __init__(self, trim_steps=3, defect_limit=0.5):
        super().__init__()
        self.products = PRODUCTS
        self.trim_steps = trim_steps
        self.defect_limit = defect_limit
        self.shortest = min(length for length, _ in PRODUCTS)
        self.price = nn.Sequential(nn.Linear(len(PRODUCTS) + 2, 16), nn.ReLU(), nn.Linear(16, 1))

    def fits(self, diam, defect, min_top):
        if diam[-1] < min_top:
            return False  # small end too thin for this product
        return not (defect > self.defect_limit).any()

    def piece_value(self, diam, k):
        onehot = torch.zeros(len(self.products))
        onehot[k] = 1.0
        feats = torch.cat([onehot, torch.stack([diam.mean() / 50.0, diam[-1] / 50.0])])
        return nn.functional.softplus(self.price(feats)).squeeze()

    def forward(self, diameter, defect):
        # diameter: [L] cm, defect: [L] scanner defect score in [0, 1], butt end first
        n = diameter.shape[0]
        pieces = []
        pos = 0
        while pos + self.shortest <= n:
            while pos < n and defect[pos] > self.defect_limit:
                pos += 1  # chop out rot / knot cluster
            cut = False
            for k, (length, min_top) in enumerate(self.products):
                if pos + length > n:
                    continue
                seg_d = diameter[pos:pos + length]
                if self.fits(seg_d, defect[pos:pos + length], min_top):
                    value = self.piece_value(seg_d, k)
                    pieces.append(torch.stack([torch.tensor(float(pos)), torch.tensor(float(length)), value]))
                    pos += length
                    cut = True
                    break
            if not cut:
                pos += self.trim_steps
        if len(pieces) == 0:
            return torch.zeros(1, 3)  # pulp wood only
        return torch.stack(pieces)


def model():
    torch.manual_seed(14)
    return LogBucker().eval()


def _stem(n, butt, top, defects=(), seed=0):
    g = torch.Generator().manual_seed(seed)
    diameter = torch.linspace(butt, top, n) + 0.2 * torch.randn(n, generator=g)
    defect = 0.1 * torch.rand(n, generator=g)
    for a, b in defects:
        defect[a:b] = 0.9
    return diameter, defect


def example_inputs():
    return _stem(150, 42.0, 16.0, defects=((60, 64),), seed=0)


def dynamic_shapes():
    n = Dim("scan_points", min=10, max=400)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        example_inputs(),  # long saw log, rot patch: long product, skip rot, smaller product after
        _stem(10, 30.0, 28.0, seed=1),  # 1 m stub: shorter than any product -> outer while 0 times, pulp
        _stem(30, 12.0, 8.0, seed=2),  # too thin everywhere: trims until the end, no piece -> pulp
        _stem(400, 55.0, 9.0, defects=((0, 3), (100, 140), (250, 251)), seed=3),  # max length: defect at butt, long defect zone, many cuts
        _stem(60, 30.0, 20.0, defects=((30, 34),), seed=4),  # 49 too thin at the top, 37/31 hit the defect, 25 fits; later trims into the defect zone
        _stem(40, 26.0, 22.0, seed=5),  # 49-step product longer than the log -> `continue`; 37 fits
    ]
