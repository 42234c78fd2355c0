"""In-line checkweigher for a packaging line.

Each package crossing the weigh cell produces a load-cell trace that rings
when the package lands.  For every package we slide a window over the trace
and take the first window whose spread is below tolerance as the settled
weight; traces that never settle fall back to the mean of the last samples
and are flagged.  The weight is then accepted or rejected against the
target fill.
"""
import torch
import torch.nn as nn


class Checkweigher(nn.Module):
    def __init__(self, window=8, hop=4, settle_std=0.5, target_g=500.0, under_g=5.0, over_g=10.0):
        super().__init__()
        self.window = window
        self.hop = hop
        self.settle_std = settle_std
        self.target_g = target_g
        self.under_g = under_g
        self.over_g = over_g
        # ADC counts -> grams calibration (tare offset and span)
        self.register_buffer("tare", torch.tensor(1000.0))
        self.register_buffer("span", torch.tensor(0.5))

    def forward(self, samples):
        grams = (samples - self.tare) * self.span
        n_packages, n_samples = grams.shape
        weights, decisions, settled_at = [], [], []
        for b in range(n_packages):
            trace = grams[b]
            weight = trace[-self.window:].mean()
            settled = torch.tensor(-1)
            for start in range(0, n_samples - self.window + 1, self.hop):
                win = trace[start:start + self.window]
                if win.std() < self.settle_std:
                    weight = win.mean()
                    settled = torch.tensor(start)
                    break

            if settled < 0:
                decision = torch.tensor(3)        # unstable: send to manual check
            elif weight < self.target_g - self.under_g:
                decision = torch.tensor(1)        # underweight reject
            elif weight > self.target_g + self.over_g:
                decision = torch.tensor(2)        # overweight reject
            else:
                decision = torch.tensor(0)        # accept
            weights.append(weight)
            decisions.append(decision)
            settled_at.append(settled)
        return torch.stack(weights), torch.stack(decisions), torch.stack(settled_at)


def model():
    torch.manual_seed(64)
    return Checkweigher().eval()


def _trace(grams, ring_samples, n, seed):
    g = torch.Generator().manual_seed(seed)
    t = torch.full((n,), grams / 0.5 + 1000.0)
    t = t + 0.02 * torch.randn(n, generator=g)        # small electrical noise
    ring = torch.tensor([12.0, -12.0]).repeat((ring_samples + 1) // 2)[:ring_samples]
    t[:ring_samples] += ring
    return t


def _batch(specs, n):
    return torch.stack([_trace(w, r, n, seed=i) for i, (w, r) in enumerate(specs)])


def example_inputs():
    return (_batch([(500.0, 10), (470.0, 3), (530.0, 20)], 48),)


def dynamic_shapes():
    pk = torch.export.Dim("packages", min=2, max=16)
    ns = torch.export.Dim("samples", min=4, max=256)
    return ({0: pk, 1: ns},)


def verify_inputs():
    return [
        example_inputs(),                                    # accept / under / over; window loop breaks after 1..many hops
        (_batch([(500.0, 0), (500.0, 48)], 48),),            # settles in first window (break at hop 0) / rings the whole trace: no break -> unstable
        (_batch([(505.0, 8), (480.0, 2)], 8),),              # exactly one window position (loop runs once); accept, underweight
        (_batch([(500.0, 0), (520.0, 0)], 6),),              # trace shorter than window: inner loop runs 0 times -> unstable
        (_batch([(498.0, 120), (512.0, 40), (501.0, 200), (300.0, 5)], 256),),  # long traces, many hops
    ]
