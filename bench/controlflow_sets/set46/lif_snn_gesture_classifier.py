"""X: spiking neural network (leaky integrate-and-fire) classifying gestures from an
event camera stream; stops early once the scene has gone quiet.

events (T, 32) per-time-bin event counts on a coarse 32-cell grid.
Returns class rates (5,) and the number of time bins actually processed (1,).
Constructs: 1, 2, 3, 5, 6, 7
"""
import torch
import torch.nn as nn


class LIFLayer(nn.Module):
    def __init__(self, n_in, n_out, decay=0.8, thresh=1.0):
        super().__init__()
        self.fc = nn.Linear(n_in, n_out)
        self.decay = decay
        self.thresh = thresh

    def forward(self, x, v):
        v = self.decay * v + self.fc(x)
        spikes = (v > self.thresh).float()
        if spikes.any():
            v = torch.where(spikes > 0, torch.zeros_like(v), v)  # reset neurons that fired
        return spikes, v


class SNNGesture(nn.Module):
    def __init__(self, quiet_bins=4):
        super().__init__()
        self.l1 = LIFLayer(32, 24)
        self.l2 = LIFLayer(24, 5, thresh=0.5)
        self.quiet_bins = quiet_bins
        with torch.no_grad():
            self.l1.fc.weight.abs_()
            self.l1.fc.bias.fill_(-0.05)

    def forward(self, events):
        v1 = torch.zeros(24)
        v2 = torch.zeros(5)
        counts = torch.zeros(5)
        quiet = 0
        steps = 0
        for t in range(events.shape[0]):
            x = events[t]
            steps += 1
            # empty bin and membranes at rest: nothing can happen, skip the compute
            if x.sum() == 0 and not (v1 > 0.05).any():
                quiet += 1
                if quiet >= self.quiet_bins and counts.sum() > 0:
                    break
                continue
            quiet = 0
            s1, v1 = self.l1(x, v1)
            s2, v2 = self.l2(s1, v2)
            counts = counts + s2
        if counts.sum() == 0:
            return torch.full((5,), 0.2), torch.tensor([float(steps)])
        return counts / counts.sum(), torch.tensor([float(steps)])


def _stream(T, seed, active=None, rate=0.5):
    g = torch.Generator().manual_seed(seed)
    ev = torch.zeros(T, 32)
    if active is not None:
        a, b = active
        ev[a:b] = torch.poisson(torch.full((b - a, 32), rate), generator=g)
    return (ev,)


def model():
    torch.manual_seed(4617)
    return SNNGesture().eval()


def example_inputs():
    return _stream(30, 1, active=(2, 12))


def dynamic_shapes():
    return ({0: torch.export.Dim("bins", min=2, max=400)},)


def verify_inputs():
    return [
        example_inputs(),                      # quiet start (skip, no spikes yet), burst, then quiet -> early break
        _stream(2, 2),                         # T=min, all empty: skipped, uniform fallback (early return)
        _stream(40, 12, active=(0, 40), rate=0.2),   # never quiet: full run, no break
        _stream(400, 8, active=(3, 10), rate=0.5),   # T=max: burst then long silence -> break after 4 quiet bins
        _stream(12, 4, active=(1, 3), rate=0.05),    # weak burst, a few output spikes, then quiet -> break
    ]
