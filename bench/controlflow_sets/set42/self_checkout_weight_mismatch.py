"""Self-checkout bagging-area security scale.

Each scanned item has a catalog feature vector whose first entry is the nominal
catalog weight (kg); a small regressor corrects it (packaging variance). The
bagging scale is read at 20 Hz. Once the scale has settled, the measured weight
gain is compared with the expected weight of the scanned items:
  0 = waiting (not enough readings / still moving), 1 = OK,
  2 = unexpected item in bagging area, 3 = scanned item missing from bag.

Kind: T. Constructs: 1, 2, 3, 7, 8.
"""
import torch
from torch import nn
from torch.export import Dim

WAITING, OK, UNEXPECTED_ITEM, ITEM_MISSING = 0, 1, 2, 3


class BaggingScaleMonitor(nn.Module):
    def __init__(self, n_feats=8, settle_len=10, settle_band=0.015):
        super().__init__()
        self.weight_correction = nn.Sequential(nn.Linear(n_feats, 16), nn.ReLU(), nn.Linear(16, 1))
        self.settle_len = settle_len
        self.settle_band = settle_band

    def expected_weight(self, item_feats):
        factor = 0.9 + 0.2 * torch.sigmoid(self.weight_correction(item_feats)).squeeze(-1)
        return (item_feats[:, 0] * factor).sum()

    def is_settled(self, window):
        return (window.max() - window.min()) < self.settle_band

    def forward(self, item_feats, scale):
        expected = self.expected_weight(item_feats)
        if scale.shape[0] < self.settle_len:
            return torch.tensor(WAITING), torch.zeros_like(expected)
        window = scale[-self.settle_len:]
        if not self.is_settled(window):
            return torch.tensor(WAITING), torch.zeros_like(expected)
        measured = window.mean() - scale[0]  # first reading is the tare
        diff = measured - expected
        tolerance = torch.clamp(0.05 * expected, min=0.02)
        if diff.abs() <= tolerance:
            status = OK
        elif diff > 0:
            status = UNEXPECTED_ITEM
        else:
            status = ITEM_MISSING
        return torch.tensor(status), diff


def model():
    torch.manual_seed(4204)
    return BaggingScaleMonitor().eval()


def _items(weights, seed):
    g = torch.Generator().manual_seed(seed)
    feats = torch.rand(len(weights), 8, generator=g)
    feats[:, 0] = torch.tensor(weights)
    return feats


def _scale(n, tare, gain, settle_at, noise=0.002, seed=0):
    g = torch.Generator().manual_seed(seed + 100)
    t = torch.arange(n, dtype=torch.float32)
    ramp = (t / settle_at).clamp(max=1.0)
    return tare + gain * ramp + noise * torch.randn(n, generator=g)


def example_inputs():
    items = _items([0.50, 1.00, 0.25], 0)          # expected ~1.75 kg
    return items, _scale(40, 3.0, 1.76, 20)


def dynamic_shapes():
    return ({0: Dim("items", min=2, max=32)}, {0: Dim("readings", min=2, max=200)})


def verify_inputs():
    items = _items([0.50, 1.00, 0.25], 0)
    return [
        example_inputs(),                                  # settled, matches -> OK
        (items, _scale(6, 3.0, 1.76, 3)),                  # fewer readings than the settle window -> waiting
        (items, _scale(40, 3.0, 1.76, 38)),                # still ramping in last window -> not settled
        (items, _scale(40, 3.0, 2.60, 20)),                # 0.85 kg too heavy -> unexpected item
        (items, _scale(40, 3.0, 1.00, 20)),                # 0.75 kg light -> item missing
        (_items([0.12, 0.08, 2.4, 0.3, 0.05], 1), _scale(60, 0.5, 2.9, 30, seed=1)),  # 5 items, OK
    ]
