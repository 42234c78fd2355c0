"""Neural ODE block with an adaptive-step Heun/Euler integrator.

dy/dt = f(y) with f a small MLP.  The step size is controlled by the embedded
error estimate: steps whose error exceeds the tolerance are rejected and
retried with half the step, very accurate steps let the step grow.  The
integration horizon t_end is an input; t_end == 0 returns y0 unchanged.
Returns the final state, the reached time and the accepted/rejected counts.
"""
import torch
import torch.nn as nn


class Dynamics(nn.Module):
    def __init__(self, d=6, hidden=32, stiffness=1.0):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, hidden), nn.Tanh(), nn.Linear(hidden, d))
        self.stiffness = stiffness

    def forward(self, y):
        return self.net(y) - self.stiffness * y


class AdaptiveODEBlock(nn.Module):
    def __init__(self, d=6, tol=0.1, h0=0.5, max_rejects=2, finish_eps=0.01):
        super().__init__()
        self.f = Dynamics(d)
        self.tol = tol
        self.h0 = h0
        self.max_rejects = max_rejects
        self.finish_eps = finish_eps

    def forward(self, y0, t_end):
        y = y0
        t = torch.zeros(())
        h = torch.full((), self.h0)
        n_acc = 0
        n_rej = 0
        while t_end - t > self.finish_eps:
            h = torch.minimum(h, t_end - t)
            k1 = self.f(y)
            k2 = self.f(y + h * k1)
            err = (0.5 * h * (k2 - k1)).abs().max()
            if err > self.tol:
                n_rej += 1
                if n_rej > self.max_rejects:
                    break
                h = h * 0.5
                continue
            y = y + 0.5 * h * (k1 + k2)
            t = t + h
            n_acc += 1
            h = h * 1.5 if err < 0.25 * self.tol else h
        counts = torch.tensor([n_acc, n_rej])
        return y, t, counts


def model():
    torch.manual_seed(0)
    return AdaptiveODEBlock().eval()


def example_inputs():
    g = torch.Generator().manual_seed(0)
    return (torch.randn(4, 6, generator=g), torch.tensor(1.0))


def dynamic_shapes():
    return ({0: torch.export.Dim("batch", min=2, max=64)}, None)


def verify_inputs():
    g = torch.Generator().manual_seed(12)
    return [
        (torch.randn(3, 6, generator=g), torch.tensor(0.0)),        # nothing to integrate
        (torch.randn(2, 6, generator=g) * 0.1, torch.tensor(0.3)),  # one accurate step
        (torch.randn(5, 6, generator=g), torch.tensor(2.0)),        # accept / reject / grow
        (torch.randn(4, 6, generator=g) * 20.0, torch.tensor(1.5)),  # too stiff: gives up
    ]
