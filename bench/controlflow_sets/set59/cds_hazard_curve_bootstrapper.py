"""Credit derivatives: bootstrap a piecewise-constant hazard curve from CDS quotes.

For each quoted tenor (in increasing order) the hazard rate of the new
segment is solved so that the par spread makes premium and protection legs
equal, given the hazards already bootstrapped for the shorter tenors.  Legs
are priced on the quarterly payment grid (the number of coupons is derived
from the tenor), discounting on a linearly interpolated zero curve.  The
root is bracketed by doubling and then bisected.  A quote that would need a
negative hazard (the curve is inverted beyond what is arbitrage-free) or a
non-positive spread stops the bootstrap.
"""
import torch
import torch.nn as nn


class HazardBootstrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.coupons_per_year = 4
        self.tol = 1e-9
        self.max_bisect = 100
        self.max_hazard = 20.0

    def zero_rate(self, t, tenors, zeros):
        # flat extrapolation outside the quoted pillars
        idx = torch.clamp(torch.searchsorted(tenors, t), 1, tenors.shape[0] - 1)
        t0, t1 = tenors[idx - 1], tenors[idx]
        w = torch.clamp((t - t0) / (t1 - t0), 0.0, 1.0)
        return zeros[idx - 1] + w * (zeros[idx] - zeros[idx - 1])

    def survival(self, t, knots, hazards):
        """Survival at times t for hazards[j] on (knots[j-1], knots[j]]."""
        cum = torch.zeros_like(t)
        prev = torch.zeros(())
        for j in range(len(hazards)):
            seg = torch.clamp(torch.minimum(t, knots[j]) - prev, min=0.0)
            cum = cum + hazards[j] * seg
            prev = knots[j]
        return torch.exp(-cum)

    def leg_gap(self, lam, spread, recovery, pay_t, tenors, zeros, knots, hazards):
        surv = self.survival(pay_t, knots, hazards + [lam])
        df = torch.exp(-self.zero_rate(pay_t, tenors, zeros) * pay_t)
        accrual = 1.0 / self.coupons_per_year
        prev_surv = torch.cat([torch.ones(1), surv[:-1]])
        premium = spread * accrual * (df * 0.5 * (surv + prev_surv)).sum()
        protection = (1.0 - recovery) * (df * (prev_surv - surv)).sum()
        return protection - premium

    def forward(self, spreads_bp, tenors, zeros, recovery):
        n = tenors.shape[0]
        hazards, knots = [], []
        status = torch.tensor(0)
        for k in range(n):
            spread = spreads_bp[k] / 1e4
            if spread <= 0.0:
                status = torch.tensor(2)
                break
            n_pay = int(torch.ceil(tenors[k] * self.coupons_per_year).item())
            pay_t = torch.arange(1, n_pay + 1, dtype=torch.float32) / self.coupons_per_year
            pay_t[-1] = tenors[k]
            args = (spread, recovery, pay_t, tenors, zeros, knots + [tenors[k]], hazards)
            lo, hi = torch.zeros(()), torch.tensor(0.05)
            if self.leg_gap(lo, *args) > 0.0:
                status = torch.tensor(1)  # would need a negative hazard: inverted curve
                break
            while self.leg_gap(hi, *args) < 0.0 and hi < self.max_hazard:
                hi = hi * 2.0
            it = 0
            while hi - lo > self.tol and it < self.max_bisect:
                mid = 0.5 * (lo + hi)
                if self.leg_gap(mid, *args) > 0.0:
                    hi = mid
                else:
                    lo = mid
                it += 1
            hazards.append(0.5 * (lo + hi))
            knots.append(tenors[k])

        if len(hazards) == 0:
            return torch.zeros(n), torch.ones(n), status
        lam = torch.stack(hazards)
        if lam.shape[0] < n:  # unresolved tenors keep the last good hazard
            lam = torch.cat([lam, lam[-1:].expand(n - lam.shape[0])])
        surv = self.survival(tenors, list(tenors), list(lam))
        return lam, surv, status


def model():
    torch.manual_seed(5914)
    return HazardBootstrapper().eval()


def make_quotes(tenors, spreads, zeros, recovery=0.4):
    f = lambda v: torch.tensor(v, dtype=torch.float32)  # noqa: E731
    return f(spreads), f(tenors), f(zeros), f(recovery)


def example_inputs():
    # investment-grade name, upward sloping CDS curve
    return make_quotes([1.0, 2.0, 3.0, 5.0, 7.0], [45.0, 60.0, 75.0, 98.0, 112.0],
                       [0.035, 0.036, 0.037, 0.039, 0.040])


def dynamic_shapes():
    t = torch.export.Dim("tenors", min=2, max=8)
    return ({0: t}, {0: t}, {0: t}, None)


def verify_inputs():
    ex = example_inputs()
    # 2 tenors, distressed name: 2500 bp -> hazard bracket doubled several times
    distressed = make_quotes([0.5, 1.0], [2500.0, 2200.0], [0.05, 0.05], recovery=0.25)
    # 8 tenors, steeply inverted beyond 3y -> negative forward hazard, stops
    inverted = make_quotes([0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 10.0],
                           [300.0, 280.0, 260.0, 250.0, 60.0, 50.0, 45.0, 40.0],
                           [0.02, 0.021, 0.022, 0.023, 0.024, 0.025, 0.026, 0.027])
    # stale quote feed: a zero spread on the first pillar -> nothing bootstrapped
    stale = make_quotes([1.0, 3.0, 5.0], [0.0, 80.0, 100.0], [0.03, 0.031, 0.032])
    return [ex, distressed, inverted, stale]
