"""Wind-tunnel angle-of-attack sweep: locate the stall point of an aerofoil.

The measured lift coefficient is smoothed with a moving average (when there
are enough points), the lift-curve slope is estimated from the early part of
the sweep, and the stall is the first angle (above a small-angle noise band)
where the local slope collapses.  If the sweep never stalls the last point is
reported and the stall flag is 0.
"""
import torch
import torch.nn as nn


class StallFinder(nn.Module):
    def __init__(self, window=5, min_alpha=2.2, collapse_ratio=0.1):
        super().__init__()
        self.window = window
        self.min_alpha = min_alpha
        self.collapse_ratio = collapse_ratio
        self.smooth = nn.Conv1d(1, 1, window, padding=window // 2, padding_mode="replicate", bias=False)
        with torch.no_grad():
            self.smooth.weight.fill_(1.0 / window)

    def forward(self, alpha_deg, cl):
        if cl.shape[0] >= self.window:
            cl_s = self.smooth(cl.view(1, 1, -1)).view(-1)
        else:
            cl_s = cl
        dcl = (cl_s[1:] - cl_s[:-1]) / (alpha_deg[1:] - alpha_deg[:-1]).clamp_min(1e-3)
        lift_slope = dcl[: max(1, dcl.shape[0] // 4)].mean()
        stall = None
        for i in range(dcl.shape[0]):
            if alpha_deg[i] < self.min_alpha:
                continue
            if dcl[i] < self.collapse_ratio * lift_slope:
                stall = i
                break
        if stall is None:
            return cl_s.max(), alpha_deg[-1], lift_slope, torch.tensor(0.0)
        return cl_s[stall], alpha_deg[stall], lift_slope, torch.tensor(1.0)


def model():
    torch.manual_seed(404)
    return StallFinder().eval()


def _sweep(start, stop, n, stall_at=None, seed=0):
    alpha = torch.linspace(start, stop, n)
    cl = 0.2 + 0.11 * alpha
    if stall_at is not None:
        peak = 0.2 + 0.11 * stall_at
        cl = torch.where(alpha > stall_at, peak - 0.08 * (alpha - stall_at), cl)
    g = torch.Generator().manual_seed(seed)
    cl = cl + 0.002 * torch.randn(n, generator=g)
    return alpha, cl


def example_inputs():
    return _sweep(-4.0, 20.0, 25, stall_at=14.0, seed=1)


def dynamic_shapes():
    n = torch.export.Dim("points", min=2, max=200)
    return ({0: n}, {0: n})


def verify_inputs():
    return [
        # example: 1-degree steps, smoothed, skips the small-angle band, stalls at ~14 deg
        example_inputs(),
        # sweep stops before stall (no break) -> "no stall" early-return path
        _sweep(-2.0, 10.0, 13, stall_at=None, seed=2),
        # only 4 points (no smoothing), starts above min_alpha, stalls at 3rd point
        (torch.tensor([6.0, 9.0, 12.0, 15.0]), torch.tensor([0.86, 1.19, 1.25, 1.0])),
        # two points, unsmoothed, no stall
        (torch.tensor([3.0, 4.0]), torch.tensor([0.53, 0.64])),
        # fine sweep (0.25 deg steps), stall at 16 deg
        _sweep(0.0, 22.0, 89, stall_at=16.0, seed=3),
    ]
