"""Binary distillation column check (McCabe-Thiele stage stepping).

Tray temperatures measured along a benzene/toluene column are converted into
liquid compositions (linear boiling-point interpolation plus a small learned
correction). The top and bottom trays give the distillate and bottoms purity.
For the current reflux ratio the model first checks the minimum reflux (early
return if the column cannot make the separation), then steps off theoretical
stages from the top, switching from the rectifying to the stripping operating
line at the feed, until the bottoms composition is reached or a stage cap is
hit. The stepped profile is finally compared with the measured profile, which
has a different (dynamic) length: it is truncated or padded.

Kind X. Constructs: 1 (if/else on tensor comparisons), 2 (early return;
branches assign the same variable), 3 (`and` in the while condition),
4 (while with tensor condition and loop-carried state), 7 (helpers calling
helpers with their own branches), 8 (branch on the measured profile length vs
the data-dependent number of stages).
"""
import torch
import torch.nn as nn

T_LIGHT, T_HEAVY = 80.1, 110.6  # boiling points of benzene / toluene, deg C


def equilibrium_y(x, alpha):
    return alpha * x / (1.0 + (alpha - 1.0) * x)


def equilibrium_x(y, alpha):
    return y / (alpha - (alpha - 1.0) * y)


def rectifying_y(x, xd, reflux):
    return reflux / (reflux + 1.0) * x + xd / (reflux + 1.0)


def operating_y(x, xd, xb, zf, reflux):
    """Saturated-liquid feed: the two operating lines meet at x = zf."""
    if x >= zf:
        return rectifying_y(x, xd, reflux)
    y_feed = rectifying_y(zf, xd, reflux)
    return xb + (y_feed - xb) * (x - xb) / (zf - xb)


class StageStepper(nn.Module):
    def __init__(self, hidden=8, max_stages=18):
        super().__init__()
        self.max_stages = max_stages
        self.correction = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def compositions(self, temps):
        x = (T_HEAVY - temps) / (T_HEAVY - T_LIGHT)
        x = x + 0.005 * torch.tanh(self.correction(temps.unsqueeze(-1) / 100.0)).squeeze(-1)
        return x.clamp(0.001, 0.999)

    def forward(self, temps, operation):
        # temps: (N,) tray temperatures top -> bottom; operation: (3,) [feed composition, reflux ratio, alpha]
        zf, reflux, alpha = operation[0], operation[1], operation[2]
        measured = self.compositions(temps)
        xd, xb = measured[0], measured[-1]

        y_pinch = equilibrium_y(zf, alpha)
        r_min = (xd - y_pinch) / (y_pinch - zf)
        if reflux <= r_min:
            # infeasible: the operating line crosses the equilibrium curve
            return torch.tensor([-1]), r_min.reshape(1), torch.zeros_like(measured)

        x, y = xd, xd
        stages = 0
        profile = []
        while x > xb and stages < self.max_stages:
            x = equilibrium_x(y, alpha)
            profile.append(x)
            stages += 1
            y = operating_y(x, xd, xb, zf, reflux)

        profile = torch.stack(profile)
        n = measured.shape[0]
        if profile.shape[0] >= n:
            profile = profile[:n]
        else:
            profile = torch.cat([profile, xb.expand(n - profile.shape[0])])
        return torch.tensor([stages]), r_min.reshape(1), measured - profile


def model():
    torch.manual_seed(3416)
    return StageStepper().eval()


def _column(n, top=81.0, bottom=109.5):
    # S-shaped temperature profile between top and bottom
    s = torch.linspace(-3.0, 3.0, n)
    return top + (bottom - top) * torch.sigmoid(2.0 * s)


def example_inputs():
    return (_column(20), torch.tensor([0.5, 2.2, 2.5]))


def dynamic_shapes():
    N = torch.export.Dim("trays", min=2, max=80)
    return ({0: N}, None)


def verify_inputs():
    return [
        # feasible, 12 stages for 20 measured trays -> padded comparison; both operating lines
        example_inputs(),
        # reflux below minimum -> early return
        (_column(12), torch.tensor([0.5, 1.0, 2.5])),
        # reflux close to minimum -> pinch, stage cap (18) hit (second `and` operand stops the loop)
        (_column(30), torch.tensor([0.5, 1.3, 2.5])),
        # short column with only 4 measured trays -> stepped profile truncated
        (_column(4), torch.tensor([0.5, 3.5, 2.5])),
        # two trays (top/bottom only), feed rich in benzene, large reflux -> truncated
        (_column(2, top=80.6, bottom=108.0), torch.tensor([0.7, 5.0, 2.4])),
    ]
