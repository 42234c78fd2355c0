"""T: volatility-targeting position sizer with a hysteresis regime switch.

returns (T,) daily log returns of one equity, in percent. Output: position sizes (T,), regime flags (T,).
Constructs: 1, 2, 5, 7
"""
import torch
import torch.nn as nn


class VolRegimeFilter(nn.Module):
    def __init__(self, lam=0.94, high=2.5, low=1.2, target=1.0):
        super().__init__()
        self.lam = lam
        self.high = high
        self.low = low
        self.target = target
        self.signal = nn.Linear(4, 1)

    def _update_regime(self, regime, vol):
        # hysteresis: only switch when clearly past the band
        if vol > self.high:
            regime = 1
        elif vol < self.low:
            regime = 0
        return regime

    def forward(self, returns):
        var = returns[:5].pow(2).mean() + 1e-2
        regime = 0
        sizes, flags = [], []
        for t in range(returns.shape[0]):
            var = self.lam * var + (1 - self.lam) * returns[t] ** 2
            vol = var.sqrt()
            regime = self._update_regime(regime, vol)
            lo = max(t - 3, 0)
            window = returns[lo:t + 1]
            feats = torch.stack([returns[t], window.mean(), vol, window.abs().max()])
            direction = torch.tanh(self.signal(feats * 0.2))[0]
            size = direction * self.target / vol
            if regime == 1:
                size = 0.5 * size
            sizes.append(size.clamp(-3.0, 3.0))
            flags.append(torch.tensor(float(regime)))
        return torch.stack(sizes), torch.stack(flags)


def _returns(T, seed, calm=0.5, storm=5.0, storm_span=None):
    g = torch.Generator().manual_seed(seed)
    sig = torch.full((T,), calm)
    if storm_span is not None:
        sig[storm_span[0]:storm_span[1]] = storm
    return sig * torch.randn(T, generator=g)


def model():
    torch.manual_seed(4604)
    return VolRegimeFilter().eval()


def example_inputs():
    return (_returns(60, 1, storm_span=(15, 30)),)


def dynamic_shapes():
    return ({0: torch.export.Dim("days", min=2, max=512)},)


def verify_inputs():
    return [
        example_inputs(),                           # calm -> storm (regime 1, halved), still high-vol regime at the end
        (_returns(2, 2),),                          # T=min, calm only: vol below low band
        (_returns(40, 3, calm=1.8),),             # mid-band vol: stays in regime 0
        (_returns(512, 4, storm_span=(100, 200)),), # T=max, both switches
    ]
