"""T: clinical lab reflex testing for a thyroid panel time series.

labs: (T, 6) draws over time, columns [TSH, fT4, fT3, TPO-Ab, age/100, BMI/40].
Returns probabilities over 3 follow-up actions.
Constructs: 1, 2, 3, 7, 8, 9
"""
import torch
import torch.nn as nn


class ThyroidReflex(nn.Module):
    def __init__(self, use_trend=True):
        super().__init__()
        self.enc = nn.Linear(6, 16)
        self.trend_proj = nn.Linear(16, 16)
        self.hypo_head = nn.Linear(16, 3)
        self.hyper_head = nn.Linear(16, 3)
        self.use_trend = use_trend

    def _trend(self, h):
        # not enough draws for a trend estimate
        if h.shape[0] < 4:
            return torch.zeros(h.shape[1])
        recent = h[-3:].mean(0)
        older = h[:-3].mean(0)
        return torch.tanh(self.trend_proj(recent - older))

    def forward(self, labs):
        h = torch.tanh(self.enc(labs))
        feat = h.mean(0)
        if self.use_trend:  # static
            feat = feat + 0.5 * self._trend(h)
        latest = labs[-1]
        tsh, ft4 = latest[0], latest[1]
        # overt hypothyroidism: no reflex needed, go straight to the treatment head
        if tsh > 4.5 and ft4 < 0.9:
            return torch.softmax(self.hypo_head(feat) + 2.0, dim=-1)
        if tsh < 0.4 or ft4 > 1.8:
            logits = self.hyper_head(feat)
        else:
            logits = torch.tensor([3.0, 0.0, 0.0]) + 0.1 * self.hypo_head(feat)
        return torch.softmax(logits, dim=-1)


def _labs(T, tsh, ft4, seed):
    g = torch.Generator().manual_seed(seed)
    base = torch.tensor([2.0, 1.2, 3.0, 0.5, 0.45, 0.6])
    labs = base + 0.1 * torch.randn(T, 6, generator=g)
    labs[-1, 0] = tsh
    labs[-1, 1] = ft4
    return labs


def model():
    torch.manual_seed(4601)
    return ThyroidReflex().eval()


def example_inputs():
    return (_labs(6, 2.1, 1.2, 1),)


def dynamic_shapes():
    return ({0: torch.export.Dim("draws", min=2, max=64)},)


def verify_inputs():
    return [
        example_inputs(),            # euthyroid -> else branch, trend computed (T>=4)
        (_labs(3, 7.0, 0.6, 2),),    # overt hypo -> early return, short history (no trend)
        (_labs(8, 6.0, 1.1, 3),),    # TSH high but fT4 normal: `and` false -> else (normal) path
        (_labs(2, 0.1, 1.3, 4),),    # TSH suppressed -> hyper head (first `or` operand), T=min
        (_labs(64, 1.5, 2.4, 5),),   # fT4 high with normal TSH -> hyper head (second `or` operand), T=max
    ]
