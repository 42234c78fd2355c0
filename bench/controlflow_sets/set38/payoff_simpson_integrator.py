"""Insurance pricing: expected payout of a parametric policy = integral of a learned payout-rate
curve g(t; z) over the coverage window [a, b], per policy. Composite Simpson with panel doubling
until the Richardson error estimate is small; wide windows are split recursively.

Kind X. Constructs: 1 2 3 4 7 9
"""
import torch
import torch.nn as nn


class PayoutIntegrator(nn.Module):
    def __init__(self, tol_bp=1.0, max_panels=128, max_width=4.0, max_depth=2, richardson=True):
        super().__init__()
        self.rate = nn.Sequential(nn.Linear(11, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
        self.tol_bp = tol_bp          # relative error tolerance in basis points
        self.max_panels = max_panels
        self.max_width = max_width
        self.max_depth = max_depth
        self.richardson = richardson

    def integrand(self, t, z):
        B, n = z.shape[0], t.shape[0]
        # seasonal claim cycle; z[:, 0] sets how many cycles per year the insured risk has
        cycles = 1.0 + 4.0 * z[:, :1].abs().clamp(max=20.0)
        phase = 2 * torch.pi * cycles * t[None, :]
        season = 3.0 * torch.stack([torch.sin(phase), torch.cos(phase)], -1)
        trend = (t / 10.0)[None, :, None].expand(B, n, 1)
        inp = torch.cat([z[:, None, :].expand(B, n, z.shape[1]), season, trend], -1)
        return torch.nn.functional.softplus(self.rate(inp)).squeeze(-1)     # payout rate >= 0

    def simpson(self, z, a, b, n):
        t = a + (b - a) * torch.linspace(0.0, 1.0, n + 1)
        y = self.integrand(t, z)
        w = torch.ones(n + 1)
        w[1:-1:2] = 4.0
        w[2:-1:2] = 2.0
        return (y * w).sum(-1) * (b - a) / (3.0 * n)

    def refine(self, z, a, b):
        n = 2
        est = self.simpson(z, a, b, n)
        history = [est]
        err = torch.tensor(float("inf"))
        while err > self.tol_bp and n < self.max_panels:
            n *= 2
            new = self.simpson(z, a, b, n)
            err = ((new - est).abs() / new.abs().clamp(min=1e-6)).max() * 1e4 / 15.0
            history.append(new)
            est = new
        if self.richardson:  # static config flag
            est = est + (history[-1] - history[-2]) / 15.0
        return est, err

    def integrate(self, z, a, b, depth):
        if (b - a) > self.max_width and depth < self.max_depth:
            mid = 0.5 * (a + b)
            left, e1 = self.integrate(z, a, mid, depth + 1)
            right, e2 = self.integrate(z, mid, b, depth + 1)
            return left + right, torch.maximum(e1, e2)
        return self.refine(z, a, b)

    def forward(self, z, window):
        a, b = window[0], window[1]
        sign = 1.0
        if b < a:
            a, b = b, a
            sign = -1.0
        if (b - a) < 1e-3:
            # empty coverage window
            return torch.zeros(z.shape[0]), torch.zeros(())
        total, err = self.integrate(z, a, b, 0)
        return sign * total, err


def model():
    torch.manual_seed(19)
    return PayoutIntegrator().eval()


def _make_policies(n, seed, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 8, generator=g) * scale


def example_inputs():
    return (_make_policies(4, 0), torch.tensor([0.0, 3.0]))


def dynamic_shapes():
    return ({0: torch.export.Dim("policies", min=2, max=64)}, None)


def verify_inputs():
    return [
        example_inputs(),                                         # width 3, no split: several doublings, converges
        (_make_policies(3, 1), torch.tensor([2.0, 2.0004])),      # (almost) empty window: early return
        (_make_policies(6, 2), torch.tensor([4.5, 1.0])),         # reversed bounds: sign flip, no split; hits the cap
        (_make_policies(5, 3), torch.tensor([-6.0, 6.0])),        # width 12: split twice (depth cap 2), 4 pieces
        (_make_policies(2, 4), torch.tensor([0.0, 7.0])),         # width 7: split once, halves 3.5 not split
        (_make_policies(8, 5, 6.0), torch.tensor([0.0, 0.5])),    # fast cycles: loop stops at the panel cap unconverged
        (_make_policies(3, 6, 0.05), torch.tensor([0.0, 0.1])),   # slow, short window: converged after one doubling
    ]
