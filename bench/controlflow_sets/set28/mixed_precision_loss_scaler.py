"""Mixed-precision training step replay: dynamic loss scaling, overflow skipping and gradient clipping."""
import torch
import torch.nn as nn


class LossScaledSGD(nn.Module):
    def __init__(self):
        super().__init__()
        self.init_scale = 1024.0
        self.fp16_max = 65504.0
        self.growth_interval = 3
        self.max_scale = 5000.0
        self.clip = 5.0
        self.lr = 0.1
        self.momentum = 0.5

    def forward(self, params, grads, n_steps):
        # params [P], grads [T, P]: preallocated buffer of unscaled fp32 gradients of consecutive steps,
        # n_steps [1] int64: how many rows of the buffer were actually recorded
        scale = torch.full((), self.init_scale)
        p = params
        buf = torch.zeros_like(params)
        good_steps = 0
        skipped = []
        for t in range(int(n_steps.item())):
            scaled = grads[t] * scale
            if not scaled.abs().max() <= self.fp16_max:
                # overflow: skip the update and back off
                scale = scale * 0.5
                good_steps = 0
                skipped.append(t)
                continue
            g = scaled / scale
            norm = g.norm()
            if norm > self.clip:
                g = g * (self.clip / norm)
            buf = self.momentum * buf + g
            p = p - self.lr * buf
            good_steps += 1
            if good_steps == self.growth_interval and scale * 2.0 <= self.max_scale:
                scale = scale * 2.0
                good_steps = 0
        return p, scale, torch.tensor(skipped, dtype=torch.int64)


def model():
    return LossScaledSGD().eval()


def _case(seed, magnitudes, p=10, n_valid=None, buffer=None):
    g = torch.Generator().manual_seed(seed)
    params = torch.randn(p, generator=g)
    buffer = buffer or len(magnitudes)
    dirs = torch.randn(buffer, p, generator=g)
    dirs = dirs / dirs.abs().amax(1, keepdim=True)       # largest entry is exactly +-1
    mags = torch.full((buffer,), 1e6)                     # unrecorded rows hold stale junk
    mags[:len(magnitudes)] = torch.tensor(magnitudes)
    n_valid = len(magnitudes) if n_valid is None else n_valid
    return params, dirs * mags[:, None], torch.tensor([n_valid], dtype=torch.int64)


def example_inputs():
    return _case(0, [1.0, 2.0, 90.0, 1.5])


def dynamic_shapes():
    t = torch.export.Dim("steps", min=2, max=256)
    return (None, {0: t}, None)


def verify_inputs():
    return [
        _case(1, [0.5, 1.0, 0.8, 0.3, 0.7, 0.2, 0.4, 0.6, 0.9]),   # growth twice, then capped by max_scale
        _case(2, [100.0, 3.0, 40.0, 20.0, 80.0, 1.0]),        # overflow back-off, growth, overflow again
        _case(3, [2.0, 0.1, 3.5, 0.05]),                      # clipping of large grads
        _case(4, [200.0, 150.0]),                             # every step skipped
        _case(5, [0.5, 2.0, 0.7], buffer=6),                  # partly filled buffer
        _case(6, [], buffer=4, n_valid=0),                    # nothing recorded yet: no step
    ]
